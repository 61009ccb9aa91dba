/**
 * The change cache with cars (docs/cars.md): each player's last change names their car's move, and each car's last
 * race is kept; both come back from the copy in the store exactly as the replay gave them (car parts are finite, so
 * JSON gives the same doubles back).
 */
import { describe, expect, it, vi } from 'vitest';
import { createReplay } from '../../src/league/replay.js';
import { endure } from '../../src/ratings/endure.js';
import { createChangeCache } from '../../src/services/caches/change-cache.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { carLeagueRaces, CARS } from '../support/driver-car-league.js';
import { organizer, world } from './helpers.js';

describe('the change cache with cars', () => {
	it('keeps each last change’s car and each car’s last race, through the store', async () => {
		const store = createMemoryStore();
		const w = world(store);
		const info = await w.services.leagues.create(organizer, { name: 'GT Cup', headline: 'endure' });
		const inputs = carLeagueRaces();
		await w.repo.appendEvent(info.id, { type: 'league-imported', races: inputs, source: 'test', by: 'test' });
		const league = await w.services.leagues.configure(organizer, undefined, { cars: 'on' });
		// The replay of the same races, keyed by name (the league keys players by id).
		const replay = createReplay(endure, endure.params({ phi: 0.999653, cars: true }));
		const lastOfCar = new Map<string, { race: string; before: number; after: number }>();
		const lastOfPlayer = new Map<string, unknown>();
		inputs.forEach((race, i) => {
			for (const c of replay.apply({ id: `R${i + 1}`, date: race.date, entries: race.entries }).changes) {
				lastOfPlayer.set(c.player, c.car);
				if (c.car !== undefined)
					lastOfCar.set(c.car.name, { race: `R${i + 1}`, before: c.car.before, after: c.car.after });
			}
		});
		const state = await w.repo.loadState(league.id);
		const read = async (cache: ReturnType<typeof createChangeCache>) => {
			const last = await cache.lastChanges(league, 'endure');
			const players = state.players().map((p) => [p.name, last.get(p.id)?.car]);
			const cars = [];
			for (const car of Object.keys(CARS)) cars.push([car, await cache.lastCarChange(league, 'endure', car)]);
			return { players, cars };
		};
		const first = await read(createChangeCache(w.repo));
		expect(first.players).toEqual(state.players().map((p) => [p.name, lastOfPlayer.get(p.name)]));
		expect(first.cars).toEqual(
			Object.keys(CARS).map((car) => [car, { ...lastOfCar.get(car), date: inputs.at(-1)!.date }]),
		);
		await vi.waitFor(async () =>
			expect(await store.namespace('derived-caches').get(`${league.id}:changes:endure`)).toBeDefined(),
		);
		const restored = await read(createChangeCache(createLeagueRepository(store)));
		expect(restored).toStrictEqual(first);
		expect(await createChangeCache(w.repo).lastCarChange(league, 'endure', 'Nope')).toBeUndefined();
	});
});
