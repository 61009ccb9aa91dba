import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_LEAGUE_FILE } from '../../src/console/sample-league.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { adapters, failOnError } from './helpers.js';

/**
 * league creation across processes, with real processes on one SQLite file
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
	/**
	 * Resolves on the line `text` (`ready`, `seeding`); rejects, with the worker's stderr, if it exits without printing
	 * it. (A worker that died before `ready` used to leave this waiting until the test's timeout, its error unseen.)
	 */
	line(text: string): Promise<void>;
	/** What the worker printed so far and its stderr: where it stands, for a test that waits too long. */
	state(): string;
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
	child.stdin.on('error', () => {}); // `go` to a worker that already died: its exit reports it
	const exited = new Promise<NodeJS.Signals | null>((resolve) =>
		// 'close', not 'exit': its stdout and stderr are then read to the end.
		child.on('close', (_code, signal) => {
			children.delete(child);
			resolve(signal);
		}),
	);
	const state = () =>
		`worker ${args.join(' ')} (pid ${child.pid}) printed ${JSON.stringify(stdout)}; stderr ${JSON.stringify(stderr)}`;
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
			new Promise((resolve, reject) => {
				if (stdout.split('\n').includes(text)) resolve();
				else waiting.push({ text, resolve });
				void exited.then((signal) => {
					if (!stdout.split('\n').includes(text))
						reject(new Error(`exited (${signal}) before printing "${text}": ${state()}`));
				});
			}),
		state,
		go: () => child.stdin.end('go\n'),
		result,
		exited,
	};
}

/** Longer than any run seen (about 10 s alone, 130 s with 12 of them on two busy cores), shorter than a test's timeout. */
const WORKERS_MS = 100_000;

/**
 * Start workers, let them open the store, then set them off together. Workers still running after WORKERS_MS fail the
 * test with what each printed (how far it got) and its stderr, rather than a bare timeout.
 */
async function together(...workers: Worker[]): Promise<Record<string, unknown>[]> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() =>
				reject(new Error(`workers still running after ${WORKERS_MS} ms: ${workers.map((w) => w.state()).join('; ')}`)),
			WORKERS_MS,
		);
	});
	try {
		return await Promise.race([
			late,
			(async () => {
				await Promise.all(workers.map((w) => w.line('ready')));
				for (const w of workers) w.go();
				return Promise.all(workers.map((w) => w.result));
			})(),
		]);
	} finally {
		clearTimeout(timer);
	}
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
	it('a worker that dies before it is ready fails the wait at once, with its error (not the test timeout)', async () => {
		// A store path under a regular file: the worker cannot open it and exits before printing `ready`.
		const blocker = freshFile();
		writeFileSync(blocker, 'not a folder');
		const started = performance.now();
		await expect(together(startWorker('seed', join(blocker, 'store.sqlite')))).rejects.toThrow(
			/exited \(null\) before printing "ready".*ENOTDIR/s,
		);
		expect(performance.now() - started).toBeLessThan(WORKERS_MS);
	}, 60_000);

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
