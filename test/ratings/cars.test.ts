import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReplay, replayHistory, type ReplaySnapshot } from '../../src/league/replay.js';
import type { PlEloState } from '../../src/ratings/pl-elo.js';
import { endure, endureScoreInfo } from '../../src/ratings/endure.js';
import { speed } from '../../src/ratings/speed.js';
import type { EntryStatus, ParamOverrides, Race, RaceEntry } from '../../src/ratings/types.js';

/**
 * The car part of endure and speed (docs/cars.md): R = D + C, the driver stepping by k·score and each car by
 * kCar·Σ of its entries' scores. Without cars, or with one car for the whole field, the ratings are today's exactly.
 */

const systems = [endure, speed] as const;

const PLAYERS = ['Ann', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus'];

/** Random dated races of 2..7 racers, with finishers, ties and retirements. */
const racesArbitrary = fc.array(
	fc.record({
		racers: fc.shuffledSubarray(PLAYERS, { minLength: 2 }),
		positions: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 7, maxLength: 7 }),
		retired: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
		gapDays: fc.integer({ min: 0, max: 200 }),
	}),
	{ minLength: 1, maxLength: 25 },
);

type Drawn = { racers: string[]; positions: number[]; retired: boolean[]; gapDays: number }[];

function racesOf(drawn: Drawn, carOf: (player: string, race: number) => string | undefined) {
	let day = Date.UTC(2020, 0, 1);
	return drawn.map(({ racers, positions, retired, gapDays }, r): Race => {
		day += gapDays * 86_400_000;
		const entries = racers.map((player, i): RaceEntry => {
			const car = carOf(player, r);
			const status: EntryStatus = retired[i] === true && i > 0 ? 'DNF' : 'finished';
			return { player, position: positions[i]!, status, ...(car !== undefined && { car }) };
		});
		return { id: `R${r + 1}`, date: new Date(day).toISOString().slice(0, 10), entries };
	});
}

const overrideSets: ParamOverrides[] = [{ phi: 0.999 }, { extended: true, phi: 0.995, kInf: 0.8 }];

describe('cars change nothing where they cannot tell racers apart', () => {
	for (const system of systems) {
		for (const overrides of overrideSets) {
			it(`${system.id} ${JSON.stringify(overrides)}: no cars, or one car for every racer, gives today's states bit for bit`, () => {
				fc.assert(
					fc.property(racesArbitrary, (drawn) => {
						const today = replayHistory(
							system,
							system.params(overrides),
							racesOf(drawn, () => undefined),
						);
						const withCars = system.params({ ...overrides, cars: true, kCar: 0.5, carCarry: 0.3 });
						const noCars = replayHistory(
							system,
							withCars,
							racesOf(drawn, () => undefined),
						);
						const oneCar = replayHistory(
							system,
							withCars,
							racesOf(drawn, () => 'Kart'),
						);
						for (const player of PLAYERS) {
							const expected = today.player(player)?.state;
							expect(noCars.player(player)?.state).toStrictEqual(expected);
							expect(oneCar.player(player)?.state).toStrictEqual(expected);
							const expectedPerformance =
								expected === undefined ? undefined : system.performance(expected, system.params(overrides));
							const inKart = oneCar.stateAt(player, undefined);
							if (expectedPerformance !== undefined) {
								expect(system.performance(inKart, withCars)).toStrictEqual(expectedPerformance);
							}
						}
						expect(oneCar.carStandings().map((c) => c.rating)).toEqual(oneCar.carStandings().length ? [0] : []);
					}),
					{ numRuns: 60 },
				);
			});
		}
	}
});

describe('one race: the car steps by kCar times the sum of its entries scores', () => {
	it('endure, three equal newcomers, winner and third in one car (specs/endure-elo.md example)', () => {
		// The spec's example: three equal competitors, k = 0.36, give (+0.30, −0.06, −0.24): scores (5/6, −1/6, −2/3).
		const params = endure.params({ cars: true, kCar: 0.2 });
		const replay = createReplay(endure, params);
		replay.apply({
			id: 'R1',
			entries: [
				{ player: 'Ann', position: 1, status: 'finished', car: 'Red' },
				{ player: 'Bo', position: 2, status: 'finished', car: 'Blue' },
				{ player: 'Cy', position: 3, status: 'finished', car: 'Red' },
			],
		});
		expect(replay.player('Ann')!.state.rating).toBeCloseTo(0.36 * (5 / 6), 14);
		expect(replay.player('Bo')!.state.rating).toBeCloseTo(0.36 * (-1 / 6), 14);
		expect(replay.player('Cy')!.state.rating).toBeCloseTo(0.36 * (-2 / 3), 14);
		expect(replay.carPart('Red', undefined)).toBeCloseTo(0.2 * (5 / 6 - 2 / 3), 14);
		expect(replay.carPart('Blue', undefined)).toBeCloseTo(0.2 * (-1 / 6), 14);
		// The driver's own record holds no car part; their state for odds does.
		expect(replay.player('Ann')!.state).not.toHaveProperty('car');
		expect(replay.player('Ann')!.car).toBe('Red');
		expect(replay.stateAt('Ann', undefined).car).toBe(replay.carPart('Red', undefined));
	});

	it('the score the car steps by is the derivative of the race likelihood in C (finite differences)', () => {
		const params = endure.params({ cars: true, kCar: 1, k: 1 });
		const strengths = { Ann: 0.3, Bo: -0.2, Cy: 0.1, Di: 0.5 };
		const cars = { Ann: 'Red', Bo: 'Blue', Cy: 'Red', Di: 'Blue' } as const;
		const order = ['Bo', 'Ann', 'Di', 'Cy'] as const;
		const logLikelihood = (redShift: number): number => {
			// Endure: the worst remaining finisher is eliminated with probability λ_j / Σ λ, λ = e^−R (eq. 3).
			const lambda = order.map((p) => Math.exp(-(strengths[p] + (cars[p] === 'Red' ? redShift : 0))));
			let ll = 0;
			for (let last = order.length - 1; last >= 1; last--) {
				const alive = lambda.slice(0, last + 1);
				ll += Math.log(lambda[last]! / alive.reduce((a, b) => a + b, 0));
			}
			return ll;
		};
		const h = 1e-6;
		const derivative = (logLikelihood(h) - logLikelihood(-h)) / (2 * h);
		const { score } = endureScoreInfo(order.map((p) => strengths[p]));
		const redScore = order.reduce((sum, p, i) => sum + (cars[p] === 'Red' ? score[i]! : 0), 0);
		expect(redScore).toBeCloseTo(derivative, 8);
		// And the replay steps the car by exactly that (every car starts at 0, every driver from its strength).
		const replay = createReplay(endure, params);
		const field = order.map((player, i) => ({
			player,
			position: i + 1,
			status: 'finished' as const,
			car: cars[player],
		}));
		const prepared = replay.prepare({ id: 'R1', entries: field });
		expect(prepared.field.map((e) => e.state.car)).toEqual([0, 0, 0, 0]);
		replay.commit(prepared);
		const newcomerScore = endureScoreInfo([0, 0, 0, 0]).score;
		const expectedRed = order.reduce((sum, p, i) => sum + (cars[p] === 'Red' ? newcomerScore[i]! : 0), 0);
		expect(replay.carPart('Red', undefined)).toBe(expectedRed);
	});
});

describe('a car over the winters', () => {
	const race = (id: string, date: string, winnerCar: string, loserCar: string): Race => ({
		id,
		date,
		entries: [
			{ player: 'Ann', position: 1, status: 'finished', car: winnerCar },
			{ player: 'Bo', position: 2, status: 'finished', car: loserCar },
		],
	});

	it('keeps carCarry of its part at its first race of a new year, carCarry² after two winters, nothing in a year', () => {
		const params = endure.params({ cars: true, kCar: 0.4, carCarry: 0.5 });
		const replay = createReplay(endure, params);
		replay.apply(race('R1', '2020-03-01', 'Red', 'Blue'));
		const red = replay.carPart('Red', '2020-03-01')!;
		expect(red).toBeGreaterThan(0);
		expect(replay.carPart('Red', '2020-12-31')).toBe(red);
		expect(replay.carPart('Red', '2021-01-01')).toBe(red * 0.5);
		expect(replay.carPart('Red', '2022-06-01')).toBe(red * 0.25);
		// The race in the new year is rated from the carried part.
		const prepared = replay.prepare(race('R2', '2021-04-01', 'Red', 'Blue'));
		expect(prepared.field[0]!.state.car).toBe(red * 0.5);
		expect(replay.carStandings('2021-01-01').map((c) => c.car)).toEqual(['Red', 'Blue']);
	});

	it('a driver who changes car takes their own part to the new one', () => {
		const params = endure.params({ cars: true });
		const replay = createReplay(endure, params);
		replay.apply(race('R1', '2020-03-01', 'Red', 'Blue'));
		const ann = replay.player('Ann')!.state.rating;
		replay.apply({
			id: 'R2',
			date: '2020-03-08',
			entries: [
				{ player: 'Cy', position: 1, status: 'finished', car: 'Green' },
				{ player: 'Di', position: 2, status: 'finished', car: 'Blue' },
			],
		});
		const inBlue = replay.stateAt('Ann', '2020-03-09', 'Blue');
		expect(inBlue.rating).toBe(ann);
		expect(inBlue.car).toBe(replay.carPart('Blue', '2020-03-09'));
		expect(replay.stateAt('Ann', '2020-03-09').car).toBe(replay.carPart('Red', '2020-03-09'));
	});

	it('a snapshot carries the cars: replaying from it gives the same bits', () => {
		const params = speed.params({ cars: true, phi: 0.99 });
		const races = [
			race('R1', '2020-03-01', 'Red', 'Blue'),
			race('R2', '2020-05-01', 'Blue', 'Red'),
			race('R3', '2021-02-01', 'Red', 'Blue'),
		];
		const whole = replayHistory(speed, params, races);
		const first = replayHistory(speed, params, races.slice(0, 2));
		const resumed = createReplay(
			speed,
			params,
			{},
			JSON.parse(JSON.stringify(first.snapshot())) as ReplaySnapshot<PlEloState>,
		);
		resumed.apply(races[2]!);
		expect(resumed.snapshot()).toStrictEqual(whole.snapshot());
		expect(Object.keys(whole.snapshot().cars ?? {})).toEqual(['Red', 'Blue']);
	});

	it('the team stands in for a car where a result names none', () => {
		const params = endure.params({ cars: true });
		const replay = createReplay(endure, params);
		replay.apply({
			id: 'R1',
			entries: [
				{ player: 'Ann', position: 1, status: 'finished', team: 'Red' },
				{ player: 'Bo', position: 2, status: 'finished', team: 'Blue', car: 'Blue GT3' },
			],
		});
		expect(
			replay
				.carStandings()
				.map((c) => c.car)
				.sort(),
		).toEqual(['Blue GT3', 'Red']);
	});
});
