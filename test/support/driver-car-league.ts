/**
 * A small league whose results name cars, for the tests of what players see of the driver and the car: eight drivers
 * in four cars over two seasons, finishing orders drawn from a known strength (driver + car, mulberry32, so the same
 * every run). One car is much faster than the rest, so a rating of cars can tell it apart; one driver changes car at
 * the start of the second season; names carry Discord markdown (`Team *Bold*`, `Ann_e`) to show they are escaped.
 */
import type { RaceInput } from '../../src/league/league-events.js';
import { mulberry32 } from './mulberry32.js';

/** The cars and how much faster each makes its drivers (the model's C, natural-log units). */
export const CARS = { Ferrari: 1.2, Williams: -0.6, 'Team *Bold*': 0.2, Minardi: -0.8 } as const;
export type CarName = keyof typeof CARS;

/** The drivers, their own strength (D) and their car in season one. */
export const DRIVERS: readonly { name: string; skill: number; car: CarName }[] = [
	{ name: 'Alice', skill: 0.3, car: 'Ferrari' },
	{ name: 'Bob', skill: -0.4, car: 'Ferrari' },
	{ name: 'Ann_e', skill: 0.8, car: 'Williams' },
	{ name: 'Dan', skill: 0.0, car: 'Williams' },
	{ name: 'Eve', skill: 0.1, car: 'Team *Bold*' },
	{ name: 'Finn', skill: -0.2, car: 'Team *Bold*' },
	{ name: 'Gus', skill: 0.4, car: 'Minardi' },
	{ name: 'Hal', skill: -0.5, car: 'Minardi' },
];

/** From season two on, Ann_e drives the Ferrari and Bob the Williams. */
export function carOf(driver: string, season: number): CarName {
	if (season >= 2 && driver === 'Ann_e') return 'Ferrari';
	if (season >= 2 && driver === 'Bob') return 'Williams';
	return DRIVERS.find((d) => d.name === driver)!.car;
}

/**
 * `races` per season, dated a fortnight apart from March; each racer's time is exponential with rate e^-(D + C)
 * (endure's race model), so the order is what endure with cars fits.
 */
export function carLeagueRaces(perSeason = 12, seasons = 2, seed = 24): RaceInput[] {
	const random = mulberry32(seed);
	const races: RaceInput[] = [];
	for (let season = 1; season <= seasons; season++) {
		for (let i = 0; i < perSeason; i++) {
			const date = new Date(Date.UTC(2023 + season, 2, 1) + i * 14 * 86_400_000).toISOString().slice(0, 10);
			const times = DRIVERS.map((d) => {
				const car = carOf(d.name, season);
				const rate = Math.exp(-(d.skill + CARS[car]));
				return { player: d.name, car, time: -Math.log(random()) / rate };
			}).sort((a, b) => b.time - a.time); // endure: the last to be eliminated wins
			races.push({
				date,
				entries: times.map((t, index) => ({
					player: t.player,
					position: index + 1,
					status: 'finished' as const,
					car: t.car,
				})),
			});
		}
	}
	return races;
}
