/**
 * The leaderboard's filter: `/league config min-races: idle-days:` hide one-race typos and long-idle
 * players from /leaderboard and the monthly post's table, ranks counted among the shown; /rating says why.
 */
import { describe, expect, it } from 'vitest';
import { createRankingComposer } from '../../src/services/posts/ranking-composer.js';
import { addRace, eventCount, member, organizer, world } from './helpers.js';

/** Ann and Bob race four times in 2026; Cara three times in 2025 (idle since); "Bbo", a typo, once, winning. */
async function league() {
	const w = world();
	w.now.ms = Date.parse('2026-06-30T12:00:00Z');
	const info = await w.services.leagues.create(organizer, { name: 'Kart' });
	for (const date of ['2025-10-18', '2025-10-25', '2025-11-01'])
		await addRace(w, '1. Cara\n2. Ann\n3. Bob', undefined, date);
	for (const date of ['2026-06-01', '2026-06-08', '2026-06-15', '2026-06-22']) {
		await addRace(w, '1. Ann\n2. Bob', undefined, date);
	}
	await addRace(w, '1. Bbo\n2. Ann\n3. Bob', undefined, '2026-06-29');
	return { w, id: info.id };
}

describe('leaderboard filter', () => {
	it('without settings every rated player is shown; the one-race typo ranks above Ann and Bob', async () => {
		const { w } = await league();
		const board = await w.services.leaderboard.page(member, {});
		expect(board.rows.map((r) => r.name)).toEqual(['Cara', 'Bbo', 'Ann', 'Bob']);
		expect(board).toMatchObject({ total: 4, hidden: 0 });
		expect(board.filter).toBeUndefined();
	});

	it('min-races and idle-days hide players, ranks are counted among the shown, 0 turns each off', async () => {
		const { w } = await league();
		const info = await w.services.leagues.configure(organizer, undefined, { minRaces: 3, idleDays: 180 });
		expect(info.config).toMatchObject({ minRaces: 3, idleDays: 180 });
		const board = await w.services.leaderboard.page(member, {});
		expect(board.rows.map((r) => [r.rank, r.name])).toEqual([
			[1, 'Ann'],
			[2, 'Bob'],
		]);
		expect(board).toMatchObject({
			total: 2,
			hidden: 2,
			filter: 'players with at least 3 races, raced in the last 180 days',
		});

		await w.services.leagues.configure(organizer, undefined, { minRaces: 0 });
		const idleOnly = await w.services.leaderboard.page(member, {});
		expect(idleOnly.rows.map((r) => r.name)).toEqual(['Bbo', 'Ann', 'Bob']);
		expect(idleOnly).toMatchObject({ hidden: 1, filter: 'players who raced in the last 180 days' });

		await w.services.leagues.configure(organizer, undefined, { idleDays: 0 });
		const all = await w.services.leaderboard.page(member, {});
		expect(all).toMatchObject({ total: 4, hidden: 0 });
		expect(all.filter).toBeUndefined();
	});

	it('/rating still rates a hidden player, with no rank and the reason; a shown player is ranked among the shown', async () => {
		const { w } = await league();
		await w.services.leagues.configure(organizer, undefined, { minRaces: 3, idleDays: 180 });
		const typo = await w.services.ratings.rating(member, { player: 'Bbo' });
		expect(typo.summary?.races).toBe(1);
		expect(typo.rank).toBeUndefined();
		expect(typo.hiddenBecause).toBe('the leaderboard shows players with at least 3 races, and this player has 1');
		const cara = await w.services.ratings.rating(member, { player: 'Cara' });
		expect(cara.hiddenBecause).toBe(
			'the leaderboard shows players who raced in the last 180 days, and this player last raced on 2025-11-01 (241 days ago)',
		);
		const bob = await w.services.ratings.rating(member, { player: 'Bob' });
		expect(bob).toMatchObject({ rank: 2, rated: 2 });
		expect(bob.hiddenBecause).toBeUndefined();
	});

	it('bad values are refused and store nothing', async () => {
		const { w, id } = await league();
		const before = await eventCount(w, id);
		const configure = (input: object) => w.services.leagues.configure(organizer, undefined, input);
		await expect(configure({ minRaces: -1 })).rejects.toThrow(
			'Minimum races must be a whole number from 0 (every player shown) to 1000.',
		);
		await expect(configure({ idleDays: 2.5 })).rejects.toThrow(
			'Idle days must be a whole number from 0 (no one hidden for idle time) to 3650.',
		);
		// The log's own check, for a setting that reaches it another way (an import, a script): off is absent, not 0.
		const config = (await w.repo.getLeague(id))!.config;
		await expect(
			w.repo.appendEvent(id, { type: 'league-configured', config: { ...config, minRaces: 0 }, by: organizer.userId }),
		).rejects.toThrow('the leaderboard minimum races must be a whole number of at least 1');
		await expect(
			w.repo.appendEvent(id, { type: 'league-configured', config: { ...config, idleDays: 1.5 }, by: organizer.userId }),
		).rejects.toThrow('the leaderboard idle days must be a whole number of at least 1');
		expect(await eventCount(w, id)).toBe(before);
	});

	it('the monthly post’s table shows the filtered players, its footer says the filter', async () => {
		const { w, id } = await league();
		await w.services.leagues.configure(organizer, undefined, { minRaces: 3, idleDays: 180 });
		const composer = createRankingComposer({ repo: w.repo, daily: w.services.daily });
		const post = await composer.compose(id, '2026-07', { now: new Date(w.now.ms), late: false });
		const embed = post?.embeds?.[0];
		const text = JSON.stringify(embed);
		expect(text).toContain('1. **Ann**');
		expect(text).toContain('2. **Bob**');
		expect(text).not.toContain('**Bbo**†');
		expect(text).toContain('players with at least 3 races, raced in the last 180 days; 2 hidden');
	});
});
