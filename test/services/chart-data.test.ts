/** The rating-history chart's data with a race confirmed late and dated back (found by bench/load.ts). */
import { describe, expect, it } from 'vitest';
import { ratingEmbed } from '../../commands/rating.js';
import { placePoints } from '../../src/charts/rating-history-config.js';
import type { EmbedField } from '../../src/formats/embed.js';
import { ratingHistoryChart } from '../../src/services/ratings/chart-data.js';
import { createHistoryCache } from '../../src/services/caches/history-cache.js';
import { addRace, member, world } from './helpers.js';

describe('rating history chart data', () => {
	it('draws a make-up race on its own day, in date order: days never run back, the chart accepts it', async () => {
		const w = world();
		await w.services.leagues.create({ ...member, manageGuild: true }, { name: 'Cup', headline: 'glicko' });
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-20');
		await addRace(w, '1. Bob\n2. Ann', undefined, '2026-02-25');
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-22'); // confirmed last, dated back: rated before R2
		const rating = await w.services.ratings.rating(member, { player: 'Ann', chart: true });
		const points = rating.chart!.series[0]!.points;
		const days = points.map((p) => p.day);
		expect(days).toEqual([...days].sort());
		expect(points.filter((p) => p.race !== undefined).map((p) => [p.race, p.day])).toEqual([
			['R1', '2026-02-20'],
			['R3', '2026-02-22'],
			['R2', '2026-02-25'],
		]);
		expect(() => placePoints(points, 'Ann')).not.toThrow();
	});

	it('marks the first race after a yearly reset as a restart, and no other point', async () => {
		const w = world();
		const organizer = { ...member, manageGuild: true };
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await w.services.leagues.configure(organizer, undefined, { reset: 'yearly' });
		await addRace(w, '1. Ann\n2. Bob', undefined, '2025-11-20');
		await addRace(w, '1. Bob\n2. Ann', undefined, '2025-12-20');
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-22');
		const points = (await w.services.ratings.rating(member, { player: 'Ann', chart: true })).chart!.series[0]!.points;
		expect(points.filter((p) => p.restart === true).map((p) => [p.race, p.day])).toEqual([['R3', '2026-02-22']]);
		// The new season starts from a newcomer: no growth points are drawn across the reset.
		const r3 = points.findIndex((p) => p.race === 'R3');
		expect(points[r3 - 1]!.race).toBe('R2');
		// The reply counts this season's races, and says so.
		const embed = ratingEmbed(await w.services.ratings.rating(member, { player: 'Ann' }), undefined);
		expect(embed.fields).toContainEqual({ name: 'Races this season', value: '1', inline: true });
		// The best and worst races are of every season (the change cache keeps them across resets): the title says so.
		const standouts = embed.fields!.find(
			(f): f is EmbedField => f !== undefined && f !== false && f.name.startsWith('Best and worst races'),
		);
		expect(standouts?.name).toBe('Best and worst races (every season)');
		expect(JSON.stringify(standouts?.value)).toMatch(/Worst race: R2\b/); // of last season: this one has only R3
	});
});

describe('a chart with nothing to draw', () => {
	it('is no chart: a player whose only entry is a DNS, or whose races are all voided; a compared one is left off', async () => {
		const w = world();
		const organizer = { ...member, manageGuild: true };
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'endure' });
		await addRace(w, '1. Ann\n2. Bob\nNewcomer Ned DNS', undefined, '2026-02-20');
		const ned = await w.services.ratings.rating(member, { player: 'Newcomer Ned', chart: true });
		expect(ned.summary).toBeUndefined();
		expect(ned.chart).toBeUndefined();
		expect(() => ratingEmbed(ned, undefined)).not.toThrow();
		const compared = await w.services.ratings.rating(member, { player: 'Ann', chart: true, compare: 'Newcomer Ned' });
		expect(compared.chart!.series.map((s) => s.player)).toEqual(['Ann']);
		await addRace(w, '1. Cy\n2. Ann', undefined, '2026-02-21');
		await w.services.races.void(organizer, 'R2', 'wrong race');
		const cy = await w.services.ratings.rating(member, { player: 'Cy', chart: true });
		expect(cy.chart).toBeUndefined();
	});
});

describe('kept histories (history-cache.ts)', () => {
	it('give the same chart as a full replay: after races, after a void (replayed), after a new race (applied)', async () => {
		const w = world();
		const cup = await w.services.leagues.create({ ...member, manageGuild: true }, { name: 'Cup', headline: 'glicko' });
		const cache = createHistoryCache(w.repo);
		const days = ['2026-01-03', '2026-01-10', '2026-01-24', '2026-02-07', '2026-02-14'];
		const orders = ['Ann, Bob, Cy, Dee', 'Bob, Dee, Ann', 'Cy, Ann, Bob, Dee', 'Dee, Cy, Bob', 'Ann, Cy, Dee, Bob'];
		const text = (order: string) =>
			order
				.split(', ')
				.map((name, i) => `${i + 1}. ${name}`)
				.join('\n');
		const players = async () => {
			const state = await w.repo.loadState(cup.id);
			return ['Ann', 'Bob', 'Cy', 'Dee'].map((name) => ({ id: state.resolve(name)!.id, name }));
		};
		const same = async () => {
			const league = (await w.repo.getLeague(cup.id))!;
			const both = await Promise.all(
				[cache, undefined].map(async (c) =>
					ratingHistoryChart(w.repo, league, 'glicko', await players(), '2026-03-01', c),
				),
			);
			expect(both[0]).toEqual(both[1]);
			return both[0]!;
		};
		for (const [i, day] of days.slice(0, 4).entries()) await addRace(w, text(orders[i]!), undefined, day);
		expect((await same()).series[0]!.points.length).toBeGreaterThan(4);
		await w.services.races.void({ ...member, manageGuild: true }, 'R2', 'test');
		await same();
		await addRace(w, text(orders[4]!), undefined, days[4]);
		await same();
	});
});
