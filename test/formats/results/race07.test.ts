/**
 * The RACE 07 / GTR 2 text reader (src/formats/results/race07.ts) on real files, read as bytes and decoded as the bot
 * does. Fixtures and their sources: test/fixtures/results/mauserrifle-simresults/PROVENANCE.md.
 *
 * How the expected rows were checked: each file's slots were listed by hand (awk printing Driver, Laps, RaceTime,
 * SteamId, Team per [SlotNNN]) and sorted with `sort -t'|' -k2,2nr -k3,3` (laps, then race time); cars with
 * RaceTime DNF come after the finishers by laps, a DNF with no lap is DNS. Race times were read digit for digit
 * (0:20:33.872 is 1233.872 s); Steam ids are 76561197960265728 + the file's SteamId, added with python.
 */
import { describe, expect, it } from 'vitest';
import { race07Reader } from '../../../src/formats/results/race07.js';
import type { ResultEntry, ResultFile } from '../../../src/formats/results/types.js';
import {
	decodedFixture as decoded,
	expectClaimsNoOther,
	field,
	fixtureText as text,
	readClaimed,
	readErrorMessage,
	rows,
} from './support.js';

const SIMRESULTS = 'mauserrifle-simresults';
const RACE1 = `${SIMRESULTS}/race07/1h-Racer_2010_09_20_22_37_09_Race1.txt`;
const CLIO_RACE2 = `${SIMRESULTS}/race07/prosracing Clio Cup_2013_02_12_22_06_19_Race2.txt`;
const CLIO_QUALIFY = `${SIMRESULTS}/race07/SPEEDV CLIO T2 2013_2013_07_16_22_18_32_Qualify.txt`;
const GTR2 = `${SIMRESULTS}/gtr2/GTRSpain_2011_04_27_20_11_02_UNIDO.txt`;
const RACEROOM_TEXT = `${SIMRESULTS}/raceroom/race3.txt`;
const MINE = [RACE1, CLIO_RACE2, CLIO_QUALIFY, GTR2, RACEROOM_TEXT];

const read = (source: string): ResultFile => readClaimed(race07Reader, source);

const readError = (source: string): string => readErrorMessage(race07Reader, source);

describe('race07Reader on real files', () => {
	it('RACE 07 1h-Racer Race1: twelve finishers on the same lap, slots out of order (every field)', () => {
		// Team=TEMPLATE_TEAM (the game's placeholder) for Applemint and sato: no team.
		const finished = (
			name: string,
			position: number,
			totalTime: number,
			steam: string,
			car: string,
			team?: string,
		): ResultEntry => ({
			name,
			position,
			status: 'finished',
			totalTime,
			laps: 9,
			simId: `steam:${steam}`,
			...(team !== undefined && { team }),
			car,
		});
		expect(read(text(RACE1))).toEqual({
			format: 'race07',
			formatName: 'RACE 07 text results',
			track: 'Sepang', // Scene=GameData\LOCATIONS\Sepang\Sepang.TRK
			date: '2010-09-20',
			entries: [
				finished('zaurus_jr', 1, 1233.872, '76561197980768687', 'Honda Accord R 2008', 'N. Technology'),
				finished('nawo', 2, 1246.821, '76561197986545594', 'AUDI A4', 'Audi Nagatanien Racing'),
				finished('Applemint', 3, 1246.971, '76561197978841645', 'Honda Accord R 2007'),
				finished('sato', 4, 1248.937, '76561197990049869', 'Honda Accord R 2007'),
				finished('Ozzy-JPN-', 5, 1254.498, '76561197987411752', 'Volvo C30 2008', 'Volvo Olsbergs Green Racing'),
				finished('oron', 6, 1259.929, '76561197981159312', 'SEAT Leon 2.0 TDI', 'Consadole Racing'),
				finished('taka&tomo', 7, 1265.578, '76561197978878916', 'Chevrolet Lacetti', 'Maurer Motorsport'),
				finished('jetro', 8, 1270.077, '76561197980398965', 'Honda Accord R 2007', 'StudieGladRacing'),
				finished('DANKE', 9, 1271.75, '76561197981353083', 'BMW 320si E90 Seq STCC', 'Elgh Motorsport'),
				finished('ebitorium', 10, 1271.826, '76561197987738806', 'Chevrolet Lacetti 2007', 'Chevrolet'),
				finished('buriburi', 11, 1273.069, '76561197980627563', 'Volvo C30 2008', 'Volvo Olsbergs Green Racing'),
				finished('satopon', 12, 1295.108, '76561197985585365', 'Honda Accord R 2007', 'Golden Motors'),
			],
			warnings: [],
		} satisfies ResultFile);
	});

	it('RACE 07 Clio Cup Race2: gMotor comment lines, CRLF, DNFs by laps, a DNF with no lap is DNS', () => {
		// Slot019 Seb63 (Laps=0, RaceTime=DNF) and Slot005 [PRG]flashdepau (3 laps) come first in the file, with
		// SteamId=Unknown; Reason=0/1/4/6 of the DNFs is a number the file does not explain: not read.
		const file = read(text(CLIO_RACE2));
		expect(file.formatName).toBe('RACE 07 text results');
		expect(file.track).toBe('Monza 2007');
		expect(file.date).toBe('2013-02-12');
		expect(rows(file)).toEqual([
			['[PRG]Yozeze34', 1, 'finished', 1542.968, 12],
			['[PRG]fuzbass', 2, 'finished', 1553.168, 12],
			['[PRG]damien', 3, 'finished', 1553.35, 12],
			['[GTR-O]totomms', 4, 'finished', 1553.711, 12],
			['[PRG] Sebastien', 5, 'finished', 1554.899, 12],
			['joekart', 6, 'finished', 1556.318, 12],
			['lemans', 7, 'finished', 1567.644, 12],
			['[GTR-O]Billou', 8, 'finished', 1570.091, 12],
			['[PRG]Fabiensky', 9, 'finished', 1570.66, 12],
			['[PRG]Pilototo', 10, 'finished', 1581.274, 12],
			['Michel', 11, 'finished', 1587.394, 12],
			['[PRG]sparcal', 12, 'finished', 1591.799, 12],
			['stefb', 13, 'finished', 1600.987, 12],
			['[GTR-O]Shiryu', 14, 'finished', 1603.104, 12],
			['[PRG]felagund', 15, 'finished', 1612.395, 12],
			['ormec83', 16, 'finished', 1628.136, 12],
			['[PRG] lajo64', 17, 'DNF', undefined, 10],
			['spaxxy', 18, 'DNF', undefined, 8],
			['[GTR-O]Stef63', 19, 'DNF', undefined, 7],
			['[PRG]flashdepau', 20, 'DNF', undefined, 3],
			['Seb63', 21, 'DNS', undefined, 0],
		]);
		const ids = field(file, 'simId');
		expect(Object.keys(ids)).toHaveLength(19);
		expect(ids).toMatchObject({
			'[PRG]Yozeze34': 'steam:76561197994343355', // SteamId=34077627
			'[PRG]fuzbass': 'steam:76561197993916346', // SteamId=33650618
		});
		expect(ids['Seb63']).toBeUndefined();
		expect(field(file, 'team')).toMatchObject({ Seb63: 'Team Speed Car', '[PRG]flashdepau': 'flash racing' });
		expect(field(file, 'team')['[GTR-O]totomms']).toBeUndefined(); // Team= (empty)
		expect(file.warnings).toEqual([]);
	});

	it('a qualifying file (nobody has a race time) is a ResultFileError; this one is Windows-1252', () => {
		// Every RaceTime is DNF or 0:00:00.000; "Team=MOT\xd6RHEAD RACING TEAM" is a Windows-1252 byte.
		const bytes = decoded(CLIO_QUALIFY);
		expect(bytes.encoding).toBe('windows-1252');
		expect(bytes.text).toContain('Team=MOTÖRHEAD RACING TEAM');
		expect(race07Reader.detect(bytes.text)).toBe(true);
		expect(readError(bytes.text)).toBe(
			'no race in the file: none of its 20 drivers has a race time (RaceTime is DNF or 0:00:00.000), ' +
				'so it is a qualifying or practice session',
		);
	});

	it('a GTR 2 practice file (Lobby Username, every RaceTime DNF) is a ResultFileError', () => {
		expect(race07Reader.detect(text(GTR2))).toBe(true);
		expect(readError(text(GTR2))).toBe(
			'no race in the file: none of its 22 drivers has a race time (RaceTime is DNF or 0:00:00.000), ' +
				'so it is a qualifying or practice session',
		);
	});

	it("RaceRoom's offline text results (the same blocks, sessions written over each other) are refused", () => {
		expect(race07Reader.detect(text(RACEROOM_TEXT))).toBe(true);
		expect(readError(text(RACEROOM_TEXT))).toMatch(/^RaceRoom's own text results \(offline races\) are not read/u);
	});
});

describe('race07Reader on edited real files (one thing changed each)', () => {
	const source = text(CLIO_RACE2);
	const once = (from: string, find: string, to: string): string => {
		expect(from.split(find)).toHaveLength(2);
		return from.replace(find, to);
	};

	it('RaceTime DQ is DSQ, placed after everyone, with the penalty word', () => {
		const file = race07Reader.read(once(source, 'RaceTime=0:26:07.644', 'RaceTime=DQ')); // lemans
		expect(file.entries.at(-1)).toEqual({
			name: 'lemans',
			position: 21,
			status: 'DSQ',
			laps: 12,
			simId: 'steam:76561197996046096',
			team: 'New Deal Racing',
			car: 'Renault Sport Clio CUP France 2008',
			penalties: ['disqualified'],
		});
		expect(file.entries.at(-2)).toMatchObject({ name: 'Seb63', position: 20, status: 'DNS' });
	});

	it('a negative race time (the driver left before the finish) is DNF, said with its line', () => {
		const file = race07Reader.read(once(source, 'RaceTime=0:27:08.136', 'RaceTime=-0:00:01.000')); // ormec83
		expect(file.entries.find((e) => e.name === 'ormec83')).toMatchObject({ position: 16, status: 'DNF', laps: 12 });
		expect(file.warnings).toEqual(['line 84: ormec83: RaceTime "-0:00:01.000" is no race time: read as DNF']);
	});

	it('the same Steam id in two slots (a reconnect) is one racer, the better placed kept', () => {
		const file = race07Reader.read(once(source, 'SteamId=54023339', 'SteamId=35780593')); // spaxxy → ormec83's
		expect(file.entries.map((e) => e.name)).not.toContain('spaxxy');
		expect(file.warnings).toEqual(['spaxxy has two slots (a reconnect): the one placed 18 was dropped']);
	});
});

describe('race07Reader on two real files joined (a qualifying then a race, each ended by [END])', () => {
	it('reads the last session that has slots, said', () => {
		const file = race07Reader.read(`${text(CLIO_QUALIFY)}${text(CLIO_RACE2)}`);
		expect(rows(file)).toEqual(rows(race07Reader.read(text(CLIO_RACE2))));
		expect(file.date).toBe('2013-07-16'); // the first [Header]'s TimeString
		expect(file.warnings).toEqual(['the file holds 2 sessions (blocks ended by [END]): the last one was read']);
	});
});

describe('race07Reader on files it cannot read', () => {
	it('a file cut after the header, or with only empty slots: ResultFileError, never a TypeError', () => {
		const source = text(RACE1);
		expect(readError(source.slice(0, source.indexOf('[Slot000]')))).toBe('the file has no [SlotNNN] block: no driver');
		expect(readError('[Header]\nGame=RACE 07\n[Slot000]\nDriver=\nLaps=0\n[END]\n')).toBe(
			'every slot of the file is empty: no driver',
		);
	});
});

describe('race07Reader.detect', () => {
	it("claims none of the other formats' fixtures, nor a pasted scoreboard", () => {
		const mine = new Set(MINE);
		expectClaimsNoOther(race07Reader, (path) => mine.has(path));
		expect(race07Reader.detect('1. Alice 1:23.456\n2. Bob 1:24.001\n3. Carol DNF\n')).toBe(false);
	});

	it('claims every fixture of this format', () => {
		for (const path of MINE) expect([path, race07Reader.detect(text(path))]).toEqual([path, true]);
	});
});
