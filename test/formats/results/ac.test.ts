import { describe, expect, it } from 'vitest';
import { acReader } from '../../../src/formats/results/ac.js';
import { ResultFileError, type ResultFile } from '../../../src/formats/results/types.js';
import { expectClaimsNoOther, fixtureText as textOf, readClaimed, rows, thrownBy } from './support.js';

/**
 * The Assetto Corsa reader on real files (test/fixtures/results/…/PROVENANCE.md): the dedicated server's JSON from
 * mauserrifle/simresults (tests/logs/assettocorsa-server-json) and from assetto-server-manager's fixtures (the same
 * file rewritten by the manager: keys sorted, Date, penalty fields), and the game's own race_out.json
 * (simresults tests/logs/assettocorsa). Every expected row was built from the raw JSON by a separate script (one racer
 * a DriverGuid over Result and Laps, laps counted in Laps[], TotalTime / 1000, order by laps then time, the rule of
 * flag-rule.ts), then checked by eye against the file; the comments give the raw values the statuses come from.
 */

const SERVER = 'mauserrifle-simresults/assettocorsa-server-json';
const CLIENT = 'mauserrifle-simresults/assettocorsa';
const MANAGER = 'JustaPenguin-assetto-server-manager';
const read = (path: string): ResultFile => readClaimed(acReader, textOf(path));
const readError = (text: string): unknown => thrownBy(acReader, text);

describe('AC server: 2015_10_17_9_49_RACE.json, Monza, 10 laps, drivers who left and slots taken over', () => {
	const file = read(`${SERVER}/2015_10_17_9_49_RACE.json`);

	it('orders by laps then time; those who stopped before the winner finished come after the finishers', () => {
		// Andrea Sorlini 10 laps, TotalTime 1003035. paperofolle (5 laps, 1017644), fabi (5, 1030512), PPolaina
		// (3, 1023011) and -V!0C- TheDoctorMay (1, 1046174) crossed after him: finished. End 222 (9, 972763),
		// Timo Haapala (8, 823824), blackbird0011 (8, 965975), Lwi (8, 1002096), Thomas Boissel (2, 629283) stopped
		// before: DNF. Sam Jones, Manolo Polonioli, Tabak, Dansav1746, Peter Mac, Hille1980 drove laps (Laps[]) but
		// have no Result row (their slots went to others): DNF without a time. TotalTime 0 and no lap: DNS.
		expect(rows(file)).toEqual([
			['Andrea Sorlini', 1, 'finished', 1003.035, 10],
			['paperofolle', 2, 'finished', 1017.644, 5],
			['fabi', 3, 'finished', 1030.512, 5],
			['PPolaina', 4, 'finished', 1023.011, 3],
			['-V!0C- TheDoctorMay', 5, 'finished', 1046.174, 1],
			['End 222', 6, 'DNF', 972.763, 9],
			['Timo Haapala', 7, 'DNF', 823.824, 8],
			['blackbird0011', 8, 'DNF', 965.975, 8],
			['Lwi', 9, 'DNF', 1002.096, 8],
			['Sam Jones', 10, 'DNF', undefined, 7],
			['Manolo Polonioli', 11, 'DNF', undefined, 6],
			['Tabak', 12, 'DNF', undefined, 6],
			['Thomas Boissel', 13, 'DNF', 629.283, 2],
			['Dansav1746', 14, 'DNF', undefined, 2],
			['Peter Mac', 15, 'DNF', undefined, 1],
			['Hille1980', 16, 'DNF', undefined, 1],
			['Balazs Nemeth', 17, 'DNS', undefined, 0],
			['jmalonda', 18, 'DNS', undefined, 0],
			['Adriano', 19, 'DNS', undefined, 0],
			['Rad Rides', 20, 'DNS', undefined, 0],
			['Lucas Canalda Sorribas', 21, 'DNS', undefined, 0],
			['YoloAtGames', 22, 'DNS', undefined, 0],
			['Ric', 23, 'DNS', undefined, 0],
		]);
		expect(file.entries.every((e) => e.statusInferred === true && e.carClass === undefined)).toBe(true);
	});

	it('reads the winner in full (Cars[] gives the team) and says who was read from the laps alone', () => {
		expect(file).toMatchObject({ format: 'ac', session: 'race', track: 'monza (full course)' });
		expect(file.date).toBeUndefined();
		expect(file.entries[0]).toEqual({
			name: 'Andrea Sorlini',
			position: 1,
			status: 'finished',
			statusInferred: true,
			totalTime: 1003.035,
			laps: 10,
			simId: 'steam:76561198213775428',
			team: 'TEST TEAM',
			car: 'lotus_exos_125',
		});
		const fromLaps = (name: string, laps: number) =>
			`"${name}": ${laps} ${laps === 1 ? 'lap' : 'laps'} in the lap list but no row of the server's Result ` +
			'(left before the end): read from the laps';
		expect(file.warnings).toEqual([
			fromLaps('Manolo Polonioli', 6),
			fromLaps('Tabak', 6),
			fromLaps('Sam Jones', 7),
			fromLaps('Peter Mac', 1),
			fromLaps('Hille1980', 1),
			fromLaps('Dansav1746', 2),
		]);
	});
});

describe('AC server: reconnects, empty slots, names', () => {
	it('duplicate.result.info.for.miguel.json: a driver in two slots is one racer, empty slots are none', () => {
		// Miguel Melo: CarId 20 (TotalTime 5452095, 62 laps) and CarId 12 (TotalTime 0); Jose Vasconcelos: 17 and 9.
		// Six rows with DriverName "" and DriverGuid "". Joao Afonso 45 laps 4027862 < 5407347: DNF.
		const file = read(`${SERVER}/duplicate.result.info.for.miguel.json`);
		expect(rows(file)).toEqual([
			['Jose Lima', 1, 'finished', 5407.347, 63],
			['Nuno Macedo', 2, 'finished', 5450.05, 63],
			['Mario Leitao', 3, 'finished', 5439.354, 62],
			['Miguel Melo', 4, 'finished', 5452.095, 62],
			['Fabio Coelho', 5, 'finished', 5455.834, 62],
			['Luis Costa', 6, 'finished', 5449.105, 61],
			['Antonio Ferreira', 7, 'finished', 5432.621, 60],
			['Jose Craveiro', 8, 'finished', 5495.681, 58],
			['Jose Vasconcelos', 9, 'finished', 5424.465, 57],
			['Joao Afonso', 10, 'DNF', 4027.862, 45],
			['bruno Marques', 11, 'DNS', undefined, 0],
			['Joao Barreira', 12, 'DNS', undefined, 0],
			['Miguel Pinto', 13, 'DNS', undefined, 0],
		]);
		// The car of the row with the time (the Porsche of slot 20, not the McLaren of slot 12).
		expect(file.entries[3]).toMatchObject({ car: 'ks_porsche_911_gt3_r_2016', team: 'Talento Racing I' });
		expect(file.warnings).toEqual([
			'"Miguel Melo" in 2 car slots (20, 12): reconnected, one entry',
			'"Jose Vasconcelos" in 2 car slots (17, 9): reconnected, one entry',
		]);
	});

	it('tyre.info.json: "Wayne  Reed" cleaned; a lapped car that crossed after the winner finished', () => {
		// Federico Strazzullo 47 laps 5525628 > winner's 5480437: finished; nigel middleton 52 laps 5308781: DNF.
		const file = read(`${SERVER}/tyre.info.json`);
		expect(rows(file)).toEqual([
			['Wayne Reed', 1, 'finished', 5480.437, 54],
			['Flaviu Bozga', 2, 'finished', 5490.712, 54],
			['Roger Hinds', 3, 'finished', 5508.844, 54],
			['Rob Milliken', 4, 'finished', 5541.278, 54],
			['Federico Strazzullo', 5, 'finished', 5525.628, 47],
			['nigel middleton', 6, 'DNF', 5308.781, 52],
		]);
		expect(file.warnings).toEqual([]);
		expect(file.track).toBe('gilles-villeneuve');
	});
});

describe('AC server: files rewritten by assetto-server-manager (sorted keys, Date, penalty fields)', () => {
	it('2019_3_2_22_3_RACE.json: three drivers in two or three slots each, read once', () => {
		// Spaceman9795 in CarId 14 (TotalTime 622607), 6 and 3 (0); rich p 15 and 4; Cheezypoof 16, 9 and 5.
		// Danny Wilson (9 laps, 628518) and Seb (9, 631842) crossed after Joseph Elton's 606222: finished.
		const file = read(`${MANAGER}/2019_3_2_22_3_RACE.json`);
		expect(rows(file)).toEqual([
			['Joseph Elton', 1, 'finished', 606.222, 10],
			['namelesssboy', 2, 'finished', 621.787, 10],
			['Spaceman9795', 3, 'finished', 622.607, 10],
			['L33 CR055L3Y', 4, 'finished', 643.564, 10],
			['Callum Jones', 5, 'finished', 659.795, 10],
			['rich p', 6, 'finished', 660.425, 10],
			['Cheezypoof', 7, 'finished', 661.541, 10],
			['Danny Wilson', 8, 'finished', 628.518, 9],
			['Seb', 9, 'finished', 631.842, 9],
		]);
		expect(file).toMatchObject({ date: '2019-03-02', track: 'ks_red_bull_ring (layout_national)' });
		expect(file.warnings).toEqual([
			'"Spaceman9795" in 3 car slots (14, 6, 3): reconnected, one entry',
			'"rich p" in 2 car slots (15, 4): reconnected, one entry',
			'"Cheezypoof" in 3 car slots (16, 9, 5): reconnected, one entry',
		]);
		expect(file.entries.some((e) => e.penalties !== undefined)).toBe(false); // HasPenalty false everywhere
	});

	it('2019_2_15_21_16_RACE.json (the manager before it added Date): teams from Cars[]', () => {
		// Callum Jones 4 laps 265925 < Joseph Elton's 363829 (5 laps): DNF.
		const file = read(`${MANAGER}/2019_2_15_21_16_RACE.json`);
		expect(rows(file)).toEqual([
			['Joseph Elton', 1, 'finished', 363.829, 5],
			['Callum Jones', 2, 'DNF', 265.925, 4],
			['Henry Spencer', 3, 'DNS', undefined, 0],
			['Danny Wilson', 4, 'DNS', undefined, 0],
			['Lee Crossley', 5, 'DNS', undefined, 0],
			['Bradley Ward', 6, 'DNS', undefined, 0],
			['Jayan Mistry', 7, 'DNS', undefined, 0],
			['Warren Pilz', 8, 'DNS', undefined, 0],
			['Sebastian Townsend', 9, 'DNS', undefined, 0],
		]);
		expect(file.entries.map((e) => e.team)).toEqual([
			"Dude, where's my wang!?",
			'Wrong Bizniz Racing',
			'Wrong Bizniz Racing',
			'Catch My Drift',
			'Catch My Drift',
			'Purple Helmets',
			'Purple Helmets',
			"Dude, where's my wang!?",
			undefined,
		]);
		expect(file.date).toBeUndefined();
	});

	describe('2019_3_2_21_4_RACE.json, as is and with the manager’s penalties set', () => {
		const path = `${MANAGER}/2019_3_2_21_4_RACE.json`;

		it('as is: lapped cars that crossed after the winner finished', () => {
			// Seb 8 laps 628276 and L33 CR055L3Y 7 laps 712586, both after Joseph Elton's 628012 (9 laps).
			expect(rows(read(path))).toEqual([
				['Joseph Elton', 1, 'finished', 628.012, 9],
				['Callum Jones', 2, 'finished', 698.358, 9],
				['namelesssboy', 3, 'finished', 705.603, 9],
				['Seb', 4, 'finished', 628.276, 8],
				['L33 CR055L3Y', 5, 'finished', 712.586, 7],
				['Danny Wilson', 6, 'DNS', undefined, 0],
				['Spaceman9795', 7, 'DNS', undefined, 0],
			]);
		});

		it('penalties as the manager stores them: time added, laps taken off, disqualified last', () => {
			// Derived in the test (not a fixture), the way assetto-server-manager's penalties.go writes them:
			// PenaltyTime in Go nanoseconds; a penalty longer than a lap also sets LapPenalty, and its display time
			// takes that many last laps off again. Seb: 628276 + 80000 - 73500 (his last lap) = 634776, 8 - 1 = 7 laps.
			const data = JSON.parse(textOf(path)) as { Result: Record<string, unknown>[] };
			const row = (name: string) => data.Result.find((r) => r.DriverName === name)!;
			Object.assign(row('Callum Jones'), { HasPenalty: true, PenaltyTime: 10_500_000_000 });
			Object.assign(row('Seb'), { HasPenalty: true, PenaltyTime: 80_000_000_000, LapPenalty: 1 });
			Object.assign(row('namelesssboy'), { Disqualified: true });
			const file = acReader.read(JSON.stringify(data));
			expect(rows(file)).toEqual([
				['Joseph Elton', 1, 'finished', 628.012, 9],
				['Callum Jones', 2, 'finished', 708.858, 9],
				['Seb', 3, 'finished', 634.776, 7],
				['L33 CR055L3Y', 4, 'finished', 712.586, 7],
				['Danny Wilson', 5, 'DNS', undefined, 0],
				['Spaceman9795', 6, 'DNS', undefined, 0],
				['namelesssboy', 7, 'DSQ', 705.603, 9],
			]);
			expect(file.entries.map((e) => [e.name, e.penalties, e.statusInferred])).toEqual([
				['Joseph Elton', undefined, true],
				['Callum Jones', ['+10.5 s'], true],
				['Seb', ['+80 s', '-1 lap'], true],
				['L33 CR055L3Y', undefined, true],
				['Danny Wilson', undefined, true],
				['Spaceman9795', undefined, true],
				['namelesssboy', ['disqualified'], undefined],
			]);
		});
	});
});

describe("AC: the game's race_out.json", () => {
	it('qualify.and.race.json: the race, session 2 of 2, in raceResult order; a widened UTF-8 name read back', () => {
		// raceResult [13, 20, 17, …]; lapstotal; the total is the sum of the car's lap times: Petr Dolezal 30 laps
		// 4225383 ms. Milan Juza (29, 4332019), Jozef Matiasko (27, 4287614), jarda zacek (27, 4293653) crossed after
		// him; Pavel Vomacko (24, 3673541) and the others before: DNF. Players 0 and 15 have no lap: DNS.
		// Player 9 is "Jan Kundl\uFFC3\uFFA1k" in the file: bytes C3 A1 widened, UTF-8 for "á".
		const file = read(`${CLIENT}/qualify.and.race.json`);
		expect(rows(file)).toEqual([
			['Petr Dolezal', 1, 'finished', 4225.383, 30],
			['rzx', 2, 'finished', 4277.997, 30],
			['kypo', 3, 'finished', 4282.249, 30],
			['Ivan Izdinsky', 4, 'finished', 4288.078, 30],
			['Jaroslav Honzik', 5, 'finished', 4328.313, 30],
			['Ondrej Sulc', 6, 'finished', 4328.761, 30],
			['Michal Krejcir', 7, 'finished', 4344.239, 30],
			['pauco.mikulas', 8, 'finished', 4384.091, 30],
			['Emil Klapa', 9, 'finished', 4392.016, 30],
			['jakub.kucharik', 10, 'finished', 4404.266, 30],
			['Milan Juza', 11, 'finished', 4332.019, 29],
			['Jozef Matiasko', 12, 'finished', 4287.614, 27],
			['jarda zacek', 13, 'finished', 4293.653, 27],
			['Pavel Vomacko', 14, 'DNF', 3673.541, 24],
			['Jan Kundlák', 15, 'DNF', 1969.35, 13],
			['Jan Sturma', 16, 'DNF', 1592.733, 11],
			['Martin Hrubovsky', 17, 'DNF', 1760.623, 11],
			['Stanislav Horejs', 18, 'DNF', 1025.183, 6],
			['Ales.Priban', 19, 'DNF', 715.366, 5],
			['Tomas Ledenyi', 20, 'DNS', undefined, 0],
			['Tomas Stanek', 21, 'DNS', undefined, 0],
		]);
		expect(file).toMatchObject({
			format: 'ac',
			formatName: 'Assetto Corsa results (race_out.json)',
			session: 'race (session 2 of 2)',
			track: 'spa',
		});
		expect(file.warnings).toEqual(['"Jan Kundlák": written by the game as "Jan Kundl\uFFC3\uFFA1k", read as UTF-8']);
		expect(file.entries[0]).toEqual({
			name: 'Petr Dolezal',
			position: 1,
			status: 'finished',
			statusInferred: true,
			totalTime: 4225.383,
			laps: 30,
			car: 'bmw_z4_gt3',
		});
	});

	it('qualify.and.race.modified.with.-1.result.position.json: a place naming no car is left out and said', () => {
		// Place 7 was Michal Krejcir's (player 1), made -1 by the simresults author: he comes after the listed cars.
		const file = read(`${CLIENT}/qualify.and.race.modified.with.-1.result.position.json`);
		expect(file.entries.slice(5, 14).map((e) => [e.name, e.position, e.status])).toEqual([
			['Ondrej Sulc', 6, 'finished'],
			['pauco.mikulas', 7, 'finished'],
			['Emil Klapa', 8, 'finished'],
			['jakub.kucharik', 9, 'finished'],
			['Milan Juza', 10, 'finished'],
			['Jozef Matiasko', 11, 'finished'],
			['jarda zacek', 12, 'finished'],
			['Michal Krejcir', 13, 'finished'],
			['Pavel Vomacko', 14, 'DNF'],
		]);
		expect(file.warnings).toEqual([
			'"Jan Kundlák": written by the game as "Jan Kundl\uFFC3\uFFA1k", read as UTF-8',
			'place 7 of the race result names no car (-1): left out',
			'"Michal Krejcir": not in the race result (30 laps): placed after the cars it lists',
		]);
	});

	it('3.sessions.with.-1.times.json: practice, qualifying and race: the race, session 3 of 3', () => {
		// Andrea G 17 laps 1250919 ms; Ignacio C (15, 1130875), Jose D (6, 459047), Ignacio P (1, 89520): DNF.
		const file = read(`${CLIENT}/3.sessions.with.-1.times.json`);
		expect(file.session).toBe('race (session 3 of 3)');
		expect(rows(file)).toEqual([
			['Andrea G', 1, 'finished', 1250.919, 17],
			['Lasse L', 2, 'finished', 1252.511, 17],
			['Lukas K', 3, 'finished', 1260.173, 17],
			['Marco A', 4, 'finished', 1261.68, 17],
			['Nick B', 5, 'finished', 1262.861, 17],
			['Dario P', 6, 'finished', 1271.964, 17],
			['Guilhem B', 7, 'finished', 1273.436, 17],
			['Lorenzo C', 8, 'finished', 1280.287, 17],
			['Eduardo O', 9, 'finished', 1301.753, 17],
			['Ernest F', 10, 'finished', 1304.724, 17],
			['Henrik K', 11, 'finished', 1310.09, 17],
			['Ignacio C', 12, 'DNF', 1130.875, 15],
			['Jose D', 13, 'DNF', 459.047, 6],
			['Ignacio P', 14, 'DNF', 89.52, 1],
			['Mario R', 15, 'DNS', undefined, 0],
			['Alberto E', 16, 'DNS', undefined, 0],
			['Jose M', 17, 'DNS', undefined, 0],
			['SRS TV', 18, 'DNS', undefined, 0],
		]);
		expect(file.warnings).toEqual([]);
	});

	it('offline_quick_race_session.json: an offline quick race of 5 laps, everyone finished', () => {
		const file = read(`${CLIENT}/offline_quick_race_session.json`);
		expect(file.session).toBe('race');
		expect(rows(file)).toEqual([
			['Alex Cardinali', 1, 'finished', 745.545, 5],
			['David Lewis', 2, 'finished', 748.562, 5],
			['Mitsuo Yoshida', 3, 'finished', 761.13, 5],
			['Maurice van der Star', 4, 'finished', 765.337, 5],
			['Stefano Lavezzi', 5, 'finished', 771.978, 5],
			['Sven Jackermeier', 6, 'finished', 772.396, 5],
			['Dominic La Sarthe', 7, 'finished', 799.345, 5],
			['Dan Gooch', 8, 'finished', 810.131, 5],
			['Pablo Marquez', 9, 'finished', 818.312, 5],
			['Riccardo Defendi', 10, 'finished', 829.743, 5],
			['Diego Perez', 11, 'finished', 830.509, 5],
			['Hugh Lemont', 12, 'finished', 830.829, 5],
		]);
	});
});

describe('AC: files that hold no race, damaged files, detection', () => {
	it.each([
		[
			`${SERVER}/2015_10_17_9_30_QUALIFY.json`,
			`a qualifying session (Type "QUALIFY"), not a race: give the race's file (…_RACE.json)`,
		],
		[
			`${MANAGER}/2019_3_2_14_41_PRACTICE.json`,
			`a practice session (Type "PRACTICE"), not a race: give the race's file (…_RACE.json)`,
		],
		[`${CLIENT}/offline_drift_session.json`, 'no race session: it holds "Drift Session"'],
		[`${CLIENT}/nosessions.json`, 'no session: no race to read'],
	])('%s is detected, then refused naming what it holds', (path, held) => {
		const text = textOf(path);
		expect(acReader.detect(text)).toBe(true);
		const error = readError(text);
		expect(error).toBeInstanceOf(ResultFileError);
		expect((error as Error).message).toBe(`the file holds ${held}`);
	});

	it('a file cut short is refused as incomplete JSON; garbage in the right shape is a ResultFileError', () => {
		for (const path of [
			`${SERVER}/tyre.info.json`,
			`${MANAGER}/2019_3_2_22_3_RACE.json`,
			`${CLIENT}/qualify.and.race.json`,
		]) {
			const text = textOf(path);
			const cut = text.slice(0, text.length / 3);
			expect(acReader.detect(cut)).toBe(true);
			expect((readError(cut) as Error).message).toMatch(/^the file is not complete JSON \(cut short or damaged\?\): /u);
		}
		for (const garbage of [
			'{"TrackName": "monza", "Type": "RACE", "Result": 5, "Laps": [null, 1, "x"]}',
			'{"TrackName": "monza", "Type": "RACE", "Result": [{"DriverName": "", "DriverGuid": ""}], "Laps": null}',
			'{"track": "spa", "players": [{"name": "A"}], "sessions": [{"type": 3, "laps": 7, "raceResult": "x"}]}',
			'{"track": "spa", "players": [{"name": "A"}], "sessions": "none"}',
		]) {
			expect(acReader.detect(garbage)).toBe(true);
			expect(readError(garbage)).toBeInstanceOf(ResultFileError);
		}
		const lapless = '{"track": "spa", "players": [{"name": "A"}], "sessions": [{"type": 3, "raceResult": [0]}]}';
		expect((readError(lapless) as Error).message).toBe('no car completed a lap: no race to read');
	});

	it('claims no other fixture and no pasted scoreboard', () => {
		const mine = [`${SERVER}/`, `${CLIENT}/`, `${MANAGER}/`];
		expectClaimsNoOther(acReader, (path) => mine.some((folder) => path.startsWith(folder)));
		expect(acReader.detect('1. Alice 1:23.456\n2. Bob 1:24.001\n3. Carol DNF')).toBe(false);
		expect(acReader.detect('Pos,Driver,Laps,Time\n1,Alice,10,15:02.123')).toBe(false);
	});
});
