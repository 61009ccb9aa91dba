import { describe, expect, it } from 'vitest';
import { backtest } from '../../src/analysis/backtest.js';
import { calibrate, defaultMaxEvaluations, searchSpace } from '../../src/analysis/calibrate.js';
import { calibrateChoices, choicesFor } from '../../src/analysis/calibrate-choices.js';
import {
	CAR_CARRY,
	historyHasCars,
	logSpan,
	quantityAtUnit,
	unitOf,
	type SearchDimension,
} from '../../src/analysis/calibration-space.js';
import { endure } from '../../src/ratings/endure.js';
import { speed } from '../../src/ratings/speed.js';
import type { Race } from '../../src/ratings/types.js';
import { carLeague } from '../support/car-league.js';

const names = (dimensions: readonly SearchDimension[]): string[] => dimensions.map((d) => d.name);
const withoutCars = (races: readonly Race[]): Race[] =>
	races.map((race) => ({ ...race, entries: race.entries.map(({ car: _car, ...entry }) => entry) }));

describe('what calibrate searches with cars', () => {
	const carsOn = endure.params({ cars: true });

	it('searches kCar and carCarry only with cars on, where results name cars', () => {
		const context = { dated: true, reset: undefined, cars: true };
		expect(names(searchSpace('endure', endure.params(), context).dimensions)).toEqual(['k', 'halfLifeDays']);
		expect(names(searchSpace('endure', carsOn, context).dimensions)).toEqual(['k', 'halfLifeDays', 'kCar', 'carCarry']);
		expect(names(searchSpace('speed', speed.params({ cars: true }), context).dimensions)).toContain('kCar');
		const noCar = searchSpace('endure', carsOn, { ...context, cars: false });
		expect(names(noCar.dimensions)).toEqual(['k', 'halfLifeDays']);
		expect(noCar.notes.join('\n')).toContain('kCar and carCarry are not searched: no result names a car');
	});

	it('searches carCarry only with dates and ratings carried across seasons (it acts at a new year)', () => {
		const undated = searchSpace('endure', carsOn, { dated: false, cars: true });
		expect(names(undated.dimensions)).toEqual(['k', 'kCar']);
		expect(undated.notes.join('\n')).toContain('carCarry is not searched');
		const yearly = searchSpace('endure', carsOn, { dated: true, reset: 'yearly', cars: true });
		expect(names(yearly.dimensions)).toEqual(['k', 'kCar']);
		expect(yearly.notes.join('\n')).toContain('carCarry is not searched under --reset yearly');
	});

	it('maps a share on the log of the half-life in seasons it makes, t = −1/log2 ρ', () => {
		const carry = searchSpace('endure', carsOn, { dated: true, cars: true }).dimensions.find(
			(d) => d.name === 'carCarry',
		)!;
		expect(carry).toMatchObject({ param: 'carCarry', scale: 'share', ...CAR_CARRY });
		const t = (share: number): number => -1 / Math.log2(share);
		expect(unitOf(carry, CAR_CARRY.lo)).toBe(0);
		expect(unitOf(carry, CAR_CARRY.hi)).toBeCloseTo(1, 12);
		// ρ = 0.5 is a half-life of one season: its u is where 1 lies between the bounds' half-lives, on a log scale.
		expect(unitOf(carry, 0.5)).toBeCloseTo(Math.log(1 / t(0.01)) / Math.log(t(0.99) / t(0.01)), 12);
		expect(logSpan(carry)).toBeCloseTo(Math.log(t(0.99) / t(0.01)), 12);
		for (const share of [0.02, 0.3, 0.57, 0.9, 0.98])
			expect(quantityAtUnit(carry, unitOf(carry, share))).toBeCloseTo(share, 12);
		// Equal steps of u are equal ratios of the half-life: ρ near 1 is searched finely.
		const step = (a: number, b: number): number => unitOf(carry, b) - unitOf(carry, a);
		expect(step(0.9, 0.99)).toBeGreaterThan(step(0.1, 0.5));
	});

	it('raises the default budget by 30 backtests a searched number beyond two', () => {
		expect([1, 2, 3, 4].map(defaultMaxEvaluations)).toEqual([60, 60, 90, 120]);
	});
});

describe('calibrate with cars on a league where the car matters', () => {
	// Eight cars, a fresh deal of the 16 drivers each season, the cars changing much over a winter.
	const races = carLeague(5, { seasons: 6, racesPerSeason: 12, cars: 8, carry: 0.3 });

	it('searches the four numbers within the raised default budget, and its best reproduces', () => {
		expect(historyHasCars(races)).toBe(true);
		const result = calibrate(endure, races, { fixed: { cars: true } });
		expect(names(result.dimensions)).toEqual(['k', 'halfLifeDays', 'kCar', 'carCarry']);
		expect(result.maxEvaluations).toBe(120);
		expect(result.evaluations).toBeLessThanOrEqual(120);
		expect(result.bestLogLikelihood).toBeGreaterThan(result.defaultLogLikelihood);
		const again = backtest(endure, endure.params(result.bestOverrides), races);
		expect(again.winner_log_likelihood).toBe(result.bestLogLikelihood);
		// The car part is what gains: the same search without cars, given the same budget, ends well behind.
		const carless = calibrate(endure, races, { maxEvaluations: 120 });
		expect(result.bestLogLikelihood - carless.bestLogLikelihood).toBeGreaterThan(3);
	});

	it('does not search kCar or carCarry with cars off, nor where no result names a car', () => {
		expect(names(calibrate(endure, races, { maxEvaluations: 8 }).dimensions)).toEqual(['k', 'halfLifeDays']);
		const carless = calibrate(endure, withoutCars(races), { fixed: { cars: true }, maxEvaluations: 8 });
		expect(names(carless.dimensions)).toEqual(['k', 'halfLifeDays']);
		expect(carless.notes.join('\n')).toContain('no result names a car');
	});

	it('with scoreFrom scores the window only, and its best reproduces with backtest from the same day', () => {
		const scoreFrom = '2004-01-01';
		const result = calibrate(endure, races, { fixed: { cars: true }, scoreFrom, maxEvaluations: 20 });
		expect(result.races).toBe(races.filter((race) => race.date! >= scoreFrom).length);
		expect(result.scoreFrom).toBe(scoreFrom);
		expect(result.firstScoredDate).toBe(races.find((race) => race.date! >= scoreFrom)!.date);
		const again = backtest(endure, endure.params(result.bestOverrides), races, { scoreFrom });
		expect(again.winner_log_likelihood).toBe(result.bestLogLikelihood);
		expect(again.races).toBe(result.races);
	});
});

describe('calibrate --choices with cars', () => {
	const races = carLeague(9, { seasons: 3, racesPerSeason: 10, retireEvery: 4 });

	it('tries cars on and off where results name cars, and only then', () => {
		const choices = choicesFor('endure', races);
		expect(choices).toHaveLength(18); // cars off/on × 3 readings × (carried: forgetting on/off; yearly)
		expect(choices.filter((c) => c.cars === 'on')).toHaveLength(9);
		expect(choicesFor('glicko', races).every((c) => c.cars === 'n/a')).toBe(true);
		expect(choicesFor('endure', withoutCars(races)).every((c) => c.cars === 'n/a')).toBe(true);
	});

	it('calibrates each with its numbers (kCar and carCarry with cars on) and finds the car worth rating', () => {
		const results = calibrateChoices(endure, races, { maxEvaluations: 12 });
		expect(results).toHaveLength(18);
		for (const { choices, calibration } of results) {
			expect(calibration.bestOverrides.cars).toBe(choices.cars === 'on');
			const searched = Object.keys(calibration.bestPoint);
			expect(searched.includes('kCar')).toBe(choices.cars === 'on');
			expect(searched.includes('carCarry')).toBe(choices.cars === 'on' && choices.reset === 'none');
			expect(searched.includes('halfLifeDays')).toBe(choices.forgetting === 'on');
		}
		expect(results[0]!.choices.cars).toBe('on');
		// Each combination is calibrate with those choices.
		const best = results[0]!;
		const direct = calibrate(endure, races, {
			fixed: best.choices.forgetting === 'off' ? { cars: true, phi: 1 } : { cars: true },
			reset: best.choices.reset === 'yearly' ? 'yearly' : undefined,
			retirements: best.choices.retirements,
			maxEvaluations: 12,
			...(best.choices.forgetting === 'off' && { only: Object.keys(best.calibration.bestPoint) }),
		});
		expect(direct.bestLogLikelihood).toBe(best.calibration.bestLogLikelihood);
	});
});
