import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readErgastDir } from '../../src/cli/read-ergast-dir.js';
import { parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import { importErgast } from '../../src/formats/import-ergast.js';
import { runCli } from '../cli/run-cli.js';

/** A hand-made dump: two seasons, two constructors named "Lotus", a result with no constructor (`\N`). */
const races = 'raceId,year,round,circuitId,name,date\n1,1970,1,1,"A GP","1970-03-07"\n2,1971,1,1,"B GP","1971-03-06"\n';
const drivers =
	'driverId,driverRef,number,code,forename,surname\n' +
	'1,"rindt",\\N,\\N,"Jochen","Rindt"\n2,"stewart",\\N,\\N,"Jackie","Stewart"\n3,"fittipaldi",\\N,\\N,"Emerson","Fittipaldi"\n';
const results =
	'resultId,raceId,driverId,constructorId,number,positionText,positionOrder,milliseconds\n' +
	'1,1,1,32,2,"1",1,6000000\n2,1,2,22,1,"2",2,6010000\n3,1,3,\\N,3,"R",3,\\N\n' +
	'4,2,3,32,2,"1",1,\\N\n5,2,2,25,1,"2",2,\\N\n';
const constructors =
	'constructorId,constructorRef,name,nationality,url\n' +
	'32,"team_lotus","Lotus","British",""\n22,"march","March","British",""\n25,"lotus_racing","Lotus","Malaysian",""\n';

const carsOf = (imported: ReturnType<typeof importErgast>) =>
	imported.races.map((race) => race.entries.map((e) => [e.player, e.car]));

describe('importErgast: each result’s constructor as its car', () => {
	it('names the car from constructors.csv, a shared name with its constructorRef, none where the result has none', () => {
		const imported = importErgast({ races, results, drivers, constructors });
		expect(carsOf(imported)).toEqual([
			[
				['Jochen Rindt', 'Lotus (team_lotus)'],
				['Jackie Stewart', 'March'],
				['Emerson Fittipaldi', undefined],
			],
			[
				['Emerson Fittipaldi', 'Lotus (team_lotus)'],
				['Jackie Stewart', 'Lotus (lotus_racing)'],
			],
		]);
		// An entry without a car has no car key at all (the history CSV writes it empty, reads it back as none).
		expect(Object.hasOwn(imported.races[0]!.entries[2]!, 'car')).toBe(false);
	});

	it('without constructors.csv, names each car by its constructorId, so cars still tell apart', () => {
		expect(carsOf(importErgast({ races, results, drivers }))).toEqual([
			[
				['Jochen Rindt', 'constructor 32'],
				['Jackie Stewart', 'constructor 22'],
				['Emerson Fittipaldi', undefined],
			],
			[
				['Emerson Fittipaldi', 'constructor 32'],
				['Jackie Stewart', 'constructor 25'],
			],
		]);
	});

	it('gives no car where results.csv has no constructorId column (a trimmed dump), as before cars', () => {
		const trimmed = 'resultId,raceId,driverId,positionText,positionOrder,milliseconds\n1,1,1,"1",1,\\N\n';
		const [race] = importErgast({ races, results: trimmed, drivers, constructors }).races;
		expect(race!.entries).toEqual([{ player: 'Jochen Rindt', position: 1, status: 'finished' }]);
	});

	it('refuses a constructorId that constructors.csv does not know, naming the line', () => {
		const bad = results.replace('5,2,2,25,', '5,2,2,99,');
		expect(() => importErgast({ races, results: bad, drivers, constructors })).toThrow(
			'results.csv:6: unknown constructorId 99 (not in constructors.csv)',
		);
	});

	it('round-trips the cars through the history CSV', () => {
		const imported = importErgast({ races, results, drivers, constructors }).races;
		const csv = writeHistoryCsv(imported);
		expect(csv.split('\n')[0]).toBe('race,date,player,position,time,status,car');
		expect(parseHistoryCsv(csv)).toEqual(imported);
	});
});

describe('readErgastDir and pitwall import ergast: constructors.csv read when the folder has it', () => {
	let dir: string | undefined;
	afterEach(() => {
		if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
		dir = undefined;
	});
	const folder = (withConstructors: boolean): string => {
		dir = mkdtempSync(join(tmpdir(), 'pitwall-ergast-'));
		writeFileSync(join(dir, 'races.csv'), races);
		writeFileSync(join(dir, 'results.csv'), results);
		writeFileSync(join(dir, 'drivers.csv'), drivers);
		if (withConstructors) writeFileSync(join(dir, 'constructors.csv'), constructors);
		return dir;
	};

	it('uses the names of constructors.csv when present, the ids when not', () => {
		expect(readErgastDir(folder(true)).races[0]!.entries[1]!.car).toBe('March');
		rmSync(dir!, { recursive: true, force: true });
		expect(readErgastDir(folder(false)).races[0]!.entries[1]!.car).toBe('constructor 22');
	});

	it('pitwall import ergast prints a history CSV with the car column that reads back to the same races', async () => {
		const path = folder(true);
		const { code, out } = await runCli('import', 'ergast', path);
		expect(code).toBe(0);
		expect(out).toBe(
			'race,date,player,position,time,status,car\n' +
				'1970-01 A GP,1970-03-07,Jochen Rindt,1,6000,,Lotus (team_lotus)\n' +
				'1970-01 A GP,1970-03-07,Jackie Stewart,2,6010,,March\n' +
				'1970-01 A GP,1970-03-07,Emerson Fittipaldi,3,,DNF,\n' +
				'1971-01 B GP,1971-03-06,Emerson Fittipaldi,1,,,Lotus (team_lotus)\n' +
				'1971-01 B GP,1971-03-06,Jackie Stewart,2,,,Lotus (lotus_racing)\n',
		);
		expect(parseHistoryCsv(out)).toEqual(readErgastDir(path).races);
	});
});

/** The real dump has no redistribution licence: it is read from ../shared/data/f1 beside the repository. */
const f1 = join(import.meta.dirname, '../../../shared/data/f1');
const present = existsSync(join(f1, 'results.csv'));
const withNames = existsSync(join(f1, 'constructors.csv'));

describe('the cars of the real Ergast dump (shared/data/f1)', () => {
	it.skipIf(!present)(
		'1970-2021: every entry has a car; 2021 Bahrain has the teammates of the season in one car each [needs ../shared/data/f1, not redistributable]',
		() => {
			const imported = readErgastDir(f1, { from: 1970, to: 2021 }).races;
			expect(imported.every((race) => race.entries.every((e) => e.car !== undefined))).toBe(true);
			const bahrain = imported.find((race) => race.id === '2021-01 Bahrain Grand Prix')!;
			const car = (player: string) => bahrain.entries.find((e) => e.player === player)!.car;
			// Mercedes (Hamilton, Bottas), Red Bull (Verstappen, Pérez), McLaren (Norris, Ricciardo), Ferrari (Leclerc, Sainz).
			expect(car('Lewis Hamilton')).toBe(car('Valtteri Bottas'));
			expect(car('Max Verstappen')).toBe(car('Sergio Pérez'));
			expect(car('Lando Norris')).toBe(car('Daniel Ricciardo'));
			expect(car('Charles Leclerc')).toBe(car('Carlos Sainz'));
			expect(new Set(bahrain.entries.map((e) => e.car)).size).toBe(10);
			if (!withNames) {
				// Ergast's ids: mercedes 131, red_bull 9, mclaren 1, ferrari 6 (results.csv of the dump, checked by hand).
				expect([car('Lewis Hamilton'), car('Max Verstappen'), car('Lando Norris'), car('Charles Leclerc')]).toEqual([
					'constructor 131',
					'constructor 9',
					'constructor 1',
					'constructor 6',
				]);
			}
			expect(parseHistoryCsv(writeHistoryCsv(imported))).toEqual(imported);
		},
	);

	it.skipIf(!present || !withNames)(
		'with constructors.csv, the cars are named [needs ../shared/data/f1/constructors.csv, which the stored dump lacks]',
		() => {
			const names = readFileSync(join(f1, 'constructors.csv'), 'utf8');
			expect(names).toContain('constructorRef');
			const bahrain = readErgastDir(f1, { from: 2021, to: 2021 }).races[0]!;
			expect(bahrain.entries.find((e) => e.player === 'Lewis Hamilton')!.car).toBe('Mercedes');
		},
	);
});
