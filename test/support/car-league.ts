/**
 * A synthetic league whose results name cars (docs/cars.md), for the tests of the car part: `cars` cars with two
 * drivers each, about half of whom change seats over each winter; each racer's time is exponential with rate e^−(D + C) (endure's race
 * model), so the finishing order is what endure with cars fits. The cars change over a winter: a car keeps `carry` of
 * its strength and draws the rest anew. Seeded (mulberry32): the same history every run.
 */
import type { Race, RaceEntry } from '../../src/ratings/types.js';
import { mulberry32 } from './mulberry32.js';

export interface CarLeagueOptions {
	/** Seasons, one per calendar year from 2001 (default 4). */
	readonly seasons?: number;
	/** Races a season, a fortnight apart from 1 March (default 12). */
	readonly racesPerSeason?: number;
	/** Cars, two drivers each (default 5). */
	readonly cars?: number;
	/** The share of its strength a car keeps over a winter (default 0.9). */
	readonly carry?: number;
	/** The last racer of every n-th race retires (DNF); default: no retirement. */
	readonly retireEvery?: number;
}

/** The spread (standard deviation) of the cars' strengths, in R's units: the car matters more than the driver. */
const CAR_SPREAD = 1.5;

export function carLeague(seed: number, options: CarLeagueOptions = {}): Race[] {
	const { seasons = 4, racesPerSeason = 12, cars = 5, carry = 0.9, retireEvery } = options;
	const random = mulberry32(seed);
	// Box–Muller: a standard normal draw.
	const normal = () => Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
	const drivers = Array.from({ length: 2 * cars }, (_, i) => ({ name: `Driver ${i + 1}`, skill: 0.5 * normal() }));
	let carStrength = Array.from({ length: cars }, () => CAR_SPREAD * normal());
	/** seats[s] is the driver in seat s; seats 2c and 2c + 1 are car c's. */
	const seats = drivers.map((_, i) => i);
	const races: Race[] = [];
	for (let season = 0; season < seasons; season++) {
		if (season > 0)
			carStrength = carStrength.map((c) => carry * c + Math.sqrt(1 - carry * carry) * CAR_SPREAD * normal());
		// Over a winter about half the drivers change seats: each, in turn, swaps with a random driver half the time.
		if (season > 0) {
			for (let i = 0; i < seats.length; i++) {
				if (random() < 0.5) continue;
				const j = Math.floor(random() * seats.length);
				[seats[i], seats[j]] = [seats[j]!, seats[i]!];
			}
		}
		const carOf = new Map(seats.map((driver, seat) => [driver, Math.floor(seat / 2)]));
		for (let r = 0; r < racesPerSeason; r++) {
			const date = new Date(Date.UTC(2001 + season, 2, 1) + r * 14 * 86_400_000).toISOString().slice(0, 10);
			const timed = drivers.map((d, i) => {
				const car = carOf.get(i)!;
				const rate = Math.exp(-(d.skill + carStrength[car]!));
				return { player: d.name, car: `Car ${car + 1}`, time: -Math.log(random()) / rate };
			});
			timed.sort((a, b) => b.time - a.time); // endure: the last one eliminated wins
			const n = races.length + 1;
			const retires = retireEvery !== undefined && n % retireEvery === 0;
			const entries: RaceEntry[] = timed.map((t, i) => ({
				player: t.player,
				position: i + 1,
				status: retires && i === timed.length - 1 ? 'DNF' : 'finished',
				car: t.car,
			}));
			races.push({ id: `R${n}`, date, entries });
		}
	}
	return races;
}
