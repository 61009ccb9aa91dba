import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_LEAGUE_FILE } from '../../src/console/sample-league.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { adapters, failOnError } from './helpers.js';

/**
 * Issue 9 item 5: league creation across processes, with real processes on one SQLite file
 * (league-creation-worker.ts): two first runs seed the sample league once; concurrent creates are all listed; one
 * name is created once; a kill during the sample import leaves none of it or all of it.
 */

const { dir, cleanup } = adapters();
const children = new Set<ChildProcess>();
afterAll(async () => {
	for (const child of children) child.kill('SIGKILL');
	await cleanup();
});
const workerScript = join(import.meta.dirname, 'league-creation-worker.ts');
const SAMPLE_RACES = parseHistoryCsv(readFileSync(SAMPLE_LEAGUE_FILE, 'utf8'), SAMPLE_LEAGUE_FILE).length;
let files = 0;
const freshFile = () => join(dir, `creation-${files++}.sqlite`);

interface Worker {
	readonly child: ChildProcess;
	/** Resolves on the line `text` (`ready`, `seeding`). */
	line(text: string): Promise<void>;
	go(): void;
	/** The JSON printed at the end; rejects when the process fails. */
	readonly result: Promise<Record<string, unknown>>;
	readonly exited: Promise<NodeJS.Signals | null>;
}

function startWorker(...args: string[]): Worker {
	const child = spawn(process.execPath, ['--import', 'tsx', workerScript, ...args], {
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	children.add(child);
	let stdout = '';
	let stderr = '';
	const waiting: { text: string; resolve: () => void }[] = [];
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
		for (const w of waiting) if (stdout.split('\n').includes(w.text)) w.resolve();
	});
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<NodeJS.Signals | null>((resolve) =>
		child.on('exit', (_code, signal) => {
			children.delete(child);
			resolve(signal);
		}),
	);
	const result = exited.then((signal) => {
		const last = stdout.trim().split('\n').at(-1) ?? '';
		if (signal !== null || !last.startsWith('{'))
			throw new Error(`worker ${args.join(' ')} failed (${signal}): ${stderr}`);
		return JSON.parse(last) as Record<string, unknown>;
	});
	result.catch(() => {}); // a killed worker has no result; those who wait on it still see the rejection
	return {
		child,
		line: (text) =>
			new Promise((resolve) => {
				if (stdout.split('\n').includes(text)) resolve();
				else waiting.push({ text, resolve });
			}),
		go: () => child.stdin.end('go\n'),
		result,
		exited,
	};
}

/** Start workers, let them open the store, then set them off together. */
async function together(...workers: Worker[]): Promise<Record<string, unknown>[]> {
	await Promise.all(workers.map((w) => w.line('ready')));
	for (const w of workers) w.go();
	return Promise.all(workers.map((w) => w.result));
}

async function withRepo<T>(file: string, use: (repo: LeagueRepository) => Promise<T>): Promise<T> {
	const repo = createLeagueRepository(await openSqliteStore(file, failOnError));
	try {
		return await use(repo);
	} finally {
		await repo.close();
	}
}

/** Per league of g1: its name and its number of races. */
const leaguesOf = (repo: LeagueRepository) =>
	repo.listLeagues('g1').then((leagues) =>
		Promise.all(
			leagues.map(async (l) => ({
				id: l.id,
				name: l.config.name,
				races: (await repo.loadState(l.id)).races().length,
			})),
		),
	);

describe('league creation across processes (SQLite, two real processes)', () => {
	it('two first runs on one store seed one sample league, whole', async () => {
		expect(SAMPLE_RACES).toBe(293); // data/sample-league.csv, as the issue counts it
		const file = freshFile();
		const outcomes = await together(startWorker('seed', file), startWorker('seed', file));
		const leagues = await withRepo(file, leaguesOf);
		expect(leagues).toEqual([{ id: 'g1.zakstunts', name: 'ZakStunts', races: SAMPLE_RACES }]);
		// One process seeded it; the other found it seeded (or seeding) and imported nothing.
		expect(outcomes.map((o) => o['races']).sort()).toEqual([0, SAMPLE_RACES]);
	}, 120_000);

	it('80 leagues created at once from two processes are all listed', async () => {
		const file = freshFile();
		const outcomes = await together(startWorker('create', file, 'A', '40'), startWorker('create', file, 'B', '40'));
		for (const outcome of outcomes) expect(Object.values(outcome).every((o) => o === 'created')).toBe(true);
		const leagues = await withRepo(file, leaguesOf);
		expect(new Set(leagues.map((l) => l.name)).size).toBe(80);
		expect(leagues).toHaveLength(80);
	}, 120_000);

	it('the same name from two processes is created once; the other is told it exists', async () => {
		const file = freshFile();
		const [a, b] = await together(startWorker('create', file, 'Same', '12'), startWorker('create', file, 'Same', '12'));
		for (let i = 0; i < 12; i++) {
			expect([a![`Same ${i}`], b![`Same ${i}`]].sort()).toEqual(['created', 'exists']);
		}
		await withRepo(file, async (repo) => {
			const leagues = await repo.listLeagues('g1');
			expect(leagues).toHaveLength(12);
			// Nothing replaced the winner's configuration: each league holds its one creation event.
			for (const league of leagues)
				expect((await repo.readEvents(league.id)).map((e) => e.type)).toEqual(['league-configured']);
		});
	}, 120_000);

	it('a SIGKILL during the first-run sample import leaves none of it or all of it, and the restart completes it', async () => {
		const seen = { none: 0, whole: 0 };
		for (const ms of [0, 40, 120, 300, 700, 1500]) {
			const file = freshFile();
			const worker = startWorker('seed', file);
			await worker.line('ready');
			worker.go();
			await worker.line('seeding');
			setTimeout(() => worker.child.kill('SIGKILL'), ms);
			await worker.exited;
			const after = await withRepo(file, leaguesOf);
			const races = after.reduce((sum, l) => sum + l.races, 0);
			expect([0, SAMPLE_RACES], `${ms} ms after the import began: ${races} races`).toContain(races);
			seen[races === 0 ? 'none' : 'whole']++;
			// The restart (the next first run) finds the sample league whole, or seeds it whole.
			await together(startWorker('seed', file));
			expect(await withRepo(file, leaguesOf)).toEqual([{ id: 'g1.zakstunts', name: 'ZakStunts', races: SAMPLE_RACES }]);
		}
		// Kills landed both before the import was stored and after.
		expect(seen.none).toBeGreaterThan(0);
		expect(seen.whole).toBeGreaterThan(0);
	}, 300_000);
});
