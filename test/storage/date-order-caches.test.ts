/**
 * Caches written when races were rated in confirmation order are not trusted once they are rated in date order
 * (rating-order.ts): a rating index without `order` lists snapshots that are never used (and deleted on the next
 * write), daily standings without it are read as computed before any race, a league-state snapshot without it reads
 * its retro events as changing everything. The log alone decides the numbers.
 */
import { describe, expect, it } from 'vitest';
import { inRatingOrder } from '../../src/league/rating-order.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { dailyToDomain, ratingIndexToDomain } from '../../src/storage/records.js';
import { config, randomRaces } from './helpers.js';

describe('caches from before date order', () => {
	it('an index without order marks its entries legacy; daily standings without it get basis -1', () => {
		expect(ratingIndexToDomain({ v: 1, entries: [{ upTo: 5, basis: 7 }] }, 'i')).toEqual([
			{ upTo: 5, basis: 7, legacy: true },
		]);
		expect(ratingIndexToDomain({ v: 1, order: 'date', entries: [{ upTo: 5, basis: 7 }] }, 'i')).toEqual([
			{ upTo: 5, basis: 7 },
		]);
		const daily = { v: 1, league: 'l', day: '2026-03-01', basis: 9, systems: {} };
		expect(dailyToDomain(daily, 'd').basis).toBe(-1);
		expect(dailyToDomain({ ...daily, order: 'date' }, 'd').basis).toBe(9);
	});

	it('a legacy index is ignored (its snapshots replaced): the ratings are the date-order replay', async () => {
		const store = createMemoryStore();
		const options = { ratingEvery: 3, stateEvery: 4 };
		const repo = createLeagueRepository(store, options);
		const { id } = await repo.createLeague(config(), 'u0');
		const races = randomRaces(31, 14);
		// The last two are make-up races: dated before most of the league.
		races[12] = { ...races[12]!, date: '2024-01-02' };
		races[13] = { ...races[13]!, date: '2024-01-05' };
		for (const race of races) await repo.appendEvent(id, { type: 'race-submitted', race, by: 'u1' });
		const system = getSystem('glicko');
		await repo.ratingsAt(id, system.id);
		// What an older pitwall would have left: the same index without `order`, over snapshots of an empty replay.
		const index = store.namespace('rating-index');
		const snapshots = store.namespace('rating-snapshots');
		const raw = (await index.get(`${id}:glicko`)) as { entries: { upTo: number; basis: number }[] };
		expect(raw.entries.length).toBeGreaterThan(0);
		const empty = { version: 1, system: 'glicko', racesApplied: 0, skipped: [], players: {} };
		for (const e of raw.entries) {
			const key = `${id}:glicko:${e.upTo}`;
			await snapshots.set(key, { ...((await snapshots.get(key)) as object), replay: empty });
		}
		await index.set(`${id}:glicko`, { v: 1, entries: raw.entries });

		const reopened = createLeagueRepository(store, options);
		const log = await reopened.loadState(id);
		const plain: Race[] = log.races().map((r) => ({ id: r.id, date: r.date, entries: r.entries }));
		const expected = replayHistory(system, system.params(), inRatingOrder(plain)).snapshot().players;
		expect((await reopened.ratingsAt(id, system.id)).snapshot.players).toEqual(expected);
		// The index was written again, in date order, listing none of the legacy snapshots' stale records.
		const rewritten = (await index.get(`${id}:glicko`)) as { order?: string; entries: { upTo: number }[] };
		expect(rewritten.order).toBe('date');
		for (const e of rewritten.entries) {
			const snapshot = (await snapshots.get(`${id}:glicko:${e.upTo}`)) as { replay: { racesApplied: number } };
			expect(snapshot.replay.racesApplied).toBeGreaterThan(0);
		}
	});
});
