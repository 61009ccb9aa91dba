import { readFileSync } from 'node:fs';
import { noExtraPositionals, parseCommandArgs, UsageError } from '../args.js';
import { readText, type CliCommand, type CliIo } from '../command.js';
import { writeScoreboardCsv } from '../../formats/scoreboard-csv.js';
import { parseScoreboard } from '../../formats/scoreboard.js';
import { plural } from '../../formats/plural.js';

const options = {
	known: { type: 'string' },
	input: { type: 'string' },
} as const;

/** What `pitwall scoreboard` reads besides argv: `stdin` defaults to the process's (tests pass it in). */
export interface ScoreboardIo extends CliIo {
	readonly stdin?: string;
}

/**
 * `pitwall scoreboard`: what a pasted scoreboard parses to, with the parser `/race submit` uses (issue 8 §2), so a
 * paste can be checked without Discord.
 */
export default {
	name: 'scoreboard',
	summary: 'check a pasted scoreboard: prints what /race submit would read from it',
	usage: `pitwall scoreboard [--known <names.txt>] [--input <paste.txt>] < paste.txt

Reads one race's scoreboard as an organizer would paste it into /race submit (text in any of the forms of
docs/scoreboard.md, or a CSV) and prints CSV player,position,time,status in finishing order (time in seconds,
empty when not given; status empty for a finisher). Each warning goes to stderr as "line N: …". A scoreboard that
cannot be read prints its errors ("line N: …") on stderr and exits 2.
--known names.txt: the league's players, one per line, for the "did you mean" warnings.`,
	run(argv, io: ScoreboardIo) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const knownPlayers =
			values.known === undefined
				? undefined
				: readText(values.known)
						.split(/\r\n|\r|\n/u)
						.map((name) => name.trim())
						.filter((name) => name !== '');
		const text = values.input !== undefined ? readText(values.input) : readStdin(io);
		const result = parseScoreboard(text, knownPlayers === undefined ? {} : { knownPlayers });
		if (!result.ok) {
			const lines = result.errors.map((error) => `line ${error.line}: ${error.message}\n`);
			if (result.omitted > 0) lines.push(`… and ${plural(result.omitted, 'more error')}\n`);
			io.err(lines.join(''));
			return 2;
		}
		io.out(writeScoreboardCsv(result.entries));
		io.err(result.warnings.map((warning) => `${warning}\n`).join(''));
		return 0;
	},
} satisfies CliCommand;

function readStdin(io: ScoreboardIo): string {
	if (io.stdin !== undefined) return io.stdin;
	if (process.stdin.isTTY) {
		throw new UsageError('pipe the scoreboard into stdin (pitwall scoreboard < paste.txt) or give --input <file>');
	}
	return readFileSync(0, 'utf8');
}
