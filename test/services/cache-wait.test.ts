/** /rating on a league whose caches have a long replay to run: it answers without their parts, and says so. */
import { describe, expect, it } from 'vitest';
import { preparingNotice } from '../../commands/rating.js';
import { buildBigLeague } from '../../bench/big-league-data.js';
import { createChangeCache } from '../../src/services/caches/change-cache.js';
import { createHistoryCache } from '../../src/services/caches/history-cache.js';
import { createLeagueService } from '../../src/services/leagues/league-service.js';
import { createRatingService } from '../../src/services/ratings/rating-service.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, member, organizer, world } from './helpers.js';

describe('the change cache with a wait', () => {
	it('answers pending while a long replay runs, and the next read gets that replay, not a second one', async () => {
		const store = createMemoryStore();
		// 2,000 races of 20: a replay of many 8 ms slices, far more than the 1 ms waited.
		const id = await buildBigLeague(store, { races: 2_000, racers: 20, players: 300, seed: 3 });
		const repo = createLeagueRepository(store);
		const info = (await repo.getLeague(id))!;
		const driver = (await repo.loadState(id)).resolve('Driver 0001')!.id;
		const reference = await createChangeCache(repo).player(info, 'folyami', driver);
		let replays = 0;
		const counting = {
			...repo,
			loadState: async (...args: Parameters<typeof repo.loadState>) => {
				const log = await repo.loadState(...args);
				return Object.assign(Object.create(log) as typeof log, {
					ratedRacesSince: (basis: number) => {
						const races = log.ratedRacesSince(basis);
						if (races.length > 1) replays++;
						return races;
					},
				});
			},
		};
		// A cache of its own that finds no copy in the store (the reference's cache wrote one): a full replay ahead.
		const cache = createChangeCache({
			...counting,
			readCache: (_, keys) => Promise.resolve(keys.map(() => undefined)),
		});
		expect(await cache.player(info, 'folyami', driver, { waitMs: 1 })).toEqual({ pending: true });
		const after = await cache.player(info, 'folyami', driver);
		expect(after).toEqual(reference);
		expect(after.last).toBeDefined();
		expect(replays).toBe(1);
	});
});

describe('/rating while its caches replay', () => {
	it('gives the rating, leaves out the last race and the chart, and says they are being prepared', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-20');
		await addRace(w, '1. Bob\n2. Ann', undefined, '2026-02-25');
		const whole = await w.services.ratings.rating(member, { player: 'Ann', chart: true });
		expect(whole.preparing).toBeUndefined();
		expect(whole.chart).toBeDefined();
		// Caches still replaying (the long replays of a big league, not waited for).
		const changes = { ...createChangeCache(w.repo), player: () => Promise.resolve({ pending: true as const }) };
		const histories = { ...createHistoryCache(w.repo), historiesUnlessLong: () => Promise.resolve(undefined) };
		const leagues = createLeagueService(w.repo, { clock: () => new Date(w.now.ms) });
		const ratings = createRatingService(w.repo, leagues, () => new Date(w.now.ms), changes, histories);
		const partial = await ratings.rating(member, { player: 'Ann', chart: true });
		expect(partial.summary).toEqual(whole.summary);
		expect(partial.rank).toBe(whole.rank);
		expect(partial.lastChange).toBeUndefined();
		expect(partial.chart).toBeUndefined();
		expect(partial.preparing).toEqual(['last race', 'chart']);
		expect(preparingNotice(partial.preparing)).toBe(
			'⏳ The last race’s explanation and the chart are still being prepared for this league: ask again in a few seconds.',
		);
		expect(preparingNotice(['chart'])).toBe(
			'⏳ The chart is still being prepared for this league: ask again in a few seconds.',
		);
		// Without a chart asked, only the last race is said to be missing.
		expect((await ratings.rating(member, { player: 'Ann' })).preparing).toEqual(['last race']);
	});
});
