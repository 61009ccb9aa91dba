import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
	copyFileSync,
	existsSync,
	openSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
	unlinkSync,
	writeSync,
	closeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { adapters, config, failOnError, randomRaces } from './helpers.js';

/**
 * damage to the SQLite store is noticed. A database deleted or replaced under a running process
 * refuses the next write instead of acknowledging it into an unlinked file; at start, a missing database where one
 * existed, a replaced one, or a corrupt one is refused with a one-line message, and nothing is created.
 */

const { dir, cleanup } = adapters();
afterAll(cleanup);
let files = 0;
const freshFile = () => join(dir, `integrity-${files++}.sqlite`);
const races = randomRaces(9, 40);

/** A store at `file` with one league of `n` races. */
async function leagueWithRaces(file: string, n: number): Promise<{ repo: LeagueRepository; id: string }> {
	const repo = createLeagueRepository(await openSqliteStore(file, failOnError));
	const { id } = await repo.createLeague(config('Main'), 'test');
	for (const race of races.slice(0, n)) await repo.appendEvent(id, { type: 'race-submitted', race, by: 'test' });
	return { repo, id };
}

/** Overwrite `bytes` bytes of `file` at `offset` with a pattern no SQLite page has. */
function scribble(file: string, offset: number, bytes: number): void {
	const fd = openSync(file, 'r+');
	writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, offset);
	closeSync(fd);
}

const oneLine = (error: unknown) => {
	expect(error).toBeInstanceOf(Error);
	expect((error as Error).name).toBe('StoreIntegrityError');
	expect((error as Error).message).not.toContain('\n');
	return (error as Error).message;
};

const openError = (file: string) =>
	openSqliteStore(file, failOnError).then(
		() => undefined,
		(error: unknown) => error,
	);

describe('a database deleted or replaced under a running process', () => {
	it('refuses the next race instead of acknowledging it, and saves what it held', async () => {
		const file = freshFile();
		const { repo, id } = await leagueWithRaces(file, 5);
		unlinkSync(file); // `rm data/pitwall.sqlite` while the bot runs
		const refused = await repo.appendEvent(id, { type: 'race-submitted', race: races[5]!, by: 'test' }).then(
			() => undefined,
			(error: unknown) => error,
		);
		expect(oneLine(refused)).toMatch(
			/^the database .*integrity-\d+\.sqlite was deleted while pitwall was running: nothing more is stored; what this process held was saved to (.*\.rescued-\S+);/,
		);
		// Refused from then on, reads too.
		await expect(repo.loadState(id)).rejects.toThrow(/was deleted while pitwall was running/);
		await repo.close();
		// The rescued copy is the same store, whole: restored in place, it opens with its 5 races.
		const rescued = /saved to (\S+);/.exec((refused as Error).message)![1]!;
		expect(existsSync(rescued)).toBe(true);
		copyFileSync(rescued, file);
		const restored = createLeagueRepository(await openSqliteStore(file, failOnError));
		expect((await restored.loadState(id)).races()).toHaveLength(5);
		await restored.close();
	});

	it('refuses writes when another file is moved over it', async () => {
		const file = freshFile();
		const { repo, id } = await leagueWithRaces(file, 3);
		const other = freshFile();
		await (await leagueWithRaces(other, 1)).repo.close();
		renameSync(other, file);
		await expect(repo.appendEvent(id, { type: 'race-submitted', race: races[3]!, by: 'test' })).rejects.toThrow(
			/was replaced by another file while pitwall was running: nothing more is stored/,
		);
		await repo.close();
	});
});

describe('the store at start', () => {
	it('a deleted database is refused, not silently recreated; deleting the marker starts an empty store', async () => {
		const file = freshFile();
		await (await leagueWithRaces(file, 2)).repo.close();
		const id = readFileSync(`${file}.id`, 'utf8').trim();
		rmSync(file);
		const message = oneLine(await openError(file));
		expect(message).toBe(
			`the database ${file} is missing, but ${file}.id says store ${id} was there: nothing was created; restore it ` +
				`from a backup (see "Backup and restore" in README.md / docs/storage.md), or delete ${file}.id to start an empty store`,
		);
		expect(existsSync(file)).toBe(false);
		rmSync(`${file}.id`);
		const fresh = createLeagueRepository(await openSqliteStore(file, failOnError));
		expect(await fresh.listLeagues('g1')).toEqual([]);
		await fresh.close();
		expect(readFileSync(`${file}.id`, 'utf8').trim()).not.toBe(id);
	});

	it('another store copied over the file is refused (its store id is not the marker’s)', async () => {
		const file = freshFile();
		const other = freshFile();
		await (await leagueWithRaces(file, 1)).repo.close();
		await (await leagueWithRaces(other, 2)).repo.close();
		copyFileSync(other, file);
		expect(oneLine(await openError(file))).toMatch(
			/holds store \S+, but .*\.id says store \S+ was there: the file was replaced/,
		);
	});

	it('a store written by an older version (no id, no marker) gets both and opens as before', async () => {
		const file = freshFile();
		await (await leagueWithRaces(file, 2)).repo.close();
		rmSync(`${file}.id`);
		const store = await openSqliteStore(file, failOnError);
		expect(readFileSync(`${file}.id`, 'utf8').trim()).toBe(store.id);
		await store.close();
	});

	it('a file overwritten with junk is a one-line message, not a raw SQLITE_NOTADB', async () => {
		const file = freshFile();
		await (await leagueWithRaces(file, 2)).repo.close();
		scribble(file, 0, 100); // the header
		expect(oneLine(await openError(file))).toMatch(
			/^the database .* is damaged \(SQLITE_NOTADB\): pitwall will not open it; restore it from a backup/,
		);
	});

	it('pages overwritten in the middle of the file are found by quick_check', async () => {
		const file = freshFile();
		await (await leagueWithRaces(file, 40)).repo.close();
		scribble(file, 4096 * 2, 4096 * 3); // three pages past the schema
		expect(oneLine(await openError(file))).toMatch(
			/^the database .* is damaged \((SQLITE_CORRUPT|quick_check: .*)\): pitwall will not open it/,
		);
	});
});

describe('the WAL overwritten (a copy taken while the store is open, before any checkpoint)', () => {
	it('is refused when what it lost includes the store id, with a one-line message', async () => {
		const file = freshFile();
		const { repo } = await leagueWithRaces(file, 10); // everything since the creation is still in the WAL
		const copy = freshFile();
		for (const suffix of ['', '-wal', '.id']) copyFileSync(`${file}${suffix}`, `${copy}${suffix}`);
		await repo.close();
		scribble(`${copy}-wal`, 0, statSync(`${copy}-wal`).size);
		expect(oneLine(await openError(copy))).toMatch(
			/has no store id, but .*\.id says store \S+ was there: the file was replaced or emptied/,
		);
	});
});

describe('npm start on a damaged store', () => {
	it('prints one line saying what is wrong and exits 3, with no stack trace', async () => {
		const file = freshFile();
		await (await leagueWithRaces(file, 2)).repo.close();
		scribble(file, 0, 100);
		const root = join(import.meta.dirname, '..', '..');
		const env: NodeJS.ProcessEnv = { ...process.env, STORE_URL: `sqlite://${file}`, NODE_ENV: 'test' };
		for (const key of ['DISCORD_TOKEN', 'DISCORD_APP_ID', 'LOG_LEVEL']) delete env[key];
		// The console (no token): the same store, opened by src/index.ts as `npm start` runs it, in an empty directory.
		const child = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'src', 'index.ts')], {
			cwd: dir,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const [code] = (await once(child, 'exit')) as [number];
		expect(code).toBe(3);
		const lines = stderr.trim().split('\n');
		expect(lines.at(-1)).toBe(
			`pitwall: the database ${file} is damaged (SQLITE_NOTADB): pitwall will not open it; restore it from a backup ` +
				'(see "Backup and restore" in README.md / docs/storage.md)',
		);
		expect(stderr).not.toMatch(/^\s+at /m);
	}, 60_000);
});
