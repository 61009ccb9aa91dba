import { describe, expect, it } from 'vitest';
import { racesLeftFromLastYear } from '../../src/analysis/forecast-setup.js';
import { isUndatedHistory, MAX_CONTENDERS, seasonSoFar } from '../../src/analysis/season-so-far.js';
import type { Race, RaceEntry } from '../../src/ratings/types.js';

/** the season so far that the forecast starts from (hand-counted). */

const finished = (player: string, position: number): RaceEntry => ({ player, position, status: 'finished' });
const race = (id: string, date: string | undefined, entries: RaceEntry[]): Race => ({ id, date, entries });

const history: Race[] = [
	race('R1', '2025-12-20', [finished('A', 1), finished('B', 2)]),
	race('R2', '2026-01-05', [finished('B', 1), finished('A', 2), { player: 'C', position: 3, status: 'DNF' }]),
	race('R3', undefined, [finished('C', 1), finished('A', 2)]),
	race('R4', '2026-02-01', [finished('A', 1), finished('C', 1), { player: 'D', position: 3, status: 'DNS' }]),
	race('R5', '2026-03-01', [finished('D', 1), finished('A', 2)]),
];

describe('seasonSoFar', () => {
	it('counts this calendar year’s dated races up to the day: ties score alike, DNF is a 0, DNS is no result', () => {
		const s = seasonSoFar(history, '2026-02-15', [10, 6, 4]);
		expect(s.year).toBe(2026);
		expect(s.races).toBe(2); // R2 and R4: R1 is last year, R3 undated, R5 after the day
		expect(s.contenders).toEqual(['B', 'A', 'C']);
		expect(s.results).toEqual([[10], [6, 10], [0, 10]]);
		expect(s.leftOut).toBe(0);
	});

	it('before the season’s first race, the drivers of the latest race up to the day, with no points', () => {
		const s = seasonSoFar(history, '2026-01-01', [10, 6, 4]);
		expect(s.races).toBe(0);
		expect(s.contenders).toEqual(['A', 'B']);
		expect(s.results).toEqual([[], []]);
		expect(s.contendersFrom).toBe('2025-12-20'); // R1's drivers, and the reply says so
		expect(seasonSoFar(history, '2026-02-15', [10]).contendersFrom).toBeUndefined();
		expect(seasonSoFar(history, '2020-01-01', [10]).contenders).toEqual([]);
	});

	it('reads a history without a single date as a season from zero with its latest race’s drivers, by place', () => {
		const undated: Race[] = [
			race('U1', undefined, [finished('A', 1), finished('B', 2)]),
			race('U2', undefined, [finished('C', 2), { player: 'D', position: 3, status: 'DNS' }, finished('B', 1)]),
		];
		expect(isUndatedHistory(undated)).toBe(true);
		for (const asOf of ['2026-11-24', undefined]) {
			const s = seasonSoFar(undated, asOf, [10, 6, 4]);
			expect(s.undated).toBe(true);
			expect(s.races).toBe(0);
			expect(s.contenders).toEqual(['B', 'C']); // D did not start; A was not in the latest race
			expect(s.results).toEqual([[], []]);
		}
		// One dated race is a calendar: the dated reading, which finds no race of 2027.
		expect(isUndatedHistory(history)).toBe(false);
		expect(isUndatedHistory([])).toBe(false);
		expect(seasonSoFar(history, '2027-06-01', [10]).undated).toBe(false);
	});

	it(`keeps at most ${MAX_CONTENDERS} contenders: those with the most counted points, in order of appearance`, () => {
		const many = Array.from({ length: MAX_CONTENDERS + 5 }, (_, i) => finished(`P${i}`, i + 1));
		// Points for every place, the last five places scoring most in a second race.
		const second = many.slice(-5).map((e, i) => finished(e.player, i + 1));
		const points = Array.from({ length: MAX_CONTENDERS + 5 }, (_, i) => MAX_CONTENDERS + 5 - i);
		const s = seasonSoFar([race('X1', '2026-05-01', many), race('X2', '2026-05-08', second)], '2026-06-01', points);
		expect(s.leftOut).toBe(5);
		expect(s.contenders).toHaveLength(MAX_CONTENDERS);
		// P55..P59 left out (fewest points); P60..P64 kept thanks to the second race.
		expect(s.contenders).not.toContain('P59');
		expect(s.contenders).toContain('P64');
		expect(s.contenders.indexOf('P60')).toBeGreaterThan(s.contenders.indexOf('P54'));
	});
});

describe('racesLeftFromLastYear', () => {
	it('is last year’s number of races less this year’s so far, when positive', () => {
		expect(racesLeftFromLastYear(history, '2026-01-10')).toBeUndefined(); // 1 last year, 1 this year
		const more = [...history, race('R0', '2025-06-01', []), race('R00', '2025-07-01', [])];
		expect(racesLeftFromLastYear(more, '2026-01-10')).toBe(2);
	});
});
