import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
	formatScoreboard,
	formatTime,
	parseScoreboard,
	SCOREBOARD_LIMITS,
	type ScoreboardOptions,
	type ScoreboardResult,
} from '../../src/formats/scoreboard.js';
import type { RaceEntry } from '../../src/ratings/types.js';

const ok = (
	text: string,
	options?: ScoreboardOptions,
): { entries: RaceEntry[]; warnings: string[]; format: string } => {
	const result = parseScoreboard(text, options);
	if (!result.ok) throw new Error(`expected a valid scoreboard, got ${JSON.stringify(result.errors)}`);
	return result;
};
const entriesOf = (text: string): RaceEntry[] => ok(text).entries;
/** The errors of a scoreboard that must fail, as `line: message`. */
const errorsOf = (text: string): string[] => {
	const result = parseScoreboard(text);
	if (result.ok) throw new Error(`expected errors, got ${JSON.stringify(result.entries)}`);
	return result.errors.map((error) => `${error.line}: ${error.message}`);
};
const lines = (...rows: string[]): string => rows.join('\n');

describe('parseScoreboard: text', () => {
	it('reads the PRODUCT.md example: numbered finishers with and without time, an unnumbered DNF', () => {
		expect(entriesOf(lines('1. Alice 1:23.456', '2 Bob', 'Carol DNF'))).toEqual([
			{ player: 'Alice', position: 1, time: 83.456, status: 'finished' },
			{ player: 'Bob', position: 2, status: 'finished' },
			{ player: 'Carol', position: 3, status: 'DNF' },
		]);
	});

	it.each([
		['1.', '2.', '3.'],
		['1)', '2)', '3)'],
		['1', '2', '3'],
		['#1', '#2', '#3'],
		['P1', 'P2', 'P3'],
		['p1', 'p2.', '#3)'],
	])('reads the numbering style %s %s %s', (a, b, c) => {
		expect(entriesOf(lines(`${a} Alice`, `${b} Bob`, `${c} Carol`)).map((e) => [e.player, e.position])).toEqual([
			['Alice', 1],
			['Bob', 2],
			['Carol', 3],
		]);
	});

	it('reads unnumbered lines as the finishing order', () => {
		expect(entriesOf(lines('Alice', 'Bob', 'Carol')).map((e) => [e.player, e.position])).toEqual([
			['Alice', 1],
			['Bob', 2],
			['Carol', 3],
		]);
	});

	it('reads a repeated position as a tie, in standard ranking (1, 1, 3) without a warning', () => {
		const { entries, warnings } = ok(lines('1. Alice', '1. Bob', '3. Carol', '3. Dave', '5. Eve'));
		expect(entries.map((e) => e.position)).toEqual([1, 1, 3, 3, 5]);
		expect(warnings).toEqual([]);
	});

	it('accepts dense ranking (1, 1, 2) and stores it as standard ranking, with a warning naming each line', () => {
		const { entries, warnings } = ok(lines('1. Alice', '1. Bob', '2. Carol', '3. Dave'));
		expect(entries.map((e) => e.position)).toEqual([1, 1, 3, 4]);
		expect(warnings).toEqual([
			'positions renumbered to standard ranking (tied racers share a place and the next place is skipped: 1, 1, 3): line 3: 2 → 3, line 4: 3 → 4',
		]);
	});

	it('counts a DNS/DSQ line listed at its crossing position as a racer above the next one', () => {
		expect(entriesOf(lines('1 Alice', '2 Bob DSQ', '3 Carol'))).toEqual([
			{ player: 'Alice', position: 1, status: 'finished' },
			{ player: 'Carol', position: 2, status: 'finished' },
			{ player: 'Bob', position: 3, status: 'DSQ' },
		]);
	});

	it('reads times as m:ss.fff, h:mm:ss.fff and seconds with a decimal point; bare integers stay in the name', () => {
		expect(
			entriesOf(lines('1. Alice 1:23.456', '2. Bob 83.5', '3. Carol 1:02:03.5', '4. Max 33', '5. Eve 2:05')),
		).toEqual([
			{ player: 'Alice', position: 1, time: 83.456, status: 'finished' },
			{ player: 'Bob', position: 2, time: 83.5, status: 'finished' },
			{ player: 'Carol', position: 3, time: 3723.5, status: 'finished' },
			{ player: 'Max 33', position: 4, status: 'finished' },
			{ player: 'Eve', position: 5, time: 125, status: 'finished' },
		]);
	});

	it('reads statuses in any case and their aliases: RET and retired are DNF, DQ is DSQ', () => {
		const entries = entriesOf(
			lines('Alice', 'Bob dnf', 'Carol Ret', 'Dave RETIRED', 'Eve dns', 'Finn dq', 'Gus DSQ', 'Hal DNF'),
		);
		expect(entries.map((e) => [e.player, e.status, e.position])).toEqual([
			['Alice', 'finished', 1],
			['Bob', 'DNF', 2],
			['Carol', 'DNF', 3],
			['Dave', 'DNF', 4],
			['Eve', 'DNS', 5],
			['Finn', 'DSQ', 6],
			['Gus', 'DSQ', 7],
			['Hal', 'DNF', 8],
		]);
	});

	it('takes time and status in either order after the name, and keeps a DNF time', () => {
		expect(entriesOf(lines('1. Alice 1:00.5', '2. Bob DNF 1:10.25', 'Carol 1:20.0 DNF'))).toEqual([
			{ player: 'Alice', position: 1, time: 60.5, status: 'finished' },
			{ player: 'Bob', position: 2, time: 70.25, status: 'DNF' },
			{ player: 'Carol', position: 3, time: 80, status: 'DNF' },
		]);
	});

	it('places DNF, DNS and DSQ after the finishers in the order given, ignoring their numbers', () => {
		expect(entriesOf(lines('Zed DNS', '1. Alice', '9. Yan DNF', '2. Bob', 'Xia DSQ', '3. Carol'))).toEqual([
			{ player: 'Alice', position: 1, status: 'finished' },
			{ player: 'Bob', position: 2, status: 'finished' },
			{ player: 'Carol', position: 3, status: 'finished' },
			{ player: 'Zed', position: 4, status: 'DNS' },
			{ player: 'Yan', position: 5, status: 'DNF' },
			{ player: 'Xia', position: 6, status: 'DSQ' },
		]);
	});

	it('accepts a race of DNF only (someone to rate)', () => {
		expect(entriesOf(lines('Alice DNF', 'Bob DNS'))).toEqual([
			{ player: 'Alice', position: 1, status: 'DNF' },
			{ player: 'Bob', position: 2, status: 'DNS' },
		]);
	});

	it('keeps names with spaces, unicode and emoji; collapses whitespace and tabs; NFC-normalises', () => {
		expect(
			entriesOf(
				lines('1.\tJean  Luc\t1:00.0', '2.  Zoe\u0308 ', '3. 李小龍', '4. 🏎️ Speed 👨‍👩‍👧', '5.\u00a0Ana\u3000Maria'),
			).map((e) => e.player),
		).toEqual(['Jean Luc', 'Zoë', '李小龍', '🏎️ Speed 👨‍👩‍👧', 'Ana Maria']);
	});

	it('accepts hostile-looking names as plain names', () => {
		const names = ['@everyone', '<@123>', '**bold**', '`code`', '||spoiler||', '<#42>', '<@&7>', '> quote', '~~x~~'];
		expect(entriesOf(names.map((name) => `- ${name}`).join('\n')).map((e) => e.player)).toEqual(
			names.map((name) => `- ${name}`),
		);
		expect(entriesOf(names.join('\n')).map((e) => e.player)).toEqual(names);
	});

	it('reads quoted names, so a name may look like a time, a status or a number', () => {
		expect(entriesOf(lines('1. "Max 4.5" 1:00.0', '2. "DNF"', '3. "Bob ""The Rocket""" DNF', '"42" DSQ'))).toEqual([
			{ player: 'Max 4.5', position: 1, time: 60, status: 'finished' },
			{ player: 'DNF', position: 2, status: 'finished' },
			{ player: 'Bob "The Rocket"', position: 3, status: 'DNF' },
			{ player: '42', position: 4, status: 'DSQ' },
		]);
	});

	it('skips blank lines, reads CRLF, CR and a BOM, and keeps line numbers of the input', () => {
		expect(entriesOf('\uFEFF\r\n1. Alice\r\n\r\n2. Bob\r3. Carol\n')).toHaveLength(3);
		expect(errorsOf('\uFEFF\r\n1. Alice\r\n\r\n2. Bob\r5. Carol\n')).toEqual([
			'5: position 5 is impossible here: only 2 racers are listed above, so expected at most 3',
		]);
	});

	it('strips the fences of a pasted code block, with or without a language word, keeping line numbers', () => {
		expect(entriesOf(lines('```', '1. Alice', '2. Bob', '```'))).toHaveLength(2);
		expect(entriesOf(lines('', '```text', '1. Alice', '2. Bob```', ''))).toHaveLength(2);
		expect(entriesOf('```1. Alice```')).toEqual([{ player: 'Alice', position: 1, status: 'finished' }]);
		expect(errorsOf(lines('```', '1. Alice', '3. Bob', '```'))).toEqual([
			'3: position 3 is impossible here: only 1 racer is listed above, so expected at most 2',
		]);
	});

	it('reports the format it read', () => {
		expect(ok('Alice').format).toBe('text');
		expect(ok('player,position\nAlice,1').format).toBe('csv');
	});
});

describe('parseScoreboard: CSV', () => {
	it('reads player,position with optional time and status, columns in any order, quoted names', () => {
		expect(
			entriesOf(
				lines(
					'Status,Player,Time,Position',
					',Alice,83.456,1',
					',"Bob, Jr",1:24,2',
					',Carol,83,2',
					'retired,Dave,,',
					'DQ,Eve,,9',
					'dns,Finn,,',
				),
			),
		).toEqual([
			{ player: 'Alice', position: 1, time: 83.456, status: 'finished' },
			{ player: 'Bob, Jr', position: 2, time: 84, status: 'finished' },
			{ player: 'Carol', position: 2, time: 83, status: 'finished' },
			{ player: 'Dave', position: 4, status: 'DNF' },
			{ player: 'Eve', position: 5, status: 'DSQ' },
			{ player: 'Finn', position: 6, status: 'DNS' },
		]);
	});

	it('reads empty positions as the order given, skips empty rows, strips code fences', () => {
		expect(entriesOf(lines('```csv', 'player,position', 'Alice,', ',', 'Bob,', '```'))).toEqual([
			{ player: 'Alice', position: 1, status: 'finished' },
			{ player: 'Bob', position: 2, status: 'finished' },
		]);
	});

	it('applies the same ranking checks as text', () => {
		expect(errorsOf(lines('player,position', 'Alice,1', 'Bob,3', 'Carol,', 'alice,2'))).toEqual([
			'3: position 3 is impossible here: only 1 racer is listed above, so expected at most 2',
			'4: expected a position number, as line 2 has one: number every finisher or none',
			'5: "alice" is entered twice: on line 2 as "Alice" and here (names ignore case)',
		]);
	});
});

/** Entries as `position player time status` strings, for compact expectations. */
const summary = (text: string, options?: ScoreboardOptions): string[] =>
	ok(text, options).entries.map((e) => [e.position, e.player, e.time ?? '-', e.status].join(' '));

describe('parseScoreboard: pasted from anywhere', () => {
	it('numbers that tell racers apart stay in their names, even when every line has one (Driver 0041, Driver 0042)', () => {
		const board = ok(lines('1. Driver 0041 61.234', '2. Driver 0042 62.500', 'Driver 0043 DNF'));
		expect(board.entries.map((e) => e.player)).toEqual(['Driver 0041', 'Driver 0042', 'Driver 0043']);
		expect(board.warnings[0]).toMatch(/"Driver 0041" is read as a name that ends in a number/);
		// Points that do not tell racers apart are still a column.
		expect(entriesOf(lines('1. Alice 82', '2. Bob 75')).map((e) => e.player)).toEqual(['Alice', 'Bob']);
	});

	it('reads ordinals 1st 2nd 3rd 4th, a repeated ordinal as a tie, and French, Spanish and tie marks', () => {
		expect(summary(lines('1st Alice 1:01.500', '2nd Bob 1:02.000', '2nd Carol 1:02.000', '4th Dave DNF'))).toEqual([
			'1 Alice 61.5 finished',
			'2 Bob 62 finished',
			'2 Carol 62 finished',
			'4 Dave - DNF',
		]);
		expect(summary(lines('1er Alice', '2e Bob', '3ème Carol', '4º Dave', '=4 Eve', '6° Finn', '7th Gus'))).toEqual([
			'1 Alice - finished',
			'2 Bob - finished',
			'3 Carol - finished',
			'4 Dave - finished',
			'4 Eve - finished',
			'6 Finn - finished',
			'7 Gus - finished',
		]);
		// The tie mark after the number, as many British results print it.
		expect(summary(lines('1. Alice', '2= Bob 1:02.000', '2= Carol 1:02.000', '4 Dave'))).toEqual([
			'1 Alice - finished',
			'2 Bob 62 finished',
			'2 Carol 62 finished',
			'4 Dave - finished',
		]);
	});

	it('reads " - ", tabs and " | " as separators, but keeps a leading dash and ||spoiler|| in names', () => {
		const expected = ['1 Alice 62.345 finished', '2 Bob Smith 63 finished'];
		expect(summary(lines('1) Alice - 1:02.345', '2) Bob Smith - 1:03.000'))).toEqual(expected);
		expect(summary(lines('1 - Alice - 1:02.345', '2 - Bob Smith - 1:03.000'))).toEqual(expected);
		expect(summary(lines('1\tAlice\t1:02.345', '2\tBob Smith\t1:03.000'))).toEqual(expected);
		expect(summary(lines('P1 | Alice | 1:02.345', 'P2 | Bob Smith | 1:03.000'))).toEqual(expected);
		expect(summary(lines('| 1 | Alice | 1:02.345 |', '| 2 | Bob Smith | 1:03.000 |'))).toEqual(expected);
		expect(summary(lines('- Alice', '||spoiler||', 'Jean - Luc 1:00.0'))).toEqual([
			'1 - Alice - finished',
			'2 ||spoiler|| - finished',
			'3 Jean - Luc 60 finished',
		]);
	});

	it('reads ";" between cells on multi-line pastes (a CSV export where the comma is the decimal mark)', () => {
		expect(
			summary(lines('Pos;Fahrer;Zeit;Punkte', '1;Lena;1:02,345;25', '2;"Marek; Jr";1:03,000;18', '3;Nils;DNF;0')),
		).toEqual(['1 Lena 62.345 finished', '2 Marek; Jr 63 finished', '3 Nils - DNF']);
	});

	it('reads comma decimals in times', () => {
		expect(summary(lines('1. Alice 1:02,345', '2. Bob 63,5', '3. Carol 1:02:03,25'))).toEqual([
			'1 Alice 62.345 finished',
			'2 Bob 63.5 finished',
			'3 Carol 3723.25 finished',
		]);
	});

	it('turns the leader time plus gaps into times, exactly as the decimal sum reads', () => {
		const { entries, warnings } = ok(
			lines(
				'P1 Alice 1:23.456',
				'P2 Bob +0.556',
				'P3 Carol +1:02,5',
				'P4 Dave 2:40.000',
				'P5 Eve +1 lap',
				'P6 Finn +2L',
			),
		);
		expect(entries.map((e) => [e.player, e.time])).toEqual([
			['Alice', 83.456],
			['Bob', 84.012], // 83.456 + 0.556: the double nearest 84.012 (83.456 + 0.556 in doubles is 84.01200000000001)
			['Carol', 145.956],
			['Dave', 160],
			['Eve', undefined],
			['Finn', undefined],
		]);
		expect(warnings).toEqual([]);
	});

	it('reads gaps alone as the order only, and says so', () => {
		const { entries, warnings } = ok(lines('P1 Alice', 'P2 Bob +0.556', 'P3 Carol +1.2'));
		expect(entries.map((e) => [e.position, e.player, e.time])).toEqual([
			[1, 'Alice', undefined],
			[2, 'Bob', undefined],
			[3, 'Carol', undefined],
		]);
		expect(warnings).toEqual([
			'line 2: the leader (line 1) has no time, so the gaps (+0.556, +1.2) give the order only, no times',
		]);
	});

	it('reads a number after every name as a points column, and says so', () => {
		const { entries, warnings } = ok(lines('1. Alice 1:02.3 25', '2. Bob 1:03.0 18', '3. Carol DNF'));
		expect(entries.map((e) => [e.player, e.time, e.status])).toEqual([
			['Alice', 62.3, 'finished'],
			['Bob', 63, 'finished'],
			['Carol', undefined, 'DNF'],
		]);
		expect(warnings).toEqual([
			'line 1: the number after each name ("25" on line 1, "18" on line 2) is read as a points or laps column, not as part of the name: put a name that ends in a number in quotes ("Max 33")',
		]);
		expect(summary(lines('Alice 82', 'Bob 75', '"Max 33" 60'))).toEqual([
			'1 Alice - finished',
			'2 Bob - finished',
			'3 Max 33 - finished',
		]);
	});

	it('keeps a number in the name when other lines have none, and says so', () => {
		const { entries, warnings } = ok(lines('1. Alice 1:23.456', '2. Max 33', '3. Bob 1:30.0'));
		expect(entries.map((e) => e.player)).toEqual(['Alice', 'Max 33', 'Bob']);
		expect(warnings).toEqual([
			'line 2: "Max 33" is read as a name that ends in a number; if 33 is points or laps, not part of the name, leave it out (or give every racer that column)',
		]);
	});

	it('reads numbers in a cell of their own, or with a unit, as columns without a warning', () => {
		for (const text of [
			lines('1\tAlice\t1:02.3\t25', '2\tBob\t1:03.0\t18'),
			lines('P1 | Alice | 25', 'P2 | Bob | 18'),
			lines('1. Alice 1:02.3 25 pts', '2. Bob 1:03.0 18pts'),
			lines('1. Alice 23 laps', '2. Bob 22 laps'),
		]) {
			const { entries, warnings } = ok(text);
			expect(entries.map((e) => e.player)).toEqual(['Alice', 'Bob']);
			expect(warnings).toEqual([]);
		}
	});

	it('reads seconds written with an s, and a status in the position column', () => {
		expect(summary(lines('1. Alice 62.345s', '2. Bob +0.5s', 'DNF - Carol', 'DSQ | Dave'))).toEqual([
			'1 Alice 62.345 finished',
			'2 Bob 62.845 finished',
			'3 Carol - DNF',
			'4 Dave - DSQ',
		]);
	});

	it('reads a header row of common column names in several languages', () => {
		const rows = (header: string): string => lines(header, '1.\tAlice\t1:02,345', '2.\tBob Smith\t1:03,000');
		for (const header of [
			'Pos\tDriver\tTime',
			'Position\tName\tTotal',
			'P\tRacer\tTime',
			'#\tPlayer\tTime',
			'Pos.\tFahrer\tZeit',
			'Pos.\tPilote\tTemps',
			'Pos.\tPiloto\tTiempo',
			'Pos.\tPilota\tTempo',
			'Hely\tVersenyző\tIdő',
		]) {
			expect(summary(rows(header)), header).toEqual(['1 Alice 62.345 finished', '2 Bob Smith 63 finished']);
		}
	});

	it('reads the cells of a tab or | header by their names: gap, status, points, unknown columns, DNF as position', () => {
		const text = lines(
			'Pos\tNo.\tDriver\tCar\tLaps\tTime\tGap\tBest Lap\tPts',
			'1\t7\tAlice\tKart A\t12\t10:02.345\t\t0:48.100\t25',
			'2\t33\tMax 33\tKart B\t12\t\t+1.5\t0:48.900\t18',
			'3\t4\tBob\tKart C\t11\t\t+1 Lap\t0:49.000\t15',
			'DNF\t9\tCarol\tKart D\t5\t\t\t0:50.000\t0',
		);
		const { entries, warnings } = ok(text);
		expect(entries.map((e) => [e.position, e.player, e.time, e.status])).toEqual([
			[1, 'Alice', 602.345, 'finished'],
			[2, 'Max 33', 603.845, 'finished'],
			[3, 'Bob', undefined, 'finished'],
			[4, 'Carol', undefined, 'DNF'],
		]);
		expect(warnings).toEqual([]);
		expect(
			summary(
				lines(
					'| Pos | Driver | Time | Pts |',
					'|---|---|---|---|',
					'| 1 | Alice | 1:02.3 | 25 |',
					'| 2 | Bob | 1:03.0 | 18 |',
				),
			),
		).toEqual(['1 Alice 62.3 finished', '2 Bob 63 finished']);
	});

	it('reads a space-separated header for its number columns', () => {
		const { entries, warnings } = ok(lines('Pos Fahrer Zeit Punkte', '1. Alice 1:02,3 25', '2. Bob Smith 1:03,0 18'));
		expect(entries.map((e) => [e.player, e.time])).toEqual([
			['Alice', 62.3],
			['Bob Smith', 63],
		]);
		expect(warnings).toEqual([]);
	});

	it('reads the first cell with a word as the name and says which cells it left out', () => {
		const { entries, warnings } = ok(lines('1\t44\tAlice\tFerrari\t1:02.3', '2\t7\tBob\tMcLaren\t1:03.0'));
		expect(entries.map((e) => [e.player, e.time])).toEqual([
			['Alice', 62.3],
			['Bob', 63],
		]);
		expect(warnings).toEqual([
			'line 1: the first cell with a word in it is read as the name, and the other cells are left out: "44" on line 1, "Ferrari" on line 1, "7" on line 2 and 1 more',
		]);
	});

	it('drops a title line above numbered racers, with a warning', () => {
		const { entries, warnings } = ok(lines('RACE RESULTS', '1st Alice 2:01.345', '2nd Bob 2:03.120'));
		expect(entries.map((e) => [e.position, e.player])).toEqual([
			[1, 'Alice'],
			[2, 'Bob'],
		]);
		expect(warnings).toEqual([
			'line 1: "RACE RESULTS" is read as a title, not a racer (the racers below it are numbered)',
		]);
	});

	it('keeps an unnumbered first line above "2." as a racer: a winner left unnumbered is an error, not a title', () => {
		expect(errorsOf(lines('Alice', '2. Bob', '3. Carol'))[0]).toBe(
			'2: unexpected position 2: line 1 has none, so number every finisher or none (without numbers the order of the lines is the finishing order)',
		);
	});

	it('splits a one-line paste before each position, numbering racers as lines, with a warning', () => {
		const { entries, warnings } = ok('1. Alice 1:01.5 2. Bob 1:02.3 2. Carol 1:02.3 4. Dave DNF');
		expect(entries.map((e) => [e.position, e.player, e.time ?? null, e.status])).toEqual([
			[1, 'Alice', 61.5, 'finished'],
			[2, 'Bob', 62.3, 'finished'],
			[2, 'Carol', 62.3, 'finished'],
			[4, 'Dave', null, 'DNF'],
		]);
		expect(warnings).toEqual([
			'line 1: one line holds 4 racers, read as split before each position ("1.", "2.", "2.", "4."); "racer N" below is the Nth of them: check the order, or put one racer per line',
		]);
		expect(errorsOf('1. Alice 2. Bob 2. alice')).toEqual([
			'3: "alice" is entered twice: on racer 1 as "Alice" and here (names ignore case)',
		]);
	});

	it('reads racers separated by ";" on one line, as /race submit does', () => {
		expect(summary('1. Alice 1:23.4; 2. Bob 1:24.0;3. "Semi; Colon"')).toEqual([
			'1 Alice 83.4 finished',
			'2 Bob 84 finished',
			'3 Semi; Colon - finished',
		]);
	});

	it('says how to separate racers when a one-line paste cannot be split', () => {
		const message =
			'1: this line seems to hold several racers: put one racer per line, or separate racers with ";" (1. Alice 1:01.5; 2. Bob 1:02.3)';
		expect(errorsOf('Alice 1:01.5 Bob 1:02.3 Carol DNF')).toEqual([message]);
		expect(errorsOf('1. Alice 1:01.5 5. Bob 1:02.3')).toEqual([message]);
	});

	it('flags a known player plus an extra word, or with an invisible character, naming the known player', () => {
		const knownPlayers = ['Alice', 'Bob'];
		expect(ok('Alice 82', { knownPlayers }).warnings).toEqual([
			'line 1: "Alice 82" is not a known player; did you mean "Alice"? ("82" looks like an extra column or a stray mark, not part of the name)',
		]);
		expect(ok(lines('"Alice -"', 'Bob'), { knownPlayers }).warnings).toEqual([
			'line 1: "Alice -" is not a known player; did you mean "Alice"? ("-" looks like an extra column or a stray mark, not part of the name)',
		]);
		expect(ok(lines('player,position', 'Alice -,1', 'Bob,2'), { knownPlayers }).warnings).toEqual([
			'line 2: "Alice -" is not a known player; did you mean "Alice"? ("-" looks like an extra column or a stray mark, not part of the name)',
		]);
		// A name with an invisible character (a joiner outside an emoji, the combining grapheme joiner) is refused: it
		// would look exactly like the known player.
		const invisible = parseScoreboard(lines('Bob\u200D', 'Al\u034Fice'), { knownPlayers });
		expect(invisible.ok ? [] : invisible.errors.map((e) => e.message)).toEqual([
			'the line contains the character U+200D: control and invisible formatting characters are not allowed',
			'the line contains the character U+034F: control and invisible formatting characters are not allowed',
		]);
		// With no extra word, a plain dash after the name is an empty cell: the known player, no warning.
		expect(ok(lines('Alice -', 'Bob'), { knownPlayers })).toMatchObject({ warnings: [] });
	});
});

describe('parseScoreboard: titles, comments, tables copied with spaces, iRacing, rows out of order', () => {
	it('drops a title line longer than a name above numbered racers, with the title warning', () => {
		const title = 'Thursday Kart Club - Round 1 results (Kecskemét, 15 laps)';
		const { entries, warnings } = ok(lines(title, '', '1. Anna 12:01.345', '2. Bence 12:03.120'));
		expect(entries.map((e) => e.player)).toEqual(['Anna', 'Bence']);
		expect(warnings).toEqual([`line 1: "${title}" is read as a title, not a racer (the racers below it are numbered)`]);
		// Above unnumbered racers it is still a racer, and too long a name.
		expect(errorsOf(lines(title, 'Anna', 'Bence'))).toEqual([
			`1: the name "${title}" is 57 characters long: at most 32`,
		]);
	});

	it('reads a code block with words around it: a title above, a comment below, each left out with a warning', () => {
		const { entries, warnings } = ok(
			lines('**Round 3 results**', '```text', 'Anna 12:01.345', 'Bence 12:03.120', '```', '', 'GG all!'),
		);
		expect(entries.map((e) => [e.position, e.player])).toEqual([
			[1, 'Anna'],
			[2, 'Bence'],
		]);
		expect(warnings).toEqual([
			'line 1: "**Round 3 results**" is read as a title, not a racer (a code block follows it)',
			'line 7: "GG all!" is read as a comment, not a racer (it is below the code block)',
		]);
		// A racer outside the block is no title: the fence stays an error.
		expect(errorsOf(lines('1. Anna 12:01.345', '```', '2. Bence 12:03.120', '```'))).toEqual([
			'2: unexpected code fence ```: paste a single block; only its opening and closing fences are removed',
		]);
	});

	it('drops the lines of words below numbered racers as comments, one warning each', () => {
		const { entries, warnings } = ok(
			lines(
				'1st  Anna   58.301  25',
				'2nd  Bence  58.944  18',
				'3rd  Csaba  DNF     0',
				'GG everyone, see you next week!',
				'Next round: Thursday',
			),
		);
		expect(entries.map((e) => [e.position, e.player, e.status])).toEqual([
			[1, 'Anna', 'finished'],
			[2, 'Bence', 'finished'],
			[3, 'Csaba', 'DNF'],
		]);
		expect(warnings.slice(1)).toEqual([
			'line 4: "GG everyone, see you next week!" is read as a comment, not a racer (the racers above it are numbered)',
			'line 5: "Next round: Thursday" is read as a comment, not a racer (the racers above it are numbered)',
		]);
		// A last line that could be a name is a racer whose number was forgotten: still an error, as between racers.
		expect(errorsOf(lines('1. Anna', '2. Bence', 'Csaba'))).toEqual([
			'3: expected a position number, as line 1 has one: number every finisher or none',
		]);
		// Without numbers a last line is a racer.
		expect(errorsOf(lines('1. Anna', 'Bence', '2. Csaba'))[0]).toBe(
			'2: expected a position number, as line 1 has one: number every finisher or none',
		);
		expect(entriesOf(lines('Anna', 'Bence', 'Csaba')).map((e) => e.player)).toEqual(['Anna', 'Bence', 'Csaba']);
	});

	it("cuts the rows of a header aligned with spaces at two or more spaces, or under the header's columns", () => {
		const { entries, warnings } = ok(
			lines(
				'Pos  Driver        Car           Laps  Time        Best Lap   Inc',
				'1    Anna Kovács   Mazda MX-5    15    12:01.345   0:47.812   0',
				'2    Bence Tóth    Toyota GR86   15    12:03.120   0:47.990   2',
				'3    Csaba Nagy    Mazda MX-5    14                0:48.300   4',
				'4    Dóra Kiss     Toyota GR86   9     DNF         0:48.100   6',
			),
		);
		expect(entries.map((e) => [e.position, e.player, e.time, e.status])).toEqual([
			[1, 'Anna Kovács', 721.345, 'finished'],
			[2, 'Bence Tóth', 723.12, 'finished'],
			[3, 'Csaba Nagy', undefined, 'finished'],
			[4, 'Dóra Kiss', undefined, 'DNF'],
		]);
		expect(warnings).toEqual([
			'line 1: the columns "Car", "Best Lap", "Inc" are not read: pitwall reads the position, player (or driver, name), time, gap and status',
		]);
		// A name run into the car by one space stands under two columns: refused, not read as one name.
		expect(
			errorsOf(
				lines(
					'Pos  Driver        Car           Laps  Time',
					'1    Anna Kovács   Mazda MX-5    15    12:01.345',
					'2    Maximilian Obermayer Mazda  15    12:03.120',
				),
			),
		).toEqual([
			"3: this line does not fit the header's columns (line 1: Pos, Driver, Car, Laps, Time): separate its cells with a tab or two spaces, or leave out the Car column, so the name is not mixed with it",
		]);
	});

	it('reads rows with single spaces by what each column holds when only the name is text', () => {
		const { entries, warnings } = ok(
			lines(
				'Pos Driver Laps Time Best Lap Inc',
				'1 Anna Kovács 15 12:01.345 0:47.812 0',
				'2 Bence Tóth 15 +1.775 0:47.990 2',
				'3 Csaba 14 +1 lap 0:48.300 4',
				'4 Dóra Kiss 9 DNF 0:48.100 6',
			),
		);
		expect(entries.map((e) => [e.position, e.player, e.time, e.status])).toEqual([
			[1, 'Anna Kovács', 721.345, 'finished'],
			[2, 'Bence Tóth', 723.12, 'finished'],
			[3, 'Csaba', undefined, 'finished'],
			[4, 'Dóra Kiss', undefined, 'DNF'],
		]);
		expect(warnings).toEqual([
			'line 1: the columns "Best Lap", "Inc" are not read: pitwall reads the position, player (or driver, name), time, gap and status',
		]); // Two words are one cell when they read as one: `Out: Disconnected`, `-1 L`.
		expect(
			summary(
				lines(
					'Pos Driver Interval Out',
					'1 Anna Kovács - Running',
					'2 Bence Tóth -1 L Running',
					'3 Emil Out: Disconnected',
				),
			),
		).toEqual(['1 Anna Kovács - finished', '2 Bence Tóth - finished', '3 Emil - DNF']);
	});

	it("reads iRacing's intervals and reasons out: -0.542, -1L, -1 L, Running, Disconnected, Disqualified, Out: …", () => {
		const { entries, warnings } = ok(
			lines(
				'Fin\tDriver\tInterval\tLaps\tOut',
				'1\tAnna\t-\t20\tRunning',
				'2\tBence\t-0.542\t20\tRunning',
				'3\tCsaba\t-1L\t19\tRunning',
				'4\tDóra\t-2 L\t18\tRunning',
				'5\tEmil\tOut: Disconnected\t11\tDisconnected',
				'6\tFanni\t-\t20\tDisqualified',
			),
		);
		expect(entries.map((e) => [e.position, e.player, e.status])).toEqual([
			[1, 'Anna', 'finished'],
			[2, 'Bence', 'finished'],
			[3, 'Csaba', 'finished'],
			[4, 'Dóra', 'finished'],
			[5, 'Emil', 'DNF'],
			[6, 'Fanni', 'DSQ'],
		]);
		expect(warnings).toEqual([
			'line 3: the leader (line 2) has no time, so the gaps (+0.542, +1 lap, +2 laps) give the order only, no times',
		]);
		// With the leader's time the minus-signed interval is a gap like +0.542.
		expect(summary(lines('Pos\tDriver\tTime\tInterval', '1\tAnna\t20:00.000\t-', '2\tBence\t\t-0.542'))).toEqual([
			'1 Anna 1200 finished',
			'2 Bence 1200.542 finished',
		]);
		// On a plain line `Out: Disconnected` is the status; an unknown reason out in a status column is refused.
		expect(summary(lines('1. Anna 20:00.0', '2. Bence Out: Disconnected', '3. Csaba Disqualified'))).toEqual([
			'1 Anna 1200 finished',
			'2 Bence - DNF',
			'3 Csaba - DSQ',
		]);
		expect(errorsOf(lines('Pos\tDriver\tOut', '1\tAnna\tRunning', '2\tBence\tTowed'))).toEqual([
			'3: the status "Towed" is not a status: expected DNF, DNS or DSQ (or RET, retired, Disconnected, DQ, Disqualified), Running, finished or nothing',
		]);
		// An iRacing CSV export: the same readings.
		expect(
			summary(
				lines(
					'Fin Pos,Name,Interval,Out',
					'2,Bence,-0.542,Running',
					'1,Anna,-,Running',
					'3,Csaba,-1 L,Running',
					'4,Emil,Out: Disconnected,Disconnected',
				),
			),
		).toEqual(['1 Anna - finished', '2 Bence - finished', '3 Csaba - finished', '4 Emil - DNF']);
	});

	it('reads a table whose rows are out of order (sorted by name) in the order of its position column', () => {
		const { entries, warnings } = ok(
			lines('Pos\tDriver\tTime', '3\tAnna\t1:01.870', '1\tBence\t1:01.204', 'DNF\tCsaba\t', '2\tDóra\t1:01.455'),
		);
		expect(entries.map((e) => [e.position, e.player, e.status])).toEqual([
			[1, 'Bence', 'finished'],
			[2, 'Dóra', 'finished'],
			[3, 'Anna', 'finished'],
			[4, 'Csaba', 'DNF'],
		]);
		expect(warnings).toEqual([]);
		// Ties and every check on positions hold on the sorted rows.
		expect(summary(lines('Pos\tDriver', '2\tAnna', '1\tBence', '1\tCsaba'))).toEqual([
			'1 Bence - finished',
			'1 Csaba - finished',
			'3 Anna - finished',
		]);
		expect(errorsOf(lines('Pos\tDriver', '5\tAnna', '1\tBence', '2\tCsaba'))).toEqual([
			'2: position 5 is impossible here: only 2 racers are listed above, so expected at most 3',
		]);
		expect(errorsOf(lines('Pos\tDriver', '2\tAnna', '1\tBence', '2\tAnna'))).toEqual([
			'4: "Anna" is entered twice: on line 2 and here (names ignore case)',
		]);
		expect(summary(lines('player,position', 'Anna,2', 'Bence,1'))).toEqual(['1 Bence - finished', '2 Anna - finished']);
		// Without a header the order of the lines is the order the racers are given in.
		expect(errorsOf(lines('2. Anna', '1. Bence'))[0]).toBe(
			'1: position 2 is impossible here: no racer is listed above, so expected at most 1',
		);
	});
});

describe('parseScoreboard: CSV exports', () => {
	it('reads Pos/Driver/Time/Gap columns, ignores laps, car and best lap, takes DNF from the position column', () => {
		const text = lines(
			'Pos,Driver,Car,Laps,Time,Gap,Best Lap',
			'1,Alice,Kart A,12,10:02.345,,0:48.100',
			'2,Bob,Kart B,12,,+1.5,0:48.900',
			'3,Carol,Kart C,11,,1 lap,0:49.000',
			'4,Eve,Kart E,12,"10:09,5",,0:49.500',
			'DNF,Dave,Kart D,5,,,0:50.000',
		);
		const { entries, warnings } = ok(text);
		expect(entries.map((e) => [e.position, e.player, e.time, e.status])).toEqual([
			[1, 'Alice', 602.345, 'finished'],
			[2, 'Bob', 603.845, 'finished'],
			[3, 'Carol', undefined, 'finished'],
			[4, 'Eve', 609.5, 'finished'],
			[5, 'Dave', undefined, 'DNF'],
		]);
		expect(warnings).toEqual([]);
	});

	it('reads an unknown column with a warning (it was once an error)', () => {
		expect(ok(lines('player,position,colour', 'Alice,1,Red'))).toMatchObject({
			entries: [{ player: 'Alice', position: 1, status: 'finished' }],
			warnings: [
				'line 1: the column "colour" is not read: pitwall reads player (or driver, name), position, time, gap and status',
			],
		});
	});

	it('reads ordinals in the position column', () => {
		expect(summary(lines('Position,Name', '1st,Alice', 'P2,Bob', '2.,Carol'))).toEqual([
			'1 Alice - finished',
			'2 Bob - finished',
			'2 Carol - finished',
		]);
	});

	it('refuses two columns that both give the player', () => {
		expect(errorsOf(lines('Pos,Driver,Name', '1,Alice,A'))).toEqual([
			'1: the columns "Driver" and "Name" both give the player: keep one',
		]);
	});
});

describe('parseScoreboard: every bad input, with its line and message', () => {
	it.each<[string, string, string[]]>([
		['empty input', '', ['1: the scoreboard is empty: expected one racer per line, like "1. Alice 1:23.456"']],
		[
			'only blank lines',
			'\n  \n\t\n',
			['1: the scoreboard is empty: expected one racer per line, like "1. Alice 1:23.456"'],
		],
		[
			'only code fences',
			'```\n```',
			['1: the scoreboard is empty: expected one racer per line, like "1. Alice 1:23.456"'],
		],
		[
			'a code fence in the middle',
			lines('```', '1. Alice', '```', '```', '2. Bob', '```'),
			[
				'3: unexpected code fence ```: paste a single block; only its opening and closing fences are removed',
				'4: unexpected code fence ```: paste a single block; only its opening and closing fences are removed',
			],
		],
		[
			'a control character',
			lines('1. Alice', '2. Bo\u0007b'),
			['2: the line contains the character U+0007: control and invisible formatting characters are not allowed'],
		],
		[
			'an invisible formatting character (bidi override)',
			'Ali\u202Ece',
			['1: the line contains the character U+202E: control and invisible formatting characters are not allowed'],
		],
		[
			'a zero-width space',
			'Al\u200Bice',
			['1: the line contains the character U+200B: control and invisible formatting characters are not allowed'],
		],
		[
			'a left-to-right mark (any invisible format character)',
			lines('1. Al\u200Eice', '2. Bob'),
			['1: the line contains the character U+200E: control and invisible formatting characters are not allowed'],
		],
		[
			'a soft hyphen',
			lines('1. Alice', '2. Bo\u00ADb'),
			['2: the line contains the character U+00AD: control and invisible formatting characters are not allowed'],
		],
		[
			'a player id where the name goes (never credited to player #1)',
			lines('1. #1', '2. Bob'),
			[
				'1: this line seems to hold several racers: put one racer per line, or separate racers with ";" (1. Alice 1:01.5; 2. Bob 1:02.3)',
			],
		],
		[
			'a name starting with #',
			lines('1. Alice', '2. #Bob'),
			['2: the name "#Bob" starts with #, as player ids do (#1): start it with another character'],
		],
		[
			'a quoted name written like a player id',
			lines('1. "#2"', '2. Bob'),
			['1: the name "#2" starts with #, as player ids do (#1): start it with another character'],
		],
		[
			'a position without a name',
			lines('1. Alice', '2.'),
			['2: expected a player name after position "2." (put a name made of digits in quotes: "42")'],
		],
		[
			'a status without a name',
			lines('Alice', 'DNF'),
			['2: expected a player name before "DNF" (put a name that looks like a time or a status in quotes: "DNF")'],
		],
		[
			'a time without a name',
			'1. 1:23.456',
			[
				'1: expected a player name before "1:23.456" (put a name that looks like a time or a status in quotes: "1:23.456")',
			],
		],
		// gaps behind the leader are read now (see "pasted from anywhere"); only the leader cannot have one.
		[
			'a gap on the leader',
			lines('1. Alice +1.234', '2. Bob 1:23.456'),
			[
				'1: "+1.234" is a gap to the leader, not a finish time: give the racer\'s own time (like 1:24.690) or leave the time out',
			],
		],
		[
			'a gap in laps on the leader',
			'1. Bob +1 lap',
			[
				'1: "+1 lap" is a gap to the leader, not a finish time: give the racer\'s own time (like 1:24.690) or leave the time out',
			],
		],
		[
			'an invalid time (seconds ≥ 60)',
			'Alice 1:75.0',
			['1: "1:75.0" is not a valid time: expected m:ss.fff, h:mm:ss.fff or seconds with a decimal point (83.456)'],
		],
		[
			'an invalid time (one-digit seconds)',
			'Alice 1:5.0',
			['1: "1:5.0" is not a valid time: expected m:ss.fff, h:mm:ss.fff or seconds with a decimal point (83.456)'],
		],
		['a zero time', 'Alice 0.000', ['1: the time "0.000" is too short: expected at least 0.001 seconds']],
		[
			'a time of 100 hours',
			'Alice 100:00:00.0',
			['1: the time "100:00:00.0" is 100 hours or more: expected a finish time'],
		],
		['two times', 'Alice 1:00.0 1:01.0', ['1: two times, "1:00.0" and "1:01.0": expected at most one']],
		['two statuses', 'Alice DNF DSQ', ['1: two statuses, "DNF" and "DSQ": expected at most one']],
		[
			'a time before more text',
			'1. Alice 1:23.456 fastest lap',
			[
				'1: "1:23.456" looks like a time but "fastest lap" follows it: expected the name first, then the time and the status (put a name that contains one in quotes)',
			],
		],
		[
			'a status before more text',
			'Carol DNF lap 3',
			[
				'1: "DNF" looks like a status but "lap 3" follows it: expected the name first, then the time and the status (put a name that contains one in quotes)',
			],
		],
		[
			'an unterminated quoted name',
			'1. "Alice 1:00.0',
			['1: unterminated quoted name: expected a closing " after the name (write "" for a quote inside it)'],
		],
		['text glued to a quoted name', '"Alice"x', ['1: expected a space after the quoted name "Alice", found "x"']],
		[
			'a word after a quoted name',
			'"Alice" Smith DNF',
			['1: unexpected "Smith" after the quoted name "Alice": expected a time, a status or nothing'],
		],
		['an empty quoted name', '1. ""', ['1: expected a player name']],
		[
			'a name longer than 32 characters',
			`1. ${'x'.repeat(33)}`,
			[`1: the name "${'x'.repeat(33)}" is 33 characters long: at most 32`],
		],
		[
			'a name entered twice, ignoring case',
			lines('1. Alice', '2. Bob', '3. ALICE DNF'),
			['3: "ALICE" is entered twice: on line 1 as "Alice" and here (names ignore case)'],
		],
		[
			'a name entered twice, same spelling',
			lines('Alice', 'Alice'),
			['2: "Alice" is entered twice: on line 1 and here (names ignore case)'],
		],
		[
			'a numbered scoreboard with an unnumbered finisher',
			lines('1. Alice', 'Bob', '2. Carol'),
			['2: expected a position number, as line 1 has one: number every finisher or none'],
		],
		[
			'an unnumbered scoreboard with a numbered finisher',
			lines('Alice', '2. Bob'),
			[
				'2: unexpected position 2: line 1 has none, so number every finisher or none (without numbers the order of the lines is the finishing order)',
			],
		],
		['position 0', lines('0. Alice'), ['1: position 0 is impossible: positions start at 1']],
		[
			'positions going backwards',
			lines('1. Alice', '2. Bob', '1. Carol'),
			['3: position 1 comes after position 2 on line 2: expected the racers in finishing order'],
		],
		[
			'a first position other than 1',
			'2. Alice',
			['1: position 2 is impossible here: no racer is listed above, so expected at most 1'],
		],
		[
			'an impossible skip',
			lines('1. Alice', '2. Bob', '5. Carol'),
			['3: position 5 is impossible here: only 2 racers are listed above, so expected at most 3'],
		],
		[
			'a tie followed by an impossible skip',
			lines('1. Alice', '1. Bob', '4. Carol'),
			['3: position 4 is impossible here: only 2 racers are listed above, so expected at most 3'],
		],
		[
			'nobody to rate',
			lines('', 'Alice DNS', 'Bob DSQ'),
			['2: no racer to rate: every racer is DNS or DSQ; expected at least one finisher or DNF'],
		],
	])('%s', (_name, text, expected) => {
		expect(errorsOf(text)).toEqual(expected);
	});

	it('rejects a line longer than 200 characters, naming its length', () => {
		const long = `1. Alice ${'x'.repeat(200)}`;
		expect(errorsOf(lines('1. Bob', long))).toEqual([
			'2: the line is 209 characters long: at most 200 (one racer per line)',
		]);
		// 200 characters (here emoji: code points, not UTF-16 units) is fine as a line, but the name is then too long.
		expect(errorsOf(`${'🏎'.repeat(200)}`)).toEqual([
			`1: the name "${'🏎'.repeat(200)}" is 200 characters long: at most 32`,
		]);
	});

	it('rejects more than 200 racers at the 201st', () => {
		const board = Array.from({ length: 205 }, (_, i) => `${i + 1}. P${i}x`).join('\n');
		expect(errorsOf(`\n${board}`)).toEqual(['202: too many racers: a race holds at most 200, and this is racer 201']);
		expect(entriesOf(board.split('\n').slice(0, 200).join('\n'))).toHaveLength(200);
	});

	it('rejects input over 64 KiB, counted in UTF-8 bytes', () => {
		const atLimit = 'é'.repeat(SCOREBOARD_LIMITS.maxBytes / 2); // 2 bytes each: exactly 64 KiB
		expect(errorsOf(atLimit)).not.toContain(expect.stringContaining('bytes'));
		expect(errorsOf(`${atLimit}x`)).toEqual([
			'1: the scoreboard is 65537 bytes: at most 65536 (64 KiB); submit one race at a time',
		]);
	});

	it('reports at most 10 errors, in line order, and counts the others', () => {
		const result = parseScoreboard(Array.from({ length: 14 }, (_, i) => `Racer${i} 1:99.0`).join('\n'));
		expect(result.ok).toBe(false);
		const { errors, omitted } = result as Extract<ScoreboardResult, { ok: false }>;
		expect(errors.map((error) => error.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		expect(omitted).toBe(4);
	});

	it('collects every error of a scoreboard, not just the first', () => {
		expect(errorsOf(lines('1. Alice', '2. Bob 1:75.0', 'Carol', '2. alice', '7. Dave'))).toEqual([
			'2: "1:75.0" is not a valid time: expected m:ss.fff, h:mm:ss.fff or seconds with a decimal point (83.456)',
			'3: expected a position number, as line 1 has one: number every finisher or none',
			'4: "alice" is entered twice: on line 1 as "Alice" and here (names ignore case)',
			'5: position 7 is impossible here: only 4 racers are listed above, so expected at most 5',
		]);
	});
});

describe('parseScoreboard: bad CSV', () => {
	it.each<[string, string, string[]]>([
		[
			'a history CSV',
			lines('race,date,player,position', 'R1,2024-01-01,Alice,1'),
			[
				'1: this looks like a league history (race and date columns): /race submit takes one race with the columns player, position, time, status; import a history with /league import',
			],
		],
		['a duplicate column', lines('player,position,Player', 'Alice,1,A'), ['1: the column "player" appears twice']],
		[
			'no position column',
			lines('player,time', 'Alice,1:00.0'),
			['1: the header has no "position" column: expected player,position (and optionally time,status)'],
		],
		[
			'a header and no racers',
			lines('', 'player,position', ',', ''),
			['2: the CSV has a header but no racers: expected one row per racer below it'],
		],
		['a broken quote', lines('player,position', '"Alice,1'), ['2: CSV: unterminated quoted field']],
		[
			'a row with too few fields',
			lines('player,position,time', 'Alice,1'),
			['2: expected 3 fields as in the header (player,position,time), found 2'],
		],
		[
			'a position that is not a whole number',
			lines('player,position', 'Alice,first'),
			['2: position must be a whole number (or empty for the order given), got "first"'],
		],
		[
			'an invalid time',
			lines('player,position,time', 'Alice,1,1:2:3'),
			['2: time must be seconds, m:ss.fff or h:mm:ss.fff, got "1:2:3"'],
		],
		[
			'a gap as time',
			lines('player,position,time', 'Alice,1,+0.5'),
			[
				'2: "+0.5" is a gap to the leader, not a finish time: give the racer\'s own time (like 1:24.690) or leave the time out',
			],
		],
		[
			'an unknown status',
			lines('player,position,status', 'Alice,1,crashed'),
			[
				'2: status must be empty, DNF, DNS or DSQ (or RET, retired, Disconnected, DQ, Disqualified, Running), got "crashed"',
			],
		],
		['an empty name', lines('player,position', ' ,1'), ['2: expected a player name']],
		[
			'a name with a newline',
			lines('player,position', '"Al\nice",1'),
			['2: the name contains the character U+000A: control and invisible formatting characters are not allowed'],
		],
		[
			'a name written like a player id',
			lines('Pos,Driver', '1,#1', '2,Bob'),
			['2: the name "#1" starts with #, as player ids do (#1): start it with another character'],
		],
	])('%s', (_name, text, expected) => {
		expect(errorsOf(text)).toEqual(expected);
	});

	it('reads a first line of words without "player" as text, not CSV', () => {
		expect(entriesOf('Alice, the Great')).toEqual([{ player: 'Alice, the Great', position: 1, status: 'finished' }]);
	});
});

describe('parseScoreboard: warnings', () => {
	it('flags a finisher faster than someone placed ahead (ties are not ahead)', () => {
		expect(ok(lines('1. Alice 1:20.0', '1. Bob 1:10.0', '3. Carol 1:15.0', '4. Dave 1:30.0')).warnings).toEqual([
			"line 3: Carol's time 1:15.0 is faster than 1:20.0 of Alice (line 1), who is placed ahead: check the order",
		]);
	});

	it('flags new names near a known player as possible typos, including a case difference', () => {
		const known = ['Alice', 'Bob', 'Carol'];
		expect(ok(lines('Alcie', 'bob', 'Carol', 'Zed'), { knownPlayers: known }).warnings).toEqual([
			'line 1: "Alcie" is not a known player; did you mean "Alice"?',
			'line 2: "bob" is read as the known player "Bob" (names ignore case)',
		]);
	});
});

describe('formatScoreboard', () => {
	it('writes numbered lines, finishers first, quoting names that would be misread', () => {
		const entries: RaceEntry[] = [
			{ player: 'Eve', position: 4, status: 'DNS' },
			{ player: 'Alice', position: 1, time: 83.456, status: 'finished' },
			{ player: 'Max 4.5', position: 1, time: 3723.5, status: 'finished' },
			{ player: '"Q" Bert', position: 3, time: 7.25, status: 'DNF' },
		];
		expect(formatScoreboard(entries)).toBe(
			'1. Alice 1:23.456\n1. "Max 4.5" 1:02:03.5\n3. """Q"" Bert" 7.25 DNF\n4. Eve DNS\n',
		);
		expect(entriesOf(formatScoreboard(entries))).toEqual([entries[1], entries[2], entries[3], entries[0]]);
	});

	it('quotes names that a pasted-form reading would change: numbers, dashes, ordinals, semicolons', () => {
		const entries: RaceEntry[] = ['Max 33', '- Alice', 'Bob -', '2nd Carol', 'Dee; Eve', 'Finn 25pts', 'Gus |'].map(
			(player, i) => ({ player, position: i + 1, status: 'finished' }),
		);
		expect(formatScoreboard(entries)).toBe(
			'1. "Max 33"\n2. "- Alice"\n3. "Bob -"\n4. "2nd Carol"\n5. "Dee; Eve"\n6. "Finn 25pts"\n7. "Gus |"\n',
		);
		expect(entriesOf(formatScoreboard(entries))).toEqual(entries);
		const dash: RaceEntry = { player: '-', position: 1, status: 'finished' }; // found by fuzzing: "1. "-"" kept its name
		expect(entriesOf(formatScoreboard([dash]))).toEqual([dash]);
		for (const entry of entries)
			expect(entriesOf(formatScoreboard([{ ...entry, position: 1 }]))[0]!.player).toBe(entry.player);
	});

	it('formats any time in range so that it reads back to exactly the same number', () => {
		fc.assert(
			fc.property(
				fc.double({ min: SCOREBOARD_LIMITS.minTime, max: SCOREBOARD_LIMITS.maxTime, maxExcluded: true, noNaN: true }),
				(time) => {
					expect(entriesOf(`Alice ${formatTime(time)}`)[0]!.time).toBe(time);
				},
			),
			{ numRuns: 200 },
		);
	});
});

// ---------------------------------------------------------------------------------------------------------------
// Properties

/** What any accepted scoreboard satisfies. */
function checkInvariants(entries: readonly RaceEntry[]): void {
	const keys = entries.map((entry) => entry.player.toLowerCase());
	expect(new Set(keys).size).toBe(keys.length);
	const finishers = entries.filter((entry) => entry.status === 'finished');
	const others = entries.filter((entry) => entry.status !== 'finished');
	expect(entries).toEqual([...finishers, ...others]);
	finishers.forEach((entry, i) => {
		expect(entry.position).toBeGreaterThanOrEqual(1);
		if (i === 0) expect(entry.position).toBe(1);
		else {
			const previous = finishers[i - 1]!.position;
			// Standard competition ranking: a tie repeats the place, otherwise the place is 1 + finishers above.
			expect([previous, i + 1]).toContain(entry.position);
		}
	});
	expect(others.map((entry) => entry.position)).toEqual(others.map((_, i) => finishers.length + i + 1));
	expect(entries.some((entry) => entry.status === 'finished' || entry.status === 'DNF')).toBe(true);
	for (const entry of entries) {
		expect([...entry.player].length).toBeLessThanOrEqual(32);
		expect(entry.player).toBe(entry.player.trim());
		expect(entry.player).not.toMatch(/\s\s|[\t\n\r]/u);
	}
}

/** A word of a name that can never be read as a position, time, status or gap. */
const word = fc.constantFrom(
	'Alice',
	'bob',
	'Zoë',
	'李',
	'🏎️',
	'👨‍👩‍👧',
	'@everyone',
	'<@123>',
	'**x**',
	'`y`',
	'||s||',
	'Jr.',
	'x2',
	'R2.D2',
	"O'Neil",
	'née',
	'>q',
	'a"b',
);
const nameArb = fc
	.array(word, { minLength: 1, maxLength: 4 })
	.map((words) => words.join(' '))
	.filter((name) => [...name].length <= 32);
/** Characters for quoted names: anything printable, including what would be misread unquoted. */
const quotedNameArb = fc
	.string({
		unit: fc.constantFrom('a', 'Z', ' ', '"', '1', ':', '.', '+', '#', 'é', '🏁', 'D', 'N', 'F', '\t'),
		minLength: 1,
		maxLength: 20,
	})
	.map((raw) => ({ raw, name: raw.replace(/\s+/gu, ' ').trim() }))
	.filter(({ name }) => name !== '' && !name.startsWith('#')); // a leading # is a player id's

const timeArb = fc.integer({ min: 1, max: 359_999_999 }).map((ms) => {
	const s = ms / 1000;
	const forms = [s.toFixed(3)];
	const sec = ((ms % 60000) / 1000).toFixed(3).padStart(6, '0');
	if (ms >= 60_000 && ms < 3_600_000) forms.push(`${Math.floor(ms / 60000)}:${sec}`);
	if (ms >= 3_600_000) {
		forms.push(`${Math.floor(ms / 3_600_000)}:${String(Math.floor(ms / 60000) % 60).padStart(2, '0')}:${sec}`);
	}
	return { ms, forms };
});
const statusArb = fc.constantFrom(
	['DNF', 'DNF'],
	['dnf', 'DNF'],
	['Ret', 'DNF'],
	['retired', 'DNF'],
	['DNS', 'DNS'],
	['dns', 'DNS'],
	['DSQ', 'DSQ'],
	['dq', 'DSQ'],
) as fc.Arbitrary<[string, 'DNF' | 'DNS' | 'DSQ']>;

const racerArb = fc.record({
	name: fc.oneof(
		nameArb.map((name) => ({ text: name, name })),
		nameArb.map((name) => ({ text: `"${name.replaceAll('"', '""')}"`, name })),
		quotedNameArb.map(({ raw, name }) => ({ text: `"${raw.replaceAll('"', '""')}"`, name })),
	),
	time: fc.option(timeArb, { nil: undefined }),
	timeForm: fc.nat(),
	status: fc.option(statusArb, { freq: 3, nil: undefined }),
	statusFirst: fc.boolean(),
	tie: fc.boolean(),
	space: fc.constantFrom(' ', '  ', '\t', ' \t '),
});

const boardArb = fc.record({
	racers: fc.uniqueArray(racerArb, { minLength: 1, maxLength: 25, selector: (racer) => racer.name.name.toLowerCase() }),
	style: fc.constantFrom('none', '1.', '1)', '1', '#1', 'P1'),
	dense: fc.boolean(),
	fence: fc.boolean(),
	eol: fc.constantFrom('\n', '\r\n'),
	blank: fc.nat({ max: 3 }),
});

describe('parseScoreboard: properties', () => {
	it('reads any well-formed board to the entries it describes', () => {
		fc.assert(
			fc.property(boardArb, (board) => {
				const racers = board.racers.some((racer) => racer.status === undefined || racer.status[1] === 'DNF')
					? board.racers
					: [{ ...board.racers[0]!, status: undefined }, ...board.racers.slice(1)];
				const textLines: string[] = [];
				const finishers: RaceEntry[] = [];
				const others: RaceEntry[] = [];
				let given = 0;
				let standard = 0;
				let finisherCount = 0;
				for (const racer of racers) {
					const finished = racer.status === undefined;
					let number: number | undefined;
					if (finished) {
						finisherCount++;
						const tie = board.style !== 'none' && finisherCount > 1 && racer.tie;
						if (!tie) {
							given = board.dense ? given + 1 : finisherCount;
							standard = finisherCount;
						}
						number = given;
					}
					const prefix =
						board.style === 'none' || number === undefined
							? ''
							: `${board.style.replace('1', String(number))}${racer.space}`;
					const time = racer.time === undefined ? [] : [racer.time.forms[racer.timeForm % racer.time.forms.length]!];
					const status = racer.status === undefined ? [] : [racer.status[0]];
					const tail = racer.statusFirst ? [...status, ...time] : [...time, ...status];
					textLines.push(`${racer.space}${prefix}${[racer.name.text, ...tail].join(racer.space)}`);
					const entry: RaceEntry = {
						player: racer.name.name,
						position: finished ? (board.style === 'none' ? finisherCount : standard) : 0,
						...(racer.time !== undefined && { time: racer.time.ms / 1000 }),
						status: racer.status?.[1] ?? 'finished',
					};
					(finished ? finishers : others).push(entry);
				}
				const expected = [
					...finishers,
					...others.map((entry, i) => ({ ...entry, position: finishers.length + i + 1 })),
				];
				const body = [...Array<string>(board.blank).fill(''), ...textLines];
				const text = (board.fence ? ['```', ...body, '```'] : body).join(board.eol);
				const result = parseScoreboard(text);
				if (!result.ok) throw new Error(`${JSON.stringify(text)}: ${JSON.stringify(result.errors)}`);
				// Times: the text carries milliseconds; parsing m:ss.fff may differ from ms/1000 in the last bit.
				const withoutTime = ({ player, position, status }: RaceEntry): unknown => ({ player, position, status });
				expect(result.entries.map(withoutTime)).toEqual(expected.map(withoutTime));
				result.entries.forEach((entry, i) => {
					const want = expected[i]!.time;
					if (want === undefined) expect(entry.time).toBeUndefined();
					else expect(Math.abs(entry.time! - want)).toBeLessThanOrEqual(want * 1e-15);
				});
				checkInvariants(result.entries);
			}),
			{ numRuns: 200 },
		);
	});

	/** boards written the ways results are pasted (ordinals, separators, comma decimals, points). */
	const pastedBoardArb = fc.record({
		racers: fc.uniqueArray(
			fc.record({
				name: nameArb,
				ms: fc.option(fc.integer({ min: 1, max: 359_999_999 }), { nil: undefined }),
				tie: fc.boolean(),
				dnf: fc.boolean(),
				points: fc.nat({ max: 99 }),
			}),
			{ minLength: 2, maxLength: 20, selector: (racer) => racer.name.toLowerCase() },
		),
		style: fc.constantFrom('1st', 'P1', '1)', '1.', '#1', '1º'),
		separator: fc.constantFrom(' ', ' - ', '\t', ' | '),
		comma: fc.boolean(),
		points: fc.boolean(),
	});
	const ordinal = (n: number): string =>
		`${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

	it('reads any board written in the pasted forms to the entries it describes', () => {
		fc.assert(
			fc.property(pastedBoardArb, (board) => {
				const finishers = board.racers.filter((racer) => !racer.dnf);
				const dnfs = board.racers.filter((racer) => racer.dnf);
				if (finishers.length === 0) return;
				const textLines: string[] = [];
				const expected: RaceEntry[] = [];
				let position = 0;
				finishers.forEach((racer, i) => {
					if (i === 0 || !racer.tie) position = i + 1;
					const mark = board.style === '1st' ? ordinal(position) : board.style.replace('1', String(position));
					const time = racer.ms === undefined ? undefined : formatTime(racer.ms / 1000);
					const cells = [
						mark,
						racer.name,
						...(time === undefined ? [] : [board.comma ? time.replace('.', ',') : time]),
					];
					if (board.points) cells.push(String(racer.points));
					textLines.push(cells.join(board.separator));
					expected.push({
						player: racer.name,
						position,
						...(racer.ms !== undefined && { time: racer.ms / 1000 }),
						status: 'finished',
					});
				});
				dnfs.forEach((racer, i) => {
					textLines.push([racer.name, 'DNF', ...(board.points ? [String(racer.points)] : [])].join(board.separator));
					expected.push({ player: racer.name, position: finishers.length + i + 1, status: 'DNF' });
				});
				const result = parseScoreboard(textLines.join('\n'));
				if (!result.ok) throw new Error(`${JSON.stringify(textLines)}: ${JSON.stringify(result.errors)}`);
				expect(result.entries).toEqual(expected);
				// A points column is ambiguous only where spaces separate it from the name (two or more lines).
				const loose = board.points && (board.separator === ' ' || board.separator === ' - ');
				expect(result.warnings.some((warning) => warning.includes('points or laps column'))).toBe(loose);
				checkInvariants(result.entries);
			}),
			{ numRuns: 200 },
		);
	});

	/** Lines of tokens from every category the parser knows, glued at random: mostly invalid, sometimes valid. */
	const soupToken = fc.constantFrom(
		'1.',
		'2.',
		'2)',
		'#3',
		'P1',
		'3',
		'0.',
		'1',
		'Alice',
		'alice',
		'Bob',
		'Zoë',
		'🏎️',
		'DNF',
		'dns',
		'DQ',
		'Ret',
		'1:23.456',
		'83.5',
		'1:75.0',
		'0.000',
		'+1.234',
		'"',
		'"Max 4.5"',
		'```',
		'player,position',
		',',
		'\t',
		'  ',
		'@everyone',
		'||x||',
		'\u0007',
		'\u200B',
		'x'.repeat(40),
	);
	/** A line that is mostly well formed: position, name words, time, status, each maybe. */
	const grammarLine = fc
		.tuple(
			fc.option(fc.constantFrom('1.', '2.', '2)', '#3', 'P1', '3', '1'), { nil: undefined }),
			fc.array(
				fc.oneof(
					fc.constantFrom('Alice', 'Bob', 'Zoë', '🏎️', '@everyone', '**x**', '"Max 4.5"'),
					fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', 'é', 'Z'), minLength: 1, maxLength: 6 }),
				),
				{ minLength: 1, maxLength: 2 },
			),
			fc.option(fc.constantFrom('1:23.456', '83.5', '1:02:03.5', '59.999'), { nil: undefined }),
			fc.option(fc.constantFrom('DNF', 'dns', 'DQ', 'Ret', 'retired'), { freq: 3, nil: undefined }),
		)
		.map(([position, words, time, status]) =>
			[position, ...words, time, status].filter((t) => t !== undefined).join(' '),
		);
	const soupLine = fc.array(soupToken, { maxLength: 5 }).map((tokens) => tokens.join(' '));
	const soupArb = fc
		.array(fc.oneof({ weight: 6, arbitrary: grammarLine }, { weight: 1, arbitrary: soupLine }), { maxLength: 12 })
		.map((rows) => rows.join('\n'));

	it('never throws; accepted boards keep the invariants and round-trip through formatScoreboard', () => {
		let accepted = 0;
		fc.assert(
			fc.property(soupArb, (text) => {
				const result = parseScoreboard(text);
				if (!result.ok) {
					expect(result.errors.length).toBeGreaterThan(0);
					expect(result.errors.length).toBeLessThanOrEqual(SCOREBOARD_LIMITS.maxErrors);
					const lineCount = text.split('\n').length;
					for (const error of result.errors) {
						expect(error.line).toBeGreaterThanOrEqual(1);
						expect(error.line).toBeLessThanOrEqual(lineCount);
					}
					return;
				}
				accepted++;
				checkInvariants(result.entries);
				const again = parseScoreboard(formatScoreboard(result.entries));
				expect(again.ok && again.format).toBe('text');
				expect(again.ok && again.entries).toEqual(result.entries);
			}),
			{ numRuns: 200 },
		);
		expect(accepted).toBeGreaterThan(20); // about a third of these boards are valid
	});

	it('round-trips every well-formed board through formatScoreboard exactly', () => {
		fc.assert(
			fc.property(boardArb, (board) => {
				const text = board.racers
					.map((racer, i) => `${racer.name.text}${i === 0 || racer.status === undefined ? '' : ` ${racer.status[0]}`}`)
					.join('\n');
				const first = parseScoreboard(text);
				expect(first.ok).toBe(true);
				if (!first.ok) return;
				const again = parseScoreboard(formatScoreboard(first.entries));
				expect(again.ok && again.entries).toEqual(first.entries);
			}),
			{ numRuns: 200 },
		);
	});
});
