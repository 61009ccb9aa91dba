import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
	HistoryCsvError,
	HistoryCsvWriteError,
	parseHistoryCsv,
	parseTime,
	writeHistoryCsv,
} from '../../src/formats/history-csv.js';
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
			'h.csv:1: unknown column "lap" (known: race, date, player, position, time, status, mode, team, car)',
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
		// numbers that read as Infinity or lose their digits, control characters in names.
		[
			'a 309-digit position (Infinity)',
			`race,player,position\nR1,A,1\nR1,B,${'9'.repeat(309)}\n`,
			`h.csv:3: position "${'9'.repeat(309)}" is too large: at most 9007199254740991 (2^53 − 1)`,
		],
		[
			'a position above 2^53',
			'race,player,position\nR1,A,9007199254740993\n',
			'h.csv:2: position "9007199254740993" is too large: at most 9007199254740991 (2^53 − 1)',
		],
		[
			'a position in exponent form',
			'race,player,position\nR1,A,1e309\n',
			'h.csv:2: position must be an integer of at least 1, got "1e309"',
		],
		[
			'a time of 1e309 (Infinity)',
			'race,player,position,time\nR1,A,1,83.5\nR1,B,2,1e309\n',
			'h.csv:3: time "1e309" is too large: it reads as Infinity, expected a finite number of seconds',
		],
		[
			'a time of 400 digits (Infinity)',
			`race,player,position,time\nR1,A,1,${'9'.repeat(400)}\n`,
			`h.csv:2: time "${'9'.repeat(400)}" is too large: it reads as Infinity, expected a finite number of seconds`,
		],
		[
			'minutes of 400 digits (Infinity)',
			`race,player,position,time\nR1,A,1,${'9'.repeat(400)}:00.0\n`,
			`h.csv:2: time "${'9'.repeat(400)}:00.0" is too large: it reads as Infinity, expected a finite number of seconds`,
		],
		[
			'a newline in a name',
			'race,player,position\nR1,A,1\nR1,"Bo\nb",2\n',
			'h.csv:3: the player name contains the character U+000A: control and invisible formatting characters are not allowed',
		],
		[
			'a control character in a name',
			'race,player,position\nR1,Bo\u0007b,1\n',
			'h.csv:2: the player name contains the character U+0007: control and invisible formatting characters are not allowed',
		],
		[
			'a bidi override in a name',
			'race,player,position\nR1,Bo\u202Eb,1\n',
			'h.csv:2: the player name contains the character U+202E: control and invisible formatting characters are not allowed',
		],
		[
			'a zero-width space in a name',
			'race,player,position\nR1,Bo\u200Bb,1\n',
			'h.csv:2: the player name contains the character U+200B: control and invisible formatting characters are not allowed',
		],
		[
			'a name over the scoreboard limit',
			`race,player,position\nR1,${'x'.repeat(33)},1\n`,
			`h.csv:2: the player name "${'x'.repeat(33)}" is 33 characters long: at most 32`,
		],
		[
			'a name written like a player id',
			'race,player,position\nR1,A,1\nR1,#1,2\n',
			'h.csv:3: the player name "#1" starts with #, as player ids do (#1): start it with another character',
		],
		[
			'a control character in a race id',
			'race,player,position\n"R\n1",A,1\n',
			'h.csv:2: the race id contains the character U+000A: a race id may not hold control characters',
		],
	];
	it('keeps a race dated before the previous one in file order, with a warning naming its line', () => {
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
			'h.csv:4: race "R3" is dated 2021-02-28, before the previous race "R1" (2021-03-01): rated before it, in date order',
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
		const name = fc.string({ unit: fc.constantFrom('a', 'B', 'ö', ',', '"', ' '), minLength: 1, maxLength: 6 });
		const entry = fc.record({
			player: name.map((s) => `p${s}q`.replace(/ +/g, ' ')), // as stored: one space between words
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

describe('the team column', () => {
	it('reads each racer’s team, empty meaning none, and writes the column only when some racer has one', () => {
		const text = 'race,player,position,team\nR1,Ann,1,Red Bull\nR1,Bob,2,\n';
		const races = parse(text);
		expect(races[0]!.entries).toEqual([
			{ player: 'Ann', position: 1, status: 'finished', team: 'Red Bull' },
			{ player: 'Bob', position: 2, status: 'finished' },
		]);
		expect(writeHistoryCsv(races)).toBe(
			'race,date,player,position,time,status,team\nR1,,Ann,1,,,Red Bull\nR1,,Bob,2,,,\n',
		);
		expect(parse(writeHistoryCsv(races))).toEqual(races);
		expect(writeHistoryCsv([{ id: 'R1', entries: [{ player: 'Ann', position: 1, status: 'finished' }] }])).toBe(
			'race,date,player,position,time,status\nR1,,Ann,1,,\n',
		);
	});

	it('refuses a team the reader could not read back', () => {
		const one = (team: string): Race[] => [
			{ id: 'R1', entries: [{ player: 'Ann', position: 1, status: 'finished', team }] },
		];
		expect(() => writeHistoryCsv(one(''))).toThrow('the team name is empty');
		expect(() => writeHistoryCsv(one(' Red'))).toThrow('spaces at its ends');
		expect(() => writeHistoryCsv(one('a\u0007'))).toThrow('control characters');
		expect(() => parse('race,player,position,team\nR1,Ann,1,' + 'x'.repeat(65) + '\n')).toThrow('longer than 64');
	});
});

describe('writeHistoryCsv never writes what parseHistoryCsv refuses', () => {
	const one = (entry: Partial<Race['entries'][number]>, race: Partial<Race> = {}): Race[] => [
		{ id: 'R1', entries: [{ player: 'A', position: 1, status: 'finished', ...entry }], ...race },
	];
	it.each<[string, Race[], string]>([
		[
			'a fractional position',
			one({ position: 1.5 }),
			'race "R1", player "A": position 1.5 must be an integer from 1 to 9007199254740991 (2^53 − 1)',
		],
		['position 0', one({ position: 0 }), 'race "R1", player "A": position 0 must be an integer from 1'],
		[
			'a position of 2^53',
			one({ position: 2 ** 53 }),
			'race "R1", player "A": position 9007199254740992 must be an integer from 1',
		],
		[
			'an infinite position',
			one({ position: Infinity }),
			'race "R1", player "A": position Infinity must be an integer from 1',
		],
		[
			'an infinite time',
			one({ time: Infinity }),
			'race "R1", player "A": time Infinity must be a finite number of seconds, at least 0',
		],
		[
			'a NaN time',
			one({ time: Number.NaN }),
			'race "R1", player "A": time NaN must be a finite number of seconds, at least 0',
		],
		[
			'a negative time',
			one({ time: -1 }),
			'race "R1", player "A": time -1 must be a finite number of seconds, at least 0',
		],
		['a newline in a name', one({ player: 'Bo\nb' }), 'race "R1": the player name contains the character U+000A'],
		[
			'a bidi override in a name',
			one({ player: 'Bo\u202Eb' }),
			'race "R1": the player name contains the character U+202E',
		],
		[
			'a long name',
			one({ player: 'x'.repeat(33) }),
			`race "R1": the player name "${'x'.repeat(33)}" is 33 characters long: at most 32`,
		],
		['a name like an id', one({ player: '#1' }), 'race "R1": the player name "#1" starts with #'],
		['an empty name', one({ player: '' }), 'race "R1": the player name is empty'],
		[
			'spaces around a name',
			one({ player: ' Bob' }),
			'race "R1": the player name " Bob" has spaces at its ends, which a reader trims',
		],
		['an empty race id', one({}, { id: '' }), 'race "": the race id is empty'],
		[
			'spaces around a race id',
			one({}, { id: 'R1 ' }),
			'race "R1 ": the race id has spaces at its ends, which a reader trims',
		],
		[
			'a newline in a race id',
			one({}, { id: 'R\n1' }),
			'the race id contains the character U+000A: a race id may not hold control characters',
		],
		['a bad date', one({}, { date: '2021-02-29' }), 'race "R1": date "2021-02-29" must be a calendar date YYYY-MM-DD'],
		[
			'a bad status',
			one({ status: 'RET' as never }),
			'race "R1", player "A": status "RET" must be finished, DNF, DNS or DSQ',
		],
		['a bad mode', one({}, { mode: 'drift' as never }), 'race "R1": mode "drift" must be tt or items'],
		[
			'a race with no entries',
			[{ id: 'R1', entries: [] }],
			'race "R1" has no entries: a history CSV has one row per racer',
		],
		[
			'a player twice in a race',
			[
				{
					id: 'R1',
					entries: [
						{ player: 'A', position: 1, status: 'finished' },
						{ player: 'A', position: 2, status: 'finished' },
					],
				},
			],
			'race "R1": player "A" is entered twice',
		],
		[
			'a race id used twice',
			[...one({}), ...one({ player: 'B' })],
			'race "R1" appears twice (races 1 and 2): a history CSV needs distinct race ids',
		],
	])('refuses %s with a clear error, writing nothing', (_case, races, message) => {
		expect(() => writeHistoryCsv(races)).toThrow(HistoryCsvWriteError);
		expect(() => writeHistoryCsv(races)).toThrow(message);
	});

	/** Names that are awkward in a CSV but valid: commas, quotes, spaces inside, accents, emoji, other scripts. */
	const awkwardName = fc
		.array(
			fc.constantFrom(
				'a',
				'Z',
				',',
				'"',
				"'",
				' ',
				';',
				'ö',
				'é',
				'ß',
				'李',
				'Ω',
				'🏁',
				'👨‍👩‍👧',
				'\\',
				'|',
				'*',
				'@',
				'#',
				'1',
				'=',
				'\t',
			),
			{ minLength: 1, maxLength: 32 },
		)
		.map((chars) => chars.join('').replace(/\s+/gu, ' ').trim()) // as stored: one space between words
		.filter((name) => name !== '' && !name.startsWith('#') && [...name].length <= 32);
	const entryArb = fc.record({
		player: awkwardName,
		position: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constant(Number.MAX_SAFE_INTEGER)),
		time: fc.option(
			fc
				.oneof(fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true }), fc.constant(Number.MIN_VALUE))
				.filter((t) => !Object.is(t, -0)),
			{ nil: undefined },
		),
		status: fc.constantFrom('finished', 'DNF', 'DNS', 'DSQ'),
	});
	const raceArb = fc.record({
		id: awkwardName.map((name) => name.replaceAll('\t', ' ').trim()).filter((id) => id !== ''), // a tab is a control character
		date: fc.option(fc.date({ min: new Date('1950-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }), {
			nil: undefined,
		}),
		mode: fc.option(fc.constantFrom('tt', 'items'), { nil: undefined }),
		entries: fc.uniqueArray(entryArb, { minLength: 1, maxLength: 6, selector: (e) => e.player }),
	});
	const historyArb = fc.uniqueArray(raceArb, { minLength: 0, maxLength: 6, selector: (r) => r.id }).map((drafts) =>
		drafts.map((draft): Race => ({
			id: draft.id,
			...(draft.date !== undefined && { date: draft.date.toISOString().slice(0, 10) }),
			...(draft.mode !== undefined && { mode: draft.mode }),
			entries: draft.entries.map((e) => ({
				player: e.player,
				position: e.position,
				...(e.time !== undefined && { time: e.time }),
				status: e.status,
			})),
		})),
	);

	it('reads back every generated history with awkward names and extreme numbers exactly', () => {
		fc.assert(
			fc.property(historyArb, (races) => {
				expect(parse(writeHistoryCsv(races))).toEqual(races);
			}),
			{ numRuns: 300 },
		);
	});

	/** Anything a caller might pass: bad names, ids, numbers; the writer refuses it or writes what reads back. */
	const looseEntry = fc.record({
		player: fc.string({
			unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\u0007', '\u200B', '\u202E', '#', '🏁'),
			maxLength: 5,
		}),
		position: fc.constantFrom(0, 1, 2, 1.5, -1, 2 ** 53, 2 ** 53 + 2, Infinity, Number.NaN, Number.MAX_SAFE_INTEGER),
		time: fc.constantFrom(undefined, 0, 1.5, -1, 1e308, Infinity, Number.NaN, Number.MIN_VALUE),
		status: fc.constantFrom('finished', 'DNF', 'DNS', 'DSQ', 'RET'),
		team: fc.constantFrom(undefined, 'Red', ' Red', '', 'a\u0007', 'x'.repeat(65), 'Équipe, "Bleue"'),
	});
	const looseRace = fc.record({
		id: fc.string({ unit: fc.constantFrom('R', '1', ' ', ',', '\n', '"'), maxLength: 3 }),
		date: fc.constantFrom(undefined, '2024-02-29', '2023-02-29', '2024-1-01'),
		mode: fc.constantFrom(undefined, 'tt', 'items', 'drift'),
		entries: fc.array(looseEntry, { maxLength: 4 }),
	});

	it('refuses (HistoryCsvWriteError) or writes a file that reads back the same, for any input', () => {
		fc.assert(
			fc.property(fc.array(looseRace, { maxLength: 4 }), (drafts) => {
				const races = drafts.map(
					(d): Race =>
						({
							id: d.id,
							...(d.date !== undefined && { date: d.date }),
							...(d.mode !== undefined && { mode: d.mode }),
							entries: d.entries.map((e) => ({
								player: e.player,
								position: e.position,
								...(e.time !== undefined && { time: e.time }),
								status: e.status,
								...(e.team !== undefined && { team: e.team }),
							})),
						}) as Race,
				);
				let text: string;
				try {
					text = writeHistoryCsv(races);
				} catch (error) {
					expect(error).toBeInstanceOf(HistoryCsvWriteError);
					return;
				}
				expect(parse(text)).toEqual(races);
			}),
			{ numRuns: 2000 },
		);
	});
});
