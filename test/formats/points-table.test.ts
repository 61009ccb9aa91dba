import { describe, expect, it } from 'vitest';
import { countedPoints, parsePointsTable, pointsTableText } from '../../src/formats/points-table.js';

/** the points systems of the championship forecast. */
describe('parsePointsTable', () => {
	it('reads the named systems and custom lists', () => {
		expect(parsePointsTable('f1')).toEqual([25, 18, 15, 12, 10, 8, 6, 4, 2, 1]);
		expect(parsePointsTable(' MotoGP ')).toEqual([25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
		expect(parsePointsTable('10, 6,4,3 ,2,1,0.5')).toEqual([10, 6, 4, 3, 2, 1, 0.5]);
		expect(parsePointsTable('0,1')).toEqual([0, 1]);
	});

	it('refuses bad lists with the reason', () => {
		expect(() => parsePointsTable('')).toThrow('the points list is empty: give f1, motogp or e.g. 10,6,4,3,2,1');
		expect(() => parsePointsTable('10,-6')).toThrow('"-6" (place 2) is not a non-negative number');
		expect(() => parsePointsTable('10,x')).toThrow('"x" (place 2) is not a non-negative number');
		expect(() => parsePointsTable('10,,6')).toThrow('place 2 of the points list is empty (two commas in a row?)');
		expect(() => parsePointsTable('0,0')).toThrow('no place scores any points');
		expect(() => parsePointsTable('1e3')).toThrow('"1e3" (place 1) is not a non-negative number');
		expect(() => parsePointsTable(Array.from({ length: 101 }, () => '1').join(','))).toThrow(
			'at most 100 scoring places (got 101)',
		);
		expect(() => parsePointsTable('constructor')).toThrow('"constructor" (place 1)');
	});

	it('names a named list back, and writes a custom one as its list', () => {
		expect(pointsTableText(parsePointsTable('f1'))).toBe('f1');
		expect(pointsTableText([25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])).toBe('motogp');
		expect(pointsTableText([10, 6, 4])).toBe('10,6,4');
	});
});

describe('countedPoints', () => {
	it('sums every result, or only the best N', () => {
		expect(countedPoints([1, 25, 18])).toBe(44);
		expect(countedPoints([1, 25, 18], 2)).toBe(43);
		expect(countedPoints([1, 25], 5)).toBe(26);
		expect(countedPoints([])).toBe(0);
	});
});
