import { readFileSync } from 'node:fs';
import { noExtraPositionals, parseCommandArgs, UsageError } from '../args.js';
import { readText, type CliCommand, type CliIo } from '../command.js';
import { GamesInputError, parseGames, parseGamesCompat, ReferenceCrash } from '../../ratings/relrank/games.js';
import {
	referenceParams,
	relrank,
	relrankParams,
	RelrankError,
	type ReferenceEnv,
	type RelrankParams,
} from '../../ratings/relrank/relrank.js';

const options = {
	prec: { type: 'string' },
	relsteps: { type: 'string' },
	relrel: { type: 'string' },
	'scale-max': { type: 'string' },
	round: { type: 'string' },
	input: { type: 'string' },
	compat: { type: 'boolean' },
} as const;

/**
 * What `pitwall relrank` reads besides argv. `stdin` and `env` default to the process's (tests pass them in).
 * `env` is only read with `--compat`.
 */
export interface RelrankIo extends CliIo {
	readonly stdin?: string;
	readonly env?: Readonly<Record<string, string | undefined>>;
}

const ENV_OF_FLAG = {
	prec: 'RELRANK_PREC',
	relsteps: 'RELRANK_RELSTEPS',
	relrel: 'RELRANK_RELREL',
	'scale-max': 'RELRANK_SCALE_MAX',
	round: 'RELRANK_ROUND',
} as const satisfies Record<string, keyof ReferenceEnv>;

/** `pitwall relrank`: returns the exit code. */
export function runRelrank(argv: readonly string[], io: RelrankIo): number {
	const { values, positionals } = parseCommandArgs(argv, options);
	noExtraPositionals(positionals);
	const compat = values.compat ?? false;
	try {
		const params = compat ? compatParams(values, io.env ?? process.env) : defaultParams(values);
		const input = values.input !== undefined ? readText(values.input) : readStdin(io, compat);
		const games = compat ? parseGamesCompat(input) : parseGames(input);
		const { ratings } = relrank(games, params, { compat });
		io.out(ratings.map(({ user, rating }) => `${user},${rating.toString()}\n`).join(''));
		return 0;
	} catch (error) {
		if (error instanceof ReferenceCrash) {
			io.err(`${error.stderrLine}\n`);
			return error.exitCode;
		}
		if (error instanceof GamesInputError || error instanceof RelrankError) {
			io.err(`pitwall relrank: ${error.message}\n`);
			return 2;
		}
		throw error;
	}
}

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

function defaultParams(values: Values): RelrankParams {
	const overrides: Record<string, string> = {};
	if (values.prec !== undefined) overrides.prec = values.prec;
	if (values.relsteps !== undefined) overrides.relSteps = values.relsteps;
	if (values.relrel !== undefined) overrides.relRel = values.relrel;
	if (values['scale-max'] !== undefined) overrides.scaleMax = values['scale-max'];
	if (values.round !== undefined) overrides.round = values.round;
	return relrankParams(overrides);
}

/** --compat: the reference's RELRANK_* env vars, overridden by the flags, read with the reference's rules. */
function compatParams(values: Values, env: Readonly<Record<string, string | undefined>>): RelrankParams {
	const merged: Record<string, string | undefined> = {};
	for (const [flag, name] of Object.entries(ENV_OF_FLAG)) {
		merged[name] = values[flag as keyof typeof ENV_OF_FLAG] ?? env[name];
	}
	return referenceParams(merged);
}

function readStdin(io: RelrankIo, compat: boolean): string {
	if (io.stdin !== undefined) return io.stdin;
	if (process.stdin.isTTY) {
		if (compat) throw new ReferenceCrash('fatal', 'Pass input into stdin');
		throw new UsageError('pipe the games CSV into stdin (pitwall relrank < games.csv) or give --input <file>');
	}
	return readFileSync(0, 'utf8');
}

export default {
	name: 'relrank',
	summary: 'relative ranking of best-of-X games (a,b,rounds_a,rounds_b), exact as the Go reference',
	usage: `pitwall relrank [--prec N] [--relsteps X] [--relrel Y] [--scale-max M] [--round K] [--compat] [--input games.csv] < games.csv

Reads games "a,b,rounds_a,rounds_b" (integer user ids; a header line is skipped) and prints "user,rating" per
player, sorted by user id, digit for digit as Zemke/relrank. Defaults: --prec 20 --relsteps 20 --relrel 15.1,
no scaling, no rounding. Input on which relrank is undefined (nobody won two rounds against one opponent, no
rounds at all) is a clear error, exit 2.
--compat  behave exactly as the Go reference: read the RELRANK_* env vars (flags win), drop a last line without
          newline, skip a first line whose rounds don't parse, accept negative rounds, self-games and user id 0,
          and crash as it does (exit 2 "panic: decimal division by 0", exit 1 on its fatal errors).`,
	run: runRelrank,
} satisfies CliCommand;
