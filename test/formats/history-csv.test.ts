import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HistoryCsvError, parseHistoryCsv, parseTime, writeHistoryCsv } from '../../src/formats/history-csv.js';
import type { Race } from '../../src/ratings/types.js';

const parse = (text: string): Race[] => parseHistoryCsv(text, 'h.csv');

describe('parseHistoryCsv', () => {
	it('reads a full history: dates, ties, times in three forms, statuses, modes', () => {
		const races = parse(
			[
				'race,date,player,position,time,status,mode',
				'R1,2021-01-02,Alice,1,83.5,,items',
				'R1,2021-01-02,Bob,1,1:23.500,,items',
				'R1,2021-01-02,"Carol, Jr",3,1:00:00.25,DNF,items',
				'R2,2021-01-02,Alice,1,,DSQ,',
				'R2,2021-01-02,Bob,2,,DNS,',
			].join('\n'),
		);
		expect(races).toEqual([
			{
				id: 'R1',
				date: '2021-01-02',
				mode: 'items',
				entries: [
					{ player: 'Alice', position: 1, time: 83.5, status: 'finished' },
					{ player: 'Bob', position: 1, time: 83.5, status: 'finished' },
					{ player: 'Carol, Jr', position: 3, time: 3600.25, status: 'DNF' },
				],
			},
			{
				id: 'R2',
				date: '2021-01-02',
				entries: [
					{ player: 'Alice', position: 1, status: 'DSQ' },
					{ player: 'Bob', position: 2, status: 'DNS' },
				],
			},
		]);
	});

	it('needs only race, player and position, in any order and case, CRLF tolerated', () => {
		expect(parse('Position,PLAYER,race\r\n2,Bob,X\r\n1,Alice,X\r\n')).toEqual([
			{
				id: 'X',
				entries: [
					{ player: 'Bob', position: 2, status: 'finished' },
					{ player: 'Alice', position: 1, status: 'finished' },
				],
			},
		]);
	});

	it('reads a header-only file as an empty history', () => {
		expect(parse('race,player,position\n')).toEqual([]);
	});

	const bad: [string, string, string][] = [
		['empty file', '', 'h.csv:1: empty file: expected a header with columns race, player, position'],
		[
			'unknown header',
			'race,player,position,lap\nR1,A,1,2\n',
			'h.csv:1: unknown column "lap" (known: race, date, player, position, time, status, mode)',
		],
		['missing required column', 'race,player,time\nR1,A,1\n', 'h.csv:1: missing required column "position"'],
		['duplicate column', 'race,player,position,race\nR1,A,1,R1\n', 'h.csv:1: duplicate column "race"'],
		[
			'wrong field count',
			'race,player,position\nR1,A,1\nR1,B\n',
			'h.csv:3: expected 3 fields as in the header, found 2',
		],
		['empty race id', 'race,player,position\n ,A,1\n', 'h.csv:2: empty race id'],
		['empty player', 'race,player,position\nR1,A,1\nR1,  ,2\n', 'h.csv:3: empty player name'],
		[
			'non-integer position',
			'race,player,position\nR1,A,1.5\n',
			'h.csv:2: position must be an integer of at least 1, got "1.5"',
		],
		[
			'position below 1',
			'race,player,position\nR1,A,0\n',
			'h.csv:2: position must be an integer of at least 1, got "0"',
		],
		['missing position', 'race,player,position\nR1,A,\n', 'h.csv:2: position must be an integer of at least 1, got ""'],
		[
			'bad date format',
			'race,date,player,position\nR1,2021-1-02,A,1\n',
			'h.csv:2: date must be a calendar date YYYY-MM-DD, got "2021-1-02"',
		],
		[
			'not a calendar date',
			'race,date,player,position\nR1,2021-02-29,A,1\n',
			'h.csv:2: date must be a calendar date YYYY-MM-DD, got "2021-02-29"',
		],
		[
			'two dates in one race',
			'race,date,player,position\nR1,2021-03-01,A,1\nR1,2021-03-02,B,2\n',
			'h.csv:3: race "R1" has date 2021-03-01 on line 2, but 2021-03-02 here',
		],
		[
			'two modes in one race',
			'race,player,position,mode\nR1,A,1,tt\nR1,B,2,\n',
			'h.csv:3: race "R1" has mode tt on line 2, but (none) here',
		],
		[
			'non-contiguous race',
			'race,player,position\nR1,A,1\nR2,A,1\nR1,B,2\n',
			'h.csv:4: race "R1" reappears after race "R2": rows of one race must be contiguous',
		],
		[
			'player twice in a race',
			'race,player,position\nR1,A,1\nR1,B,2\nR1,A,3\n',
			'h.csv:4: player "A" is entered twice in race "R1" (first on line 2)',
		],
		[
			'bad time',
			'race,player,position,time\nR1,A,1,1:75.0\n',
			'h.csv:2: time must be seconds, m:ss.fff or h:mm:ss.fff, got "1:75.0"',
		],
		[
			'bad status',
			'race,player,position,status\nR1,A,1,RET\n',
			'h.csv:2: status must be empty, DNF, DNS or DSQ, got "RET"',
		],
		['bad mode', 'race,player,position,mode\nR1,A,1,drift\n', 'h.csv:2: mode must be tt or items, got "drift"'],
		['broken quoting', 'race,player,position\nR1,"A,1\n', 'h.csv:2: unterminated quoted field'],
	];
	it('keeps a race dated before the previous one in file order, with a warning naming its line (issue 8 §1)', () => {
		const warnings: string[] = [];
		const text = 'race,date,player,position\nR1,2021-03-01,A,1\nR2,,A,1\nR3,2021-02-28,A,1\nR4,2021-03-02,A,1\n';
		const races = parseHistoryCsv(text, 'h.csv', (w) => warnings.push(w));
		expect(races.map((race) => [race.id, race.date])).toEqual([
			['R1', '2021-03-01'],
			['R2', undefined],
			['R3', '2021-02-28'],
			['R4', '2021-03-02'],
		]);
		expect(warnings).toEqual([
			'h.csv:4: race "R3" is dated 2021-02-28, before the previous race "R1" (2021-03-01): rated in file order',
		]);
		expect(parse(text)).toEqual(races); // no listener: the same races, silently
	});

	it.each(bad)('rejects %s with file:line', (_case, text, message) => {
		expect(() => parse(text)).toThrow(HistoryCsvError);
		expect(() => parse(text)).toThrow(message);
		try {
			parse(text);
		} catch (error) {
			expect((error as Error).message).toBe(message);
		}
	});
});

describe('parseTime', () => {
	it('reads seconds, m:ss.fff and h:mm:ss.fff', () => {
		expect(parseTime('59.125')).toBe(59.125);
		expect(parseTime('7')).toBe(7);
		expect(parseTime('1:23.456')).toBe(60 + 23.456);
		expect(parseTime('12:03')).toBe(723);
		expect(parseTime('1:02:03.5')).toBe(3723.5);
		expect(parseTime('5e-324')).toBe(5e-324);
		expect(parseTime('1e+21')).toBe(1e21);
	});
	it('rejects malformed times', () => {
		for (const text of [
			'',
			'-1',
			'1:2',
			'1:60',
			'1:5:00',
			'1:02:3',
			'abc',
			'1.',
			'.5',
			'1:00:60',
			'1,5',
			'1:2e3',
			'e5',
		]) {
			expect(parseTime(text), text).toBeUndefined();
		}
	});
});

describe('writeHistoryCsv', () => {
	it('writes the header, quotes names and writes mode only when used', () => {
		const races: Race[] = [
			{
				id: 'R 1',
				date: '2020-02-29',
				entries: [{ player: 'Smith, "J"', position: 1, time: 0.1 + 0.2, status: 'finished' }],
			},
		];
		expect(writeHistoryCsv(races)).toBe(
			'race,date,player,position,time,status\nR 1,2020-02-29,"Smith, ""J""",1,0.30000000000000004,\n',
		);
	});

	it('round-trips through parseHistoryCsv bit for bit', () => {
		const name = fc.string({ unit: fc.constantFrom('a', 'B', 'ö', ',', '"', ' ', '\n'), minLength: 1, maxLength: 6 });
		const entry = fc.record({
			player: name.map((s) => `p${s}q`),
			position: fc.integer({ min: 1, max: 30 }),
			time: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: undefined }),
			status: fc.constantFrom('finished', 'DNF', 'DNS', 'DSQ'),
		});
		const race = fc.record({
			entries: fc.uniqueArray(entry, { minLength: 1, maxLength: 5, selector: (e) => e.player }),
			mode: fc.option(fc.constantFrom('tt', 'items'), { nil: undefined }),
			day: fc.integer({ min: 0, max: 27 }),
		});
		fc.assert(
			fc.property(fc.array(race, { minLength: 1, maxLength: 5 }), (drafts) => {
				let day = 1;
				const races: Race[] = drafts.map((draft, i) => {
					day = Math.min(28, day + (draft.day % 3));
					return {
						id: `R${i}`,
						date: `2024-02-${String(day).padStart(2, '0')}`,
						...(draft.mode !== undefined && { mode: draft.mode }),
						entries: draft.entries.map((e) => ({
							player: e.player,
							position: e.position,
							...(e.time !== undefined && { time: e.time }),
							status: e.status,
						})),
					};
				});
				expect(parse(writeHistoryCsv(races))).toEqual(races);
			}),
			{ numRuns: 100 },
		);
	});
});
