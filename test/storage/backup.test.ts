import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/league/race-log.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { adapters, failOnError } from './helpers.js';

/**
 * `npm run backup` (scripts/backup.ts) copies the SQLite store while another process writes to it,
 * and the documented restore (docs/storage.md, "Backup and restore") gives back a store whose ratings equal the
 * original's at the backup's point. The writer is crash-writer.ts (submissions, voids, edits as fast as it can).
 */

const { dir, cleanup } = adapters();
const root = join(import.meta.dirname, '..', '..');
let writer: ChildProcess | undefined;
afterAll(async () => {
	writer?.kill('SIGKILL');
	await cleanup();
});

/** `npm run backup -- --to <to>` on STORE_URL=sqlite://<from>; its exit code and output. */
async function runBackup(from: string, to: string): Promise<{ code: number; out: string }> {
	const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'scripts', 'backup.ts'), '--to', to], {
		cwd: dir,
		env: { ...process.env, STORE_URL: `sqlite://${from}` },
	});
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
	const [code] = (await once(child, 'exit')) as [number];
	return { code, out };
}

/** The docs' restore: with pitwall stopped, the backup copied over the database, its -wal and -shm removed. */
function restore(backup: string, file: string): void {
	for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
	copyFileSync(backup, file);
}

const open = async (file: string) => createLeagueRepository(await openSqliteStore(file, failOnError));

/** The players' ratings of `system` in a store, as JSON (exact doubles). */
const ratings = async (repo: LeagueRepository, system: string) =>
	JSON.stringify((await repo.ratingsAt('g1.main', system)).snapshot.players);

describe('npm run backup and the restore', () => {
	it('a backup taken while another process writes restores to the original at that point, ratings equal', async () => {
		const live = join(dir, 'live.sqlite');
		const writing = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				join(import.meta.dirname, 'crash-writer.ts'),
				JSON.stringify({ kind: 'sqlite', path: live }),
				'5',
			],
			{
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		writer = writing;
		await new Promise<void>((resolve) =>
			writing.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('acked') && resolve()),
		);
		await new Promise((resolve) => setTimeout(resolve, 500)); // the writer is in full flow
		const during = await runBackup(live, join(dir, 'during.sqlite'));
		expect(during.code, during.out).toBe(0);
		expect(during.out).toMatch(
			/^pitwall backup: store \S+ \(.*live\.sqlite\) copied to .*during\.sqlite: \d+ events, [\d.]+ MB, quick_check ok/,
		);
		await new Promise((resolve) => setTimeout(resolve, 300)); // more writes after the backup
		writing.kill('SIGKILL');
		await once(writing, 'exit');

		const original = await open(live);
		const all = await original.readEvents('g1.main');
		// Restored in a new place (a new machine): the backup alone, no marker beside it.
		const elsewhere = join(dir, 'elsewhere.sqlite');
		restore(join(dir, 'during.sqlite'), elsewhere);
		const restored = await open(elsewhere);
		const kept = await restored.readEvents('g1.main');
		expect(kept.length).toBeGreaterThan(10);
		expect(kept.length).toBeLessThan(all.length); // the writer went on after the backup
		expect(kept).toEqual(all.slice(0, kept.length)); // a prefix of the log: every commit before the copy, whole
		const races = foldEvents(kept)
			.ratedRaces()
			.map((r) => r.race);
		for (const id of ['glicko', 'folyami']) {
			const system = getSystem(id);
			const atThatPoint = replayHistory(system, system.params(), races);
			expect(await ratings(restored, id)).toBe(JSON.stringify(atThatPoint.snapshot().players));
		}
		await restored.close();

		// Once the writer stopped, a backup restored in place equals the original exactly.
		const after = await runBackup(live, join(dir, 'after.sqlite'));
		expect(after.code, after.out).toBe(0);
		const before = { glicko: await ratings(original, 'glicko'), folyami: await ratings(original, 'folyami') };
		await original.close();
		restore(join(dir, 'after.sqlite'), live);
		expect(existsSync(`${live}.id`)).toBe(true); // the marker stays, and the backup carries the same store id
		const back = await open(live);
		expect(await back.readEvents('g1.main')).toEqual(all);
		expect({ glicko: await ratings(back, 'glicko'), folyami: await ratings(back, 'folyami') }).toEqual(before);
		await back.close();
	}, 120_000);
});
