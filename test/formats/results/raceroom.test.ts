/**
 * The RaceRoom dedicated server reader (src/formats/results/raceroom.ts) on real files, read as bytes and decoded as
 * the bot does. Fixtures and their sources: test/fixtures/results/mauserrifle-simresults/PROVENANCE.md.
 *
 * How the expected rows were checked: the last race session of each file was listed by hand (a node one-liner
 * printing each player's Position, FullName, UserId, FinishStatus, TotalTime, the number of RaceSessionLaps, how
 * many have Time > 0 and the incident types of the last one), sorted by Position; then the reader's rules applied
 * by hand: laps = the laps with Time > 0, less the lap a retired car stopped in (incident 4 "Staying stationary",
 * or "Disconnecting": 7 before May 2020, 8 since; or as many laps as the winner); a car that did not finish with no
 * lap is DNS; finishers, then who did not take the flag, then the disqualified; TotalTime copied digit for digit
 * (1216072 ms is 1216.072) when above 0. Dates are `Time` in UTC (`/Date(ms)/` or Unix seconds).
 */
import { describe, expect, it } from 'vitest';
import { raceroomReader } from '../../../src/formats/results/raceroom.js';
import type { ResultEntry, ResultFile } from '../../../src/formats/results/types.js';
import { expectClaimsNoOther, field, fixtureText as text, readClaimed, readErrorMessage, rows } from './support.js';

const DIR = 'mauserrifle-simresults/raceroom-server';
const QUALIFY_AND_RACE = `${DIR}/qualify.and.race.json`;
const RACE2 = `${DIR}/log.with.race2.json`;
const STATUS_NONE = `${DIR}/finish.status.none.json`;
const KEN_J = `${DIR}/driver.ken.j.dnf.but.with.all.laps.registered.with.incidents.json`;
const NEW_INCIDENTS = `${DIR}/race.with.new.incident.indexes.and.sector.times.json`;
const PIT_LAP = `${DIR}/pit.lap.and.negative.lap.json`;
const INCIDENTS = `${DIR}/log.with.incidents.json`;
const NO_LAPS = `${DIR}/no.laps.json`;
const MINE = [QUALIFY_AND_RACE, RACE2, STATUS_NONE, KEN_J, NEW_INCIDENTS, PIT_LAP, INCIDENTS, NO_LAPS];

const read = (source: string): ResultFile => readClaimed(raceroomReader, source);

const readError = (source: string): string => readErrorMessage(raceroomReader, source);

describe('raceroomReader on real files', () => {
	it('qualify.and.race.json: a DSQ placed last, a DNF with TotalTime -1 (every field)', () => {
		// Race: chin matsuo P1 Finished 1216072, nois oh P2 Finished 1219633 (12 laps each); tak kos P3
		// Disqualified (6 laps, TotalTime 0); Akihiro Nakao P4 DidNotFinish (2 laps, TotalTime -1). No UserId yet.
		expect(read(text(QUALIFY_AND_RACE))).toEqual({
			format: 'raceroom',
			formatName: 'RaceRoom dedicated server results',
			session: 'Race (session 2 of 2)',
			track: 'Portimao Circuit',
			date: '2016-03-26', // Time /Date(1459003463775)/
			entries: [
				{ name: 'chin matsuo', position: 1, status: 'finished', totalTime: 1216.072, laps: 12, car: 'Ford GT GT1' },
				{ name: 'nois oh', position: 2, status: 'finished', totalTime: 1219.633, laps: 12, car: 'Saleen S7R' },
				{ name: 'Akihiro Nakao', position: 3, status: 'DNF', laps: 2, car: 'Saleen S7R' },
				{ name: 'tak kos', position: 4, status: 'DSQ', laps: 6, car: 'Saleen S7R', penalties: ['disqualified'] },
			],
			warnings: [],
		} satisfies ResultFile);
	});

	it('driver.ken.j...with.incidents.json: the lap a retired car stopped in is not counted (every field)', () => {
		// Ken J: DidNotFinish with 13 laps like the winner, the last one 135225 ms with three incidents of type 4
		// ("Staying stationary on the track"): 12 laps. Time 1607107684 is Unix seconds; UserId gives the id.
		const finished = (name: string, position: number, totalTime: number, userId: number): ResultEntry => ({
			name,
			position,
			status: 'finished',
			totalTime,
			laps: 13,
			simId: `raceroom:${userId}`,
			car: 'Lada Vesta',
		});
		expect(read(text(KEN_J))).toEqual({
			format: 'raceroom',
			formatName: 'RaceRoom dedicated server results',
			session: 'Race (session 3 of 3)',
			track: 'Portimao Circuit - Club',
			date: '2020-12-04',
			entries: [
				finished('Manuel A', 1, 1284.422, 4898484),
				finished('Csaba L', 2, 1307.253, 5423159),
				finished('Jos O', 3, 1307.641, 934038),
				finished('Flaviu B', 4, 1307.697, 110002),
				finished('Ed J', 5, 1322.911, 220320),
				finished('Rob B', 6, 1342.759, 5933801),
				finished('Doug D', 7, 1351.437, 480357),
				{
					name: 'Ken J',
					position: 8,
					status: 'DNF',
					reason: 'Staying stationary on the track',
					laps: 12,
					simId: 'raceroom:1167383',
					car: 'Lada Vesta',
				},
			],
			warnings: [
				'Ken J: the last recorded lap is the one the car stopped in (it records "Staying stationary on the track"): 12 laps counted',
			],
		} satisfies ResultFile);
	});

	it('race.with.new.incident.indexes...json: a driver who gave up on lap 1 is DNS; another DNF keeps its laps', () => {
		// Mihail: one lap (109395 ms, Valid false) with incidents 0 (contact) and 8 ("Disconnecting", the numbering
		// since May 2020; Time 1589031256 is 2020-05-09): no completed lap. Bastiaan: 4 laps, the last with incidents
		// 6, 1, 1 (invalid lap, track object): a completed lap, counted.
		const file = read(text(NEW_INCIDENTS));
		expect(file.session).toBe('Race (session 3 of 3)');
		expect(file.track).toBe('Red Bull Ring Spielberg - Grand Prix Circuit');
		expect(file.date).toBe('2020-05-09');
		expect(rows(file)).toEqual([
			['Bence', 1, 'finished', 689.261, 7],
			['Jaroslav', 2, 'finished', 691.221, 7],
			['JESPER', 3, 'finished', 691.778, 7],
			['Chris', 4, 'finished', 695.02, 7],
			['Max', 5, 'finished', 695.798, 7],
			['Antoine', 6, 'finished', 696.225, 7],
			['James', 7, 'finished', 698.825, 7],
			['Remon', 8, 'finished', 700.335, 7],
			['Adam', 9, 'finished', 702.717, 7],
			['Olivier', 10, 'finished', 703.112, 7],
			['Michel', 11, 'finished', 706.741, 7],
			['Cyril', 12, 'finished', 707.714, 7],
			['Lars', 13, 'finished', 718.982, 7],
			['Bruno', 14, 'finished', 719.714, 7],
			['Nicolaj', 15, 'finished', 725.494, 7],
			['Alin', 16, 'finished', 735.166, 7],
			['Bastiaan', 17, 'DNF', undefined, 4],
			['Mihail', 18, 'DNS', undefined, 0],
		]);
		expect(field(file, 'simId')).toMatchObject({ Bence: 'raceroom:792057', Mihail: 'raceroom:212200' });
		expect(field(file, 'car')).toMatchObject({ JESPER: 'Audi RS 3 LMS', Antoine: 'Hyundai i30 N TCR' });
		expect(field(file, 'reason')).toEqual({});
		expect(file.warnings).toEqual([
			'Mihail: the last recorded lap is the one the car stopped in (it records "Disconnecting / Giving up"): 0 laps counted',
		]);
	});

	it('log.with.incidents.json (2018): a car that missed the start is DNS; DNFs keep their complete laps', () => {
		// RR tex: one lap of Time -1000 with incidents 7 and 8 (disconnecting, missing the start, the pre-2020
		// numbering): no lap. Jorge Rivera (8 laps) and Christoph Dürselen (2) record no stopping incident.
		const file = read(text(INCIDENTS));
		expect(file.date).toBe('2018-02-04'); // Time /Date(1517708725069)/
		expect(rows(file)).toEqual([
			['Magnus Stjerneby', 1, 'finished', 1293.842, 13],
			['Jason Monds', 2, 'finished', 1294.047, 13],
			['Vinny Roberts', 3, 'finished', 1301.81, 13],
			['Darcy Parkinson', 4, 'finished', 1314.126, 13],
			['Yevgeny Lazorenko', 5, 'finished', 1316.71, 13],
			['Sean Kenney', 6, 'finished', 1325.947, 13],
			['John Barker', 7, 'finished', 1331.718, 13],
			['Romeo Scarfó', 8, 'finished', 1334.694, 13],
			['Filipe Ferreira', 9, 'finished', 1347.478, 13],
			['Lukasz Milewski', 10, 'finished', 1359.149, 13],
			['Grant Patullo', 11, 'finished', 1364.441, 13],
			['Andy Blade', 12, 'finished', 1367.789, 13],
			['Giuseppe Ricci', 13, 'finished', 1304.699, 12],
			['Matt Hoffman', 14, 'finished', 1322.852, 12],
			['RR tex', 15, 'DNS', undefined, 0],
			['Jorge Rivera', 16, 'DNF', undefined, 8],
			['Christoph Dürselen', 17, 'DNF', undefined, 2],
		]);
		expect(file.warnings).toEqual([]);
	});

	it('log.with.race2.json: the second race read; a lap of Time -1000 is no completed lap', () => {
		// Sessions Qualify, Race, Race2. In Race2 marco sammarco and Guglielmo Vavassori are Finished with 11 laps
		// recorded, the last of Time -1000, and the same TotalTime 1280849: 10 laps, lapped finishers.
		const file = read(text(RACE2));
		expect(file.session).toBe('Race2 (session 3 of 3)');
		expect(file.track).toBe('Portimao Circuit - Grand Prix');
		expect(file.date).toBe('2017-01-08');
		expect(rows(file)).toEqual([
			['Daniele Ri', 1, 'finished', 1250.724, 11],
			['Andrea Sogni', 2, 'finished', 1251.617, 11],
			['Pino Galota', 3, 'finished', 1272.093, 11],
			['Matteo Ricci', 4, 'finished', 1272.318, 11],
			['marco sammarco', 5, 'finished', 1280.849, 10],
			['Guglielmo Vavassori', 6, 'finished', 1280.849, 10],
		]);
		expect(file.warnings).toEqual(['the file holds 2 races (Race, Race2): the last one, Race2, was read']);
	});

	it('pit.lap.and.negative.lap.json: DNFs with no lap are DNS; a Finished car 19 laps down stays finished', () => {
		// Francisco Pereira: Finished, 4 laps recorded, the last -1000: 3 laps, placed 16th by the file.
		// carlos Totti, Rodrigo Gonçalves Oliveira, Victor Koitla: DidNotFinish with no lap. UTF-8 accents.
		const file = read(text(PIT_LAP));
		expect(file.track).toBe('Motorsport Arena Oschersleben');
		expect(rows(file)).toEqual([
			['Emerson Luciani', 1, 'finished', 2108.051, 22],
			['André Petrini', 2, 'finished', 2114.779, 22],
			['Willian Candido', 3, 'finished', 2115.578, 22],
			['Luiz Cerqueira', 4, 'finished', 2118.405, 22],
			['Paulo Conda', 5, 'finished', 2119.257, 22],
			['Nataniel Carvalho', 6, 'finished', 2132.702, 22],
			['Sérgio Oliveira', 7, 'finished', 2134.223, 22],
			['Ricardo Dias', 8, 'finished', 2135.192, 22],
			['Renier Pestana', 9, 'finished', 2141.295, 22],
			['Henrico Machado', 10, 'finished', 2153.094, 22],
			['Denis Horvath', 11, 'finished', 2155.575, 22],
			['Bruno Santos', 12, 'finished', 2156.316, 22],
			['Wagner Andre', 13, 'finished', 2157.685, 22],
			['Jefferson Pitas', 14, 'finished', 2182.349, 22],
			['Flavio Martins GT3xTeam', 15, 'finished', 2191.724, 22],
			['Francisco Pereira', 16, 'finished', 2228.127, 3],
			['Jones Denobile', 17, 'DNF', undefined, 16],
			['carlos Totti', 18, 'DNS', undefined, 0],
			['Jan Michal', 19, 'DNF', undefined, 11],
			['Rodrigo Gonçalves Oliveira', 20, 'DNS', undefined, 0],
			['Victor Koitla', 21, 'DNS', undefined, 0],
		]);
		expect(file.warnings).toEqual([]);
	});

	it('finish.status.none.json: no status stated, so the one rule infers it from laps and lap times', () => {
		// Every FinishStatus is "None" and every TotalTime 0. The winner (Mike Davies) has 13 laps; places 5-7
		// have 12 completed laps (the 13th is -1000) whose sum is below the winner's 13: DNF; Jesse Hampton (8) too.
		const file = read(text(STATUS_NONE));
		expect(file.session).toBe('Race (session 2 of 2)');
		expect(file.track).toBe('Shanghai Circuit - West Long');
		expect(file.date).toBe('2017-01-22');
		expect(rows(file)).toEqual([
			['Mike Davies', 1, 'finished', undefined, 13],
			['Brodie Steen', 2, 'finished', undefined, 13],
			['Andy Blade', 3, 'finished', undefined, 13],
			['Paul Darke', 4, 'finished', undefined, 13],
			['DSR scuba#AU', 5, 'DNF', undefined, 12],
			['Seiji Kasai', 6, 'DNF', undefined, 12],
			['Steve Carman', 7, 'DNF', undefined, 12],
			['Jesse Hampton', 8, 'DNF', undefined, 8],
		]);
		expect(file.entries.every((e) => e.statusInferred === true)).toBe(true);
		expect(file.warnings).toEqual([
			'8 of 8 drivers have no finish status (FinishStatus "None"): inferred from their laps and times',
		]);
	});

	it('no.laps.json (2015): no status, no laps, no FullName: placed as the file places them, one driver unnamed', () => {
		const file = read(text(NO_LAPS));
		expect(file.track).toBe('EuroSpeedway Lausitz');
		expect(file.date).toBe('2015-07-24');
		expect(file.entries.map((e) => [e.name, e.position, e.status, e.statusInferred, e.laps])).toEqual(
			[
				'YHKIM',
				'Modnee',
				'jphil',
				'MangoJuice',
				'BigShot',
				'RedMoca',
				'GoodFriend',
				'spin4208',
				'dl53',
				'DunkinCup',
				'junkim',
				'unnamed driver (P12)',
				'Shanaa',
				'Matrix741',
				'seossg',
			].map((name, i) => [name, i + 1, 'finished', true, undefined]),
		);
		expect(file.warnings).toEqual([
			'the driver placed 12 has no name in the file',
			'15 of 15 drivers have no finish status (FinishStatus "None"): inferred from their laps and times',
			'the file records no laps for 15 of 15 drivers',
		]);
	});
});

describe('raceroomReader on edited real files (one thing changed each)', () => {
	const source = text(NEW_INCIDENTS);
	const root = JSON.parse(source) as { Sessions: { Type: string; Players: Record<string, unknown>[] }[] };
	const race = root.Sessions.at(-1)!;
	const withRace = (players: Record<string, unknown>[]) =>
		JSON.stringify({ ...root, Sessions: [...root.Sessions.slice(0, -1), { ...race, Players: players }] });

	it('a file without a race session is a ResultFileError naming its sessions', () => {
		const noRace = JSON.stringify({ ...root, Sessions: root.Sessions.slice(0, -1) });
		expect(raceroomReader.detect(noRace)).toBe(true);
		expect(readError(noRace)).toBe('no race session with racers: the file holds Practice, Qualify');
	});

	it('the same UserId twice (a reconnect) is one racer, the higher place kept', () => {
		const players = race.Players.map((p) => (p.FullName === 'Cyril' ? { ...p, UserId: 461916 } : p)); // Michel's
		const file = raceroomReader.read(withRace(players));
		expect(file.entries.map((e) => e.name)).not.toContain('Cyril');
		expect(file.entries).toHaveLength(17);
		expect(file.warnings.at(-1)).toBe('Cyril is in the race twice (a reconnect): the lower row (12) was dropped');
	});

	it('CarClass and PositionInClass are read when the file has them', () => {
		const players = race.Players.map((p) => ({ ...p, CarClass: String(p.Car).includes('Audi') ? 'Audi' : 'Other' }));
		const file = raceroomReader.read(withRace(players));
		expect(file.entries[2]).toMatchObject({ name: 'JESPER', carClass: 'Audi', classPosition: 3 });
	});

	it('an unknown FinishStatus is inferred, said', () => {
		const players = race.Players.map((p) => (p.FullName === 'Max' ? { ...p, FinishStatus: 'Flagged' } : p));
		const file = raceroomReader.read(withRace(players));
		expect(file.entries[4]).toMatchObject({ name: 'Max', status: 'finished', statusInferred: true });
		expect(file.warnings).toContain('Max: finish status "Flagged" is unknown: inferred from laps and times');
	});
});

describe('raceroomReader on files it cannot read', () => {
	it('a truncated or damaged file, or JSON of another shape: ResultFileError, never a TypeError', () => {
		const source = text(KEN_J);
		expect(readError(source.slice(0, 5000))).toMatch(/^the file is not complete JSON/u);
		expect(readError('{"Server":"x","Experience":"RaceRoom Experience","Sessions":3}')).toBe(
			'the file has no sessions',
		);
		expect(readError('{"Sessions":[{"Type":"Race","Players":[]}],"FinishStatus":1}')).toBe(
			'no race session with racers: the file holds races with no player',
		);
		expect(readError('[1, 2]')).toMatch(/not a results object/u);
	});
});

describe('raceroomReader.detect', () => {
	it("claims none of the other formats' fixtures, nor a pasted scoreboard", () => {
		const mine = new Set(MINE);
		expectClaimsNoOther(raceroomReader, (path) => mine.has(path));
		expect(raceroomReader.detect('1. Alice 1:23.456\n2. Bob 1:24.001\n3. Carol DNF\n')).toBe(false);
	});

	it('claims every fixture of this format', () => {
		for (const path of MINE) expect([path, raceroomReader.detect(text(path))]).toEqual([path, true]);
	});
});
