/**
 * TAB on an attachment option (`file:` of /race submit): the paths that start with what was typed, relative to the
 * working directory as the line parser reads them. Folders end in `/` so TAB can go on into them; hidden entries only
 * when a `.` was typed. An unreadable folder gives no paths.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';

export const MAX_PATHS = 100;

export function pathChoices(typed: string, cwd = process.cwd()): string[] {
	const cut = typed.lastIndexOf('/') + 1;
	const folder = typed.slice(0, cut);
	const start = typed.slice(cut);
	let entries;
	try {
		entries = readdirSync(resolve(cwd, folder === '' ? '.' : folder), { withFileTypes: true });
	} catch {
		return [];
	}
	return entries
		.filter((entry) => entry.name.startsWith(start) && (start.startsWith('.') || !entry.name.startsWith('.')))
		.map((entry) => `${folder}${entry.name}${entry.isDirectory() ? '/' : ''}`)
		.sort()
		.slice(0, MAX_PATHS);
}
