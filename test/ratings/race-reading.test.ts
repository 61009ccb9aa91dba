import { describe, expect, it } from 'vitest';
import { rankRace } from '../../src/ratings/race.js';
import type { Race } from '../../src/ratings/types.js';

/** A race of three finishers, two retirements in the order given, and a non-starter. */
const race: Race = {
	id: 'R1',
	entries: [
		{ player: 'Cy', position: 3, status: 'finished' },
		{ player: 'Al', position: 1, status: 'finished' },
		{ player: 'Bo', position: 2, status: 'finished' },
		{ player: 'Ed', position: 5, status: 'DNF' },
		{ player: 'Di', position: 4, status: 'DNF' },
		{ player: 'Fy', position: 6, status: 'DNS' },
	],
};
const ranks = (reading?: Parameters<typeof rankRace>[1]) =>
	rankRace(race, reading).map((e) => [e.player, e.rank, e.status]);

describe('reading retirements', () => {
	it('ordered (the default): below the finishers, in the order given', () => {
		const expected = [
			['Al', 1, 'finished'],
			['Bo', 2, 'finished'],
			['Cy', 3, 'finished'],
			['Di', 4, 'DNF'],
			['Ed', 5, 'DNF'],
		];
		expect(ranks()).toEqual(expected);
		expect(ranks('ordered')).toEqual(expected);
	});

	it('tied: below the finishers, sharing the mean of their places', () => {
		expect(ranks('tied')).toEqual([
			['Al', 1, 'finished'],
			['Bo', 2, 'finished'],
			['Cy', 3, 'finished'],
			['Di', 4.5, 'DNF'],
			['Ed', 4.5, 'DNF'],
		]);
	});

	it('excluded: left out as a non-starter is', () => {
		expect(ranks('excluded')).toEqual([
			['Al', 1, 'finished'],
			['Bo', 2, 'finished'],
			['Cy', 3, 'finished'],
		]);
	});
});

describe('a player entered twice', () => {
	/** A field of `size` with entry `again` repeating the player of entry `first`, as a non-starter. */
	const twice = (size: number, first: number, again: number): Race => ({
		id: 'R9',
		entries: Array.from({ length: size }, (_, i) => ({
			player: `P${i === again ? first : i}`,
			position: i + 1,
			status: i === again ? ('DNS' as const) : ('finished' as const),
		})),
	});

	it.each([
		['a field of 20', 20],
		['a field of 64', 64],
		['a field of 65 (checked through a set)', 65],
		['a field of 300', 300],
	])('is refused in %s, naming the player, whatever their status', (_, size) => {
		expect(() => rankRace(twice(size, 3, size - 1))).toThrow(`race R9: P3 is entered twice`);
		expect(() => rankRace(twice(size, 0, 1))).toThrow(`race R9: P0 is entered twice`);
		expect(rankRace(twice(size, 3, -1))).toHaveLength(size);
	});
});
