/**
 * F1 from the Ergast dump beside the project (../shared/data/f1: not redistributed with pitwall, so a bench skips it,
 * saying why, where it is absent), as races, for the benches that score predictions on it.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readErgastDir } from '../src/cli/read-ergast-dir.js';
import type { Race } from '../src/ratings/types.js';

export const F1_DIR = fileURLToPath(new URL('../../shared/data/f1/', import.meta.url));

/** The message a bench prints where the dump is absent. */
export const F1_ABSENT = `${F1_DIR} is absent (the Ergast dump is not redistributed with pitwall)`;

/** F1's races of the seasons `from`..`to`, or undefined when the dump is absent. */
export function f1Races(from = 1970, to = 2021): Race[] | undefined {
	if (!existsSync(`${F1_DIR}results.csv`)) return undefined;
	return readErgastDir(F1_DIR, { from, to }).races;
}
