import { ImportError, readTable, type ImportResult } from './import-table.js';
import { normalizeName } from '../league/player-names.js';
import type { RaceEntry } from '../ratings/types.js';

/** The text of the Ergast CSV dump files the importer reads. */
export interface ErgastFiles {
	readonly races: string;
	readonly results: string;
	readonly drivers: string;
}

export interface ErgastOptions {
	/** First and last season to import (inclusive); all seasons when absent. */
	readonly from?: number | undefined;
	readonly to?: number | undefined;
}

/**
 * Import Formula One results from the Ergast database dump (`f1db_csv`: races.csv, results.csv, drivers.csv).
 *
 * - Races of the chosen seasons that have results, ordered by date then round; id `YYYY-RR Name`
 *   (e.g. `1970-01 South African Grand Prix`), date from races.csv.
 * - Every entry of a race, ordered by `positionOrder` (unique 1..n per race), which is the position written.
 *   Entries whose `positionText` is not digits (R retired, N not classified, D disqualified, E excluded,
 *   W withdrawn, F failed to qualify) get status DNF and keep that order, below every classified entry.
 * - Classified entries carry their race time (`milliseconds` / 1000) where the dump has one.
 * - Driver name `forename surname`; names shared by several drivers get ` (driverRef)` appended.
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
		const entry: RaceEntry = {
			player: nameOf(row.get('driverId'), where),
			position: order,
			...(classified && /^\d+$/.test(ms) && { time: Number(ms) / 1000 }),
			status: classified ? 'finished' : 'DNF',
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
