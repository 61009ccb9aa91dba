/**
 * The daily standings job at scale: 100 leagues of 1,000 races each (12 of 60 drivers a race, every
 * race system) in the memory store. Prints the job's wall time and the longest event-loop block of each run
 * (perf_hooks.monitorEventLoopDelay; target: under 50 ms at a time): the first run ever (no rating snapshot yet: every
 * league replayed from its log), the first run after a restart (snapshots loaded), a warm run, and a run after 30
 * days of downtime. Run alone with `npx tsx bench/jobs.ts`.
 */
import { measureBlocking } from './timing.js';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LoggedEvent } from '../src/league/league-events.js';
import { addDays } from '../src/league/dates.js';
import { createDailyStandingsService } from '../src/services/ratings/daily-standings.js';
import { appendEvent } from '../src/storage/event-log.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { createMemoryStore } from '../src/storage/memory-store.js';
import type { Store } from '../src/storage/ports.js';
import { mulberry32 } from '../test/support/mulberry32.js';

const LEAGUES = 100;
const RACES = 1_000;
const POOL = 60;
const FIELD = 12;
const FIRST_DAY = '2018-01-01';

export async function buildLeagues(store: Store): Promise<void> {
	const repo = createLeagueRepository(store);
	const events = store.namespace('events');
	const random = mulberry32(7);
	for (let l = 0; l < LEAGUES; l++) {
		const { id } = await repo.createLeague(
			{ guildId: `g${l % 10}`, name: `League ${l}`, headline: 'glicko', params: {}, timezone: 'Europe/Budapest' },
			'bench',
		);
		for (let r = 0; r < RACES; r++) {
			const field = new Set<number>();
			while (field.size < FIELD) field.add(Math.floor(random() * POOL));
			const entries = [...field].map((p, i) => ({
				player: `Driver ${p}`,
				position: i + 1,
				time: 60 + i + random(),
				status: 'finished' as const,
			}));
			const race = { date: addDays(FIRST_DAY, r * 3), mode: 'tt' as const, entries };
			const event: LoggedEvent = { type: 'race-submitted', race, by: 'bench', at: '2026-01-01T00:00:00Z', seq: r + 1 };
			await appendEvent(events, id, event);
		}
	}
}

interface RunFigures {
	ms: number;
	maxBlockMs: number;
	p99Ms: number;
	/** The longest garbage-collection pause during the run: part of any block, and not the job's own work. */
	maxGcMs: number;
}

/** With `--expose-gc` (npm run bench), the garbage of the previous run is collected before a run is timed. */
const collect = (globalThis as { gc?: () => void }).gc;

async function timedRun(run: () => Promise<unknown>): Promise<RunFigures> {
	collect?.();
	return measureBlocking(run);
}

export async function runJobsBench(): Promise<void> {
	console.log(
		`\n== Daily standings job: ${LEAGUES} leagues × ${RACES} races (${FIELD} of ${POOL} drivers), all systems`,
	);
	const store = createMemoryStore();
	await buildLeagues(store);
	const lastRace = addDays(FIRST_DAY, (RACES - 1) * 3);
	const day = (offset: number) => new Date(`${addDays(lastRace, offset)}T12:00:00Z`);
	// The first run ever: no rating snapshot in the store yet, every league is replayed from its log (and the rating
	// keeper writes snapshots as it goes).
	const first = await timedRun(() => createDailyStandingsService(createLeagueRepository(store)).writeDue(day(1)));
	// A restart: a fresh repository over the same store loads each league's latest snapshot.
	const daily = createDailyStandingsService(createLeagueRepository(store));
	const restart = await timedRun(() => daily.writeDue(day(2)));
	const warm = await timedRun(() => daily.writeDue(day(3)));
	const backfill = await timedRun(() => daily.writeDue(day(33)));
	const row = (label: string, r: RunFigures) =>
		console.log(
			`  ${label.padEnd(54)} ${(r.ms / 1000).toFixed(2)} s   longest event-loop block ${r.maxBlockMs.toFixed(1)} ms ` +
				`(p99 ${r.p99Ms.toFixed(1)} ms; longest GC pause ${r.maxGcMs.toFixed(1)} ms)`,
		);
	console.log(`  load average ${os.loadavg()[0]!.toFixed(2)} on ${os.availableParallelism()} cores at the start`);
	row('first run ever (every league replayed from its log)', first);
	row('after a restart (snapshots loaded), the next day', restart);
	row('warm run, the day after', warm);
	row('after 30 days down (30 days filled per league)', backfill);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runJobsBench();
