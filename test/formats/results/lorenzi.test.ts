import { describe, expect, it } from 'vitest';
import { lorenziReader } from '../../../src/formats/results/lorenzi.js';
import { ResultFileError, type ResultEntry, type ResultFile } from '../../../src/formats/results/types.js';
import { decodedText, expectClaimsNoOther, fixtureBytes, fixtureText, readClaimed } from './support.js';

const OWN = 'BadWolf1023-MKW-Table-Bot';

/** A fixture's bytes, decoded as the bot will. */
const readFixture = (file: string): ResultFile => readClaimed(lorenziReader, fixtureText(`${OWN}/${file}`));

/** [name, position, status, team] for each entry; none of them has a time, laps or a status inferred. */
function rows(file: ResultFile): (string | number | null)[][] {
	for (const entry of file.entries) {
		expect(entry.totalTime).toBeUndefined();
		expect(entry.laps).toBeUndefined();
		expect(entry.statusInferred).toBeUndefined();
	}
	return file.entries.map((entry: ResultEntry) => [entry.name, entry.position, entry.status, entry.team ?? null]);
}

// Totals below were added by hand from the raw lines (e.g. `promise 29|29|42` = 100, `Garrett [us_tx] 24|39|37` =
// 100), then sorted by hand: highest first, equal totals in the order of the table.
describe('Lorenzi tables from BadWolf1023/MKW-Table-Bot (real lounge tables)', () => {
	it('text 1: an FFA with no header line; flags; ties at 100 and 50 keep the table order', () => {
		const file = readFixture('MogiUpdate.py.test_table_text_1.txt');
		expect(file.format).toBe('lorenzi');
		expect(file.session).toBeUndefined();
		// promise 100, Garrett 100, Axis 49+20+29=98, PhillyGator 32+33+23=88, Wheel4life 25+38+19=82,
		// Pharis 23+31+26=80, me3 10+28+32=70, Raeika 24+7+36=67, Glaceon 18+19+26=63, Saionji 19+20+11=50,
		// Eimii 22+15+13=50, Spock 17+13+8=38.
		expect(rows(file)).toEqual([
			['promise', 1, 'finished', null],
			['Garrett', 2, 'finished', null],
			['Axis', 3, 'finished', null],
			['PhillyGator', 4, 'finished', null],
			['Wheel4life', 5, 'finished', null],
			['Pharis', 6, 'finished', null],
			['me3', 7, 'finished', null],
			['Raeika', 8, 'finished', null],
			['Glaceon', 9, 'finished', null],
			['Saionji', 10, 'finished', null],
			['Eimii', 11, 'finished', null],
			['Spock', 12, 'finished', null],
		]);
		// Equal totals share a place: the scoreboard ranks them 1, 1, 3.
		expect(file.entries.map((e) => [e.points, e.tied ?? false])).toEqual([
			[100, false],
			[100, true],
			[98, false],
			[88, false],
			[82, false],
			[80, false],
			[70, false],
			[67, false],
			[63, false],
			[50, false],
			[50, true],
			[38, false],
		]);
		expect(file.warnings).toEqual([
			'tie on 100 points: promise, Garrett share place 1',
			'tie on 50 points: Saionji, Eimii share place 10',
		]);
	});

	it('text 2: #title and six 2-player teams, the last one ("e") with no blank line before it', () => {
		const file = readFixture('MogiUpdate.py.test_table_text_2.txt');
		expect(file.session).toBe('12 races');
		expect(rows(file)).toEqual([
			['promise', 1, 'finished', 'A'],
			['Garrett', 2, 'finished', 'A'],
			['Axis', 3, 'finished', 'W'],
			['PhillyGator', 4, 'finished', 'Me3'],
			['Wheel4life', 5, 'finished', 'W'],
			['Pharis', 6, 'finished', 'P'],
			['me3', 7, 'finished', 'Me3'],
			['Raeika', 8, 'finished', 'G'],
			['Glaceon', 9, 'finished', 'G'],
			['Saionji', 10, 'finished', 'P'],
			['Eimii', 11, 'finished', 'e'],
			['Spock', 12, 'finished', 'e'],
		]);
		expect(file.warnings).toEqual([
			'tie on 100 points: promise, Garrett share place 1',
			'tie on 50 points: Saionji, Eimii share place 10',
		]);
	});

	it('text 3: a substitution written in the name stays one racer, with a warning', () => {
		const file = readFixture('MogiUpdate.py.test_table_text_3.txt');
		// promise(4)/Bad Wolf(8) 29|29|0 = 58: between Glaceon (63) and Saionji (50).
		expect(rows(file)).toEqual([
			['Garrett', 1, 'finished', 'A'],
			['Axis', 2, 'finished', 'W'],
			['PhillyGator', 3, 'finished', 'Me3'],
			['Wheel4life', 4, 'finished', 'W'],
			['Pharis', 5, 'finished', 'P'],
			['me3', 6, 'finished', 'Me3'],
			['Raeika', 7, 'finished', 'G'],
			['Glaceon', 8, 'finished', 'G'],
			['promise(4)/Bad Wolf(8)', 9, 'finished', 'A'],
			['Saionji', 10, 'finished', 'P'],
			['Eimii', 11, 'finished', 'e'],
			['Spock', 12, 'finished', 'e'],
		]);
		expect(file.warnings).toEqual([
			'line 4: "promise(4)/Bad Wolf(8)" is a substitution (players sharing one spot): kept as one racer',
			'tie on 50 points: Saionji, Eimii share place 10',
		]);
	});

	it('text 4: substitutions in an FFA', () => {
		const file = readFixture('MogiUpdate.py.test_table_text_4.txt');
		expect(rows(file)).toEqual([
			['promise', 1, 'finished', null],
			['Garrett', 2, 'finished', null],
			['Axis', 3, 'finished', null],
			['PhillyGator', 4, 'finished', null],
			['Wheel4life', 5, 'finished', null],
			['Pharis(1)/BadWolf(2)', 6, 'finished', null],
			['me3', 7, 'finished', null],
			['Raeika', 8, 'finished', null],
			['Glaceon', 9, 'finished', null],
			['Saionji(4)Kasperinos(4)KasperUS(4)', 10, 'finished', null],
			['Eimii', 11, 'finished', null],
			['Spock', 12, 'finished', null],
		]);
		expect(file.warnings).toEqual([
			'line 8: "Pharis(1)/BadWolf(2)" is a substitution (players sharing one spot): kept as one racer',
			'line 9: "Saionji(4)Kasperinos(4)KasperUS(4)" is a substitution (players sharing one spot): kept as one racer',
			'tie on 100 points: promise, Garrett share place 1',
			'tie on 50 points: Saionji(4)Kasperinos(4)KasperUS(4), Eimii share place 10',
		]);
	});

	it('text 5: the bot command pasted above the table is skipped; six teams', () => {
		const file = readFixture('MogiUpdate.py.test_table_text_5.txt');
		// Empex 28+29+47=104, Tim 37+28+23=88, Revenant 25+29+34=88, Spock 19+44+21=84, dhavz 29+23+25=77,
		// Wob 24+17+35=76, oatmeal 22+35+15=72, margio 18+17+25=60, noshow 18+18+18=54, quiescent 13+24+12=49,
		// Helpy 16+9+22=47, BadWolf 31+9+5=45.
		expect(rows(file)).toEqual([
			['Empex', 1, 'finished', 'JsFJ'],
			['Tim', 2, 'finished', 'Timmi'],
			['Revenant', 3, 'finished', 'Timmi'],
			['Spock', 4, 'finished', 'E'],
			['dhavz', 5, 'finished', 'sos'],
			['Wob', 6, 'finished', 'sos'],
			['oatmeal', 7, 'finished', 'S'],
			['margio', 8, 'finished', 'S'],
			['noshow', 9, 'finished', 'G'],
			['quiescent', 10, 'finished', 'G'],
			['Helpy', 11, 'finished', 'JsFJ'],
			['BadWolf', 12, 'finished', 'E'],
		]);
		expect(file.warnings).toEqual([
			'line 1: "?ctupdate sq 12" looks like a bot command, not part of the table: ignored',
			'tie on 88 points: Tim, Revenant share place 2',
		]);
	});
});

/*
 * Hand-made texts (no table of this shape with a permissive licence was found in public repositories): they mimic
 * the table maker's own examples (a team line `TAG - Full Team Name #color`, `90-10`, `70+20+8`, `Penalty -10`, a
 * trailing space) and the FFA text lounge bots generate (`#hide`, `#title`, `FFA - Free for All #color`, `[]`).
 * Every name is invented.
 */
const TEAM_TABLE = [
	'#title 6v6 war',
	'A - Alpha Squad #ff00ff',
	'Nadia [us] 104',
	'Omar [gb] 98',
	'Pia [au] 81',
	'Quinn [ca] 77',
	'Rosa [de] 92-10',
	'Sven [ie] 60',
	'Penalty -10',
	'',
	'B',
	'Tariq [cl] 70+20+8',
	'Uma [br] 83',
	'Vik 51',
	'Wen [kr] 99',
	'Xia [jp] 64',
	'Yusuf [mx] 77 ',
].join('\n');

const LOUNGE_FFA = [
	'#hide playerScores',
	'#title Tier 3 FFA',
	'#date 2024-05-01',
	'FFA - Free for All #FFAC1C',
	'Kestrel [fr] 112',
	'Lumen [] 95',
	'Mako [br] 95',
	'\u200b#Nyx [us_ny] 70',
].join('\r\n');

describe('Lorenzi tables, hand-made in the maker and lounge-bot shapes', () => {
	it('a team table: tags, a player penalty, a team penalty line, ties', () => {
		expect(lorenziReader.detect(TEAM_TABLE)).toBe(true);
		const file = lorenziReader.read(TEAM_TABLE);
		expect(file.session).toBe('6v6 war');
		// A: Nadia 104, Omar 98, Pia 81, Quinn 77, Rosa 92-10=82, Sven 60; team penalty -10 (line 9).
		// B: Tariq 70+20+8=98, Uma 83, Vik 51, Wen 99, Xia 64, Yusuf 77.
		expect(rows(file)).toEqual([
			['Nadia', 1, 'finished', 'A'],
			['Wen', 2, 'finished', 'B'],
			['Omar', 3, 'finished', 'A'],
			['Tariq', 4, 'finished', 'B'],
			['Uma', 5, 'finished', 'B'],
			['Rosa', 6, 'finished', 'A'],
			['Pia', 7, 'finished', 'A'],
			['Quinn', 8, 'finished', 'A'],
			['Yusuf', 9, 'finished', 'B'],
			['Xia', 10, 'finished', 'B'],
			['Sven', 11, 'finished', 'A'],
			['Vik', 12, 'finished', 'B'],
		]);
		expect(file.entries.find((entry) => entry.name === 'Rosa')?.penalties).toEqual(['-10 points']);
		expect(file.entries.filter((entry) => entry.penalties !== undefined)).toHaveLength(1);
		expect(file.warnings).toEqual([
			'line 9: penalty -10 points for team A: a team penalty, individual places unchanged',
			'tie on 98 points: Omar, Tariq share place 3',
			'tie on 77 points: Quinn, Yusuf share place 8',
		]);
	});

	it('a lounge FFA: one group is no team; directives, an empty flag, a bot-escaped "#" name, CRLF', () => {
		expect(lorenziReader.detect(LOUNGE_FFA)).toBe(true);
		const file = lorenziReader.read(LOUNGE_FFA);
		expect(file.session).toBe('Tier 3 FFA');
		expect(file.date).toBe('2024-05-01');
		expect(rows(file)).toEqual([
			['Kestrel', 1, 'finished', null],
			['Lumen', 2, 'finished', null],
			['Mako', 3, 'finished', null],
			['#Nyx', 4, 'finished', null],
		]);
		expect(file.warnings).toEqual(['tie on 95 points: Lumen, Mako share place 2']);
	});

	it('grand-prix columns alone are enough to recognise the maker; places follow the totals', () => {
		const text = 'Kai 40|38|22\nLeo 35|41|30\n';
		expect(lorenziReader.detect(text)).toBe(true);
		// Kai 40+38+22 = 100, Leo 35+41+30 = 106: Leo first although listed second.
		expect(rows(lorenziReader.read(text))).toEqual([
			['Leo', 1, 'finished', null],
			['Kai', 2, 'finished', null],
		]);
	});

	it('warns on a date it cannot read and on racers above the first team line', () => {
		const file = lorenziReader.read('#date May 1\nZed 30|30\nRED\nAmy 50\nBen 40\nBLUE\nCid 45\nDot 20\n');
		expect(file.date).toBeUndefined();
		expect(rows(file)).toEqual([
			['Zed', 1, 'finished', null],
			['Amy', 2, 'finished', 'RED'],
			['Cid', 3, 'finished', 'BLUE'],
			['Ben', 4, 'finished', 'RED'],
			['Dot', 5, 'finished', 'BLUE'],
		]);
		expect(file.warnings).toEqual([
			'line 1: date "May 1" is not YYYY-MM-DD: not read',
			'Zed: above the first team line, so in no team',
		]);
	});
});

describe('Lorenzi detect is specific', () => {
	it.each([
		['a numbered scoreboard with times', '1. Alice 1:23.456\n2. Bob 1:24.001\n3. Cleo 1:25.300\n'],
		['names and points only (ambiguous)', 'Alice 25\nBob 18\nCleo 15\n'],
		['two races of the same racers', 'Race 1\nAlice 25\nBob 18\n\nRace 2\nAlice 18\nBob 25\n'],
		['a tab-separated results copy', 'Pos\tDriver\tPts\n1\tAlice\t25\n2\tBob\t18\n'],
		['points with a time in the name', '1 Alice 1:23.456 25|3\n2 Bob 1:24.001 18|2\n'],
		['JSON', '{"players": ["Alice 25|3", "Bob 18|2"]}'],
		['empty', ''],
	])('not a Lorenzi table: %s', (_label, text) => {
		expect(lorenziReader.detect(text)).toBe(false);
	});

	it("is false for every other format's fixture and every scoreboard paste", () => {
		expectClaimsNoOther(lorenziReader, (path) => path.startsWith(`${OWN}/`));
	});
});

describe('Lorenzi read refuses what holds no racer', () => {
	const refuse = (text: string): void => {
		expect(() => lorenziReader.read(text)).toThrow(ResultFileError);
		expect(() => lorenziReader.read(text)).toThrow(/no racer in this Lorenzi table/u);
	};
	it('a title and team lines without racers', () => refuse('#title 12 races\nA\nB - Team B #ff0000\n'));
	it('a real table cut after its first bytes', () => {
		refuse(decodedText(fixtureBytes(`${OWN}/MogiUpdate.py.test_table_text_2.txt`).subarray(0, 20)));
	});
	it('garbage', () => refuse('\u0000\u0001\u0002\ufffd\ufffd'));
	it('JSON', () => refuse('{"sessionType": "R", "laps": []}'));
	it('nothing', () => refuse(''));
});
