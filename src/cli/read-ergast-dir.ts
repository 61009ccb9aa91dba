import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readText } from './command.js';
import { importErgast, type ErgastOptions } from '../formats/import-ergast.js';
import type { ImportResult } from '../formats/import-table.js';

/**
 * The Ergast (F1) `f1db_csv` dump in `dir` (races.csv, results.csv, drivers.csv; constructors.csv when it is there,
 * for the cars' names) as races of the seasons asked.
 */
export function readErgastDir(dir: string, years: ErgastOptions = {}): ImportResult {
	const file = (name: string): string => readText(join(dir, name));
	const constructors = join(dir, 'constructors.csv');
	return importErgast(
		{
			races: file('races.csv'),
			results: file('results.csv'),
			drivers: file('drivers.csv'),
			...(existsSync(constructors) && { constructors: readText(constructors) }),
		},
		years,
	);
}
