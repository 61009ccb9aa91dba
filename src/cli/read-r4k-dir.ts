import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './args.js';
import { readText } from './command.js';
import type { R4kRaceFiles } from '../formats/import-r4k.js';

/**
 * The race folders of a Race for Kicks data directory (elo-zs `src/R4K/data/`): every sub-folder holding a
 * `thisrace.sb`, with its `thisrace.cfg` when there is one. Other files (PROVENANCE.md, stray .cfg) are ignored.
 */
export function readR4kDir(dir: string): R4kRaceFiles[] {
	if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory`);
	const folders = readdirSync(dir, { withFileTypes: true })
		.filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'thisrace.sb')))
		.map((entry) => entry.name)
		.sort();
	if (folders.length === 0) throw new UsageError(`${dir} has no race folder with a thisrace.sb`);
	return folders.map((folder) => {
		const cfg = join(dir, folder, 'thisrace.cfg');
		return {
			folder,
			scoreboard: readText(join(dir, folder, 'thisrace.sb')),
			config: existsSync(cfg) ? readText(cfg) : undefined,
		};
	});
}
