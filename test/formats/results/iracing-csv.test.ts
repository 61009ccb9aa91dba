import { describe, expect, it } from 'vitest';
import { iracingCsvReader } from '../../../src/formats/results/iracing-csv.js';
import { ResultFileError, type ResultFile } from '../../../src/formats/results/types.js';
import {
	expectClaimsNoOther,
	expectIracingCommon,
	fixtureText as text,
	iracingTable as table,
	PASTED_SCOREBOARD,
} from './support.js';

/**
 * The iRacing members-site CSV export on real files (test/fixtures/results/<owner>-<repo>/PROVENANCE.md): an
 * official single-class race and a team race (drjackyl/DJiRData, Windows-1252), two hosted league multi-class races
 * with the 8-line preamble (billyjack2/iRacing-League-Manager), and the qualifying export of the official race.
 *
 * How the tables were checked: each was written out from the raw columns of the file (Fin Pos, Name, Cust ID,
 * Car Class, Out, Laps Comp) by a separate Python reading (csv module, cp1252), applying the documented rule by
 * hand: Running = finished, Disqualified or DQ/... = DSQ, no lap = DNS, else DNF; finishers first in Fin Pos order,
 * the others after them in Fin Pos order; in a team event the rows with a negative Cust ID (the cars). Then the
 * moved cars, the DSQ rows, the 0-lap rows and the accented names were looked at in the file itself.
 */

const read = (path: string) => iracingCsvReader.read(text(path));

const expectCommon = (file: ResultFile): void => expectIracingCommon(file, 'iracing-csv');

const OWN = [
	'billyjack2-iRacing-League-Manager/eventresult_25819184.csv',
	'billyjack2-iRacing-League-Manager/eventresult_25977640.csv',
	'drjackyl-DJiRData/Road-NoTeam-SingleClass-Qualify.csv',
	'drjackyl-DJiRData/Road-NoTeam-SingleClass-Race.csv',
	'drjackyl-DJiRData/Road-Team-SingleClass-NoClubPoints-NoDivision-Race.csv',
];

describe('iracingCsvReader on real exports', () => {
	it('an official race, Windows-1252 (Suzuka, Porsche Cup): 4 disconnected cars at the end, a name with a digit', () => {
		const file = read('drjackyl-DJiRData/Road-NoTeam-SingleClass-Race.csv');
		expectCommon(file);
		expect(file.track).toBe('Suzuka International Racing Course - Grand Prix');
		expect(file.date).toBe('2021-03-08');
		expect(file.session).toBeUndefined();
		expect(file.warnings).toEqual([]);
		// "Nahum Solà": the 0xE0 byte of line 19 read as Windows-1252; "Pablo Rangel2" keeps iRacing's digit.
		expect(table(file)).toEqual([
			[1, 'Phil Bouchard', 'finished', 13, 404744, 'Porsche 911 GT3 Cup', 1],
			[2, 'Michael Stoegbauer', 'finished', 13, 335279, 'Porsche 911 GT3 Cup', 2],
			[3, 'Gillian Salomon', 'finished', 13, 570020, 'Porsche 911 GT3 Cup', 3],
			[4, 'Cathy Williams', 'finished', 13, 417018, 'Porsche 911 GT3 Cup', 4],
			[5, 'Rafael Kriek Lucena Cavalcanti', 'finished', 13, 236000, 'Porsche 911 GT3 Cup', 5],
			[6, 'Sergey Khvostov', 'finished', 13, 567362, 'Porsche 911 GT3 Cup', 6],
			[7, 'Coby Laszlo', 'finished', 13, 514936, 'Porsche 911 GT3 Cup', 7],
			[8, 'Jonas Seger', 'finished', 13, 278351, 'Porsche 911 GT3 Cup', 8],
			[9, 'Pablo Rangel2', 'finished', 13, 231698, 'Porsche 911 GT3 Cup', 9],
			[10, 'Enzo Hiceta', 'finished', 13, 439460, 'Porsche 911 GT3 Cup', 10],
			[11, 'Marvin Bohner', 'finished', 13, 489378, 'Porsche 911 GT3 Cup', 11],
			[12, 'Pablo R Silveira', 'finished', 13, 189117, 'Porsche 911 GT3 Cup', 12],
			[13, 'Leandro StigNado', 'finished', 13, 293227, 'Porsche 911 GT3 Cup', 13],
			[14, 'Junichiro Kishita', 'finished', 13, 320287, 'Porsche 911 GT3 Cup', 14],
			[15, 'Nahum Solà', 'DNF', 8, 121909, 'Porsche 911 GT3 Cup', 15, 'Disconnected'],
			[16, 'Brandon Shown', 'DNF', 6, 18645, 'Porsche 911 GT3 Cup', 16, 'Disconnected'],
			[17, 'Michael Bumgarner', 'DNF', 4, 246598, 'Porsche 911 GT3 Cup', 17, 'Disconnected'],
			[18, 'Joao Milani', 'DNF', 3, 19285, 'Porsche 911 GT3 Cup', 18, 'Disconnected'],
		]);
		expect(file.entries[0]!.car).toBe('Porsche 911 GT3 Cup (991)');
	});

	it('a team race (Spa, BMW M8 GTE): one entry per car named by its team, DSQ and a DQ moved after the finishers', () => {
		const file = read('drjackyl-DJiRData/Road-Team-SingleClass-NoClubPoints-NoDivision-Race.csv');
		expectCommon(file);
		expect(file.track).toBe('Circuit de Spa-Francorchamps - Grand Prix Pits');
		expect(file.date).toBe('2020-07-05');
		// 117 rows: 40 cars (Cust ID = the negative Team ID) and 77 rows of their drivers.
		// Fin Pos 28 "Stan Motor Racing" is Disqualified with 46 laps, above Running "Black Flag Racing" (45 laps).
		expect(file.warnings).toEqual([
			'a team event: each car is one racer, named by its team (40 cars); ' +
				'the 77 driver rows under them are not rated one by one',
			'iRacing classified a car that did not take the flag among the finishers: ' +
				'Stan Motor Racing (P28, Disqualified): placed after every finisher',
		]);
		expect(table(file)).toEqual([
			[1, "TFF KISLEN'KO Racing", 'finished', 52, null, 'BMW M8 GTE', 1],
			[2, 'Hanseatic Sim Racing', 'finished', 52, null, 'BMW M8 GTE', 2],
			[3, 'RaceBar RACING', 'finished', 52, null, 'BMW M8 GTE', 3],
			[4, 'Fusion Sim Racing #86', 'finished', 52, null, 'BMW M8 GTE', 4],
			[5, "BoosTED Motorsport Gentlemen's Club", 'finished', 52, null, 'BMW M8 GTE', 5],
			[6, 'V10R Esport LMS #1', 'finished', 52, null, 'BMW M8 GTE', 6],
			[7, 'RichPop Racing', 'finished', 52, null, 'BMW M8 GTE', 7],
			[8, 'R.U.R.', 'finished', 52, null, 'BMW M8 GTE', 8],
			[9, 'DGTS - Yellow', 'finished', 52, null, 'BMW M8 GTE', 9],
			[10, 'Austrian Simracers Team Grün', 'finished', 52, null, 'BMW M8 GTE', 10],
			[11, 'Prism Simracing Epsilon', 'finished', 52, null, 'BMW M8 GTE', 11],
			[12, 'PCF Racing #Pink', 'finished', 52, null, 'BMW M8 GTE', 12],
			[13, 'Austrian Simracers Team Blau', 'finished', 52, null, 'BMW M8 GTE', 13],
			[14, 'GoRacing.fr', 'finished', 52, null, 'BMW M8 GTE', 14],
			[15, 'DP Racing', 'finished', 52, null, 'BMW M8 GTE', 15],
			[16, 'M.M Sim Racing Team', 'finished', 52, null, 'BMW M8 GTE', 16],
			[17, 'Metric Racing', 'finished', 51, null, 'BMW M8 GTE', 17],
			[18, 'Paler&Roy Sim Racing Team', 'finished', 51, null, 'BMW M8 GTE', 18],
			[19, 'iRacing Today Motorsports', 'finished', 51, null, 'BMW M8 GTE', 19],
			[20, 'Old Crusters Racing', 'finished', 51, null, 'BMW M8 GTE', 20],
			[21, 'RTA MOTORSPORTS', 'finished', 51, null, 'BMW M8 GTE', 21],
			[22, 'Sim Dynamics', 'finished', 51, null, 'BMW M8 GTE', 22],
			[23, 'Tokyo Drift Team', 'finished', 51, null, 'BMW M8 GTE', 23],
			[24, '1889 Racing', 'finished', 50, null, 'BMW M8 GTE', 24],
			[25, 'KäwA', 'finished', 50, null, 'BMW M8 GTE', 25],
			[26, 'Vracing Afouteza', 'finished', 49, null, 'BMW M8 GTE', 26],
			[27, 'Team SlowMo(tion)_099', 'finished', 48, null, 'BMW M8 GTE', 27],
			[28, 'Black Flag Racing', 'finished', 45, null, 'BMW M8 GTE', 28],
			[29, 'Stan Motor Racing', 'DSQ', 46, null, 'BMW M8 GTE', 29, 'Disqualified'],
			[30, 'SAS MAJESTY RACING', 'DSQ', 44, null, 'BMW M8 GTE', 30, 'Disqualified'],
			[31, 'Pipasse SimRacing', 'DNF', 40, null, 'BMW M8 GTE', 31, 'Disconnected'],
			[32, 'FR - N48FR', 'DSQ', 34, null, 'BMW M8 GTE', 32, 'Disqualified'],
			[33, 'BFG QuikFix Computers Racing #111', 'DSQ', 33, null, 'BMW M8 GTE', 33, 'Disqualified'],
			[34, 'Happy Boy bcz. Nogizaka46', 'DSQ', 31, null, 'BMW M8 GTE', 34, 'Disqualified'],
			[35, 'SPEED Energy eSports', 'DSQ', 0, null, 'BMW M8 GTE', 35, 'DQ/Scoring Invalidated'],
			[36, 'Skulls & Dragons White', 'DSQ', 0, null, 'BMW M8 GTE', 36, 'DQ/Scoring Invalidated'],
			[37, 'Schaller Sim Racing #Green', 'DSQ', 0, null, 'BMW M8 GTE', 37, 'Disqualified'],
			[38, 'N2O Team 1', 'DSQ', 0, null, 'BMW M8 GTE', 38, 'DQ/Scoring Invalidated'],
			[39, 'SpeedStar', 'DSQ', 0, null, 'BMW M8 GTE', 39, 'Disqualified'],
			[40, 'Crash Team Racing', 'DSQ', 0, null, 'BMW M8 GTE', 40, 'Disqualified'],
		]);
		expect(file.entries.every((e) => e.car === 'BMW M8 GTE')).toBe(true);
	});

	it('a hosted league race with the 8-line preamble (Phillip Island, 3 classes): 7 disconnected cars moved', () => {
		const file = read('billyjack2-iRacing-League-Manager/eventresult_25819184.csv');
		expectCommon(file);
		expect(file.track).toBe('Phillip Island Circuit');
		expect(file.date).toBe('2019-01-21');
		// Fin Pos 31 John Ulmer is Running with 7 laps: the Disconnected cars at 20, 23, 25, 27-30 go after him.
		expect(file.warnings).toEqual([
			'iRacing classified 7 cars that did not take the flag among the finishers: Dekota Fripp (P20, Disconnected), ' +
				'Samuel Scott (P23, Disconnected), Tim Mcleish (P25, Disconnected), Alex Simonic (P27, Disconnected), ' +
				'Brandon Guarascia (P28, Disconnected), Sheldon Rosenbaum (P29, Disconnected), ' +
				'Robert Cancian (P30, Disconnected): placed after every finisher',
		]);
		expect(table(file)).toEqual([
			[1, 'Sai Andra', 'finished', 72, 131528, 'LMP1 Class', 1],
			[2, 'Jason DeVriese', 'finished', 72, 16743, 'LMP1 Class', 2],
			[3, 'Lionel Duprat', 'finished', 70, 238507, 'LMP1 Class', 3],
			[4, 'Daniel Graulty', 'finished', 70, 46931, 'LMP1 Class', 4],
			[5, 'Mark A Wilson', 'finished', 70, 156282, 'LMP1 Class', 5],
			[6, 'Billy Smith II', 'finished', 68, 24410, 'HPD ARX-01c', 1],
			[7, 'Scott McGarvey', 'finished', 68, 143107, 'HPD ARX-01c', 2],
			[8, 'Ross Booth', 'finished', 68, 165829, 'HPD ARX-01c', 3],
			[9, "Kevin O'Keefe", 'finished', 68, 25684, 'HPD ARX-01c', 4],
			[10, 'Alan Hesebeck', 'finished', 66, 62914, 'HPD ARX-01c', 5],
			[11, 'David Sockrider', 'finished', 66, 27134, 'HPD ARX-01c', 6],
			[12, 'Chris E Pence', 'finished', 65, 79832, 'HPD ARX-01c', 7],
			[13, 'Bradlee Haley', 'finished', 63, 213240, 'GTE Class', 1],
			[14, 'Steven McGarvey', 'finished', 63, 47163, 'GTE Class', 2],
			[15, 'Dave Hill', 'finished', 63, 79359, 'GTE Class', 3],
			[16, 'Leif Peterson', 'finished', 63, 154321, 'GTE Class', 4],
			[17, 'Emmanuel Ijere', 'finished', 62, 117001, 'GTE Class', 5],
			[18, 'Kevin Santana', 'finished', 62, 46957, 'GTE Class', 6],
			[19, 'Mark Kedrowski', 'finished', 62, 23601, 'GTE Class', 7],
			[20, 'Matt Owens', 'finished', 61, 78184, 'GTE Class', 8],
			[21, 'Dean Moll', 'finished', 55, 15106, 'GTE Class', 9],
			[22, 'Sheldon Woloshyn', 'finished', 52, 80949, 'GTE Class', 10],
			[23, 'Christopher Sherburn', 'finished', 43, 110678, 'GTE Class', 11],
			[24, 'John Ulmer', 'finished', 7, 144478, 'LMP1 Class', 6],
			[25, 'Dekota Fripp', 'DNF', 61, 115927, 'GTE Class', 12, 'Disconnected'],
			[26, 'Samuel Scott', 'DNF', 54, 236668, 'GTE Class', 13, 'Disconnected'],
			[27, 'Tim Mcleish', 'DNF', 44, 15220, 'GTE Class', 14, 'Disconnected'],
			[28, 'Alex Simonic', 'DNF', 38, 203936, 'GTE Class', 15, 'Disconnected'],
			[29, 'Brandon Guarascia', 'DNF', 30, 156017, 'LMP1 Class', 7, 'Disconnected'],
			[30, 'Sheldon Rosenbaum', 'DNF', 21, 201861, 'HPD ARX-01c', 8, 'Disconnected'],
			[31, 'Robert Cancian', 'DNF', 12, 85026, 'GTE Class', 16, 'Disconnected'],
			[32, 'Scott Corbin', 'DNS', 0, 182887, 'HPD ARX-01c', 9, 'Disconnected'],
			[33, 'Ryan Huff2', 'DNS', 0, 47907, 'GTE Class', 17, 'Disconnected'],
		]);
		expect(file.entries.find((e) => e.name === 'Brandon Guarascia')!.car).toBe('Audi R18');
	});

	it('a hosted league race (Suzuka, 3 classes): the disconnected cars already last, one without a lap (DNS)', () => {
		const file = read('billyjack2-iRacing-League-Manager/eventresult_25977640.csv');
		expectCommon(file);
		expect(file.track).toBe('Suzuka International Racing Course - Grand Prix');
		expect(file.date).toBe('2019-02-04');
		expect(file.warnings).toEqual([]);
		expect(table(file)).toEqual([
			[1, 'Sai Andra', 'finished', 36, 131528, 'LMP1 Class', 1],
			[2, 'Daniel Graulty', 'finished', 36, 46931, 'LMP1 Class', 2],
			[3, 'Mike Young', 'finished', 36, 17696, 'LMP1 Class', 3],
			[4, 'Jason DeVriese', 'finished', 36, 16743, 'LMP1 Class', 4],
			[5, 'Mark A Wilson', 'finished', 35, 156282, 'LMP1 Class', 5],
			[6, 'Jason Gerard', 'finished', 34, 52740, 'HPD ARX-01c', 1],
			[7, 'Billy Smith II', 'finished', 34, 24410, 'HPD ARX-01c', 2],
			[8, 'Scott McGarvey', 'finished', 34, 143107, 'HPD ARX-01c', 3],
			[9, 'Ross Booth', 'finished', 34, 165829, 'HPD ARX-01c', 4],
			[10, 'Jimbo Pfeiffer', 'finished', 34, 21843, 'HPD ARX-01c', 5],
			[11, 'James Stacey', 'finished', 33, 151345, 'HPD ARX-01c', 6],
			[12, 'Alan Hesebeck', 'finished', 33, 62914, 'HPD ARX-01c', 7],
			[13, 'Chris E Pence', 'finished', 33, 79832, 'HPD ARX-01c', 8],
			[14, 'Shawn Reese', 'finished', 33, 179952, 'HPD ARX-01c', 9],
			[15, 'Steven McGarvey', 'finished', 31, 47163, 'GTE Class', 1],
			[16, 'Alex Simonic', 'finished', 31, 203936, 'GTE Class', 2],
			[17, 'Paul Darling', 'finished', 31, 83057, 'GTE Class', 3],
			[18, 'Bradlee Haley', 'finished', 31, 213240, 'GTE Class', 4],
			[19, 'Leif Peterson', 'finished', 31, 154321, 'GTE Class', 5],
			[20, 'Ryan Huff2', 'finished', 31, 47907, 'GTE Class', 6],
			[21, 'Kevin Santana', 'finished', 31, 46957, 'GTE Class', 7],
			[22, 'Dave Hill', 'finished', 31, 79359, 'GTE Class', 8],
			[23, 'Paul Lindsay2', 'finished', 31, 108175, 'GTE Class', 9],
			[24, 'Emmanuel Ijere', 'finished', 31, 117001, 'GTE Class', 10],
			[25, 'Mark Kedrowski', 'finished', 31, 23601, 'GTE Class', 11],
			[26, 'Robert Cancian', 'finished', 30, 85026, 'GTE Class', 12],
			[27, 'Dean Moll', 'finished', 30, 15106, 'GTE Class', 13],
			[28, 'Tim Mcleish', 'DNF', 25, 15220, 'GTE Class', 14, 'Disconnected'],
			[29, 'Mark Jubinski', 'DNF', 22, 181794, 'HPD ARX-01c', 10, 'Disconnected'],
			[30, 'Matt Owens', 'DNF', 21, 78184, 'GTE Class', 15, 'Disconnected'],
			[31, 'Lionel Duprat', 'DNF', 11, 238507, 'LMP1 Class', 6, 'Disconnected'],
			[32, 'Sheldon Rosenbaum', 'DNF', 9, 201861, 'HPD ARX-01c', 11, 'Disconnected'],
			[33, 'Armando Edwards', 'DNF', 9, 96487, 'GTE Class', 16, 'Disconnected'],
			[34, 'Samuel Scott', 'DNF', 2, 236668, 'GTE Class', 17, 'Disconnected'],
			[35, 'Brandon Guarascia', 'DNS', 0, 156017, 'HPD ARX-01c', 12, 'Disconnected'],
		]);
		// Nothing moved: the positions are the file's Fin Pos.
		const finPos = text('billyjack2-iRacing-League-Manager/eventresult_25977640.csv')
			.split('\n')
			.slice(9)
			.filter((line) => line.trim() !== '')
			.map((line) => Number(/^"(\d+)"/u.exec(line)![1]));
		expect(file.entries.map((e) => e.position)).toEqual(finPos);
	});
});

describe('iracingCsvReader: which session', () => {
	const qualify = 'drjackyl-DJiRData/Road-NoTeam-SingleClass-Qualify.csv';
	const race = 'drjackyl-DJiRData/Road-NoTeam-SingleClass-Race.csv';

	it('refuses a qualifying export (every Start Pos is 0) with a message saying to export the race', () => {
		expect(iracingCsvReader.detect(text(qualify))).toBe(true);
		expect(() => read(qualify)).toThrow(ResultFileError);
		expect(() => read(qualify)).toThrow(
			"this export is a practice or qualifying session, not a race (no car has a starting position): export the race session's results",
		);
	});

	it('takes the race when several exports are pasted into one file, and says which', () => {
		const both = iracingCsvReader.read(text(qualify) + text(race));
		expect(both.session).toBe('race (session 2 of 2)');
		expect(both.entries).toEqual(read(race).entries);
		const reversed = iracingCsvReader.read(text(race) + text(qualify));
		expect(reversed.session).toBe('race (session 1 of 2)');
		expect(reversed.entries).toEqual(read(race).entries);
		expect(() => iracingCsvReader.read(text(qualify) + text(qualify))).toThrow(
			'none of the 2 result tables of this file is a race (no car has a starting position)',
		);
	});

	it('reads an export whose preamble was cut off (header first): same racers, no track or date', () => {
		const full = text(race);
		const cut = full.slice(full.indexOf('"Fin Pos"'));
		expect(iracingCsvReader.detect(cut)).toBe(true);
		const file = iracingCsvReader.read(cut);
		expect(file.entries).toEqual(read(race).entries);
		expect(file.track).toBeUndefined();
		expect(file.date).toBeUndefined();
	});

	it('finds the columns by name: an older export with "Custid" and "Driver" and no Team ID', () => {
		const old =
			'"Fin Pos","Car ID","Car","Car Class ID","Car Class","Custid","Driver","Start Pos","Car #","Out ID","Out",' +
			'"Interval","Laps Led","Average Lap Time","Fastest Lap Time","Fast Lap#","Laps Comp","Inc"\r\n' +
			'"1","1","Skip Barber","1","Skip Barber","11","Ann Old","2","5","0","Running","-00.000","3","","","","10","0"\r\n' +
			'"2","1","Skip Barber","1","Skip Barber","12","Bob Old","1","6","32","Disconnected","-4 L","0","","","","6","2"\r\n';
		expect(table(iracingCsvReader.read(old))).toEqual([
			[1, 'Ann Old', 'finished', 10, 11, 'Skip Barber', 1],
			[2, 'Bob Old', 'DNF', 6, 12, 'Skip Barber', 2, 'Disconnected'],
		]);
	});
});

describe('iracingCsvReader: broken files are a ResultFileError, never a crash', () => {
	const race = text('drjackyl-DJiRData/Road-NoTeam-SingleClass-Race.csv');
	const cases: [string, string, string][] = [
		['cut inside a quoted field', race.slice(0, race.indexOf('Phil Bouchard') + 4), 'not a readable CSV: line 5'],
		['only the preamble', race.slice(0, race.indexOf('"Fin Pos"')), 'no results table'],
		['the header and no racer', race.slice(0, race.indexOf('\n', race.indexOf('"Fin Pos"')) + 1), 'lists no racer'],
		['no "Laps Comp" column', race.replace('"Laps Comp"', '"Laps"'), 'the results header has no "Laps Comp" column'],
	];
	it.each(cases)('%s', (_what, broken, message) => {
		expect(iracingCsvReader.detect(broken)).toBe(true);
		expect(() => iracingCsvReader.read(broken)).toThrow(ResultFileError);
		expect(() => iracingCsvReader.read(broken)).toThrow(message);
	});
});

describe('iracingCsvReader.detect', () => {
	it('claims every iRacing CSV export of the fixtures', () => {
		for (const own of OWN) expect(iracingCsvReader.detect(text(own)), own).toBe(true);
	});

	it("claims no other format's fixture", () => {
		expectClaimsNoOther(iracingCsvReader, (path) => OWN.includes(path));
	});

	it('claims no pasted scoreboard nor a plain CSV with a Fin Pos column', () => {
		expect(iracingCsvReader.detect(PASTED_SCOREBOARD)).toBe(false);
		expect(iracingCsvReader.detect('1. Alice 1:23.456\n2. Bob 1:24.000\n')).toBe(false);
		expect(iracingCsvReader.detect('Fin Pos,Name,Time\n1,Alice,1:23.456\n')).toBe(false);
		expect(iracingCsvReader.detect('Start Time,Track,Name\n10:00,Spa,Alice\n')).toBe(false);
	});
});
