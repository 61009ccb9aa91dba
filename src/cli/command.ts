import { readFileSync } from 'node:fs';
import { asOfArg, UsageError } from './args.js';
import { happenedBy } from '../league/standings.js';
import { parseHistoryCsv } from '../formats/history-csv.js';
import { inRatingOrder } from '../league/rating-order.js';
import type { Race } from '../ratings/types.js';

/** Where a command writes: captured in tests, process streams in the real CLI. */
export interface CliIo {
	out(text: string): void;
	err(text: string): void;
}

/** One `pitwall <name>` subcommand; its module default-exports it. */
export interface CliCommand {
	readonly name: string;
	/** One line for the command list. */
	readonly summary: string;
	/** Synopsis and options, printed with --help and after a usage error. */
	readonly usage: string;
	/** Runs the command; returns the exit code. Throws UsageError / HistoryCsvError / ParamError for exit 2. */
	run(argv: readonly string[], io: CliIo): number | Promise<number>;
}

/** Read a text file; a missing or unreadable file is a usage error. */
export function readText(path: string): string {
	try {
		return readFileSync(path, 'utf8');
	} catch (error) {
		throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}
}

/**
 * Read and validate a history CSV (HistoryCsvError names `path:line`); warnings go to `io.err`, one a line. The races
 * come in rating order (rating-order.ts: by date, the file's order within a date), as the bot rates a league.
 */
export function loadHistory(path: string, io?: CliIo): Race[] {
	return inRatingOrder(parseHistoryCsv(readText(path), path, (warning) => io?.err(`warning: ${warning}\n`)));
}

/**
 * A history CSV as of a day: the races dated on or before `--as-of` (default: the latest race date) and
 * the undated ones, with that day (undefined when no race is dated: nothing grows).
 */
export function loadHistoryAsOf(
	path: string,
	asOfValue: string | undefined,
	io?: CliIo,
): { races: Race[]; asOf: string | undefined } {
	const history = loadHistory(path, io);
	const asOf = asOfArg(asOfValue, history);
	return { races: asOf === undefined ? history : history.filter((race) => happenedBy(race, asOf)), asOf };
}

/** Numbers at full double precision: String(x) round-trips every double. */
export function num(value: number | undefined | null): string {
	return value === undefined || value === null ? '' : String(value);
}
