/** A sim's classification as one race's scoreboard (src/formats/results/to-scoreboard.ts). */
import { describe, expect, it } from 'vitest';
import { resultScoreboard } from '../../../src/formats/results/to-scoreboard.js';
import { ResultFileError, type ResultEntry, type ResultFile } from '../../../src/formats/results/types.js';

const file = (entries: ResultEntry[]): ResultFile => ({
	format: 'acc',
	formatName: 'test results',
	entries,
	warnings: [],
});

// A GT3/GT4 race: the winner 20 laps in 2712.345 s; a lapped finisher; a car that retired (fewer laps in less
// time: inferred); a DSQ; and a GT4 car classified between them overall.
const RACE: ResultEntry[] = [
	{ name: 'Ann', position: 1, status: 'finished', totalTime: 2712.345, laps: 20, carClass: 'GT3' },
	{ name: 'Ben', position: 2, status: 'finished', totalTime: 2715.1, laps: 20, carClass: 'GT3' },
	{ name: 'Gus', position: 3, status: 'finished', totalTime: 2720.5, laps: 19, carClass: 'GT4', classPosition: 1 },
	{ name: 'Cy', position: 4, status: 'finished', totalTime: 2740, laps: 19, carClass: 'GT3' },
	{ name: 'Dee', position: 5, status: 'DNF', statusInferred: true, totalTime: 1500.2, laps: 11, carClass: 'GT3' },
	{ name: 'Eve', position: 6, status: 'DSQ', totalTime: 2713, laps: 20, carClass: 'GT3', penalties: ['disqualified'] },
];
const rows = (f: ResultFile, carClass?: string) => {
	const board = resultScoreboard(f, { carClass });
	if (!board.result.ok) throw new Error(JSON.stringify(board.result.errors));
	return board.result.entries.map((e) => [e.player, e.position, e.time, e.status]);
};

describe('resultScoreboard', () => {
	it("keeps the file's order; a time only for finishers on the winner's lap; the others after the finishers", () => {
		expect(rows(file(RACE))).toEqual([
			['Ann', 1, 2712.345, 'finished'],
			['Ben', 2, 2715.1, 'finished'],
			['Gus', 3, undefined, 'finished'],
			['Cy', 4, undefined, 'finished'],
			['Dee', 5, undefined, 'DNF'],
			['Eve', 6, undefined, 'DSQ'],
		]);
		const board = resultScoreboard(file(RACE));
		expect(board.classes).toEqual([
			{ name: 'GT3', cars: 5 },
			{ name: 'GT4', cars: 1 },
		]);
		expect(board.racers.map((r) => r.from.name)).toEqual(['Ann', 'Ben', 'Gus', 'Cy', 'Dee', 'Eve']);
	});

	it('puts finishers first, whatever the file lists between them', () => {
		const shuffled = [RACE[0]!, RACE[4]!, RACE[1]!, RACE[5]!, RACE[3]!];
		expect(rows(file(shuffled)).map((r) => r[0])).toEqual(['Ann', 'Ben', 'Cy', 'Dee', 'Eve']);
	});

	it('rates one class alone, by its class positions where the file gives them, ignoring case', () => {
		expect(rows(file(RACE), 'gt3').map((r) => r.slice(0, 2))).toEqual([
			['Ann', 1],
			['Ben', 2],
			['Cy', 3],
			['Dee', 4],
			['Eve', 5],
		]);
		const byClassPosition = file([
			{ name: 'A', position: 1, status: 'finished', carClass: 'LMP2', classPosition: 2 },
			{ name: 'B', position: 2, status: 'finished', carClass: 'LMP2', classPosition: 1 },
		]);
		expect(rows(byClassPosition, 'LMP2').map((r) => r[0])).toEqual(['B', 'A']);
		expect(resultScoreboard(file(RACE), { carClass: 'gt3' }).carClass).toBe('GT3');
	});

	it('gives tied racers one place (a Mario Kart table), ranked 1, 1, 3', () => {
		const tied = file([
			{ name: 'A', position: 1, status: 'finished', points: 100 },
			{ name: 'B', position: 2, status: 'finished', points: 100, tied: true },
			{ name: 'C', position: 3, status: 'finished', points: 98 },
		]);
		expect(rows(tied).map((r) => r.slice(0, 2))).toEqual([
			['A', 1],
			['B', 1],
			['C', 3],
		]);
	});

	it('refuses a class the file does not have, naming the ones it has', () => {
		expect(() => resultScoreboard(file(RACE), { carClass: 'LMP2' })).toThrow(
			new ResultFileError('The file has no class "LMP2": its classes are GT3 (5 cars), GT4 (1 car)'),
		);
	});

	it('cleans names to the league rules and says so; the same name twice is the scoreboard error, without line numbers', () => {
		const board = resultScoreboard(
			file([
				{ name: '  Max   Power\u200b ', position: 1, status: 'finished' },
				{ name: 'Hubert Blaine Wolfeschlegelsteinhausen', position: 2, status: 'finished' },
			]),
		);
		expect(board.result.ok && board.result.entries.map((e) => e.player)).toEqual([
			'Max Power',
			'Hubert Blaine Wolfeschlegelstein',
		]);
		expect(board.result.ok && board.result.warnings).toEqual([
			'"Max Power": invisible or control characters of the file\'s name left out',
			'"Hubert Blaine Wolfeschlegelsteinhausen" is over 32 characters: stored as "Hubert Blaine Wolfeschlegelstein"',
		]);
		const twice = resultScoreboard(
			file([
				{ name: 'Bob', position: 1, status: 'finished' },
				{ name: 'bob', position: 2, status: 'finished' },
			]),
		);
		expect(twice.result.ok ? [] : twice.result.errors.map((e) => e.message)).toEqual([
			'"bob" is entered twice: as "Bob" and here (names ignore case)',
		]);
	});
});
