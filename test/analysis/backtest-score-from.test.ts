import { describe, expect, it } from 'vitest';
import { backtest, type RacePrediction } from '../../src/analysis/backtest.js';
import { createReplay } from '../../src/league/replay.js';
import { endure } from '../../src/ratings/endure.js';
import { rankRace } from '../../src/ratings/race.js';
import type { Race } from '../../src/ratings/types.js';
import { carLeague } from '../support/car-league.js';

const carParams = endure.params({ cars: true, k: 0.1, kCar: 0.1, phi: 0.9995, carCarry: 0.6 });

function predictions(
	races: readonly Race[],
	scoreFrom?: string,
): { list: RacePrediction[]; result: ReturnType<typeof backtest> } {
	const list: RacePrediction[] = [];
	const result = backtest(endure, carParams, races, { retirements: 'excluded', scoreFrom }, (p) => list.push(p));
	return { list, result };
}

describe('backtest --score-from', () => {
	// Four seasons from 2001, with an undated race before the window, and after its start an undated race and a late
	// result dated before the day (an earlier season's race confirmed late).
	const base = carLeague(3, { retireEvery: 5 });
	const undated = (race: Race, id: string): Race => ({ id, entries: race.entries });
	const races: Race[] = [
		...base.slice(0, 24),
		undated(base[3]!, 'U-before'),
		...base.slice(24, 30),
		undated(base[5]!, 'U-after'),
		{ ...base[7]!, id: 'late', date: '2002-05-01' },
		...base.slice(30),
	];
	const day = '2003-01-01';
	const firstInWindow = races.findIndex((race) => race.date !== undefined && race.date >= day);

	it('scores exactly the races from the day on, with the full replay’s predictions bit for bit', () => {
		expect(races[firstInWindow]!.date! >= day).toBe(true);
		expect(races[firstInWindow - 1]!.id).toBe('U-before');
		const full = predictions(races);
		const window = predictions(races, day);
		const expectedIds = races
			.slice(firstInWindow)
			.filter((race) => race.date === undefined || race.date >= day)
			.map((race) => race.id);
		expect(expectedIds).toContain('U-after');
		expect(expectedIds).not.toContain('late');
		expect(window.list.map((p) => p.race)).toEqual(expectedIds);
		// Every scored race predicted as the full backtest predicted it: the earlier races rated the same.
		const byRace = new Map(full.list.map((p) => [p.race, p]));
		for (const p of window.list) expect(p).toEqual(byRace.get(p.race));
		expect(window.result.races).toBe(expectedIds.length);
		expect(window.result.winner_log_likelihood).toBe(
			window.list.reduce((sum, p) => sum + Math.log(byRace.get(p.race)!.pWinner), 0),
		);
		expect(window.result.replayed_before).toBe(firstInWindow);
		expect(window.result.score_from).toBe(day);
		expect(window.result.first_scored).toEqual({ race: races[firstInWindow]!.id, date: races[firstInWindow]!.date });
		// The same races' log-likelihood in the full backtest: the full total less the races before the window.
		expect(window.result.winner_log_likelihood).toBeLessThan(0);
		expect(full.result.winner_log_likelihood).toBeLessThan(window.result.winner_log_likelihood);
	});

	it('scores every race from a day on or before the first, and none from a day after the last', () => {
		const from = predictions(races, '2001-03-01');
		expect(from.result.winner_log_likelihood).toBe(predictions(races).result.winner_log_likelihood);
		expect(from.result.replayed_before).toBe(0);
		const after = predictions(races, '2030-01-01');
		expect(after.list).toEqual([]);
		expect(after.result).toMatchObject({ races: 0, first_scored: null, replayed_before: races.length });
		expect(after.result.p_winner_quartiles).toBeNull();
	});

	it('leaves the result as it was without the option', () => {
		expect(Object.keys(predictions(races).result)).toEqual([
			'races',
			'skipped',
			'winner_log_likelihood',
			'p_winner_quartiles',
			'brier_winner',
		]);
	});
});

describe('backtest with cars and retirements left out of the rating', () => {
	it('predicts a retired racer in the car of the race, as the racers who finish', () => {
		// No retirement until the last race, where its last racer retires, in the winner's car (he changed team for
		// it): before it the readings rate alike, so the prediction of the last race (over every starter) must be the
		// same under both.
		const races = carLeague(11);
		const last = races.at(-1)!;
		const retiring = { ...last.entries.at(-1)!, status: 'DNF' as const, car: last.entries[0]!.car };
		const withRetirement: Race = { ...last, entries: [...last.entries.slice(0, -1), retiring] };
		const history = [...races.slice(0, -1), withRetirement];
		const lastPrediction = (retirements: 'ordered' | 'excluded'): RacePrediction => {
			const list: RacePrediction[] = [];
			backtest(endure, carParams, history, { retirements }, (p) => list.push(p));
			return list.at(-1)!;
		};
		const ordered = lastPrediction('ordered');
		const excluded = lastPrediction('excluded');
		expect(excluded.p).toHaveLength(last.entries.length);
		excluded.p.forEach((p, i) => expect(p).toBeCloseTo(ordered.p[i]!, 12));
		// The check has teeth: his previous car is far from this one, so his state in it would predict otherwise.
		const replay = createReplay(endure, carParams);
		for (const race of races.slice(0, -1)) replay.apply(race);
		const car = rankRace(withRetirement).find((e) => e.player === retiring.player)!.car;
		expect(car).toBe(retiring.car);
		const rate = (state: ReturnType<typeof replay.stateAt>): number => {
			const performance = endure.performance(state, carParams);
			return performance.kind === 'exp-longest' ? performance.rate : NaN;
		};
		const inCar = rate(replay.stateAt(retiring.player, last.date, car));
		const bare = rate(replay.stateAt(retiring.player, last.date));
		expect(Math.abs(Math.log(inCar / bare))).toBeGreaterThan(0.05);
	});

	it('at a season’s soft reset too, where the racers are moved toward the mean before the race', () => {
		// The retirement at the first race of the last season, which a soft reset begins.
		const races = carLeague(11);
		const first = races.findIndex((race) => race.date!.startsWith('2004'));
		const opener = races[first]!;
		const retiring = { ...opener.entries.at(-1)!, status: 'DNF' as const };
		const history = [...races.slice(0, first), { ...opener, entries: [...opener.entries.slice(0, -1), retiring] }];
		const seasons = { starts: 'calendar-years', mode: 'soft', share: 0.3 } as const;
		const lastPrediction = (retirements: 'ordered' | 'excluded'): RacePrediction => {
			const list: RacePrediction[] = [];
			backtest(endure, carParams, history, { retirements, seasons }, (p) => list.push(p));
			return list.at(-1)!;
		};
		const ordered = lastPrediction('ordered');
		const excluded = lastPrediction('excluded');
		expect(excluded.race).toBe(opener.id);
		excluded.p.forEach((p, i) => expect(p).toBeCloseTo(ordered.p[i]!, 12));
		// And the soft reset did move him: the prediction differs from the one with ratings carried.
		const carried: RacePrediction[] = [];
		backtest(endure, carParams, history, { retirements: 'ordered' }, (p) => carried.push(p));
		expect(Math.abs(carried.at(-1)!.p.at(-1)! - ordered.p.at(-1)!)).toBeGreaterThan(1e-3);
	});
});
