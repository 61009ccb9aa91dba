/**
 * The console's line history on a terminal, kept across runs in a plain file (data/console-history by default):
 * one line per entry, oldest first, capped at `max` entries. readline holds it newest first.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const HISTORY_SIZE = 500;

/** The saved history, newest first as readline's `history` option wants it; none when the file is missing. */
export function loadHistory(file: string, max = HISTORY_SIZE): string[] {
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	return text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.slice(-max)
		.reverse();
}

/**
 * Writes readline's history (newest first) oldest first, keeping the newest `max` entries. A completed word leaves
 * a trailing space (`/about `): it is dropped, so the file holds the commands as one would type them.
 */
export function saveHistory(file: string, history: readonly string[], max = HISTORY_SIZE): void {
	mkdirSync(dirname(file), { recursive: true });
	const lines = history
		.slice(0, max)
		.map((line) => line.trimEnd())
		.reverse();
	writeFileSync(file, lines.length > 0 ? `${lines.join('\n')}\n` : '');
}
