import { HistoryCsvError, parseHistoryCsv } from './history-csv.js';
import { importErgast } from './import-ergast.js';
import { ImportError } from './import-table.js';
import { utf16WithoutBomProblem } from './text-problems.js';
import { importZakstunts } from './import-zakstunts.js';
import type { Race } from '../ratings/types.js';

/**
 * What `/league import` reads: a history CSV, a ZakStunts race-positions CSV, or the Ergast F1 dump
 * (results.csv with its races.csv and drivers.csv). The format is told by the first file's header, so the organizer
 * has nothing to choose. The readers are the CLI's (`pitwall import`).
 */

export type LeagueFileFormat = 'history' | 'zakstunts' | 'ergast';

export interface NamedText {
	readonly name: string;
	readonly text: string;
}

export interface LeagueFileInput {
	/** The history CSV, the ZakStunts CSV or Ergast's results.csv. */
	readonly file: NamedText;
	/** Ergast only: races.csv and drivers.csv. */
	readonly races?: NamedText | undefined;
	readonly drivers?: NamedText | undefined;
	/** Ergast only: first and last season (inclusive). */
	readonly from?: number | undefined;
	readonly to?: number | undefined;
}

export interface LeagueFile {
	readonly format: LeagueFileFormat;
	/** Races in rating order, ids as in the file, players by name. */
	readonly races: readonly Race[];
	/** What was dropped or is worth a look (rows dropped, back-dated races), each naming its file and line. */
	readonly warnings: readonly string[];
}

/** A file that cannot be imported: the message names the file and line and says what is wrong. */
export class LeagueFileError extends Error {
	override readonly name = 'LeagueFileError';
}

/** The first line's column names, trimmed (a byte-order mark and quotes removed). */
function headerOf(text: string): string[] {
	const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
	return first.split(',').map((name) => name.trim().replace(/^"|"$/g, ''));
}

export function formatOf(text: string): LeagueFileFormat {
	const header = headerOf(text);
	if (header.includes('Track') && header.includes('Racer') && header.includes('Rank')) return 'zakstunts';
	if (header.includes('raceId') && header.includes('driverId') && header.includes('positionOrder')) return 'ergast';
	return 'history';
}

export function readLeagueFile(input: LeagueFileInput): LeagueFile {
	const encoding = utf16WithoutBomProblem(input.file.text);
	if (encoding !== undefined) throw new LeagueFileError(`${input.file.name}: ${encoding}`);
	const format = formatOf(input.file.text);
	const ergastOnly = input.races ?? input.drivers ?? input.from ?? input.to;
	if (format !== 'ergast' && ergastOnly !== undefined) {
		throw new LeagueFileError(
			`${input.file.name} is a ${format === 'history' ? 'history' : 'ZakStunts'} CSV: the races and drivers files and the seasons are for Ergast's results.csv only`,
		);
	}
	try {
		switch (format) {
			case 'history': {
				const warnings: string[] = [];
				const races = parseHistoryCsv(input.file.text, input.file.name, (w) => warnings.push(w));
				return { format, races, warnings };
			}
			case 'zakstunts': {
				const result = importZakstunts(input.file.text, input.file.name);
				return { format, races: result.races, warnings: result.notes };
			}
			case 'ergast': {
				if (input.races === undefined || input.drivers === undefined) {
					throw new LeagueFileError(
						`${input.file.name} is Ergast's results.csv: attach races.csv and drivers.csv from the same dump too`,
					);
				}
				if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
					throw new LeagueFileError(`the first season ${input.from} is after the last ${input.to}`);
				}
				const result = importErgast(
					{ results: input.file.text, races: input.races.text, drivers: input.drivers.text },
					{ from: input.from, to: input.to },
				);
				return { format, races: result.races, warnings: result.notes };
			}
		}
	} catch (error) {
		if (error instanceof HistoryCsvError || error instanceof ImportError) throw new LeagueFileError(error.message);
		throw error;
	}
}
