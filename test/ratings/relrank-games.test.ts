import { describe, expect, it } from 'vitest';
import {
	GamesInputError,
	parseGames,
	parseGamesCompat,
	parseGoInt64,
	racesToGames,
	ReferenceCrash,
} from '../../src/ratings/relrank/games.js';
import type { Race } from '../../src/ratings/types.js';

function crashOf(run: () => unknown): ReferenceCrash {
	try {
		run();
	} catch (error) {
		if (error instanceof ReferenceCrash) return error;
		throw error;
	}
	throw new Error('no crash');
}

describe('parseGamesCompat: the reference reading, quirks included (spec step 1)', () => {
	it('drops a last line without newline', () => {
		expect(parseGamesCompat('1,2,3,0\n2,1,3,2\n3,1,2,1')).toHaveLength(2);
		expect(parseGamesCompat('1,2,3,0\n2,1,3,2\n3,1,2,1\n')).toHaveLength(3);
	});

	it('skips line 0 when sp[2]+sp[3] is not an int64, even a data line like 1,2,3,-1', () => {
		expect(parseGamesCompat('hi,ai,hs,as\n1,2,3,0\n')).toEqual([{ a: 1, b: 2, roundsA: 3, roundsB: 0 }]);
		expect(parseGamesCompat('1,2,3,-1\n1,2,3,0\n')).toEqual([{ a: 1, b: 2, roundsA: 3, roundsB: 0 }]);
		expect(parseGamesCompat('1,2,-3,1\n')).toEqual([{ a: 1, b: 2, roundsA: -3, roundsB: 1 }]); // "-31" parses
		expect(parseGamesCompat('1,2,3,0\r\n2,1,3,2\n')).toEqual([{ a: 2, b: 1, roundsA: 3, roundsB: 2 }]); // CRLF line 0
	});

	it('is fatal (exit 1) on a non-integer after line 0, CRLF included; skips empty lines; ignores extra fields', () => {
		expect(crashOf(() => parseGamesCompat('1,2,3,0\n1,x,3,0\n'))).toMatchObject({
			kind: 'fatal',
			message: 'x is not an integer',
		});
		expect(crashOf(() => parseGamesCompat('1,2,3,0\n1,2,3,0\r\n')).exitCode).toBe(1);
		expect(parseGamesCompat('1,2,3,0\n\n2,1,1,1,extra\n')).toHaveLength(2);
	});

	it('panics (exit 2) on empty input and on a line with fewer than 4 fields', () => {
		expect(crashOf(() => parseGamesCompat('')).stderrLine).toBe(
			'panic: runtime error: slice bounds out of range [:-1]',
		);
		expect(crashOf(() => parseGamesCompat('1,2,3,0\n1,2\n')).stderrLine).toBe(
			'panic: runtime error: index out of range [2] with length 2',
		);
		expect(crashOf(() => parseGamesCompat('1,2,3\n')).exitCode).toBe(2);
	});

	it('ParseInt: int64 range and syntax as Go', () => {
		expect(parseGoInt64('+7')).toBe(7n);
		expect(parseGoInt64('9223372036854775807')).toBe(9223372036854775807n);
		expect(parseGoInt64('9223372036854775808')).toBeUndefined();
		expect(parseGoInt64(' 7')).toBeUndefined();
		expect(parseGoInt64('')).toBeUndefined();
	});
});

describe('parseGames: the default reading', () => {
	it('reads a last line without newline, CRLF, blank lines and spaces around fields', () => {
		expect(parseGames('1,2,3,0\r\n\n 2 , 1 ,3,2\n3,1,2,1')).toHaveLength(3);
	});

	it('skips a first line only when none of its fields is an integer (a header)', () => {
		expect(parseGames('hi,ai,hs,as\n1,2,3,0\n')).toHaveLength(1);
		expect(() => parseGames('1,2,x,0\n1,2,3,0\n')).toThrow('line 1: "x" is not an integer');
	});

	it('treats a first line 1,2,3,-1 as data and rejects its negative round count with the line number', () => {
		expect(() => parseGames('1,2,3,-1\n1,2,3,0\n')).toThrow('line 1: round counts must not be negative');
	});

	it('requires exactly 4 fields, distinct ids and at least one game', () => {
		expect(() => parseGames('1,2,3,0\n1,2,3\n')).toThrow(GamesInputError);
		expect(() => parseGames('1,2,3,0,9\n')).toThrow(/expected 4 fields/);
		expect(() => parseGames('1,1,3,0\n')).toThrow(/plays against itself/);
		expect(() => parseGames('hi,ai,hs,as\n')).toThrow('no games in the input');
		expect(() => parseGames('')).toThrow('no games in the input');
	});
});

describe('racesToGames: a race league as pairwise rounds', () => {
	const race = (id: string, entries: [string, number, Race['entries'][number]['status']][]): Race => ({
		id,
		entries: entries.map(([player, position, status]) => ({ player, position, status })),
	});

	it('each racer wins one round against each racer ranked below; DNS/DSQ dropped, DNF below finishers, ties 0-0', () => {
		const { games, idOf, players } = racesToGames([
			race('r1', [
				['Cid', 1, 'finished'],
				['Ann', 2, 'finished'],
				['Bob', 3, 'DNF'],
				['Dee', 4, 'DNS'],
			]),
			race('r2', [
				['Bob', 1, 'finished'],
				['Ann', 2, 'DNF'],
				['Cid', 2, 'finished'],
				['Eve', 1, 'DSQ'],
			]),
			race('r3', [
				['Ann', 1, 'finished'],
				['Cid', 1, 'finished'],
			]),
		]);
		expect(players).toEqual(['Ann', 'Bob', 'Cid']);
		expect([...idOf]).toEqual([
			['Ann', 1],
			['Bob', 2],
			['Cid', 3],
		]);
		expect(games).toEqual([
			{ a: 1, b: 2, roundsA: 1, roundsB: 1 }, // r1 Ann > Bob (DNF); r2 Bob > Ann (DNF)
			{ a: 1, b: 3, roundsA: 0, roundsB: 2 }, // r1 Cid > Ann; r2 Cid > Ann (DNF); r3 tie: no round
			{ a: 2, b: 3, roundsA: 1, roundsB: 1 },
		]);
	});

	it('ids start at 1 (the reference treats user 0 as not found) and do not depend on race order', () => {
		const r1 = race('1', [
			['b', 1, 'finished'],
			['a', 2, 'finished'],
		]);
		const r2 = race('2', [
			['c', 1, 'finished'],
			['b', 2, 'finished'],
		]);
		expect(racesToGames([r1, r2])).toEqual(racesToGames([r2, r1]));
		expect(Math.min(...racesToGames([r1, r2]).idOf.values())).toBe(1);
	});
});
