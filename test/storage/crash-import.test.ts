import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/league/race-log.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { adapters, skipUnavailable } from './helpers.js';
import type { StoreSpec } from './store-spec.js';
import { mulberry32 } from '../support/mulberry32.js';

/** a crash mid-import leaves either none of it or all of it. */

const { list, cleanup } = adapters();
const shared = list.filter((adapter) => adapter.spec !== undefined);
afterAll(cleanup);
const writer = join(import.meta.dirname, 'crash-import-writer.ts');
const IMPORT_SIZE = 300; // as crash-import-writer.ts writes

/** Start the writer; SIGKILL it `ms` after it announces its `nth` import (so kills land in and around the write). */
function runAndKill(spec: StoreSpec, seed: number, nth: number, ms: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', writer, JSON.stringify(spec), String(seed)], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stderr = '';
		let seen = 0;
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.stdout.on('data', (chunk: Buffer) => {
			seen += chunk.toString().split('importing').length - 1;
			if (seen === nth) setTimeout(() => child.kill('SIGKILL'), ms);
		});
		child.on('exit', (code, signal) => {
			if (signal === 'SIGKILL') resolve();
			else reject(new Error(`writer exited with ${code}: ${stderr}`));
		});
	});
}

describe.each(shared)('crash safety of /league import ($name, SIGKILL during imports)', (adapter) => {
	skipUnavailable(adapter);

	it('every league holds its whole import or none of it, and its ratings equal a fresh replay', async () => {
		const spec = adapter.spec!('crash-import');
		const random = mulberry32(808);
		const outcomes = { whole: 0, none: 0 };
		// From at once (while the batch is validated) to well after the write (while it is rated).
		for (const [round, ms] of [0, 1, 3, 6, 12, 25, 60].entries()) {
			await runAndKill(spec, round + 1, 1 + Math.floor(random() * 2), ms);
			const repo = createLeagueRepository(await adapter.open('crash-import'), { ratingEvery: 50, stateEvery: 7 });
			const leagues = await repo.listLeagues('g1');
			expect(leagues.length).toBeGreaterThan(0);
			for (const league of leagues) {
				const events = await repo.readEvents(league.id);
				const state = await repo.loadState(league.id);
				if (events.length === 1) {
					outcomes.none++;
					expect(state.races()).toEqual([]);
					continue;
				}
				outcomes.whole++;
				expect(events.map((e) => e.type)).toEqual(['league-configured', 'league-imported']);
				expect(state.races()).toHaveLength(IMPORT_SIZE);
				const fresh = foldEvents(events);
				expect(state.snapshot()).toEqual(fresh.snapshot());
				const system = getSystem('glicko');
				const full = replayHistory(
					system,
					system.params(),
					fresh.ratedRaces().map((r) => r.race),
				);
				expect(JSON.stringify((await repo.ratingsAt(league.id, 'glicko')).snapshot.players)).toBe(
					JSON.stringify(full.snapshot().players),
				);
			}
			await repo.close();
		}
		// Both outcomes happened: kills landed before and after imports were stored.
		expect(outcomes.whole).toBeGreaterThan(0);
		expect(outcomes.none).toBeGreaterThan(0);
	});
});
