import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFaultChild, type FaultChild } from './store-faults-driver.js';

/**
 * A SQLite database made read-only while the bot runs (`chattr +i` on the file, its -wal, its -shm and the folder).
 * SQLite maps the -shm file (the WAL index) into memory and writes to it on every transaction, reads included; the
 * kernel refuses a write fault on an immutable file's page with SIGBUS, so the process died at its next operation.
 * The store must refuse writes with a clear message, keep answering reads, and write again once the files are.
 * Run in a child process, so a SIGBUS is the child's exit, named in the failure.
 */

const dir = mkdtempSync(join(tmpdir(), 'pitwall-read-only-'));
const immutable: string[] = [];
const chattr = (flag: '+i' | '-i', paths: string[]) => execFileSync('chattr', [flag, ...paths], { stdio: 'pipe' });
afterAll(() => {
	if (immutable.length > 0) chattr('-i', immutable);
	rmSync(dir, { recursive: true, force: true });
});

/** Why `chattr +i` cannot be used here (not root, a file system without the flag, no chattr), or undefined. */
function chattrUnavailable(): string | undefined {
	const probe = join(dir, 'probe');
	writeFileSync(probe, '');
	try {
		chattr('+i', [probe]);
		chattr('-i', [probe]);
		return undefined;
	} catch (error) {
		return `chattr +i is not available here (${(error as Error).message.split('\n')[0]}): needs root and ext4/xfs/btrfs`;
	} finally {
		rmSync(probe, { force: true });
	}
}
const unavailable = chattrUnavailable();

describe('a SQLite store made read-only under a running process', () => {
	it.skipIf(unavailable !== undefined)(
		`refuses writes, keeps answering reads, and writes again once writable${unavailable ? ` (skipped: ${unavailable})` : ''}`,
		async () => {
			const folder = join(dir, 'data');
			const file = join(folder, 'pitwall.sqlite');
			let child: FaultChild | undefined;
			try {
				child = await startFaultChild({ kind: 'sqlite', path: file }, 12);
				const before = await child.ask('read');
				expect(before).toMatchObject({ ok: true, seq: 12 });
				immutable.push(file, `${file}-wal`, `${file}-shm`, folder);
				chattr('+i', immutable);

				const write = await child.ask('write');
				expect(write).toMatchObject({ ok: false, error: 'StoreReadOnlyError' });
				expect(write.message).toMatch(/^The store is read-only: nothing was stored\. /);
				// Reads answer what was stored, both the warm view and the log read again from the store.
				expect(await child.ask('read')).toEqual({ ...before, ms: expect.any(Number) as number });
				expect(await child.ask('fresh')).toMatchObject({ ok: true, seq: 12 });
				expect(await child.ask('write')).toMatchObject({ ok: false, error: 'StoreReadOnlyError' });
				const logged = (await child.ask('logged')).logged!;
				expect(logged.filter((line) => /read-only/.test(line))).toHaveLength(1); // once, not per write

				chattr('-i', immutable.splice(0));
				expect(await child.ask('write')).toMatchObject({ ok: true, seq: 13 });
				expect(await child.ask('fresh')).toMatchObject({ ok: true, seq: 13 });
				expect(await child.ask('close')).toMatchObject({ ok: true });
			} finally {
				if (immutable.length > 0) chattr('-i', immutable.splice(0));
				await child?.stop();
			}
			// Nothing half-stored: a fresh process reads the 13 events.
			const again = await startFaultChild({ kind: 'sqlite', path: file }, 0);
			try {
				expect(again.ready).toBe(13);
			} finally {
				await again.stop();
			}
		},
	);
});
