import { readCsv } from './csv.js';
import type { Race } from '../ratings/types.js';

/** A CSV file read by header name, for the importers. Extra fields beyond the header are ignored. */
export interface Table {
	readonly rows: readonly { readonly line: number; get(column: string): string }[];
}

export class ImportError extends Error {
	override readonly name = 'ImportError';
}

/** Read `text` (named `file` in errors) and check it has every column of `required`. */
export function readTable(text: string, file: string, required: readonly string[]): Table {
	let rows;
	try {
		rows = readCsv(text);
	} catch (error) {
		throw new ImportError(`${file}: ${(error as Error).message}`);
	}
	const header = rows[0]?.fields.map((name) => name.trim()) ?? [];
	const index = new Map(header.map((name, i) => [name, i]));
	const missing = required.filter((name) => !index.has(name));
	if (missing.length > 0) throw new ImportError(`${file}:1: missing column(s) ${missing.join(', ')}`);
	return {
		rows: rows.slice(1).map(({ line, fields }) => ({
			line,
			get(column: string): string {
				const i = index.get(column);
				if (i === undefined) throw new ImportError(`${file}: no column ${column}`);
				const value = fields[i];
				if (value === undefined) throw new ImportError(`${file}:${line}: missing field ${column}`);
				return value;
			},
		})),
	};
}

/** What an importer returns: the races in history order, and notes on what it dropped or changed. */
export interface ImportResult {
	readonly races: Race[];
	readonly notes: readonly string[];
}
