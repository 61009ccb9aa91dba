import { describe, expect, it } from 'vitest';
import { iracingJsonReader } from '../../../src/formats/results/iracing-json.js';
import { ResultFileError, type ResultFile } from '../../../src/formats/results/types.js';
import {
	expectClaimsNoOther,
	expectIracingCommon,
	fixtureText as text,
	iracingTable as table,
	PASTED_SCOREBOARD,
} from './support.js';

/**
 * The iRacing subsession result JSON on real files (test/fixtures/results/<owner>-<repo>/PROVENANCE.md): a hosted
 * league race whose file lists the race first and names classes only in `car_classes` (mauserrifle/simresults), an
 * official race with 3 sessions, lapped, disconnected and lap-less cars, and a 24-hour team race with 3 classes
 * (jasondilworth56/iracingdataapi).
 *
 * How the tables were checked: each was written out from the raw race session (`simsession_type_name` "Race") by a
 * separate Python reading (json module): results by finish_position, display_name, cust_id (none for a team's car,
 * which has driver_results), laps_complete, reason_out, car_class_name (else the car_classes name), applying the
 * documented rule by hand (Running = finished, Disqualified or DQ/... = DSQ, no lap = DNS, else DNF; finishers first
 * in finish_position order, the others after them). The moved cars and the 0-lap rows were then looked at in the
 * file; the class positions are also compared below with the file's own finish_position_in_class.
 */

const read = (path: string) => iracingJsonReader.read(text(path));
const raw = (path: string) => JSON.parse(text(path)) as Subsession;

interface RawResult {
	finish_position: number;
	finish_position_in_class: number;
	display_name: string;
	car_name?: string;
}
interface RawSession {
	simsession_number: number;
	simsession_type: number;
	simsession_type_name: string;
	simsession_name: string;
	results: RawResult[];
}
interface Subsession {
	session_results: RawSession[];
}

const SIMRESULTS = 'mauserrifle-simresults/iracing/iracing-result-36788868.json';
const OFFICIAL = 'jasondilworth56-iracingdataapi/result.json';
const TEAM = 'jasondilworth56-iracingdataapi/result_with_team.json';
const OWN = [SIMRESULTS, OFFICIAL, TEAM];

const expectCommon = (file: ResultFile): void => expectIracingCommon(file, 'iracing-json');

/** Where nothing moved, the positions and class positions are the file's own (counted from 0 there). */
function expectFilePositions(file: ResultFile, race: RawSession): void {
	const results = [...race.results].sort((a, b) => a.finish_position - b.finish_position);
	expect(file.entries.map((e) => [e.name, e.position, e.classPosition])).toEqual(
		results.map((r) => [r.display_name, r.finish_position + 1, r.finish_position_in_class + 1]),
	);
}

describe('iracingJsonReader on real results', () => {
	it('a hosted league race listed before its qualifying and practice (Bathurst): 17 cars, one lapped', () => {
		const file = read(SIMRESULTS);
		expectCommon(file);
		// session_results: RACE (0), QUALIFY (-1), PRACTICE (-2): the race is the 3rd session run.
		expect(file.session).toBe('race (session 3 of 3)');
		expect(file.track).toBe('Mount Panorama Circuit'); // config_name "N/A"
		expect(file.date).toBe('2021-01-08');
		expect(file.warnings).toEqual([]);
		// No car_class_name in the results: car_class_id 95 is "Porsche 911 GT3 Cup" in car_classes; no car_name.
		expect(table(file)).toEqual([
			[1, 'Dave N', 'finished', 5, 357237, 'Porsche 911 GT3 Cup', 1],
			[2, 'Matt A', 'finished', 5, 180797, 'Porsche 911 GT3 Cup', 2],
			[3, 'David W', 'finished', 5, 53814, 'Porsche 911 GT3 Cup', 3],
			[4, 'Lee H', 'finished', 5, 458422, 'Porsche 911 GT3 Cup', 4],
			[5, 'Freddy H', 'finished', 5, 476934, 'Porsche 911 GT3 Cup', 5],
			[6, 'Michael S', 'finished', 5, 265908, 'Porsche 911 GT3 Cup', 6],
			[7, 'Jamie D', 'finished', 5, 417499, 'Porsche 911 GT3 Cup', 7],
			[8, 'Callum N', 'finished', 5, 501012, 'Porsche 911 GT3 Cup', 8],
			[9, 'Geoff P', 'finished', 5, 467645, 'Porsche 911 GT3 Cup', 9],
			[10, 'Jochen S', 'finished', 5, 435038, 'Porsche 911 GT3 Cup', 10],
			[11, 'Mathew A', 'finished', 5, 293575, 'Porsche 911 GT3 Cup', 11],
			[12, 'Tomas D', 'finished', 5, 485094, 'Porsche 911 GT3 Cup', 12],
			[13, 'Wayne D', 'finished', 5, 23406, 'Porsche 911 GT3 Cup', 13],
			[14, 'Chris K', 'finished', 5, 79833, 'Porsche 911 GT3 Cup', 14],
			[15, 'Colin M', 'finished', 5, 482024, 'Porsche 911 GT3 Cup', 15],
			[16, 'Olly W', 'finished', 5, 479494, 'Porsche 911 GT3 Cup', 16],
			[17, 'Sam H', 'finished', 4, 488626, 'Porsche 911 GT3 Cup', 17],
		]);
		expect(file.entries.every((e) => e.car === undefined)).toBe(true);
		expectFilePositions(file, raw(SIMRESULTS).session_results[0]!);
	});

	it('an official race after practice and qualifying (Nürburgring, GT4): lapped finishers, disconnected, no lap', () => {
		const file = read(OFFICIAL);
		expectCommon(file);
		expect(file.session).toBe('race (session 3 of 3)');
		expect(file.track).toBe('Nürburgring Grand-Prix-Strecke - BES/WEC');
		expect(file.date).toBe('2025-12-28');
		expect(file.warnings).toEqual([]);
		// "Diego Fernández5" keeps iRacing's digit; Kirill Dronkin (9 laps) and Andrés Bertoni (8) are lapped, Running.
		expect(table(file)).toEqual([
			[1, 'Lukas Schwenk', 'finished', 10, 473030, 'GT4 Class', 1],
			[2, 'Valentin Kluss', 'finished', 10, 432652, 'GT4 Class', 2],
			[3, 'Diego Fernández5', 'finished', 10, 1009174, 'GT4 Class', 3],
			[4, 'Alex Mohr', 'finished', 10, 447143, 'GT4 Class', 4],
			[5, 'Finley Jones', 'finished', 10, 1253123, 'GT4 Class', 5],
			[6, 'Joe Aguilar', 'finished', 10, 166182, 'GT4 Class', 6],
			[7, 'Oliver Holt', 'finished', 10, 956892, 'GT4 Class', 7],
			[8, 'David Lourd', 'finished', 10, 567617, 'GT4 Class', 8],
			[9, 'Adam Collin', 'finished', 10, 500287, 'GT4 Class', 9],
			[10, 'Jonas Sandstede', 'finished', 10, 170870, 'GT4 Class', 10],
			[11, 'Connor Clubine', 'finished', 10, 412200, 'GT4 Class', 11],
			[12, 'Vili Tero', 'finished', 10, 1386334, 'GT4 Class', 12],
			[13, 'Raul Lopez Gimenez', 'finished', 10, 745711, 'GT4 Class', 13],
			[14, 'Hank Belane', 'finished', 10, 890016, 'GT4 Class', 14],
			[15, 'Christian Menezes', 'finished', 10, 733441, 'GT4 Class', 15],
			[16, 'Théo Barchino', 'finished', 10, 1004165, 'GT4 Class', 16],
			[17, 'Eder Incera Tristan', 'finished', 10, 571733, 'GT4 Class', 17],
			[18, 'Christopher Bruchmann', 'finished', 10, 1379179, 'GT4 Class', 18],
			[19, 'Alexis Montesdeoca', 'finished', 10, 404356, 'GT4 Class', 19],
			[20, 'Willian Schilling', 'finished', 10, 1326283, 'GT4 Class', 20],
			[21, 'Francisco Cores', 'finished', 10, 1197334, 'GT4 Class', 21],
			[22, 'William Leblond', 'finished', 10, 389959, 'GT4 Class', 22],
			[23, 'Sebastian Bignasca', 'finished', 10, 1258349, 'GT4 Class', 23],
			[24, 'Kirill Dronkin', 'finished', 9, 1308876, 'GT4 Class', 24],
			[25, 'Andrés Bertoni', 'finished', 8, 282380, 'GT4 Class', 25],
			[26, 'Xavier Abellan', 'DNF', 7, 354144, 'GT4 Class', 26, 'Disconnected'],
			[27, 'Markus Buttliger', 'DNF', 7, 1041380, 'GT4 Class', 27, 'Disconnected'],
			[28, 'Erik Tveit', 'DNF', 6, 68540, 'GT4 Class', 28, 'Disconnected'],
			[29, 'Cedric Fuchs', 'DNS', 0, 1180318, 'GT4 Class', 29, 'Disconnected'],
			[30, 'Victor Hansen', 'DNS', 0, 399652, 'GT4 Class', 30, 'Disconnected'],
		]);
		expect(file.entries[0]!.car).toBe('Ford Mustang GT4');
		expectFilePositions(file, raw(OFFICIAL).session_results[2]!);
	});

	it('a 24-hour team race (Daytona, GTP / Dallara P217 / IMSA23): one entry per car, named by its team', () => {
		const file = read(TEAM);
		expectCommon(file);
		expect(file.session).toBe('race (session 3 of 3)');
		expect(file.track).toBe('Daytona International Speedway - Road Course');
		expect(file.date).toBe('2026-01-17');
		// finish_position 39-41 (P40-P42) are Disconnected with 633, 632 and 595 laps, above Simtec Racing Team #474,
		// Running with 545 laps at 42 (P43); Milwauchibre (P44, Disconnected, 475 laps) is already below it.
		expect(file.warnings).toEqual([
			'a team event: each car is one racer, named by its team (59 cars); its 231 drivers are not rated one by one',
			'iRacing classified 3 cars that did not take the flag among the finishers: ' +
				'Bite Point Racing (P40, Disconnected), Miracle Kids Success Academy (P41, Disconnected), ' +
				'Team Highside - Vette (P42, Disconnected): placed after every finisher',
		]);
		expect(table(file)).toEqual([
			[1, 'Crayola Advanced Engineering', 'finished', 883, null, 'GTP', 1],
			[2, 'Granateapfel RT', 'finished', 879, null, 'GTP', 2],
			[3, 'EHR Blue', 'finished', 878, null, 'GTP', 3],
			[4, 'Azz Tech Racing - 390', 'finished', 876, null, 'GTP', 4],
			[5, 'Tabula Rasa eSports 901', 'finished', 873, null, 'GTP', 5],
			[6, 'Savage Sim Racing - Team 80HD', 'finished', 868, null, 'GTP', 6],
			[7, 'Motorsports Factory YELLOW', 'finished', 860, null, 'GTP', 7],
			[8, 'Piki SCT', 'finished', 858, null, 'GTP', 8],
			[9, 'Axis Simsports Blue', 'finished', 850, null, 'GTP', 9],
			[10, 'BLOO Racing by VR | 040', 'finished', 839, null, 'Dallara P217', 1],
			[11, 'LITHIUM Motorsports', 'finished', 838, null, 'Dallara P217', 2],
			[12, 'Wildfire Racing Dragon', 'finished', 834, null, 'Dallara P217', 3],
			[13, 'Lightning Racing Team - #86', 'finished', 834, null, 'Dallara P217', 4],
			[14, '4ORGE Lions', 'finished', 832, null, 'Dallara P217', 5],
			[15, 'Inside Curb Racing', 'finished', 829, null, 'GTP', 10],
			[16, 'Speed Eagles Gold', 'finished', 826, null, 'Dallara P217', 6],
			[17, 'Katzes Racing League #Beta', 'finished', 818, null, 'Dallara P217', 7],
			[18, "Ecurie Col d'Oiseaux Tertre Rouge", 'finished', 816, null, 'Dallara P217', 8],
			[19, 'SIM RACING GRID ACADEMY - Obsidian', 'finished', 811, null, 'Dallara P217', 9],
			[20, 'DSDF Racing LMP2', 'finished', 807, null, 'Dallara P217', 10],
			[21, 'Team MFM - SURVIVE!', 'finished', 800, null, 'IMSA23', 1],
			[22, 'DB3 MOTORSPORT | REMESI', 'finished', 798, null, 'IMSA23', 2],
			[23, 'W2W Racing Red', 'finished', 797, null, 'IMSA23', 3],
			[24, 'TKG Simsport PRO', 'finished', 797, null, 'IMSA23', 4],
			[25, 'Almeida Endurance Racing Black', 'finished', 794, null, 'IMSA23', 5],
			[26, 'Club 100 Sim Racers', 'finished', 794, null, 'IMSA23', 6],
			[27, 'Team PaceLab - Red', 'finished', 794, null, 'IMSA23', 7],
			[28, 'Should be Fine Motorsports', 'finished', 793, null, 'IMSA23', 8],
			[29, 'Rag1ng Dragons e-Sports #Team Gold', 'finished', 792, null, 'IMSA23', 9],
			[30, 'Top Tier Motorsport #222', 'finished', 791, null, 'IMSA23', 10],
			[31, 'APEXNOVA SIMRACING PURPLE', 'finished', 789, null, 'IMSA23', 11],
			[32, 'Maniti Racing Yellow', 'finished', 788, null, 'IMSA23', 12],
			[33, 'Pineapple Racing Club', 'finished', 787, null, 'IMSA23', 13],
			[34, 'SFR ITALIA', 'finished', 785, null, 'IMSA23', 14],
			[35, 'CDLC', 'finished', 782, null, 'IMSA23', 15],
			[36, 'IPM Yellow', 'finished', 775, null, 'IMSA23', 16],
			[37, 'WFLM Motorsport Vortex', 'finished', 775, null, 'IMSA23', 17],
			[38, 'PRS Team Europe', 'finished', 769, null, 'IMSA23', 18],
			[39, 'Austrian Simracers Blue', 'finished', 738, null, 'IMSA23', 19],
			[40, 'Simtec Racing Team #474', 'finished', 545, null, 'IMSA23', 20],
			[41, 'Bite Point Racing', 'DNF', 633, null, 'IMSA23', 21, 'Disconnected'],
			[42, 'Miracle Kids Success Academy', 'DNF', 632, null, 'IMSA23', 22, 'Disconnected'],
			[43, 'Team Highside - Vette', 'DNF', 595, null, 'IMSA23', 23, 'Disconnected'],
			[44, 'Milwauchibre Racing Team', 'DNF', 475, null, 'IMSA23', 24, 'Disconnected'],
			[45, 'Vortex Racing Alpha', 'DNF', 434, null, 'GTP', 11, 'Disconnected'],
			[46, 'TRC Endurance 01', 'DNF', 319, null, 'Dallara P217', 11, 'Disconnected'],
			[47, 'Melanzani Racing 102', 'DNF', 241, null, 'GTP', 12, 'Disconnected'],
			[48, 'Uprise Motorsports', 'DNS', 0, null, 'IMSA23', 25, 'Disconnected'],
			[49, 'THLF eSports Multinational by Raceverse.at', 'DNS', 0, null, 'IMSA23', 26, 'Disconnected'],
			[50, 'Leche Condensada Racing Team', 'DSQ', 0, null, 'IMSA23', 27, 'DQ/Scoring Invalidated'],
			[51, 'Primal Racing 1', 'DNS', 0, null, 'GTP', 13, 'Disconnected'],
			[52, 'Velocity X Rhythm Racing Team', 'DNS', 0, null, 'IMSA23', 28, 'Disconnected'],
			[53, 'DCS Racing Green', 'DNS', 0, null, 'IMSA23', 29, 'Disconnected'],
			[54, 'TEN MAD MEN Alpha', 'DNS', 0, null, 'IMSA23', 30, 'Disconnected'],
			[55, 'IntoTheApex.com Gold', 'DNS', 0, null, 'GTP', 14, 'Disconnected'],
			[56, 'Kika Cetasso Racing Team', 'DNS', 0, null, 'IMSA23', 31, 'Disconnected'],
			[57, 'Parc Motorsport Team Purple', 'DNS', 0, null, 'IMSA23', 32, 'Disconnected'],
			[58, 'Angler Racing', 'DNS', 0, null, 'IMSA23', 33, 'Disconnected'],
			[59, 'BMW M Plower #557', 'DNS', 0, null, 'Dallara P217', 12, 'Disconnected'],
		]);
		expect(file.entries[0]!.car).toBe('Porsche 963 GTP');
		expect(file.entries[1]!.car).toBe('Ferrari 499P');
	});
});

describe('iracingJsonReader: which session', () => {
	it('reads the site export, wrapped as {"type": "event_result", "data": ...}, as the bare data-API object', () => {
		const wrapped = JSON.stringify({ type: 'event_result', data: raw(OFFICIAL) });
		expect(iracingJsonReader.detect(wrapped)).toBe(true);
		expect(iracingJsonReader.read(wrapped)).toEqual(read(OFFICIAL));
	});

	it('reads the last race by simsession_number when there are heats, whatever the order of the list', () => {
		const subsession = raw(OFFICIAL);
		const [practice, qualifying, race] = subsession.session_results as [RawSession, RawSession, RawSession];
		const heat = { ...qualifying, simsession_type: 6, simsession_type_name: 'Race', simsession_name: 'HEAT 1' };
		const file = iracingJsonReader.read(JSON.stringify({ ...subsession, session_results: [race, heat, practice] }));
		expect(file.session).toBe('race (session 3 of 3)');
		expect(file.entries).toEqual(read(OFFICIAL).entries);
		expect(file.warnings).toEqual(['the file holds 2 race sessions (Race (HEAT 1), Race): the last, Race, is read']);
	});

	it('leaves out a result without a name, and says so', () => {
		const subsession = raw(OFFICIAL);
		const race = subsession.session_results[2]!;
		const nameless = { ...race, results: race.results.map((r, i) => (i === 1 ? { ...r, display_name: ' ' } : r)) };
		const file = iracingJsonReader.read(JSON.stringify({ ...subsession, session_results: [nameless] }));
		expect(file.warnings).toEqual(['a result without a display_name (cust_id 432652) is left out']);
		expect(file.entries.map((e) => e.name).slice(0, 3)).toEqual(['Lukas Schwenk', 'Diego Fernández5', 'Alex Mohr']);
		expect(file.entries.length).toBe(29);
		expect(file.session).toBeUndefined();
	});

	it('refuses a result with no race session and names the sessions it holds', () => {
		const subsession = raw(OFFICIAL);
		const noRace = { ...subsession, session_results: subsession.session_results.slice(0, 2) };
		expect(() => iracingJsonReader.read(JSON.stringify(noRace))).toThrow(ResultFileError);
		expect(() => iracingJsonReader.read(JSON.stringify(noRace))).toThrow(
			'no race session in this iRacing result: it holds Open Practice (PRACTICE), Lone Qualifying (QUALIFY)',
		);
	});
});

describe('iracingJsonReader: broken files are a ResultFileError, never a crash', () => {
	const official = text(OFFICIAL);
	const subsession = raw(OFFICIAL);
	const emptyRace = {
		...subsession,
		session_results: subsession.session_results.map((s) => (s.simsession_number === 0 ? { ...s, results: [] } : s)),
	};
	const cases: [string, string, string][] = [
		['cut in the middle', official.slice(0, official.length / 2), 'the JSON is broken or cut short'],
		['no session_results', '{"subsession_id": 82263872, "track": {}}', 'it has no "session_results"'],
		['a race with no racer', JSON.stringify(emptyRace), 'the race session lists no racer'],
		['sessions that are not objects', '{"subsession_id": 1, "session_results": [1, "x", null]}', 'it holds no session'],
	];
	it.each(cases)('%s', (_what, broken, message) => {
		expect(iracingJsonReader.detect(broken)).toBe(true);
		expect(() => iracingJsonReader.read(broken)).toThrow(ResultFileError);
		expect(() => iracingJsonReader.read(broken)).toThrow(message);
	});
});

describe('iracingJsonReader.detect', () => {
	it('claims every iRacing result of the fixtures', () => {
		for (const own of OWN) expect(iracingJsonReader.detect(text(own)), own).toBe(true);
	});

	it("claims no other format's fixture", () => {
		expectClaimsNoOther(iracingJsonReader, (path) => OWN.includes(path));
	});

	it('claims no pasted scoreboard nor another JSON', () => {
		expect(iracingJsonReader.detect(PASTED_SCOREBOARD)).toBe(false);
		expect(iracingJsonReader.detect('1. Alice 1:23.456\n2. Bob 1:24.000\n')).toBe(false);
		expect(iracingJsonReader.detect('{"sessionType": "R", "trackName": "spa", "sessionResult": {}}')).toBe(false);
		expect(iracingJsonReader.detect('[{"subsession_id": 1}]')).toBe(false);
	});
});
