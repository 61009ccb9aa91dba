import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvLine, CsvError, readCsv } from '../../src/formats/csv.js';

describe('readCsv (RFC 4180)', () => {
	it('reads plain rows with their line numbers', () => {
		expect(readCsv('a,b\n1,2\n')).toEqual([
			{ line: 1, fields: ['a', 'b'] },
			{ line: 2, fields: ['1', '2'] },
		]);
	});

	it('reads quoted fields holding commas, doubled quotes and newlines; counts lines inside quotes', () => {
		const rows = readCsv('name,x\n"Smith, J","say ""hi"""\n"two\nlines",3\nlast,4');
		expect(rows).toEqual([
			{ line: 1, fields: ['name', 'x'] },
			{ line: 2, fields: ['Smith, J', 'say "hi"'] },
			{ line: 3, fields: ['two\nlines', '3'] },
			{ line: 5, fields: ['last', '4'] },
		]);
	});

	it('tolerates CRLF, a BOM, blank lines and a missing final newline; keeps empty fields', () => {
		expect(readCsv('\uFEFFa,b\r\n\r\n,\r\nBö,"x\r\ny"')).toEqual([
			{ line: 1, fields: ['a', 'b'] },
			{ line: 3, fields: ['', ''] },
			{ line: 4, fields: ['Bö', 'x\r\ny'] },
		]);
	});

	it('rejects an unterminated quote, text after a closing quote and a stray quote, with the line', () => {
		expect(() => readCsv('a\n"open,1\n')).toThrow(new CsvError(2, 'unterminated quoted field'));
		expect(() => readCsv('a\n"x"y\n')).toThrow(new CsvError(2, 'unexpected text after a closing quote'));
		expect(() => readCsv('a\nx"y\n')).toThrow(/line 2: a quote inside an unquoted field/);
	});

	it('round-trips any table written by csvLine', () => {
		const field = fc.string({ unit: fc.constantFrom('a', 'ö', ',', '"', '\n', '\r', ' ', 'x') });
		fc.assert(
			fc.property(
				fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
				(table) => {
					const width = table[0]!.length;
					const rows = table.map((row) => row.slice(0, width).concat(Array(Math.max(0, width - row.length)).fill('z')));
					const text = rows.map((row) => csvLine(row)).join('\r\n');
					expect(readCsv(text).map((row) => row.fields)).toEqual(rows);
				},
			),
			{ numRuns: 150 },
		);
	});
});
