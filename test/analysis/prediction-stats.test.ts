import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toy } from '../league/toy-system.js';
import { backtest, type RacePrediction } from '../../src/analysis/backtest.js';
import { createPredictionStats, reliabilityBin } from '../../src/analysis/prediction-stats.js';
import type { Race } from '../../src/ratings/types.js';

/** winners picked and the reliability table behind /league stats. */

const entry = (player: string, position: number) => ({ player, position, status: 'finished' as const });

/**
 * The toy history of backtest.test.ts (P(win) = μ/Σμ, μ = 2^(wins - lasts)), field in rank order:
 * R1  A, B both new: P = 1/2, 1/2. Tied favourites, A won: picked 1/2.
 * R2  B, A, C with μ = 1/2, 2, 1: P = 1/7, 4/7, 2/7. Favourite A, B won: picked 0.
 * R3  A = C first, B third, μ = 2, 1/2, 1: P = 4/7, 1/7, 2/7. Favourite A among the winners: picked 1.
 * Bins: 1/7 → bin 1 (B's win in R2, C's half in R3), 2/7 → bin 2 (no win), 1/2 and 4/7 → bin 5 (A's win in R1,
 * A's half in R3).
 */
const history: Race[] = [
	{ id: 'R1', entries: [entry('A', 1), entry('B', 2)] },
	{ id: 'R2', entries: [entry('B', 1), entry('A', 2), entry('C', 3)] },
	{ id: 'R3', entries: [entry('A', 1), entry('C', 1), entry('B', 3)] },
];

/** The double just below a positive x. */
const below = (x: number): number => {
	const view = new DataView(new ArrayBuffer(8));
	view.setFloat64(0, x);
	view.setBigUint64(0, view.getBigUint64(0) - 1n);
	return view.getFloat64(0);
};

const close = (actual: number | null, expected: number): void => {
	expect(actual).not.toBeNull();
	expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
};

describe('prediction stats', () => {
	it('counts the favourite’s wins and bins every prediction (hand-checked)', () => {
		const stats = createPredictionStats();
		backtest(toy, toy.params(), history, {}, (p) => stats.add(p));
		const result = stats.result();
		expect(result.races).toBe(3);
		expect(result.winnersPicked).toBe(1.5);
		expect(result.winnersPickedShare).toBe(0.5);
		const bins = result.reliability;
		expect(bins).toHaveLength(10);
		expect(bins.map((b) => b.count)).toEqual([0, 2, 2, 0, 0, 4, 0, 0, 0, 0]);
		expect(bins.map((b) => b.wins)).toEqual([0, 1.5, 0, 0, 0, 1.5, 0, 0, 0, 0]);
		close(bins[1]!.meanPredicted, 1 / 7);
		close(bins[1]!.observed, 0.75);
		close(bins[2]!.meanPredicted, 2 / 7);
		expect(bins[2]!.observed).toBe(0);
		close(bins[5]!.meanPredicted, (1 / 2 + 1 / 2 + 4 / 7 + 4 / 7) / 4);
		close(bins[5]!.observed, 1.5 / 4);
		close(bins[5]!.standardError, Math.sqrt(2 * (1 / 4) + 2 * (4 / 7) * (3 / 7)) / 4);
		close(bins[2]!.standardError, Math.sqrt(2 * (2 / 7) * (5 / 7)) / 2);
		expect(bins[0]).toMatchObject({ from: 0, to: 0.1, count: 0, meanPredicted: null, observed: null });
		expect(bins[9]).toMatchObject({ from: 0.9, to: 1 });
	});

	it('an empty history has no share and empty bins', () => {
		const result = createPredictionStats().result();
		expect(result).toMatchObject({ races: 0, winnersPicked: 0, winnersPickedShare: null });
		expect(result.reliability.every((b) => b.count === 0 && b.standardError === null)).toBe(true);
	});

	it('bins by the decimal bounds, not by the rounding of p·10', () => {
		expect([0, 0.05, 0.1, 0.3, 0.6, 0.7, 0.9, 1].map(reliabilityBin)).toEqual([0, 0, 1, 3, 6, 7, 9, 9]);
		expect([below(0.3), below(0.6), below(0.7), below(0.9)].map(reliabilityBin)).toEqual([2, 5, 6, 8]);
		fc.assert(
			fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (p) => {
				const k = reliabilityBin(p);
				expect(p >= k / 10 && (p < (k + 1) / 10 || k === 9)).toBe(true);
			}),
		);
	});

	it('over random fields: bins count every pair, observed wins sum to the races, picked ≤ races', () => {
		const field = fc
			.array(fc.double({ min: 0.01, max: 10, noNaN: true }), { minLength: 1, maxLength: 12 })
			.chain((w) => fc.tuple(fc.constant(w), fc.array(fc.boolean(), { minLength: w.length, maxLength: w.length })));
		fc.assert(
			fc.property(fc.array(field, { minLength: 1, maxLength: 20 }), (races) => {
				const stats = createPredictionStats();
				let pairs = 0;
				let scored = 0;
				for (const [weights, mask] of races) {
					const total = weights.reduce((a, b) => a + b, 0);
					const won = mask.some(Boolean) ? mask : mask.map((_, i) => i === 0);
					const prediction: Pick<RacePrediction, 'p' | 'won'> = { p: weights.map((w) => w / total), won };
					stats.add(prediction);
					pairs += weights.length;
					scored++;
				}
				const result = stats.result();
				const sum = (f: (b: (typeof result.reliability)[number]) => number) =>
					result.reliability.reduce((s, b) => s + f(b), 0);
				expect(result.races).toBe(scored);
				expect(sum((b) => b.count)).toBe(pairs);
				expect(Math.abs(sum((b) => b.wins) - scored)).toBeLessThan(1e-9);
				expect(result.winnersPicked).toBeGreaterThanOrEqual(0);
				expect(result.winnersPicked).toBeLessThanOrEqual(scored);
				for (const b of result.reliability) {
					if (b.count === 0) continue;
					expect(b.meanPredicted!).toBeGreaterThanOrEqual(b.from - 1e-12);
					expect(b.meanPredicted!).toBeLessThanOrEqual(b.to + 1e-12);
				}
			}),
		);
	});
});
