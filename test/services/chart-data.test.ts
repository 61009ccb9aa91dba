/** The rating-history chart's data with a race confirmed late and dated back (found by bench/load.ts). */
import { describe, expect, it } from 'vitest';
import { placePoints } from '../../src/charts/rating-history-config.js';
import { addRace, member, world } from './helpers.js';

describe('rating history chart data', () => {
	it('draws a back-dated race on the day of the race before it: days never run back, the chart accepts it', async () => {
		const w = world();
		await w.services.leagues.create({ ...member, manageGuild: true }, { name: 'Cup', headline: 'glicko' });
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-20');
		await addRace(w, '1. Bob\n2. Ann', undefined, '2026-02-25');
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-22'); // confirmed last, dated back
		const rating = await w.services.ratings.rating(member, { player: 'Ann', chart: true });
		const points = rating.chart!.series[0]!.points;
		const days = points.map((p) => p.day);
		expect(days).toEqual([...days].sort());
		expect(points.filter((p) => p.race !== undefined).map((p) => [p.race, p.day])).toEqual([
			['R1', '2026-02-20'],
			['R2', '2026-02-25'],
			['R3', '2026-02-25'],
		]);
		expect(() => placePoints(points, 'Ann')).not.toThrow();
	});
});
