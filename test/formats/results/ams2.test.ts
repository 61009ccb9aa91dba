/**
 * The sms_stats reader (src/formats/results/ams2.ts: Automobilista 2, Project CARS 2) on real files, read as bytes and
 * decoded as the bot does. Fixtures and their sources: test/fixtures/results/{mauserrifle-simresults,
 * devology-uk-ams2-dedicated-server-toolbox}/PROVENANCE.md.
 *
 * How the expected rows were checked: for each file the last history entry with a race1 stage holding results was
 * found by hand (a node one-liner listing `stats.history[i].stages.race1.results`, the `//` lines dropped), and every
 * row below written from its `name`, `attributes.RacePosition`, `State`, `Lap` and `TotalTime` (ms, copied digit
 * for digit: 1876089 is 1876.089). Steam ids were looked up by hand: `members[refid].steamid`, else the one key of
 * `stats.players` whose `name` is the driver's. Cars the results leave out were counted from the stage's `Lap`
 * events (their `LapTime` summed) and their last `State` event. Dates are the race stage's `start_time` in UTC.
 */
import { describe, expect, it } from 'vitest';
import { ams2Reader } from '../../../src/formats/results/ams2.js';
import type { ResultEntry, ResultFile } from '../../../src/formats/results/types.js';
import { expectClaimsNoOther, field, fixtureText as text, readClaimed, readErrorMessage, rows } from './support.js';

const SIMRESULTS = 'mauserrifle-simresults';
const PRACTICE_AND_RACE = `${SIMRESULTS}/automobilista2/practice.and.race.json`;
const MISSING_STEAM_IDS = `${SIMRESULTS}/automobilista2/missing.steam.ids.json`;
const CAR_NAME_MISMATCH = `${SIMRESULTS}/automobilista2/log.for.car.name.mismatch.with.pc2.json`;
const PC2_RACE3 = `${SIMRESULTS}/projectcars2-server/race3.with.missing.driver.in.final.results.json`;
const PC2_ADMIN = `${SIMRESULTS}/projectcars2-server/admin.driver.missing.from.results.json`;
const TOOLBOX = 'devology-uk-ams2-dedicated-server-toolbox/sms_stats_data_with_results.json';
const MINE = [PRACTICE_AND_RACE, MISSING_STEAM_IDS, CAR_NAME_MISMATCH, PC2_RACE3, PC2_ADMIN, TOOLBOX];

const read = (source: string): ResultFile => readClaimed(ams2Reader, source);

const readError = (source: string): string => readErrorMessage(ams2Reader, source);

describe('ams2Reader on real files', () => {
	it('AMS2 practice.and.race.json: one race in 22 events, Steam ids only in stats.players (every field)', () => {
		// The race stage has no events and the history entry's members list only chbruns2011 (who left before the
		// race): every Steam id comes from stats.players by name. galactusjunior is a lapped finisher (16 laps).
		// No AllowedCutsBeforePenalty nor PracticeDateDay in any setup: the file does not say which game.
		const finished = (name: string, position: number, totalTime: number, laps: number, steam: string) =>
			({ name, position, status: 'finished', totalTime, laps, simId: `steam:${steam}` }) satisfies ResultEntry;
		expect(read(text(PRACTICE_AND_RACE))).toEqual({
			format: 'ams2',
			formatName: 'Automobilista 2 / Project CARS 2 dedicated server results',
			session: 'race1 of history entry 21',
			date: '2020-07-06', // start_time 1594066346
			entries: [
				finished('DragiGus', 1, 1876.089, 17, '76561198415727989'),
				finished('P1CE-Gaby', 2, 1906.467, 17, '76561197974383391'),
				finished('RS Family', 3, 1917.098, 17, '76561198873325717'),
				finished('Dams161', 4, 2002.604, 17, '76561198038438111'),
				finished('galactusjunior', 5, 1924.443, 16, '76561198094251399'),
			],
			warnings: [],
		} satisfies ResultFile);
	});

	it('AMS2 missing.steam.ids.json: five races, the last read; a nameless result named by its member; a DNF', () => {
		// History entries 324..328 each hold a race1; 328's has 7 results. Result 6 has name "" and refid 52227:
		// members["52227"] is "[RWB] Charger". justinb97 is State DNF after 6 laps. (The file's ids are anonymised.)
		const file = read(text(MISSING_STEAM_IDS));
		expect(file.formatName).toBe('Automobilista 2 dedicated server results');
		expect(file.session).toBe('race1 of history entry 328 (the last of 5 races in the file)');
		expect(file.date).toBe('2020-12-10'); // start_time 1607642195
		expect(rows(file)).toEqual([
			['[RWB] Isaacz93', 1, 'finished', 605.389, 7],
			['[RWB] Rygel', 2, 'finished', 605.796, 7],
			['[RWB] FxUK', 3, 'finished', 624.09, 7],
			['RWB Marco', 4, 'finished', 626.044, 7],
			['Mad Al', 5, 'finished', 628.787, 7],
			['[RWB] Charger', 6, 'finished', 642.015, 7],
			['justinb97', 7, 'DNF', 654.167, 6],
		]);
		expect(field(file, 'simId')).toEqual({
			'[RWB] Isaacz93': 'steam:12345678247139514',
			'[RWB] Rygel': 'steam:12345677995718840',
			'[RWB] FxUK': 'steam:12345677992795567',
			'RWB Marco': 'steam:12345677974082436',
			'Mad Al': 'steam:12345677970666618',
			'[RWB] Charger': 'steam:12345677999547006',
			justinb97: 'steam:12345679047980631',
		});
		expect(field(file, 'reason')).toEqual({});
		expect(file.warnings).toEqual([
			'the file holds 5 races (every event the server ran): the last one was read (race1 of history entry 328)',
		]);
	});

	it('AMS2 log.for.car.name.mismatch.with.pc2.json: a Retired car, and two cars the results leave out', () => {
		// 11 results (Sevenbla State Retired, Lap 8, TotalTime 908170). The race1 events also show participant 27
		// (FruitL, refid 2313: 7 Lap events, last State InPits) and 29 (name "", refid 22926 = member Timu: 1 Lap
		// event, last State Retired), absent from the results: placed after the finishers, in their first-lap order.
		// Participant 9 (Matt M) has events but no lap: no racer.
		const file = read(text(CAR_NAME_MISMATCH));
		expect(file.formatName).toBe('Automobilista 2 dedicated server results');
		expect(file.session).toBe('race1 of history entry 1');
		expect(file.date).toBe('2021-10-17'); // start_time 1634498246
		expect(rows(file)).toEqual([
			['TechA', 1, 'finished', 2730.611, 35],
			['Bobby D', 2, 'finished', 2736.241, 35],
			['Evo M', 3, 'finished', 2742.578, 35],
			['Captainl', 4, 'finished', 2759.509, 35],
			['Rocco T', 5, 'finished', 2760.988, 35],
			['Chris C', 6, 'finished', 2761.352, 35],
			['Glen O', 7, 'finished', 2746.56, 34],
			['Robert K', 8, 'finished', 2757.897, 34],
			['MasterF', 9, 'finished', 2776.724, 34],
			['No I', 10, 'finished', 2735.315, 33],
			['Sevenbla', 11, 'DNF', 908.17, 8],
			['FruitL', 12, 'DNF', undefined, 7],
			['Timu', 13, 'DNF', undefined, 1],
		]);
		expect(field(file, 'reason')).toEqual({ Sevenbla: 'Retired', FruitL: 'InPits', Timu: 'Retired' });
		// TechA (participant 0, refid 57344) is no member: the one stats.players entry named "TechA".
		expect(field(file, 'simId')).toMatchObject({
			TechA: 'steam:76561197992462926',
			Sevenbla: 'steam:76561198831266644',
			FruitL: 'steam:76561198172078515',
			Timu: 'steam:76561197960964299',
		});
		expect(file.warnings).toEqual([
			"FruitL is missing from the server's results; the race events show 7 laps and no finish: placed after the finishers as DNF",
			"Timu is missing from the server's results; the race events show 1 laps and no finish: placed after the finishers as DNF",
		]);
	});

	it('PC2 race3.with.missing.driver...json: a finisher missing from the results, placed by laps and time', () => {
		// History entry 6's race1 lists 6 results; its events show Stefan S (participant 8, refid 52231) with 24 Lap
		// events summing to 2773996 ms and a last State Finished: between Ken J (2762.807) and Jose B (2775.363),
		// where simresults places him too. Ken J (refid 51456) is no member: his Steam id is stats.players'.
		const file = read(text(PC2_RACE3));
		expect(file.formatName).toBe('Automobilista 2 / Project CARS 2 dedicated server results');
		expect(file.session).toBe('race1 of history entry 6 (the last of 3 races in the file)');
		expect(file.date).toBe('2021-04-08'); // start_time 1617905632
		expect(rows(file)).toEqual([
			['Gerhard H', 1, 'finished', 2744.709, 24],
			['Brian D', 2, 'finished', 2745.715, 24],
			['Björn J', 3, 'finished', 2759.964, 24],
			['Ken J', 4, 'finished', 2762.807, 24],
			['Stefan S', 5, 'finished', 2773.996, 24],
			['Jose B', 6, 'finished', 2775.363, 24],
			['Rob M', 7, 'finished', 2830.717, 24],
		]);
		expect(field(file, 'simId')).toEqual({
			'Gerhard H': 'steam:76561198258501451',
			'Brian D': 'steam:76561198250009816',
			'Björn J': 'steam:76561197999999322',
			'Ken J': 'steam:76561197974154133',
			'Stefan S': 'steam:76561198090279737',
			'Jose B': 'steam:76561198039865580',
			'Rob M': 'steam:76561198019028790',
		});
		expect(file.warnings).toEqual([
			'the file holds 3 races (every event the server ran): the last one was read (race1 of history entry 6)',
			"Stefan S is missing from the server's results, but the race events show them finishing with 24 laps: placed by laps and the sum of their lap times (2773.996 s)",
		]);
	});

	it('PC2 admin.driver.missing.from.results.json: named Project CARS 2 by its setup, ids from stats.players', () => {
		// The setups have PracticeDateDay (PC2's per-session calendar). History entry 50's race1: 8 results, no
		// events; its only member (Michael Schmiedel, participantid -1) never had a car: no racer.
		const file = read(text(PC2_ADMIN));
		expect(file.formatName).toBe('Project CARS 2 dedicated server results');
		expect(file.session).toBe('race1 of history entry 50 (the last of 5 races in the file)');
		expect(file.date).toBe('2018-01-12'); // start_time 1515790551
		expect(rows(file)).toEqual([
			['Stefan Schneider', 1, 'finished', 1235.966, 13],
			['Rob Milliken', 2, 'finished', 1258.434, 13],
			['Gerhard Hofmann', 3, 'finished', 1274.872, 13],
			['Norman Bruce', 4, 'finished', 1275.221, 13],
			['Germano Intorcia', 5, 'finished', 1275.356, 13],
			['Ed Jones', 6, 'finished', 1306.899, 13],
			['Dan Houk', 7, 'finished', 1240.888, 12],
			['Kenny Press', 8, 'finished', 1260.902, 12],
		]);
		expect(field(file, 'simId')).toEqual({
			'Stefan Schneider': 'steam:76561198090279737',
			'Rob Milliken': 'steam:76561198019028790',
			'Gerhard Hofmann': 'steam:76561198258501451',
			'Norman Bruce': 'steam:76561198024497965',
			'Germano Intorcia': 'steam:76561198207159959',
			'Ed Jones': 'steam:76561197992619667',
			'Dan Houk': 'steam:76561198310010830',
			'Kenny Press': 'steam:76561197987995630',
		});
		expect(file.warnings).toEqual([
			'the file holds 5 races (every event the server ran): the last one was read (race1 of history entry 50)',
		]);
	});

	it('a file with practice and qualifying only is a ResultFileError naming its sessions (AMS2 server toolbox)', () => {
		// History entries 84..89: practice1 in 84, 85, 86 and 89, qualifying1 in 86, nothing in 87 and 88.
		expect(readError(text(TOOLBOX))).toBe('no race with results in the file: it holds practice1 ×4, qualifying1');
	});
});

describe('ams2Reader on edited real files (one thing changed each)', () => {
	const source = text(PRACTICE_AND_RACE);
	/** The file with one race row changed: the pattern must match exactly once. */
	const once = (from: string, pattern: RegExp, to: string): string => {
		expect(from.match(new RegExp(pattern.source, 'gu'))).toHaveLength(1);
		return from.replace(pattern, to);
	};
	/** The race row with this TotalTime (each is unique in the file) gets another State. */
	const state = (totalTimeMs: number, to: string, from = source) =>
		once(
			from,
			new RegExp(`"State" : "Finished",(\\s*)"TotalTime" : ${totalTimeMs},`, 'u'),
			`"State" : "${to}",$1"TotalTime" : ${totalTimeMs},`,
		);

	it('State Disqualified is DSQ, placed after everyone, with the penalty word', () => {
		const file = ams2Reader.read(state(1906467, 'Disqualified')); // P1CE-Gaby
		expect(rows(file).map(([name, position, status]) => [name, position, status])).toEqual([
			['DragiGus', 1, 'finished'],
			['RS Family', 2, 'finished'],
			['Dams161', 3, 'finished'],
			['galactusjunior', 4, 'finished'],
			['P1CE-Gaby', 5, 'DSQ'],
		]);
		expect(field(file, 'penalties')).toEqual({ 'P1CE-Gaby': ['disqualified'] });
		expect(file.warnings).toEqual(['P1CE-Gaby (DSQ) was placed P2 by the server, above finishers: placed after them']);
	});

	it('State Retired is DNF with its reason; an unknown state is DNF, said', () => {
		const retired = ams2Reader.read(state(1917098, 'Retired')); // RS Family
		expect(retired.entries.find((e) => e.name === 'RS Family')).toMatchObject({
			status: 'DNF',
			reason: 'Retired',
			position: 5,
		});
		const racing = ams2Reader.read(state(1924443, 'Racing')); // galactusjunior
		expect(racing.entries.at(-1)).toMatchObject({ name: 'galactusjunior', status: 'DNF', reason: 'Racing' });
		expect(racing.warnings).toEqual([
			'galactusjunior: state "Racing" (still out when the results were written): read as DNF',
		]);
	});

	it('a car that did not finish with no lap is DNS', () => {
		const dnf = state(2002604, 'DNF'); // Dams161
		const edited = once(dnf, /"Lap" : 17,(\s*"RacePosition" : 4,\s*"State" : "DNF")/u, '"Lap" : 0,$1');
		expect(ams2Reader.read(edited).entries.at(-1)).toEqual({
			name: 'Dams161',
			position: 5,
			status: 'DNS',
			totalTime: 2002.604,
			laps: 0,
			simId: 'steam:76561198038438111',
		});
	});

	it('the same driver twice (a reconnect) is one racer, the higher place kept', () => {
		const edited = once(source, /"name" : "galactusjunior",(\s*"participantid" : 17,)/u, '"name" : "RS Family",$1');
		const file = ams2Reader.read(edited);
		expect(rows(file).map(([name]) => name)).toEqual(['DragiGus', 'P1CE-Gaby', 'RS Family', 'Dams161']);
		expect(file.warnings).toEqual(['RS Family is in the results twice (a reconnect): the lower row (5) was dropped']);
	});

	it('without the comment lines (an organizer who cleaned the file) it is still detected and read', () => {
		const bare = source
			.split('\n')
			.filter((line) => !line.startsWith('//'))
			.join('\n');
		expect(rows(read(bare))).toEqual(rows(read(source)));
	});
});

describe('ams2Reader on files it cannot read as a race', () => {
	it('a truncated file, garbage after the header, JSON of another shape: ResultFileError, never a TypeError', () => {
		const source = text(PRACTICE_AND_RACE);
		expect(readError(source.slice(0, source.length / 2))).toMatch(/^the file is not complete JSON/u);
		expect(readError("// Persistent data for addon 'sms_stats', addon version 2.0\nnot json at all\n")).toMatch(
			/^the file is not complete JSON/u,
		);
		expect(readError('{"stats": {"history": 3}}')).toBe(
			'the file has no `stats.history` list: not an sms_stats results file',
		);
		expect(readError('{"stats": {"history": [{"stages": {"race1": {"results": {}}}}]}}')).toBe(
			'no race with results in the file: it holds race1 without results',
		);
		expect(readError('{"stats": {"history": []}}')).toBe('no race with results in the file: it holds no session');
	});

	it('a race whose only row has no name, id nor lap has no racer', () => {
		const history = [{ index: 7, stages: { race1: { results: [{ attributes: 3 }] } } }];
		expect(readError(JSON.stringify({ stats: { history } }))).toBe('the race (race1 of history entry 7) has no racer');
	});

	it('a row with laps but no name anywhere is kept under a stand-in name, said', () => {
		const row = { participantid: 4, refid: 9, name: ' ', attributes: { RacePosition: 1, State: 'Finished', Lap: 3 } };
		const file = ams2Reader.read(JSON.stringify({ stats: { history: [{ stages: { race1: { results: [row] } } }] } }));
		expect(file.entries).toEqual([{ name: 'unnamed car 4', position: 1, status: 'finished', laps: 3 }]);
		expect(file.warnings).toEqual(['participant 4 has no name in the results, members or participants']);
	});
});

describe('ams2Reader.detect', () => {
	it("claims none of the other formats' fixtures, nor a pasted scoreboard", () => {
		const mine = new Set(MINE);
		expectClaimsNoOther(ams2Reader, (path) => mine.has(path));
		expect(ams2Reader.detect('1. Alice 1:23.456\n2. Bob 1:24.001\n3. Carol DNF\n')).toBe(false);
	});

	it('claims every fixture of this format', () => {
		for (const path of MINE) expect([path, ams2Reader.detect(text(path))]).toEqual([path, true]);
	});
});
