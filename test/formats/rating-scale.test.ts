/**
 * The shown scale: endure and speed as Elo-like points must keep the meaning of Elo points, that a gap of
 * D points is P(ahead) = 1 / (1 + 10^(-D/400)) head to head, under each system's own performance model; the
 * uncertainty is one standard deviation of R (√k, extended form) in points; the other systems are shown as computed.
 */
import { describe, expect, it } from 'vitest';
import { POINTS_CENTRE, POINTS_PER_UNIT, ratingScale, shownSummary } from '../../src/formats/rating-scale.js';
import { getSystem } from '../../src/ratings/index.js';
import { headToHead } from '../../src/ratings/odds/odds.js';

const elo = (gap: number) => 1 / (1 + Math.pow(10, -gap / 400));

describe('rating scale', () => {
	for (const id of ['endure', 'speed'] as const) {
		it(`${id}: a gap of D shown points is Elo's P(ahead) under ${id}'s own performance model`, () => {
			const system = getSystem(id);
			const params: unknown = system.params({ extended: true });
			const scale = ratingScale(id, params);
			for (const [ra, rb] of [
				[0, 0],
				[0.7, -0.2],
				[-1.3, 2.4],
				[5.1, 4.9],
			] as const) {
				const a = { rating: ra, k: 0.5, races: 3 };
				const b = { rating: rb, k: 0.2, races: 9 };
				const p = headToHead(system.performance(a, params), system.performance(b, params));
				const gap = scale.rating(ra) - scale.rating(rb);
				expect(Math.abs(p - elo(gap))).toBeLessThan(1e-12);
				expect(scale.difference(ra - rb)).toBeCloseTo(gap, 9);
			}
		});
	}

	it('a newcomer (R = 0) is 1500; 400 points is a factor of 10 in odds', () => {
		const scale = ratingScale('endure', getSystem('endure').params());
		expect(scale.rating(0)).toBe(POINTS_CENTRE);
		expect(scale.difference(Math.LN10)).toBeCloseTo(400, 12);
		expect(POINTS_PER_UNIT).toBeCloseTo(173.7177927613007, 12);
	});

	it('the extended form shows √k in points as its uncertainty; the base form (one k for all) shows none', () => {
		const extended = ratingScale('endure', getSystem('endure').params({ extended: true }));
		expect(extended.uncertaintyName).toBe('±');
		expect(extended.uncertainty(0.25)).toBeCloseTo(0.5 * POINTS_PER_UNIT, 12);
		const base = ratingScale('speed', getSystem('speed').params());
		expect(base.uncertaintyName).toBeUndefined();
		expect(base.uncertainty(0.36)).toBeUndefined();
		expect(shownSummary(base, { rating: 1, uncertainty: 0.36, races: 2, provisional: true })).toEqual({
			rating: 1500 + POINTS_PER_UNIT,
			uncertainty: undefined,
			races: 2,
			provisional: true,
		});
	});

	it('Glicko, Folyami and stk are shown as computed; Glicko keeps its RD', () => {
		const glicko = ratingScale('glicko', getSystem('glicko').params());
		expect([glicko.rating(1612.5), glicko.uncertainty(87.25), glicko.uncertaintyName]).toEqual([1612.5, 87.25, 'RD']);
		for (const id of ['folyami', 'stk']) {
			const scale = ratingScale(id, getSystem(id).params());
			expect([scale.kind, scale.rating(1234.5), scale.difference(-3), scale.uncertainty(7)]).toEqual([
				'native',
				1234.5,
				-3,
				undefined,
			]);
		}
	});
});
