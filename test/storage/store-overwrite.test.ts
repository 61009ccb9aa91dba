import { randomBytes } from 'node:crypto';
import {
	closeSync,
	copyFileSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { backupSqliteStore } from '../../src/storage/sqlite-backup.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { config, failOnError, randomRaces } from './helpers.js';
import { startFaultChild, type ChildAnswer, type FaultChild } from './store-faults-driver.js';

/**
 * The SQLite database or its WAL overwritten in place (same inode, so the device + inode check passes) while the bot
 * runs. Before, the bot went on acknowledging races into it and the whole store was unreadable afterwards. Now the
 * next write is refused with the store-integrity message, every write after it too, and what the process still held
 * is saved; normal running (checkpoints, a second process writing, a backup) never trips it. The store runs in a child
 * process, as the bot would, and the test does the overwriting from outside.
 */

const dir = mkdtempSync(join(tmpdir(), 'pitwall-overwrite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `store-${files++}`, 'pitwall.sqlite');
/** Enough races that a checkpoint has run: the database file holds pages the WAL does not. */
const FIRST = 160;

/** Writes `bytes` at `offset` into `file` without truncating it (`dd conv=notrunc`), keeping its inode. */
function overwrite(file: string, bytes: Buffer, offset = 0): void {
	const inode = statSync(file).ino;
	const fd = openSync(file, 'r+');
	try {
		writeSync(fd, bytes, 0, bytes.length, offset);
	} finally {
		closeSync(fd);
	}
	expect(statSync(file).ino).toBe(inode);
}

/** The WAL's checkpoint sequence number (bytes 12..16 of its header): how many times it was restarted. */
const walRestarts = (file: string) => readFileSync(`${file}-wal`).readUInt32BE(12);

/** The events a copy holds, opened as the bot would open it (restored to a new place). */
async function eventsIn(copy: string): Promise<number> {
	const to = join(mkdtempSync(join(dir, 'restored-')), 'pitwall.sqlite');
	copyFileSync(copy, to);
	const repo = createLeagueRepository(await openSqliteStore(to, failOnError));
	try {
		return (await repo.loadState('g1.main')).seq();
	} finally {
		await repo.close();
	}
}

const refusal = (answer: ChildAnswer) => {
	expect(answer).toMatchObject({ ok: false, error: 'StoreIntegrityError' });
	expect(answer.message).toMatch(
		/^the database .*pitwall\.sqlite was overwritten in place \(.+\) while pitwall was running: nothing more is stored; what this process held was saved to \S+; stop pitwall and restore \(see "Backup and restore"/,
	);
	return answer.message!;
};

/**
 * A child with FIRST races and a few more, the files damaged by `damage`, then three more writes: the first is
 * refused, and so is every one after it. Returns the refusal and the last acknowledged seq.
 */
async function damagedWhileRunning(file: string, damage: () => void): Promise<{ message: string; acked: number }> {
	let child: FaultChild | undefined;
	try {
		child = await startFaultChild({ kind: 'sqlite', path: file }, FIRST);
		let acked = child.ready;
		for (let i = 0; i < 3; i++) acked = (await child.ask('write')).seq!;
		expect(walRestarts(file)).toBeGreaterThan(0);
		damage();
		const message = refusal(await child.ask('write'));
		refusal(await child.ask('write'));
		expect((await child.ask('fresh')).error).toBe('StoreIntegrityError'); // reads too
		refusal(await child.ask('write'));
		return { message, acked };
	} finally {
		await child?.stop();
	}
}

describe('a SQLite store overwritten in place while running', () => {
	it('random bytes over the whole database file: the next race is refused, and the rescued copy holds every acknowledged one', async () => {
		const file = freshFile();
		const { message, acked } = await damagedWhileRunning(file, () => overwrite(file, randomBytes(statSync(file).size)));
		expect(message).toContain('(its header is not a SQLite header any more)');
		expect(await eventsIn(/saved to (\S+);/.exec(message)![1]!)).toBe(acked);
	});

	it('pages in the middle of the database file overwritten, its header intact: refused', async () => {
		const file = freshFile();
		const { message } = await damagedWhileRunning(file, () => {
			const pageSize = readFileSync(file).readUInt16BE(16);
			overwrite(file, randomBytes(pageSize * 3), pageSize * 2);
		});
		expect(message).toContain('(the database file was written outside a checkpoint)');
	});

	it('another SQLite database copied over it in place (cp onto the path): refused', async () => {
		const other = freshFile();
		const repo = createLeagueRepository(await openSqliteStore(other, failOnError));
		const { id } = await repo.createLeague(config('Main'), 'test');
		for (const race of randomRaces(5, 30)) await repo.appendEvent(id, { type: 'race-submitted', race, by: 'test' });
		await repo.close();
		const file = freshFile();
		await damagedWhileRunning(file, () => {
			const inode = statSync(file).ino;
			writeFileSync(file, readFileSync(other)); // as cp does: truncated and written, the same inode
			expect(statSync(file).ino).toBe(inode);
		});
	});

	it('random bytes over the whole WAL: refused, and the rescued copy holds every acknowledged race', async () => {
		const file = freshFile();
		const { message, acked } = await damagedWhileRunning(file, () =>
			overwrite(`${file}-wal`, randomBytes(statSync(`${file}-wal`).size)),
		);
		expect(message).toContain('(the -wal header is not a SQLite WAL header any more)');
		expect(await eventsIn(/saved to (\S+);/.exec(message)![1]!)).toBe(acked);
	});

	it('the WAL overwritten past its header (the frames our writes appended): refused', async () => {
		const file = freshFile();
		const { message } = await damagedWhileRunning(file, () => {
			const wal = `${file}-wal`;
			overwrite(wal, randomBytes(statSync(wal).size - 32), 32);
		});
		expect(message).toContain('(the last frame of the -wal is not the one SQLite wrote)');
	});
});

describe('a SQLite store running normally', () => {
	it('two processes appending through many checkpoints, and a backup meanwhile, never trip the check', async () => {
		const file = freshFile();
		let a: FaultChild | undefined;
		let b: FaultChild | undefined;
		try {
			a = await startFaultChild({ kind: 'sqlite', path: file }, 0);
			b = await startFaultChild({ kind: 'sqlite', path: file }, 0);
			const seqs: number[] = [];
			const writes = async (child: FaultChild, n: number) => {
				for (let i = 0; i < n; i++) {
					const answer = await child.ask('write');
					expect(answer).toMatchObject({ ok: true });
					seqs.push(answer.seq!);
				}
			};
			await Promise.all([writes(a, 100), writes(b, 100)]);
			const backup = await backupSqliteStore(file, join(dir, 'backup.sqlite'));
			await Promise.all([writes(a, 100), writes(b, 100)]);
			expect(backup.events).toBeGreaterThan(200);
			expect(new Set(seqs).size).toBe(400);
			expect(walRestarts(file)).toBeGreaterThanOrEqual(3); // the WAL was checkpointed and restarted, repeatedly
			expect(await a.ask('fresh')).toMatchObject({ ok: true, seq: 400 });
			expect(await b.ask('fresh')).toMatchObject({ ok: true, seq: 400 });
			expect(await a.ask('close')).toMatchObject({ ok: true });
			expect(await b.ask('close')).toMatchObject({ ok: true });
		} finally {
			await a?.stop();
			await b?.stop();
		}
	});
});
