/**
 * `npm start` without DISCORD_TOKEN: opens the store at STORE_URL (default sqlite://data/pitwall.sqlite), fills the
 * sample league on first run, then runs the console on stdin/stdout with the bot's own registry and router.
 * Messages about the console itself go to stderr, so stdout carries only the answers. The console's files live in
 * data/ of the working directory (gitignored): console-history (a terminal's history) and console-out/ (charts).
 */
import { resolve } from 'node:path';
import { ConfigError, parseLocalConfig, type LocalConfig } from '../config.js';
import type { ButtonHandler, Command, CommandContext } from '../discord/command.js';
import { createLogger, type Logger } from '../logger.js';
import type { LeagueRepository } from '../storage/ports.js';
import { createLeagueRepository } from '../storage/league-repository.js';
import { STORE_DAMAGED_EXIT_CODE, StoreIntegrityError } from '../storage/store-integrity-error.js';
import { openStore } from '../storage/store-url.js';
import { handleShutdownSignals } from '../shutdown.js';
import { CONSOLE_GUILD_ID } from './console-interaction.js';
import { runConsole } from './console-loop.js';
import { ensureSampleLeague } from './sample-league.js';

export interface StartConsoleOptions {
	readonly commands: readonly Command[];
	readonly buttons?: readonly ButtonHandler[];
	/** The handlers' context over the console's repository (the same services the bot builds). */
	readonly context: (repo: LeagueRepository, log: Logger) => CommandContext;
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** SIGTERM / SIGINT close the store and exit 0 (`npm start`; issue 9, item 9). Off in tests (one process). */
	readonly handleSignals?: boolean;
}

export async function startConsole(options: StartConsoleOptions): Promise<number> {
	const err = (text: string) => void process.stderr.write(text);
	const env = options.env ?? process.env;
	let config: LocalConfig;
	try {
		// The console is quiet by default: warnings and errors only, unless LOG_LEVEL is set.
		config = parseLocalConfig({ ...env, LOG_LEVEL: env['LOG_LEVEL'] ?? 'warn' });
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		err(`pitwall: ${error.message}\n`);
		return 2;
	}
	const log = createLogger({
		level: config.LOG_LEVEL,
		pretty: process.stderr.isTTY,
		write: (line) => err(`${line}\n`),
	});
	let store;
	try {
		store = await openStore(config.STORE_URL, (error) => log.error({ err: error }, 'store error'));
	} catch (error) {
		// A damaged or missing store (issue 9 item 4): its one-line message and exit code, not a stack trace.
		if (!(error instanceof StoreIntegrityError)) throw error;
		err(`pitwall: ${error.message}\n`);
		return STORE_DAMAGED_EXIT_CODE;
	}
	const repo = createLeagueRepository(store, { log });
	// A terminal's Ctrl-C is a key for the line editor (raw mode), not a signal; a `kill` or a service manager's stop
	// is one, and must not cut the store off mid-write.
	const shutdown = options.handleSignals ? handleShutdownSignals({ log }) : undefined;
	shutdown?.add('store', () => repo.close());
	try {
		const seeded = await ensureSampleLeague(repo, CONSOLE_GUILD_ID);
		if (seeded.races > 0) {
			err(
				`pitwall: first run: created league "${seeded.league.config.name}" with ${seeded.races} races from ` +
					`data/sample-league.csv in ${(seeded.ms / 1000).toFixed(1)} s (${config.STORE_URL})\n`,
			);
		}
		// A terminal on both ends: prompt, echo, editing, history and completion. With stdout redirected the terminal
		// still echoes what is typed (its own line mode), and nothing but answers reaches the file.
		const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
		if (interactive) err('Type help for the commands, TAB to complete, ↑ for earlier lines, exit to leave.\n');
		return await runConsole({
			commands: options.commands,
			buttons: options.buttons,
			context: options.context(repo, log),
			input: process.stdin,
			output: process.stdout,
			write: (text) => void process.stdout.write(text),
			prompt: interactive,
			color: interactive && env['NO_COLOR'] === undefined,
			historyFile: resolve('data', 'console-history'),
			outDir: resolve('data', 'console-out'),
		});
	} finally {
		shutdown?.dispose();
		await repo.close();
	}
}
