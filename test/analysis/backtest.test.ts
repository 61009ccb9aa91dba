import { describe, expect, it } from 'vitest';
import { toy } from '../league/toy-system.js';
import { backtest, quantile, type RacePrediction } from '../../src/analysis/backtest.js';
import type { Race } from '../../src/ratings/types.js';

const entry = (player: string, position: number) => ({ player, position, status: 'finished' as const });

/**
 * Hand-checked with the toy system (winner +ln2, last -ln2, P(win) = e^R/Σe^R, i.e. μ = 2^(wins - lasts)):
 * R1  A beats B; both new: P(A) = 1/2, Brier (1/2-1)² + (1/2)² = 1/2. Then μA = 2, μB = 1/2.
 * R2  B, A, C: μ = (B 1/2, A 2, C 1), Σ 7/2: P(B) = 1/7, Brier (6/7)² + (4/7)² + (2/7)² = 8/7. Then μB = 1, μC = 1/2.
 * R3  A and C tie for first, B third: P(A) + P(C) = (2 + 1/2)/(7/2) = 5/7, Brier (2/7)² + (2/7)² = 8/49.
 * R4  only DNS entries: nothing to predict, not counted.
 */
const history: Race[] = [
	{ id: 'R1', date: '2021-01-01', entries: [entry('A', 1), entry('B', 2)] },
	{ id: 'R2', date: '2021-01-02', entries: [entry('B', 1), entry('A', 2), entry('C', 3)] },
	{ id: 'R3', date: '2021-01-03', entries: [entry('A', 1), entry('C', 1), entry('B', 3)] },
	{ id: 'R4', date: '2021-01-04', entries: [{ player: 'A', position: 1, status: 'DNS' }] },
];

const close = (actual: number, expected: number): void => {
	expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
};

describe('backtest', () => {
	it('scores the pre-race winner probability of each race (hand-checked)', () => {
		const predictions: RacePrediction[] = [];
		const result = backtest(toy, toy.params(), history, {}, (p) => predictions.push(p));
		expect(predictions.map((p) => p.race)).toEqual(['R1', 'R2', 'R3']);
		const expected = [
			[1 / 2, 1 / 2],
			[1 / 7, 8 / 7],
			[5 / 7, 8 / 49],
		];
		predictions.forEach((p, i) => {
			close(p.pWinner, expected[i]![0]!);
			close(p.brier, expected[i]![1]!);
		});
		expect(result.races).toBe(3);
		expect(result.skipped).toBe(0);
		close(result.winner_log_likelihood, Math.log(1 / 2) + Math.log(1 / 7) + Math.log(5 / 7));
		// sorted P(winner) = 1/7, 1/2, 5/7; type-7 quartiles at h = 0.5, 1, 1.5
		const [q1, q2, q3] = result.p_winner_quartiles!;
		close(q1, (1 / 7 + 1 / 2) / 2);
		close(q2, 1 / 2);
		close(q3, (1 / 2 + 5 / 7) / 2);
		close(result.brier_winner!, (1 / 2 + 8 / 7 + 8 / 49) / 3);
	});

	it('with reset yearly predicts from newcomers again at the first race of a year', () => {
		const nextYear: Race[] = [...history, { id: 'R5', date: '2022-01-01', entries: [entry('B', 1), entry('A', 2)] }];
		const predictions: RacePrediction[] = [];
		backtest(toy, toy.params(), nextYear, { reset: 'yearly' }, (p) => predictions.push(p));
		close(predictions.at(-1)!.pWinner, 1 / 2);
		const carried: RacePrediction[] = [];
		backtest(toy, toy.params(), nextYear, {}, (p) => carried.push(p));
		// without a reset: after R3 (A and C tie at rank 1.5, B last) μB = 1/2, μA = 2: P(B) = 1/5
		close(carried.at(-1)!.pWinner, 1 / 5);
	});

	it('uses pre-race states after idle-time growth', () => {
		// decay 0.5 per day: before R2 (1 day later) A's R = ln2 · 0.5, μA = √2; μB = 1/√2, μC = 1: P(B) = (1/√2)/(√2 + 1/√2 + 1)
		const predictions: RacePrediction[] = [];
		backtest(toy, toy.params({ decay: 0.5 }), history.slice(0, 2), {}, (p) => predictions.push(p));
		close(predictions[1]!.pWinner, Math.SQRT1_2 / (Math.SQRT2 + Math.SQRT1_2 + 1));
	});

	it('does not score races the system cannot rate, and counts them', () => {
		const timed: Race = {
			id: 'T',
			entries: [{ player: 'A', position: 1, time: 61, status: 'finished' }, entry('B', 2)],
		};
		const result = backtest(toy, toy.params(), [history[0]!, timed, history[1]!]);
		expect(result.races).toBe(2);
		expect(result.skipped).toBe(1);
		close(result.winner_log_likelihood, Math.log(1 / 2) + Math.log(1 / 7));
	});

	it('reports null quartiles and Brier score for an empty history', () => {
		expect(backtest(toy, toy.params(), [])).toEqual({
			races: 0,
			skipped: 0,
			winner_log_likelihood: 0,
			p_winner_quartiles: null,
			brier_winner: null,
		});
	});

	it('quantile interpolates linearly between order statistics', () => {
		expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
		expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
		expect(quantile([5], 0.75)).toBe(5);
	});
});
