/**
 * Reads while a stored change's ratings are replayed (a void of an early race replays every system over the whole
 * history: seconds in a long league): they answer at once from the ratings before the change and name it, rather
 * than wait behind the replay; writes still wait their turn; once the replay is over, reads show the new ratings.
 */
import { describe, expect, it } from 'vitest';
import { READ_WAIT_MS, unlessLong } from '../../src/services/caches/cache-wait.js';
import { createChangeCache } from '../../src/services/caches/change-cache.js';
import { createHistoryCache } from '../../src/services/caches/history-cache.js';
import { createLeagueService } from '../../src/services/leagues/league-service.js';
import { createRatingService } from '../../src/services/ratings/rating-service.js';
import { gatedSnapshots, within } from '../support/gated-snapshots.js';
import { addRace, member, organizer, world } from './helpers.js';

/**
 * A league of three races whose rating snapshots wait at a gate: with a snapshot every 2 races, a void of R1 replays R2
 * and R3, writes one, and waits there while the gate is closed.
 */
async function threeRaces() {
	const gate = gatedSnapshots();
	const w = world(gate.store, { repo: { ratingEvery: 2 } });
	await w.services.leagues.create(organizer, { name: 'Cup' });
	await addRace(w, '1. Alice\n2. Bob\n3. Carol');
	await addRace(w, '1. Bob\n2. Alice\n3. Carol');
	await addRace(w, '1. Carol\n2. Bob\n3. Alice');
	return { gate, w };
}

describe('reads during a replay', () => {
	it('answer from the ratings before a void, saying so, while the void replays; a write waits for it', async () => {
		const { gate, w } = await threeRaces();
		const before = await w.services.ratings.rating(member, { player: 'Alice' });
		const boardBefore = await w.services.leaderboard.page(member, {});
		expect(before.summary?.races).toBe(3);
		expect(before.recomputing).toBeUndefined();

		gate.close();
		const voiding = w.services.races.void(organizer, 'R1', 'duplicate');
		await gate.entered; // R1 is voided in the log; the ratings are being replayed
		let renamed = false;
		const renaming = w.services.players
			.rename(organizer, { player: 'Bob', name: 'Robert' })
			.then(() => (renamed = true));

		const during = await within(2000, w.services.ratings.rating(member, { player: 'Alice' }));
		expect(during.recomputing).toMatchObject({ type: 'race-voided', race: 'R1' });
		expect(during.summary).toEqual(before.summary); // 3 races: R1 still counts in these
		expect(during.rank).toBe(before.rank);
		const board = await within(2000, w.services.leaderboard.page(member, {}));
		expect(board.recomputing).toMatchObject({ type: 'race-voided', race: 'R1' });
		expect(board.rows.map((r) => [r.name, r.rating])).toEqual(boardBefore.rows.map((r) => [r.name, r.rating]));
		const odds = await within(2000, w.services.odds.odds(member, { players: 'Alice, Bob' }));
		expect(odds.recomputing).toMatchObject({ type: 'race-voided', race: 'R1' });
		expect(renamed).toBe(false); // writes still run one at a time

		gate.open();
		await voiding;
		await renaming;
		const after = await w.services.ratings.rating(member, { player: 'Alice' });
		expect(after.recomputing).toBeUndefined();
		expect(after.summary?.races).toBe(2);
		expect(after.summary?.rating).not.toBe(before.summary?.rating);
		const boardAfter = await w.services.leaderboard.page(member, {});
		expect(boardAfter.recomputing).toBeUndefined();
		expect(boardAfter.rows.map((r) => r.name)).toContain('Robert');
	});

	it('do not wait for the caches replaying behind the change: the answer is already from before it', async () => {
		const { gate, w } = await threeRaces();
		// Caches whose long replay never ends: a read with a wait gives up on them after that wait.
		const endless = new Promise<never>(() => {});
		const changes = {
			...createChangeCache(w.repo),
			player: (...[, , , options]: Parameters<ReturnType<typeof createChangeCache>['player']>) =>
				unlessLong(endless, options?.waitMs, () => true).then(() => ({ pending: true as const })),
		};
		const histories = {
			...createHistoryCache(w.repo),
			historiesUnlessLong: (
				...[, , , waitMs]: Parameters<ReturnType<typeof createHistoryCache>['historiesUnlessLong']>
			) => unlessLong(endless, waitMs, () => true).then(() => undefined),
		};
		const clock = () => new Date(w.now.ms);
		const ratings = createRatingService(w.repo, createLeagueService(w.repo, { clock }), clock, changes, histories);

		const started = performance.now();
		const quiet = await ratings.rating(member, { player: 'Alice', chart: true });
		expect(performance.now() - started).toBeGreaterThanOrEqual(READ_WAIT_MS - 50); // no change: it waits
		expect(quiet.preparing).toEqual(['last race', 'chart']);

		gate.close();
		const voiding = w.services.races.void(organizer, 'R1', 'duplicate');
		await gate.entered;
		const during = await within(READ_WAIT_MS / 3, ratings.rating(member, { player: 'Alice', chart: true }));
		expect(during.recomputing).toMatchObject({ type: 'race-voided', race: 'R1' });
		expect(during.summary).toEqual(quiet.summary);
		expect(during.preparing).toEqual(['last race', 'chart']);
		gate.open();
		await voiding;
	});
});
