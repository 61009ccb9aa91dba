import { describe, expect, it } from 'vitest';
import { classificationReader } from '../../../src/formats/results/classification.js';
import { ResultFileError, type ResultFile } from '../../../src/formats/results/types.js';
import { decodedText as decode, expectClaimsNoOther, fixtureBytes, fixtureText, readClaimed } from './support.js';

const OWN = 'mkalam-alami-formula1point5';
const POINTS_WARNING = 'the points column is not used: places come from the position column';

const fromString = (text: string): string => decode(new TextEncoder().encode(text));

const readText = (text: string): ResultFile => readClaimed(classificationReader, text);

type Row = [string, number, string, number | null, number | null, string | null, string | null];
/** [name, position, status, totalTime, laps, team, reason] of every entry. */
function rows(file: ResultFile): Row[] {
	return file.entries.map((entry) => [
		entry.name,
		entry.position,
		entry.status,
		entry.totalTime ?? null,
		entry.laps ?? null,
		entry.team ?? null,
		entry.reason ?? null,
	]);
}

/*
 * Real copies from formula1.com (2018-2019 layout) kept by mkalam-alami/formula1point5 (see PROVENANCE.md).
 * Total times were worked out by hand: the winner's `h:mm:ss.fff` in seconds (1:35:50.443 = 3600 + 35*60 + 50.443
 * = 5750.443), plus each `+N.NNNs` gap (5750.443 + 4.074 = 5754.517), checked with a decimal calculator; `+1 lap`
 * rows have no total; `NC … DNF` rows are DNF "not classified", after the classified cars in the table's order.
 */
describe('formula1.com copies from mkalam-alami/formula1point5', () => {
	it('2019 Spanish GP: gaps, two lapped cars, two NC', () => {
		const file = readText(fixtureText(`${OWN}/tables-samples.ts.d87aa52.race.txt`));
		expect(file.format).toBe('classification');
		expect(rows(file)).toEqual([
			['Lewis Hamilton', 1, 'finished', 5750.443, 66, 'Mercedes', null],
			['Valtteri Bottas', 2, 'finished', 5754.517, 66, 'Mercedes', null],
			['Max Verstappen', 3, 'finished', 5758.122, 66, 'Red Bull Racing Honda', null],
			['Sebastian Vettel', 4, 'finished', 5759.61, 66, 'Ferrari', null],
			['Charles Leclerc', 5, 'finished', 5763.804, 66, 'Ferrari', null],
			['Pierre Gasly', 6, 'finished', 5770.019, 66, 'Red Bull Racing Honda', null],
			['Kevin Magnussen', 7, 'finished', 5778.602, 66, 'Haas Ferrari', null],
			['Carlos Sainz', 8, 'finished', 5782.785, 66, 'McLaren Renault', null],
			['Daniil Kvyat', 9, 'finished', 5783.499, 66, 'Scuderia Toro Rosso Honda', null],
			['Romain Grosjean', 10, 'finished', 5785.084, 66, 'Haas Ferrari', null],
			['Alexander Albon', 11, 'finished', 5785.888, 66, 'Scuderia Toro Rosso Honda', null],
			['Daniel Ricciardo', 12, 'finished', 5787.201, 66, 'Renault', null],
			['Nico Hulkenberg', 13, 'finished', 5789.684, 66, 'Renault', null],
			['Kimi Räikkönen', 14, 'finished', 5792.246, 66, 'Alfa Romeo Racing Ferrari', null],
			['Sergio Perez', 15, 'finished', 5797.32, 66, 'Racing Point BWT Mercedes', null],
			['Antonio Giovinazzi', 16, 'finished', 5798.134, 66, 'Alfa Romeo Racing Ferrari', null],
			['George Russell', 17, 'finished', null, 65, 'Williams Mercedes', null],
			['Robert Kubica', 18, 'finished', null, 65, 'Williams Mercedes', null],
			['Lance Stroll', 19, 'DNF', null, 44, 'Racing Point BWT Mercedes', 'not classified'],
			['Lando Norris', 20, 'DNF', null, 44, 'McLaren Renault', 'not classified'],
		]);
		expect(file.warnings).toEqual([POINTS_WARNING]);
		expect(file.entries.every((entry) => entry.penalties === undefined && entry.simId === undefined)).toBe(true);
	});

	it('2019 Australian GP: gaps over a minute written in seconds, +1/+2/+3 laps, three NC', () => {
		const file = readText(fixtureText(`${OWN}/tables-samples.ts.d72e7e9.race.txt`));
		// 1:25:27.325 = 5127.325; Magnussen +87.156s = 5214.481.
		expect(rows(file)).toEqual([
			['Valtteri Bottas', 1, 'finished', 5127.325, 58, 'Mercedes', null],
			['Lewis Hamilton', 2, 'finished', 5148.211, 58, 'Mercedes', null],
			['Max Verstappen', 3, 'finished', 5149.845, 58, 'Red Bull Racing Honda', null],
			['Sebastian Vettel', 4, 'finished', 5184.434, 58, 'Ferrari', null],
			['Charles Leclerc', 5, 'finished', 5185.555, 58, 'Ferrari', null],
			['Kevin Magnussen', 6, 'finished', 5214.481, 58, 'Haas Ferrari', null],
			['Nico Hulkenberg', 7, 'finished', null, 57, 'Renault', null],
			['Kimi Räikkönen', 8, 'finished', null, 57, 'Alfa Romeo Racing Ferrari', null],
			['Lance Stroll', 9, 'finished', null, 57, 'Racing Point BWT Mercedes', null],
			['Daniil Kvyat', 10, 'finished', null, 57, 'Scuderia Toro Rosso Honda', null],
			['Pierre Gasly', 11, 'finished', null, 57, 'Red Bull Racing Honda', null],
			['Lando Norris', 12, 'finished', null, 57, 'McLaren Renault', null],
			['Sergio Perez', 13, 'finished', null, 57, 'Racing Point BWT Mercedes', null],
			['Alexander Albon', 14, 'finished', null, 57, 'Scuderia Toro Rosso Honda', null],
			['Antonio Giovinazzi', 15, 'finished', null, 57, 'Alfa Romeo Racing Ferrari', null],
			['George Russell', 16, 'finished', null, 56, 'Williams Mercedes', null],
			['Robert Kubica', 17, 'finished', null, 55, 'Williams Mercedes', null],
			['Romain Grosjean', 18, 'DNF', null, 29, 'Haas Ferrari', 'not classified'],
			['Daniel Ricciardo', 19, 'DNF', null, 28, 'Renault', 'not classified'],
			['Carlos Sainz', 20, 'DNF', null, 9, 'McLaren Renault', 'not classified'],
		]);
		expect(file.warnings).toEqual([POINTS_WARNING]);
	});

	it('2018 Australian GP: five NC', () => {
		const file = readText(fixtureText(`${OWN}/f1p5-samples.js.eb37e3f.race.txt`));
		// 1:29:33.283 = 5373.283; Ocon +60.278s = 5433.561.
		expect(rows(file)).toEqual([
			['Sebastian Vettel', 1, 'finished', 5373.283, 58, 'Ferrari', null],
			['Lewis Hamilton', 2, 'finished', 5378.319, 58, 'Mercedes', null],
			['Kimi Räikkönen', 3, 'finished', 5379.592, 58, 'Ferrari', null],
			['Daniel Ricciardo', 4, 'finished', 5380.352, 58, 'Red Bull Racing TAG Heuer', null],
			['Fernando Alonso', 5, 'finished', 5401.169, 58, 'McLaren Renault', null],
			['Max Verstappen', 6, 'finished', 5402.228, 58, 'Red Bull Racing TAG Heuer', null],
			['Nico Hulkenberg', 7, 'finished', 5405.954, 58, 'Renault', null],
			['Valtteri Bottas', 8, 'finished', 5407.622, 58, 'Mercedes', null],
			['Stoffel Vandoorne', 9, 'finished', 5408.204, 58, 'McLaren Renault', null],
			['Carlos Sainz', 10, 'finished', 5419.005, 58, 'Renault', null],
			['Sergio Perez', 11, 'finished', 5420.1, 58, 'Force India Mercedes', null],
			['Esteban Ocon', 12, 'finished', 5433.561, 58, 'Force India Mercedes', null],
			['Charles Leclerc', 13, 'finished', 5449.042, 58, 'Sauber Ferrari', null],
			['Lance Stroll', 14, 'finished', 5451.571, 58, 'Williams Mercedes', null],
			['Brendon Hartley', 15, 'finished', null, 57, 'Scuderia Toro Rosso Honda', null],
			['Romain Grosjean', 16, 'DNF', null, 24, 'Haas Ferrari', 'not classified'],
			['Kevin Magnussen', 17, 'DNF', null, 22, 'Haas Ferrari', 'not classified'],
			['Pierre Gasly', 18, 'DNF', null, 13, 'Scuderia Toro Rosso Honda', 'not classified'],
			['Marcus Ericsson', 19, 'DNF', null, 5, 'Sauber Ferrari', 'not classified'],
			['Sergey Sirotkin', 20, 'DNF', null, 4, 'Williams Mercedes', 'not classified'],
		]);
		expect(file.warnings).toEqual([POINTS_WARNING]);
	});

	it('practice and qualifying tables of the same site are recognised but refused: no race', () => {
		const practice = fixtureText(`${OWN}/tables-samples.ts.d87aa52.practice.txt`);
		const qualifying = fixtureText(`${OWN}/tables-samples.ts.d87aa52.qualifying.txt`);
		expect(classificationReader.detect(practice)).toBe(true);
		expect(classificationReader.detect(qualifying)).toBe(true);
		expect(() => classificationReader.read(practice)).toThrow(
			new ResultFileError(
				'line 1: this is practice or qualifying times (no Time/Retired column), not a race: nothing to rate',
			),
		);
		expect(() => classificationReader.read(qualifying)).toThrow(
			new ResultFileError('line 1: this is a qualifying classification (Q1, Q2, Q3), not a race: nothing to rate'),
		);
	});

	it('the pit stop summary is another table: not claimed, and refused with a clear message', () => {
		const pits = fixtureText(`${OWN}/tables-samples.ts.d87aa52.racePits.txt`);
		expect(classificationReader.detect(pits)).toBe(false);
		expect(() => classificationReader.read(pits)).toThrow(/no classification header/u);
	});
});

/*
 * Hand-made copies: no copy of the 2024 formula1.com pages or of a Wikipedia race report with a permissive licence
 * was found in public repositories (Wikipedia's text is CC BY-SA). They mimic what those pages give when copied: the
 * 2024 site's header `POS. NO. DRIVER TEAM LAPS TIME / RETIRED PTS.`, its no-break space between first and last
 * name and the three-letter code glued to the name (as scrapers of the site document it), its one-cell-a-line copy
 * (as a parser of pasted results in JakeXWolf/f1-challenge reads it); Wikipedia's `Pos. No. Driver Constructor
 * Laps Time/Retired Grid Points` with `Ret`, `NC`, `DNS`, `DSQ`, `EX`, `DNQ`, `6†`, `PL`, `+1 Lap`, gaps without `s`
 * and the lines under the table. Every name, team and time is invented.
 */
const NEW_SITE_ROWS = [
	['1', '7', 'Ada\u00a0VossVOS', 'Falcon Racing', '57', '1:31:44.742', '25'],
	['2', '22', 'Ben\u00a0OkaforOKA', 'Falcon Racing', '57', '+22.457s', '18'],
	['3', '16', 'Chiara\u00a0RossiROS', 'Rosso Corse', '57', '+25.110s', '15'],
	['4', '3', 'Dmitri\u00a0VolkovVOL', 'Polar GP', '57', '+62.345s', '12'],
	['5', '31', 'Emi\u00a0SatoSAT', 'Polar GP', '56', '+1 lap', '10'],
	['6', '10', 'Farid\u00a0HaddadHAD', 'Rosso Corse', '55', '+2 laps', '8'],
	['7', '44', 'Gus\u00a0LindqvistLIN', 'Nordic F1 Team', '52', 'DNF', '6'],
	['NC', '2', 'Hugo\u00a0PerrinPER', 'Nordic F1 Team', '12', 'DNF', '0'],
	['DQ', '18', 'Ines\u00a0MoralesMOR', 'Azul Motorsport', '57', 'DQ', '0'],
];
const NEW_SITE_HEADER = ['POS.', 'NO.', 'DRIVER', 'TEAM', 'LAPS', 'TIME / RETIRED', 'PTS.'];

// Ada's 1:31:44.742 = 3600 + 31*60 + 44.742 = 5504.742; Ben +22.457 = 5527.199; Chiara +25.110 = 5529.852;
// Dmitri +62.345 = 5567.087; Emi and Farid are laps down; Gus stopped but is classified 7th.
const NEW_SITE_EXPECTED: Row[] = [
	['Ada Voss', 1, 'finished', 5504.742, 57, 'Falcon Racing', null],
	['Ben Okafor', 2, 'finished', 5527.199, 57, 'Falcon Racing', null],
	['Chiara Rossi', 3, 'finished', 5529.852, 57, 'Rosso Corse', null],
	['Dmitri Volkov', 4, 'finished', 5567.087, 57, 'Polar GP', null],
	['Emi Sato', 5, 'finished', null, 56, 'Polar GP', null],
	['Farid Haddad', 6, 'finished', null, 55, 'Rosso Corse', null],
	['Gus Lindqvist', 7, 'DNF', null, 52, 'Nordic F1 Team', null],
	['Hugo Perrin', 8, 'DNF', null, 12, 'Nordic F1 Team', 'not classified'],
	['Ines Morales', 9, 'DSQ', null, 57, 'Azul Motorsport', null],
];
const CODES_WARNING = 'three-letter driver codes glued to the names removed ("Max VerstappenVER")';

describe('hand-made copies of the 2024 formula1.com page, of Wikipedia, and through a chat', () => {
	it('formula1.com since 2024, tab-separated: glued codes, no-break spaces, a classified DNF, NC, DQ', () => {
		const text = fromString([NEW_SITE_HEADER, ...NEW_SITE_ROWS].map((cells) => cells.join('\t')).join('\n'));
		const file = readText(text);
		expect(rows(file)).toEqual(NEW_SITE_EXPECTED);
		expect(file.entries.find((entry) => entry.status === 'DSQ')?.penalties).toEqual(['disqualified']);
		expect(file.warnings).toEqual([
			CODES_WARNING,
			'line 8: Gus Lindqvist stopped (DNF) but is classified 7: DNF at that place',
			POINTS_WARNING,
		]);
	});

	it('formula1.com since 2024, one cell a line', () => {
		const text = fromString(`${[NEW_SITE_HEADER, ...NEW_SITE_ROWS].flat().join('\n')}\n`);
		const file = readText(text);
		expect(rows(file)).toEqual(NEW_SITE_EXPECTED);
		// Gus's row is the 7th: its first cell is on line 7 (header) + 6 * 7 + 1 = 50.
		expect(file.warnings).toEqual([
			CODES_WARNING,
			'line 50: Gus Lindqvist stopped (DNF) but is classified 7: DNF at that place',
			POINTS_WARNING,
		]);
	});

	it('a Wikipedia race report: Ret, NC, DNS, DSQ, a classified retirement (6†), lines under the table', () => {
		const text = fromString(
			[
				'Pos.\tNo.\tDriver\tConstructor\tLaps\tTime/Retired\tGrid\tPoints',
				'1\t11\tAda Voss\tFalcon-Ferrari\t70\t1:30:15.456\t2\t25',
				'2\t5\tBen Okafor\tRosso-Mercedes\t70\t+1.234\t1\t18',
				'3\t9\tChiara Rossi\tFalcon-Ferrari\t70\t+1:02.345\t4\t15',
				'4\t21\tDmitri Volkov\tPolar-Renault\t69\t+1 Lap\t3\t12',
				'5\t8\tEmi Sato\tNordic-Honda\t68\t+2 Laps\tPL\t10',
				'6†\t14\tFarid Haddad\tPolar-Renault\t64\tEngine\t6\t8',
				'NC\t3\tGus Lindqvist\tNordic-Honda\t50\t+20 Laps\t8\t',
				'Ret\t17\tHugo Perrin\tAzul-Mercedes\t31\tCollision\t5\t',
				'Ret\t27\tInes Morales\tAzul-Mercedes\t0\tCollision\t7\t',
				'DNS\t6\tJon Berg\tRosso-Mercedes\t0\tPower unit\t—\t',
				'DSQ\t30\tKai Mendes\tFalcon-Ferrari\t70\tDisqualified\t9\t',
				'Fastest lap: Ada Voss (Falcon-Ferrari) – 1:14.260 (lap 52)',
				'Source:[1]',
			].join('\n'),
		);
		const file = readText(text);
		// 1:30:15.456 = 5415.456; +1.234 = 5416.690; +1:02.345 (62.345 s) = 5477.801.
		expect(rows(file)).toEqual([
			['Ada Voss', 1, 'finished', 5415.456, 70, 'Falcon-Ferrari', null],
			['Ben Okafor', 2, 'finished', 5416.69, 70, 'Rosso-Mercedes', null],
			['Chiara Rossi', 3, 'finished', 5477.801, 70, 'Falcon-Ferrari', null],
			['Dmitri Volkov', 4, 'finished', null, 69, 'Polar-Renault', null],
			['Emi Sato', 5, 'finished', null, 68, 'Nordic-Honda', null],
			['Farid Haddad', 6, 'DNF', null, 64, 'Polar-Renault', 'Engine'],
			['Gus Lindqvist', 7, 'DNF', null, 50, 'Nordic-Honda', 'not classified'],
			['Hugo Perrin', 8, 'DNF', null, 31, 'Azul-Mercedes', 'Collision'],
			['Ines Morales', 9, 'DNF', null, 0, 'Azul-Mercedes', 'Collision'],
			['Jon Berg', 10, 'DNS', null, 0, 'Rosso-Mercedes', 'Power unit'],
			['Kai Mendes', 11, 'DSQ', null, 70, 'Falcon-Ferrari', null],
		]);
		expect(file.entries[10]!.penalties).toEqual(['disqualified']);
		expect(file.warnings).toEqual([
			'line 7: Farid Haddad stopped (Engine) but is classified 6: DNF at that place',
			'line 13: not a classification row: "Fastest lap: Ada Voss (Falcon-Ferrari) – 1:14.260 (lap 52)"',
			'line 14: not a classification row: "Source:[1]"',
			POINTS_WARNING,
		]);
	});

	it('an older Wikipedia report: EX is a DSQ with its reason, DNQ is not a racer', () => {
		const text = fromString(
			[
				'Pos.\tNo.\tDriver\tConstructor\tLaps\tTime/Retired\tGrid\tPoints',
				'1\t1\tPia Lund\tOrion-Ford\t60\t1:41:12.5\t1\t9',
				'2\t2\tRui Costa\tOrion-Ford\t60\t+12.4\t2\t6',
				'EX\t5\tSam Hart\tTern-Judd\t45\tPush start\t4\t',
				'DNQ\t9\tTom Ivers\tTern-Judd\t\t\t\t',
			].join('\n'),
		);
		const file = readText(text);
		// 1:41:12.5 = 3600 + 41*60 + 12.5 = 6072.5; + 12.4 = 6084.9.
		expect(rows(file)).toEqual([
			['Pia Lund', 1, 'finished', 6072.5, 60, 'Orion-Ford', null],
			['Rui Costa', 2, 'finished', 6084.9, 60, 'Orion-Ford', null],
			['Sam Hart', 3, 'DSQ', null, 45, 'Tern-Judd', 'excluded: Push start'],
		]);
		expect(file.entries[2]!.penalties).toEqual(['excluded']);
		expect(file.warnings).toEqual(['line 5: Tom Ivers did not qualify (DNQ): not a racer', POINTS_WARNING]);
	});

	it('a copy whose tabs became runs of spaces (through a chat), CRLF line ends', () => {
		const text = fromString(
			[
				'POS  NO  DRIVER          CAR              LAPS  TIME/RETIRED  PTS',
				'1    63  Lea Brandt      Atlas Mercedes   52    1:27:03.101   25',
				'2    12  Marco Neri      Atlas Mercedes   52    +0.993s       18',
				'3    77  Noa Kim         Vega Honda       51    +1 lap        15',
				'NC   40  Otto Lang       Vega Honda       20    DNF           0',
			].join('\r\n'),
		);
		const file = readText(text);
		// 1:27:03.101 = 3600 + 27*60 + 3.101 = 5223.101; +0.993 = 5224.094.
		expect(rows(file)).toEqual([
			['Lea Brandt', 1, 'finished', 5223.101, 52, 'Atlas Mercedes', null],
			['Marco Neri', 2, 'finished', 5224.094, 52, 'Atlas Mercedes', null],
			['Noa Kim', 3, 'finished', null, 51, 'Vega Honda', null],
			['Otto Lang', 4, 'DNF', null, 20, 'Vega Honda', 'not classified'],
		]);
		expect(file.warnings).toEqual([POINTS_WARNING]);
	});

	it('places out of order are sorted, and a missing place is warned', () => {
		const file = readText(
			'Pos\tNo\tDriver\tCar\tLaps\tTime/Retired\n3\t8\tCy\tT\t10\t+2.000s\n1\t5\tAb\tT\t10\t20:00.000\n',
		);
		expect(rows(file)).toEqual([
			['Ab', 1, 'finished', 1200, 10, 'T', null],
			['Cy', 2, 'finished', 1202, 10, 'T', null],
		]);
		expect(file.warnings).toEqual(['the places run 1, 3, not 1 to 2: renumbered in that order']);
	});

	it("gaps without the winner's time give no total", () => {
		const file = readText('Pos\tNo\tDriver\tCar\tLaps\tTime/Retired\n2\t8\tCy\tT\t10\t+2.000s\n3\t5\tAb\tT\t10\t+3.5s');
		expect(rows(file).map((row) => row[3])).toEqual([null, null]);
		expect(file.warnings).toEqual([
			'the places run 2, 3, not 1 to 2: renumbered in that order',
			"the winner's race time is missing: gaps not turned into total times",
		]);
	});
});

describe('classification detect is specific', () => {
	it.each([
		['a numbered scoreboard with times', '1. Alice 1:23.456\n2. Bob 1:24.001\n3. Cleo 1:25.300\n'],
		['a scoreboard with a plain header', 'Pos\tDriver\tTime\n1\tAlice\t1:23.456\n2\tBob\t1:24.001\n'],
		['a header with no place column', 'No\tDriver\tCar\tLaps\tTime/Retired\n1\tAlice\tT\t10\t20:00.000\n'],
		['a CSV export', 'Pos,No,Driver,Car,Laps,Time/Retired,PTS\n1,5,Alice,T,10,20:00.000,25\n'],
		['a Lorenzi table', '#title 12 races\nA\nAlice [us] 40|38|22\nBob 35|41|30\n'],
		['empty', ''],
	])('not a classification: %s', (_label, text) => {
		expect(classificationReader.detect(text)).toBe(false);
	});

	it("is false for every other format's fixture and every scoreboard paste", () => {
		expectClaimsNoOther(classificationReader, (path) => path.startsWith(`${OWN}/`));
	});
});

describe('classification read refuses what holds no race', () => {
	it('a header with no row under it', () => {
		expect(() => classificationReader.read(`${NEW_SITE_HEADER.join('\t')}\n\n`)).toThrow(
			new ResultFileError('line 1: the classification has a header but no driver row under it'),
		);
	});
	it('a real race copy cut inside its header', () => {
		const bytes = fixtureBytes(`${OWN}/tables-samples.ts.d87aa52.race.txt`).subarray(0, 30);
		expect(() => classificationReader.read(decode(bytes))).toThrow(
			new ResultFileError('line 1: the header has no Time/Retired column (was the copy cut short?): nothing to rate'),
		);
	});
	it('garbage', () => {
		expect(() => classificationReader.read('\u0000\u0001 garbage \ufffd')).toThrow(ResultFileError);
		expect(() => classificationReader.read('\u0000\u0001 garbage \ufffd')).toThrow(/no classification header/u);
	});
	it('JSON', () => {
		expect(() => classificationReader.read('{"Pos": 1, "Driver": "Ada"}')).toThrow(/no classification header/u);
	});
});
