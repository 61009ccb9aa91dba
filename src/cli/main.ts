#!/usr/bin/env -S npx tsx
/**
 * The `pitwall` CLI: replay, odds, backtest and import over history CSV files, checking a pasted scoreboard, and
 * `watch`, which sends a sim server's new result files to a league's results inbox.
 * `main(argv, io)` returns the exit code (0 ok, 2 bad arguments or input, 1 unexpected failure), so tests call it
 * with captured output; run as a script, it uses the process streams.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError } from './args.js';
import type { CliCommand, CliIo } from './command.js';
import { CsvError } from '../formats/csv.js';
import { HistoryCsvError, HistoryCsvWriteError } from '../formats/history-csv.js';
import { ImportError } from '../formats/import-table.js';
import { ReplayError } from '../league/replay.js';
import { ParamError } from '../ratings/types.js';

/** The subcommands: adding one is one line here (its module default-exports a CliCommand). */
const commands: Record<string, () => Promise<{ default: CliCommand }>> = {
	replay: () => import('./commands/replay.js'),
	odds: () => import('./commands/odds.js'),
	backtest: () => import('./commands/backtest.js'),
	import: () => import('./commands/import.js'),
	relrank: () => import('./commands/relrank.js'),
	demo: () => import('./commands/demo.js'),
	calibrate: () => import('./commands/calibrate.js'),
	scoreboard: () => import('./commands/scoreboard.js'),
	forecast: () => import('./commands/forecast.js'),
	watch: () => import('./commands/watch.js'),
};

/** Errors that mean "the user gave something wrong": a message and exit code 2, no stack. */
const INPUT_ERRORS = [
	UsageError,
	HistoryCsvError,
	HistoryCsvWriteError,
	ParamError,
	ImportError,
	ReplayError,
	CsvError,
];

const processIo: CliIo = {
	out: (text) => void process.stdout.write(text),
	err: (text) => void process.stderr.write(text),
};

async function overview(): Promise<string> {
	const loaded = await Promise.all(Object.values(commands).map(async (load) => (await load()).default));
	const width = Math.max(...loaded.map((command) => command.name.length));
	return [
		'usage: pitwall <command> [options]   (pitwall <command> --help for its options)',
		'',
		...loaded.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
		'',
	].join('\n');
}

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
	const [name, ...rest] = argv;
	if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
		io.out(await overview());
		return name === undefined ? 2 : 0;
	}
	const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
	if (!load) {
		io.err(`pitwall: unknown command "${name}"; known: ${Object.keys(commands).join(', ')}\n`);
		return 2;
	}
	const command = (await load()).default;
	if (rest.includes('--help') || rest.includes('-h')) {
		io.out(`usage: ${command.usage}\n`);
		return 0;
	}
	try {
		return await command.run(rest, io);
	} catch (error) {
		if (INPUT_ERRORS.some((kind) => error instanceof kind)) {
			io.err(`pitwall ${name}: ${(error as Error).message}\n`);
			if (error instanceof UsageError) io.err(`usage: ${command.usage.split('\n')[0]}\n`);
			return 2;
		}
		io.err(
			`pitwall ${name}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
		);
		return 1;
	}
}

const invokedAs = process.argv[1];
if (invokedAs !== undefined && realpathSync(invokedAs) === fileURLToPath(import.meta.url)) {
	process.stdout.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code === 'EPIPE') process.exit(0);
		throw error;
	});
	process.exitCode = await main(process.argv.slice(2));
}
