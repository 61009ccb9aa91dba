import { readFileSync } from 'node:fs';
import { noExtraPositionals, parseCommandArgs, UsageError } from '../args.js';
import { readText, type CliCommand, type CliIo } from '../command.js';
import { csvLine } from '../../formats/csv.js';
import { writeScoreboardCsv } from '../../formats/scoreboard-csv.js';
import { plural } from '../../formats/plural.js';
import { readRaceFile } from '../../formats/results/read-file.js';
import type { ResultRacer } from '../../formats/results/to-scoreboard.js';
import { ResultFileError } from '../../formats/results/types.js';
import type { ScoreboardResult } from '../../formats/scoreboard.js';
import { placeOf } from '../../formats/scoreboard-line.js';

const options = {
	known: { type: 'string' },
	input: { type: 'string' },
	class: { type: 'string' },
} as const;

/** What `pitwall scoreboard` reads besides argv: `stdin` defaults to the process's (tests pass it in). */
export interface ScoreboardIo extends CliIo {
	readonly stdin?: string | Uint8Array;
}

/**
 * `pitwall scoreboard`: what a pasted scoreboard or a sim's result file reads as, through the one reader the bot uses
 * (src/formats/results/read-file.ts: the same bytes, the same encoding rules, the same classification), so a file
 * can be checked without Discord.
 */
export default {
	name: 'scoreboard',
	summary: "check a scoreboard or a sim's result file: prints what /race submit would read from it",
	usage: `pitwall scoreboard [--known <names.txt>] [--class <name>] [--input <file>] < file

Reads one race as /race submit reads it: a sim's result file (ACC, AC, rFactor 2 / LMU, AMS 1 and 2, RaceRoom,
RACE 07, iRacing CSV and JSON, Mario Kart lounge tables, copied classifications: docs/result-files.md) or a
scoreboard (text in any of the forms of docs/scoreboard.md, or a CSV). Prints CSV player,position,time,status in
finishing order (time: total race time in seconds for finishers on the winner's lap, else empty; status empty for a
finisher, else DNF, DNS or DSQ); for a result file also class,car,laps,sim_id,penalty. What the file was read as and
each warning go to stderr. A file that cannot be read prints its errors on stderr and exits 2.
--known names.txt: the league's players, one per line, for the "did you mean" warnings.
--class NAME: of a multi-class result file, the one class, placed by class position.`,
	run(argv, io: ScoreboardIo) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const knownPlayers =
			values.known === undefined
				? []
				: readText(values.known)
						.split(/\r\n|\r|\n/u)
						.map((name) => name.trim())
						.filter((name) => name !== '');
		const bytes = values.input !== undefined ? readBytes(values.input) : readStdin(io);
		let reading;
		try {
			reading = readRaceFile(bytes, { knownPlayers, carClass: values.class, fileName: values.input });
		} catch (error) {
			if (!(error instanceof ResultFileError)) throw error;
			io.err(`${error.message}\n`);
			return 2;
		}
		if (reading.kind === 'scoreboard') {
			if (values.class !== undefined) throw new UsageError('--class is for a sim result file with classes');
			return printScoreboard(reading.result, io, () =>
				writeScoreboardCsv(reading.result.ok ? reading.result.entries : []),
			);
		}
		const { file, board } = reading;
		const session = file.session !== undefined ? `, ${file.session}` : '';
		io.err(`read as ${file.formatName}${session}\n`);
		return printScoreboard(board.result, io, () => resultCsv(board.racers));
	},
} satisfies CliCommand;

function printScoreboard(result: ScoreboardResult, io: CliIo, csv: () => string): number {
	if (!result.ok) {
		const lines = result.errors.map((error) => `${placeOf(error)}: ${error.message}\n`);
		if (result.omitted > 0) lines.push(`… and ${plural(result.omitted, 'more error')}\n`);
		io.err(lines.join(''));
		return 2;
	}
	io.out(csv());
	io.err(result.warnings.map((warning) => `${warning}\n`).join(''));
	return 0;
}

/** The scoreboard's four columns, then what the result file says of each racer. */
function resultCsv(racers: readonly ResultRacer[]): string {
	const rows = ['player,position,time,status,class,car,laps,sim_id,penalty'];
	for (const { entry, from } of racers) {
		rows.push(
			csvLine([
				entry.player,
				String(entry.position),
				entry.time === undefined ? '' : String(entry.time),
				entry.status === 'finished' ? '' : entry.status,
				from.carClass ?? '',
				entry.car ?? '',
				from.laps === undefined ? '' : String(from.laps),
				from.simId ?? '',
				(from.penalties ?? []).join('; '),
			]),
		);
	}
	return rows.map((row) => `${row}\n`).join('');
}

function readBytes(path: string): Uint8Array {
	try {
		return readFileSync(path);
	} catch (error) {
		throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
	}
}

function readStdin(io: ScoreboardIo): Uint8Array {
	if (io.stdin !== undefined) return typeof io.stdin === 'string' ? new TextEncoder().encode(io.stdin) : io.stdin;
	if (process.stdin.isTTY) {
		throw new UsageError('pipe the scoreboard into stdin (pitwall scoreboard < paste.txt) or give --input <file>');
	}
	return readFileSync(0);
}
