import { readCsv } from './csv.js';
import { ImportError, readTable, type ImportResult } from './import-table.js';
import { normalizeName } from '../league/player-names.js';
import type { RaceEntry } from '../ratings/types.js';

/** The text of the Ergast CSV dump files the importer reads. */
export interface ErgastFiles {
	readonly races: string;
	readonly results: string;
	readonly drivers: string;
	/** constructors.csv, when the dump has it: the cars' names (else each is `constructor <constructorId>`). */
	readonly constructors?: string | undefined;
}

export interface ErgastOptions {
	/** First and last season to import (inclusive); all seasons when absent. */
	readonly from?: number | undefined;
	readonly to?: number | undefined;
}

/**
 * Import Formula One results from the Ergast database dump (`f1db_csv`: races.csv, results.csv, drivers.csv, and
 * constructors.csv when present).
 *
 * - Races of the chosen seasons that have results, ordered by date then round; id `YYYY-RR Name`
 *   (e.g. `1970-01 South African Grand Prix`), date from races.csv.
 * - Every entry of a race, ordered by `positionOrder` (unique 1..n per race), which is the position written.
 *   Entries whose `positionText` is not digits (R retired, N not classified, D disqualified, E excluded,
 *   W withdrawn, F failed to qualify) get status DNF and keep that order, below every classified entry.
 * - Classified entries carry their race time (`milliseconds` / 1000) where the dump has one.
 * - Driver name `forename surname`; names shared by several drivers get ` (driverRef)` appended.
 * - Each entry's car is its constructor (results.csv `constructorId`, where the file has the column): its `name` in
 *   constructors.csv (names shared by several constructors get ` (constructorRef)`), else `constructor <id>`. In
 *   F1 the constructor is the car: what a rating of cars apart from drivers separates.
 * - A driver entered twice in one race (raceId 540, driverId 229, two failed qualifications) keeps the entry
 *   with the better positionOrder; the other is dropped and noted.
 */
export function importErgast(files: ErgastFiles, options: ErgastOptions = {}): ImportResult {
	const races = readTable(files.races, 'races.csv', ['raceId', 'year', 'round', 'name', 'date']);
	const results = readTable(files.results, 'results.csv', [
		'raceId',
		'driverId',
		'positionText',
		'positionOrder',
		'milliseconds',
	]);
	const drivers = readTable(files.drivers, 'drivers.csv', ['driverId', 'driverRef', 'forename', 'surname']);

	const driverById = new Map<string, { ref: string; name: string }>();
	for (const row of drivers.rows) {
		driverById.set(row.get('driverId'), {
			ref: row.get('driverRef'),
			name: normalizeName(`${row.get('forename')} ${row.get('surname')}`),
		});
	}
	const idsByName = new Map<string, Set<string>>();
	for (const [id, driver] of driverById) idsByName.set(driver.name, (idsByName.get(driver.name) ?? new Set()).add(id));
	const nameOf = (driverId: string, where: string): string => {
		const driver = driverById.get(driverId);
		if (!driver) throw new ImportError(`${where}: unknown driverId ${driverId}`);
		return idsByName.get(driver.name)!.size > 1 ? `${driver.name} (${driver.ref})` : driver.name;
	};

	const carOf = hasColumn(files.results, 'constructorId') ? constructorNames(files.constructors) : undefined;

	interface RaceInfo {
		readonly id: string;
		readonly date: string;
		readonly round: number;
		readonly results: { order: number; driverId: string; entry: RaceEntry }[];
	}
	const raceById = new Map<string, RaceInfo>();
	for (const row of races.rows) {
		const year = Number(row.get('year'));
		if ((options.from !== undefined && year < options.from) || (options.to !== undefined && year > options.to))
			continue;
		const round = Number(row.get('round'));
		raceById.set(row.get('raceId'), {
			id: `${year}-${String(round).padStart(2, '0')} ${row.get('name').trim()}`,
			date: row.get('date'),
			round,
			results: [],
		});
	}

	for (const row of results.rows) {
		const race = raceById.get(row.get('raceId'));
		if (!race) continue;
		const where = `results.csv:${row.line}`;
		const order = Number(row.get('positionOrder'));
		if (!Number.isInteger(order) || order < 1) throw new ImportError(`${where}: bad positionOrder`);
		const classified = /^\d+$/.test(row.get('positionText'));
		const ms = row.get('milliseconds');
		const car = carOf?.(row.get('constructorId'), where);
		const entry: RaceEntry = {
			player: nameOf(row.get('driverId'), where),
			position: order,
			...(classified && /^\d+$/.test(ms) && { time: Number(ms) / 1000 }),
			status: classified ? 'finished' : 'DNF',
			...(car !== undefined && { car }),
		};
		race.results.push({ order, driverId: row.get('driverId'), entry });
	}

	const notes: string[] = [];
	const imported = [...raceById]
		.filter(([, race]) => race.results.length > 0)
		.sort(([, a], [, b]) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.round - b.round))
		.map(([raceId, race]) => {
			race.results.sort((a, b) => a.order - b.order);
			const seen = new Map<string, number>();
			const entries: RaceEntry[] = [];
			for (const { order, driverId, entry } of race.results) {
				const kept = seen.get(driverId);
				if (kept !== undefined) {
					notes.push(
						`raceId ${raceId} (${race.id}): ${entry.player} entered twice; kept positionOrder ${kept}, dropped ${order}`,
					);
					continue;
				}
				seen.set(driverId, order);
				entries.push(entry);
			}
			return { id: race.id, date: race.date, entries };
		});
	return { races: imported, notes };
}

/** Whether the CSV's header names `column` (an optional column: readTable's rows throw on a column it lacks). */
function hasColumn(text: string, column: string): boolean {
	const end = text.search(/\r?\n/u);
	const header = readCsv(end === -1 ? text : text.slice(0, end))[0]?.fields ?? [];
	return header.some((name) => name.trim() === column);
}

/**
 * The car's name of a results.csv `constructorId` (`\N` or empty: none): constructors.csv's `name`, a name shared by
 * several constructors with ` (constructorRef)`; without the file, `constructor <id>`, so the cars still tell apart.
 */
function constructorNames(text: string | undefined): (constructorId: string, where: string) => string | undefined {
	const byId = new Map<string, { ref: string; name: string }>();
	if (text !== undefined) {
		const table = readTable(text, 'constructors.csv', ['constructorId', 'constructorRef', 'name']);
		for (const row of table.rows) {
			byId.set(row.get('constructorId'), { ref: row.get('constructorRef'), name: normalizeName(row.get('name')) });
		}
	}
	const uses = new Map<string, number>();
	for (const { name } of byId.values()) uses.set(name, (uses.get(name) ?? 0) + 1);
	return (id, where) => {
		const trimmed = id.trim();
		if (trimmed === '' || trimmed === '\\N') return undefined;
		if (text === undefined) return `constructor ${trimmed}`;
		const constructor = byId.get(trimmed);
		if (constructor === undefined)
			throw new ImportError(`${where}: unknown constructorId ${trimmed} (not in constructors.csv)`);
		if (constructor.name === '') return `constructor ${trimmed}`;
		return uses.get(constructor.name)! > 1 ? `${constructor.name} (${constructor.ref})` : constructor.name;
	};
}
