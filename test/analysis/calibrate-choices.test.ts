import { describe, expect, it } from 'vitest';
import { backtest } from '../../src/analysis/backtest.js';
import { calibrate } from '../../src/analysis/calibrate.js';
import { calibrateChoices, choicesFor } from '../../src/analysis/calibrate-choices.js';
import { getSystem } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { mulberry32 } from '../support/mulberry32.js';

/** 40 weekly races over two calendar years of 6 of 8 drivers (skill by index), the last one retiring in a third. */
function history(): Race[] {
	const next = mulberry32(7);
	return Array.from({ length: 40 }, (_, i): Race => {
		const drivers = Array.from({ length: 8 }, (_, d) => d)
			.sort(() => next() - 0.5)
			.slice(0, 6);
		const order = drivers.map((d) => ({ d, pace: d + 3 * next() })).sort((a, b) => a.pace - b.pace);
		const retires = i % 3 === 0;
		return {
			id: `R${i + 1}`,
			date: new Date(Date.UTC(2020, 10, 1) + i * 7 * 86400000).toISOString().slice(0, 10),
			entries: order.map(({ d }, p) => ({
				player: `P${d}`,
				position: p + 1,
				status: retires && p === order.length - 1 ? ('DNF' as const) : ('finished' as const),
			})),
		};
	});
}

describe('calibrate over the choices that are not numbers', () => {
	it('lists the combinations a history allows', () => {
		const races = history();
		expect(choicesFor('endure', races)).toHaveLength(9); // 3 readings × (carried: forgetting on/off; yearly)
		expect(choicesFor('glicko', races)).toHaveLength(6); // 3 readings × 2 resets
		const undated = races.map(({ date: _date, ...race }) => ({
			...race,
			entries: race.entries.map((e) => ({ ...e, status: 'finished' as const })),
		}));
		expect(choicesFor('endure', undated)).toEqual([
			{ retirements: 'ordered', reset: 'none', forgetting: 'n/a', cars: 'n/a' },
		]);
	});

	it('predicts over every starter whatever the reading: retirements left out of the rating stay in the field', () => {
		const glicko = getSystem('glicko');
		const first = history().slice(0, 1); // everyone a newcomer: each of the 6 starters is equally likely to win
		for (const retirements of ['ordered', 'tied', 'excluded'] as const) {
			const result = backtest(glicko, glicko.params(), first, { retirements });
			expect(result.winner_log_likelihood).toBeCloseTo(Math.log(1 / 6), 12);
		}
	});

	it('calibrates each combination on its numbers, best first, each equal to calibrate with those choices', () => {
		const races = history();
		const endure = getSystem('endure');
		const results = calibrateChoices(endure, races, { maxEvaluations: 6 });
		expect(results).toHaveLength(9);
		const lls = results.map((r) => r.calibration.bestLogLikelihood);
		expect([...lls].sort((a, b) => b - a)).toEqual(lls);
		for (const { choices, calibration } of results) {
			const direct = calibrate(endure, races, {
				fixed: choices.forgetting === 'off' ? { phi: 1 } : {},
				reset: choices.reset === 'yearly' ? 'yearly' : undefined,
				retirements: choices.retirements,
				maxEvaluations: 6,
				...(choices.forgetting === 'off' && { only: ['k'] }),
			});
			expect(calibration.bestLogLikelihood).toBe(direct.bestLogLikelihood);
			if (choices.forgetting === 'off') expect(Object.keys(calibration.bestPoint)).toEqual(['k']);
		}
		// The readings rate the races differently, so they score differently.
		expect(new Set(lls).size).toBeGreaterThan(3);
	});
});
