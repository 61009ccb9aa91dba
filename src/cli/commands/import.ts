import { noExtraPositionals, parseCommandArgs, UsageError } from '../args.js';
import { readText, type CliCommand } from '../command.js';
import { writeHistoryCsv } from '../../formats/history-csv.js';
import { importR4k } from '../../formats/import-r4k.js';
import type { ImportResult } from '../../formats/import-table.js';
import { importZakstunts } from '../../formats/import-zakstunts.js';
import { readErgastDir } from '../read-ergast-dir.js';
import { readR4kDir } from '../read-r4k-dir.js';

const options = {
	from: { type: 'string' },
	to: { type: 'string' },
} as const;

function yearArg(name: string, value: string | undefined): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d{4}$/.test(value)) throw new UsageError(`--${name} must be a year (YYYY), got "${value}"`);
	return Number(value);
}

export default {
	name: 'import',
	summary: 'convert a ZakStunts, Ergast (F1) or Race for Kicks results dump to a history CSV',
	usage: `pitwall import zakstunts <zakstunts-race-positions.csv>
pitwall import ergast <f1db_csv dir> [--from YEAR] [--to YEAR]
pitwall import r4k <dir of race folders, each with thisrace.sb and thisrace.cfg>

Prints the history CSV on stdout and a summary (and what was dropped) on stderr.`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals, 2);
		const [source, path] = positionals;
		if (source === undefined || path === undefined)
			throw new UsageError('expected a source (zakstunts, ergast or r4k) and a path');
		if ((source === 'zakstunts' || source === 'r4k') && (values.from !== undefined || values.to !== undefined))
			throw new UsageError('--from/--to apply to ergast only');
		let result: ImportResult;
		if (source === 'zakstunts') {
			result = importZakstunts(readText(path), path);
		} else if (source === 'r4k') {
			result = importR4k(readR4kDir(path));
		} else if (source === 'ergast') {
			const from = yearArg('from', values.from);
			const to = yearArg('to', values.to);
			if (from !== undefined && to !== undefined && from > to)
				throw new UsageError(`--from ${from} is after --to ${to}`);
			result = readErgastDir(path, { from, to });
		} else {
			throw new UsageError(`unknown source "${source}"; known: zakstunts, ergast, r4k`);
		}
		io.out(writeHistoryCsv(result.races));
		const entries = result.races.reduce((sum, race) => sum + race.entries.length, 0);
		const players = new Set(result.races.flatMap((race) => race.entries.map((entry) => entry.player))).size;
		for (const note of result.notes) io.err(`${note}\n`);
		io.err(`imported ${result.races.length} races, ${entries} entries, ${players} players\n`);
		return 0;
	},
} satisfies CliCommand;
