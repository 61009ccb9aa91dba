/**
 * Where the scripts find the histories that are not checked in (the Ergast F1 dump): `../shared/data/` beside the
 * project, as a fresh clone with the shared folder next to it has them (CI too). Resolved from the script's location,
 * not the working directory or one machine's absolute path.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The F1 f1db_csv folder beside the project: `<root>/../shared/data/f1`. */
export const defaultF1Dir = (root: string): string => join(root, '..', 'shared', 'data', 'f1');

/** The files a f1db_csv folder must hold for readErgastDir. */
export const F1_FILES = ['races.csv', 'results.csv', 'drivers.csv'] as const;

/** Why F1 is skipped at `dir`, and how to give it: the folder is missing, or holds only some of the files. */
export function f1SkippedText(dir: string, cwd: string = process.cwd()): string {
	const shown = relative(cwd, dir) || '.';
	const missing = F1_FILES.filter((file) => !existsSync(join(dir, file)));
	const what = existsSync(dir)
		? `${shown} lacks ${missing.join(', ')} (the Ergast f1db_csv dump)`
		: `${shown} does not exist (the Ergast f1db_csv dump; by default ../shared/data/f1 beside the project)`;
	return `F1 skipped: ${what}. Give the folder with --f1 <f1db_csv dir>.`;
}
