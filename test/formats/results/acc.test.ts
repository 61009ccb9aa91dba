import { describe, expect, it } from 'vitest';
import { accReader } from '../../../src/formats/results/acc.js';
import { decodeResultBytes } from '../../../src/formats/results/decode.js';
import { ResultFileError, type ResultFile } from '../../../src/formats/results/types.js';
import {
	expectClaimsNoOther,
	fixtureBytes as bytes,
	fixtureText as textOf,
	readClaimed,
	rows,
	thrownBy,
} from './support.js';

/**
 * The ACC server reader on real files (test/fixtures/results/…/PROVENANCE.md): mauserrifle/simresults'
 * tests/logs/assettocorsa-competizione (UTF-16 LE without a byte order mark, as ACC writes them, and UTF-8 ones the
 * simresults author edited to show a pitfall) and a league's qualifying files (AFRT, ignaciochemes' bot).
 * Every expected row was built from the raw JSON (leaderBoardLines in file order: firstName + lastName,
 * timing.lapCount, timing.totalTime / 1000) by a separate script that applies the rule of flag-rule.ts, then checked
 * by eye against the file; the comments give the raw values the statuses come from.
 */

const SIMRESULTS = 'mauserrifle-simresults/assettocorsa-competizione';
const AFRT = 'ignaciochemes-AssettoCorsaCompetizione-Discord-Bot-MONGODB';
const read = (path: string): ResultFile => readClaimed(accReader, textOf(path));
const readError = (text: string): unknown => thrownBy(accReader, text);

describe('ACC: 191003_235558_R.json, a 3-car race written by the server (UTF-16 LE, no byte order mark)', () => {
	const path = `${SIMRESULTS}/191003_235558_R.json`;
	// leaderBoardLines: Andrea Mel 23 laps 2329129 ms; Alberto For 21 laps 2181760; Federico "Siv\nTEAMname" 21 laps
	// 2236216. Both 21-lap cars stopped before the winner's 2329.129 s: they never took the flag (DNF by the rule).
	const expected = [
		['Andrea Mel', 1, 'finished', 2329.129, 23],
		['Alberto For', 2, 'DNF', 2181.76, 21],
		['Federico Siv', 3, 'DNF', 2236.216, 21],
	];

	it('is UTF-16 LE without a mark: decoded by its zero bytes, then read', () => {
		expect([...bytes(path).subarray(0, 4)]).toEqual([0x7b, 0x00, 0x0a, 0x00]);
		expect(decodeResultBytes(bytes(path))).toMatchObject({ encoding: 'utf-16le', warnings: [] });
		const file = read(path);
		expect(rows(file)).toEqual(expected);
		expect(file).toMatchObject({ format: 'acc', session: 'race (weekend session 3)', track: 'brands_hatch' });
		expect(file.date).toBeUndefined();
		expect(file.warnings).toEqual([]);
	});

	it('reads every field: Steam id, class from the car model, the team after the line break in lastName', () => {
		// carModel 1 and 3 (no carGroup in this 2019 file): Mercedes-AMG GT3 and Audi R8 LMS, both GT3; playerId
		// "123", "456", "789" (the simresults author's stand-ins for Steam ids); teamName "" for all three.
		expect(read(path).entries).toEqual([
			{
				name: 'Andrea Mel',
				position: 1,
				status: 'finished',
				statusInferred: true,
				totalTime: 2329.129,
				laps: 23,
				carClass: 'GT3',
				classPosition: 1,
				simId: 'steam:123',
				car: 'Mercedes-AMG GT3',
			},
			{
				name: 'Alberto For',
				position: 2,
				status: 'DNF',
				statusInferred: true,
				totalTime: 2181.76,
				laps: 21,
				carClass: 'GT3',
				classPosition: 2,
				simId: 'steam:456',
				car: 'Audi R8 LMS',
			},
			{
				name: 'Federico Siv',
				position: 3,
				status: 'DNF',
				statusInferred: true,
				totalTime: 2236.216,
				laps: 21,
				carClass: 'GT3',
				classPosition: 3,
				simId: 'steam:789',
				team: 'TEAMname',
				car: 'Audi R8 LMS',
			},
		]);
	});

	it('reads the same with a UTF-16 LE byte order mark in front (ACC writes either)', () => {
		const marked = Buffer.concat([Buffer.from([0xff, 0xfe]), bytes(path)]);
		const decoded = decodeResultBytes(marked);
		expect(decoded.encoding).toBe('utf-16le');
		expect(accReader.detect(decoded.text)).toBe(true);
		expect(rows(accReader.read(decoded.text))).toEqual(expected);
	});

	it('no.laps.json (the same race without laps[] and Steam ids) reads the same: only the leaderboard counts', () => {
		const file = read(`${SIMRESULTS}/no.laps.json`);
		expect(rows(file)).toEqual(expected);
		expect(file.entries.map((e) => e.simId)).toEqual([undefined, undefined, undefined]);
	});
});

describe('ACC: race.to.fix.positions.json, 40 cars at Silverstone, rejoins and a post-race time penalty', () => {
	const path = `${SIMRESULTS}/race.to.fix.positions.json`;
	const file = read(path);

	it('keeps the file order: 24 finishers (lapped ones too), 11 who stopped, 2 who never drove a lap', () => {
		// Winner Andre 30 laps 3630098 ms. Norbert 29 laps 3635820 and "©" 28 laps 3676213 crossed after him:
		// finished. Willem 20 laps 2612922 … Samuel 1 lap 284298 stopped before: DNF. totalTime 2147483647 with 0
		// laps: DNS. lastName is "" throughout (the simresults author cut the last names); "Krzysztof " loses its
		// trailing space. simresults' own test says Kevin is 6th.
		expect(rows(file)).toEqual([
			['Andre', 1, 'finished', 3630.098, 30],
			['Marcus', 2, 'finished', 3638.947, 30],
			['Mike', 3, 'finished', 3659.038, 30],
			['Krzysztof', 4, 'finished', 3673.379, 30],
			['Thomas', 5, 'finished', 3683.304, 30],
			['Kevin', 6, 'finished', 3683.627, 30],
			['FelixR1991', 7, 'finished', 3703.278, 30],
			['Raoul', 8, 'finished', 3715.666, 30],
			['Stuart', 9, 'finished', 3718.188, 30],
			['Jarno', 10, 'finished', 3730.575, 30],
			['Domenic', 11, 'finished', 3732.511, 30],
			['Tobias', 12, 'finished', 3748.236, 30],
			['Edwin', 13, 'finished', 3753.482, 30],
			['Bastien', 14, 'finished', 3792.267, 30],
			['Norbert', 15, 'finished', 3635.82, 29],
			['Andreas', 16, 'finished', 3643.452, 29],
			['Mr', 17, 'finished', 3647.228, 29],
			['Jon', 18, 'finished', 3653.366, 29],
			['Yuriy', 19, 'finished', 3657.565, 29],
			['Anthony', 20, 'finished', 3661.647, 29],
			['Rick', 21, 'finished', 3667.33, 29],
			['Oliver', 22, 'finished', 3704.029, 29],
			['Gabriel', 23, 'finished', 3725.203, 29],
			['©', 24, 'finished', 3676.213, 28],
			['Willem', 25, 'DNF', 2612.922, 20],
			['Brink', 26, 'DNF', 1955.563, 15],
			['Jordan', 27, 'DNF', 1811.016, 14],
			['Sergey', 28, 'DNF', 1893.814, 14],
			['Richard', 29, 'DNF', 1513.568, 12],
			['Jordan', 30, 'DNF', 1466.012, 11],
			['jason', 31, 'DNF', 1313.282, 10],
			['David', 32, 'DNF', 791.366, 6],
			['Toby', 33, 'DNF', 685.703, 5],
			['Kaius', 34, 'DNF', 502.559, 3],
			['Samuel', 35, 'DNF', 284.298, 1],
			['Jarkko', 36, 'DNS', undefined, 0],
			['Anthony', 37, 'DNS', undefined, 0],
		]);
		expect(file.entries.every((e) => e.statusInferred === true && e.carClass === 'GT3')).toBe(true);
		expect(file.entries.map((e) => e.classPosition)).toEqual(file.entries.map((e) => e.position));
		expect(file.entries[0]).toMatchObject({ simId: 'steam:76561197982083718', car: 'McLaren 720S GT3' });
	});

	it('one entry for a driver in two cars (same playerId): the better placed car kept, said in a warning', () => {
		// S76561198982954013 drives car #7 (30 laps) and #37 (0 laps); S76561198070990436 #30 (29) and #9 (0);
		// S76561197968720782 #10 (29) and #8 (0). Two other Anthonys and Jordans have their own Steam ids.
		expect(file.warnings).toEqual([
			'"Stuart" also in car #37 (0 laps): rejoined in another car, one entry (car #7 kept)',
			'"Anthony" also in car #9 (0 laps): rejoined in another car, one entry (car #30 kept)',
			'"Mr" also in car #8 (0 laps): rejoined in another car, one entry (car #10 kept)',
			'2 racers named "Anthony" with different Steam ids: check who is who',
			'2 racers named "Jordan" with different Steam ids: check who is who',
		]);
		expect(file.entries.filter((e) => e.simId === 'steam:76561198982954013')).toHaveLength(1);
	});

	it('names the penalties: a drive-through served and an 80 s post-race time already in the total', () => {
		// penalties[]: carId 1014 (Bastien, #20) DriveThrough Cutting cleared in lap 29, PostRaceTime 80 Cutting
		// clearedInLap 0. His totalTime 3792267 already holds it: ACC lists him 14th, behind Edwin's 3753482.
		expect(file.entries.find((e) => e.name === 'Bastien')).toMatchObject({
			totalTime: 3792.267,
			penalties: ['drive-through: cutting', '+80 s: cutting'],
		});
		expect(file.entries.filter((e) => e.penalties !== undefined)).toHaveLength(1);
	});
});

describe('ACC: simresults files edited to show a pitfall (UTF-8)', () => {
	it('race.modified.with.swaps.json: a car with two drivers is named by both, joined " / "', () => {
		const file = read(`${SIMRESULTS}/race.modified.with.swaps.json`);
		expect(rows(file)).toEqual([
			['Andrea Mel / Second Driver', 1, 'finished', 2329.129, 23],
			['Alberto For', 2, 'DNF', 2181.76, 21],
			['Federico Siv', 3, 'DNF', 2236.216, 21],
		]);
		expect(file.entries[0]!.simId).toBeUndefined(); // playerId "" for both drivers
		expect(file.warnings).toEqual([
			`1 car with several drivers: each named by its drivers joined " / ", with the first driver's Steam id`,
		]);
	});

	it('race.modified.with.gt4.json: carModel 50 is a GT4 (Alpine A110): two classes, positions within each', () => {
		const file = read(`${SIMRESULTS}/race.modified.with.gt4.json`);
		expect(file.entries.map((e) => [e.name, e.position, e.car, e.carClass, e.classPosition])).toEqual([
			['Andrea Mel', 1, 'Alpine A110 GT4', 'GT4', 1],
			['Alberto For', 2, 'Audi R8 LMS', 'GT3', 1],
			['Federico Siv', 3, 'Audi R8 LMS', 'GT3', 2],
		]);
	});
});

describe('ACC: penalties, classes and date, on the real race with fields added as newer servers write them', () => {
	// Derived from 191003_235558_R.json in the test (not a fixture): entries shaped as in ACC 1.8+ files.
	const data = JSON.parse(textOf(`${SIMRESULTS}/191003_235558_R.json`)) as {
		sessionResult: { leaderBoardLines: { car: Record<string, unknown> }[] };
	} & Record<string, unknown>;
	data.Date = '2019-10-03T23:55:58Z'; // as a server manager (ACCSM) adds it
	data.sessionResult.leaderBoardLines[1]!.car.carGroup = 'GT4';
	const penalty = (carId: number, reason: string, kind: string, value: number, violation: number, cleared: number) => ({
		carId,
		driverIndex: 0,
		reason,
		penalty: kind,
		penaltyValue: value,
		violationInLap: violation,
		clearedInLap: cleared,
	});
	data.penalties = [
		penalty(1002, 'Cutting', 'DriveThrough', 3, 5, 7),
		penalty(1002, 'PitSpeeding', 'StopAndGo_30', 3, 10, 0),
		penalty(1001, 'WrongWay', 'Disqualified', 0, 4, 4),
		penalty(1001, 'Cutting', 'None', 0, 0, 12),
	];
	data.post_race_penalties = [
		penalty(1004, 'DriverRanNoStint', 'Disqualified', 0, 23, 0),
		penalty(1001, 'Cutting', 'PostRaceTime', 5, 0, 0),
	];
	const file = accReader.read(JSON.stringify(data));

	it('the disqualified winner goes last; the rule then measures the others against the new leader', () => {
		// Alberto For (21 laps, 2181760) leads once Andrea Mel is out; Federico Siv has as many laps: finished.
		expect(rows(file)).toEqual([
			['Alberto For', 1, 'finished', 2181.76, 21],
			['Federico Siv', 2, 'finished', 2236.216, 21],
			['Andrea Mel', 3, 'DSQ', 2329.129, 23],
		]);
		expect(file.entries.map((e) => [e.statusInferred, e.reason, e.penalties])).toEqual([
			[true, undefined, ['drive-through: cutting', 'stop-and-go 30 s (not served): pit speeding']],
			[true, undefined, ['+5 s: cutting']],
			[undefined, 'driver ran no stint', ['disqualified: driver ran no stint']],
		]);
	});

	it('carGroup wins over the car model; a disqualification lifted in the race is only said; the date is read', () => {
		expect(file.entries.map((e) => [e.carClass, e.classPosition])).toEqual([
			['GT4', 1],
			['GT3', 1],
			['GT3', 2],
		]);
		expect(file.warnings).toEqual([
			'"Federico Siv" (car #17): disqualification: wrong way lifted in lap 4 (raced on): not applied',
		]);
		expect(file.date).toBe('2019-10-03');
	});
});

describe('ACC: files that hold no race', () => {
	it.each([
		[`${SIMRESULTS}/191003_225901_Q.json`, 'a qualifying session (sessionType "Q")'],
		[`${SIMRESULTS}/191003_224358_FP.json`, 'a practice session (sessionType "FP")'],
		[`${SIMRESULTS}/numeric.session.type.json`, 'a qualifying session (sessionType "Q2")'],
		[`${AFRT}/210404_191915_Q.json`, 'a qualifying session (sessionType "Q")'],
		[`${AFRT}/210710_170156_Q.json`, 'a qualifying session (sessionType "Q")'],
	])('%s is detected, then refused naming its session', (path, held) => {
		const text = textOf(path);
		expect(accReader.detect(text)).toBe(true);
		const error = readError(text);
		expect(error).toBeInstanceOf(ResultFileError);
		expect((error as Error).message).toBe(`the file holds ${held}, not a race: give the race's file (…_R.json)`);
	});

	it('numeric session types: 10 is a race, 4 qualifying', () => {
		const text = textOf(`${SIMRESULTS}/191003_235558_R.json`);
		expect(rows(accReader.read(text.replace('"sessionType": "R"', '"sessionType": 10')))[0]![0]).toBe('Andrea Mel');
		expect((readError(text.replace('"sessionType": "R"', '"sessionType": 4')) as Error).message).toContain(
			'a qualifying session (sessionType 4)',
		);
	});

	it('a race without leaderBoardLines, with no car in it, or where no car has a lap is a ResultFileError', () => {
		const error = readError(textOf(`${SIMRESULTS}/race.without.leaderBoardLines,attribute.json`));
		expect(error).toBeInstanceOf(ResultFileError);
		expect((error as Error).message).toBe(
			'the file has no leaderboard (sessionResult.leaderBoardLines): no racer to read',
		);
		const empty = textOf(`${AFRT}/210710_170156_Q.json`).replaceAll('"sessionType": "Q"', '"sessionType": "R"');
		expect((readError(empty) as Error).message).toBe('its leaderboard holds no car: no racer to read');
		const lapless = textOf(`${SIMRESULTS}/191003_235558_R.json`).replaceAll(/"lapCount": \d+/gu, '"lapCount": 0');
		expect((readError(lapless) as Error).message).toBe('no car completed a lap: no race to read');
	});
});

describe('ACC: damaged files and detection', () => {
	it('a file cut in half is detected and refused as incomplete JSON, never a crash', () => {
		const whole = bytes(`${SIMRESULTS}/race.to.fix.positions.json`);
		const text = decodeResultBytes(whole.subarray(0, whole.length / 2)).text;
		expect(accReader.detect(text)).toBe(true);
		const error = readError(text);
		expect(error).toBeInstanceOf(ResultFileError);
		expect((error as Error).message).toMatch(/^the file is not complete JSON \(cut short or damaged\?\): /u);
	});

	it.each([
		'{"sessionType": "R", "trackName": 1, "sessionResult": {"leaderBoardLines": [null, 3, {"car": "x"}]}}',
		'{"sessionType": "R", "trackName": "x", "sessionResult": {"leaderBoardLines": [{"car": {"drivers": 1}}]}}',
		'{"sessionType": "R", "trackName": "x", "sessionResult": 5}',
		'{"sessionType": "R", "trackName": "x"} trailing',
		'["sessionType", "trackName"]',
	])('garbage in the right shape is a ResultFileError, not a TypeError: %s', (text) => {
		expect(readError(text)).toBeInstanceOf(ResultFileError);
	});

	it('claims no other fixture and no pasted scoreboard', () => {
		expectClaimsNoOther(accReader, (path) => path.startsWith(`${SIMRESULTS}/`) || path.startsWith(`${AFRT}/`));
		expect(accReader.detect('1. Alice 1:23.456\n2. Bob 1:24.001\n3. Carol DNF')).toBe(false);
		expect(accReader.detect('{"sessionType": "R"}')).toBe(false);
	});
});
