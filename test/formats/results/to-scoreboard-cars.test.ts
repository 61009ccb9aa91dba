/** The car model of each racer of a sim's file, as the scoreboard of one race carries it (to-scoreboard.ts). */
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv, writeHistoryCsv } from '../../../src/formats/history-csv.js';
import { carOf, resultScoreboard } from '../../../src/formats/results/to-scoreboard.js';
import type { ResultEntry, ResultFile } from '../../../src/formats/results/types.js';

const file = (entries: ResultEntry[]): ResultFile => ({ format: 'acc', formatName: 'test', entries, warnings: [] });
const racer = (name: string, position: number, extra: Partial<ResultEntry> = {}): ResultEntry => ({
	name,
	position,
	status: 'finished',
	...extra,
});

describe('the cars of a result file’s scoreboard', () => {
	const RACE = [
		racer('Ann', 1, { car: 'Porsche 992 GT3 R', carClass: 'GT3' }),
		racer('Ben', 2, { car: 'Alpine A110 GT4', carClass: 'GT4' }),
		racer('Cy', 3, { carClass: 'GT3' }), // the file names no car: none, and never the class
		racer('Dee', 4, { car: 'Ferrari 296 GT3', carClass: 'GT3', status: 'DNF' }),
	];

	it('go with each racer’s entry, in the scoreboard’s entries and its racers alike', () => {
		const board = resultScoreboard(file(RACE));
		if (!board.result.ok) throw new Error('not ok');
		const cars = board.result.entries.map((e) => [e.player, e.car]);
		expect(cars).toEqual([
			['Ann', 'Porsche 992 GT3 R'],
			['Ben', 'Alpine A110 GT4'],
			['Cy', undefined],
			['Dee', 'Ferrari 296 GT3'],
		]);
		expect(board.racers.map((r) => [r.entry.player, r.entry.car])).toEqual(cars);
		expect(Object.hasOwn(board.result.entries[2]!, 'car')).toBe(false);
	});

	it('follow their racer when one class is rated alone by class position', () => {
		const board = resultScoreboard(file(RACE), { carClass: 'gt3' });
		if (!board.result.ok) throw new Error('not ok');
		expect(board.result.entries.map((e) => [e.player, e.car])).toEqual([
			['Ann', 'Porsche 992 GT3 R'],
			['Cy', undefined],
			['Dee', 'Ferrari 296 GT3'],
		]);
	});

	it('follow their racer through a rename (an accepted suggestion)', () => {
		const board = resultScoreboard(file(RACE), { renames: [['Ben', 'Benjamin']] });
		if (!board.result.ok) throw new Error('not ok');
		expect(board.result.entries[1]).toMatchObject({ player: 'Benjamin', car: 'Alpine A110 GT4' });
	});
});

describe('carOf: a file’s car name as the league stores it', () => {
	const car = (name: string) => carOf(racer('A', 1, { car: name }));

	it('drops invisible and control characters, collapses spaces, keeps a leading #', () => {
		expect(car('  Porsche\u200B 911   GT3\tR ')).toBe('Porsche 911 GT3 R');
		expect(car('BMW\u0007 M4')).toBe('BMW M4');
		expect(car('#24 Porsche 963')).toBe('#24 Porsche 963');
	});

	it('cuts a name over 64 characters, and reads a blank or invisible one as no car', () => {
		expect(car(`${'x'.repeat(60)} abcdef`)).toBe(`${'x'.repeat(60)} abc`);
		expect(car('ñ'.repeat(70))).toBe('ñ'.repeat(64));
		expect(car('   ')).toBeUndefined();
		expect(car('\u200B\u3164')).toBeUndefined();
		expect(car('\u0301')).toBeUndefined();
		expect(carOf(racer('A', 1))).toBeUndefined();
	});

	it('always gives a name the history CSV writes and reads back (an export of a file’s race never fails)', () => {
		const names = ['  a  b ', '\u200Bx', `${'y'.repeat(63)} z`, 'é'.repeat(80), 'Lotus, "72"', '🏁 Ferrari'];
		const entries = names.map((name, i) => ({
			player: `P${i}`,
			position: i + 1,
			status: 'finished' as const,
			car: car(name)!,
		}));
		const races = [{ id: 'R1', entries }];
		expect(parseHistoryCsv(writeHistoryCsv(races))).toEqual(races);
	});
});
