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
import { createLeagueRepository } from '../storage/league-repository.js';
import { STORE_DAMAGED_EXIT_CODE, StoreIntegrityError } from '../storage/store-integrity-error.js';
import { openStore } from '../storage/store-url.js';
import { handleShutdownSignals } from '../shutdown.js';
import { CONSOLE_CHANNEL_ID, CONSOLE_GUILD_ID } from './console-interaction.js';
import { toDiscordBody } from '../discord/channel-message.js';
import type { RunningHttpServer } from '../http/server.js';
import type { InboxMessages } from '../services/inbox/inbox-service.js';
import type { ChannelPoster } from '../services/posts/monthly-post-port.js';
import type { KeyValueNamespace, LeagueRepository } from '../storage/ports.js';
import { runConsole } from './console-loop.js';
import { ensureSampleLeague } from './sample-league.js';

export interface StartConsoleOptions {
	readonly commands: readonly Command[];
	readonly buttons?: readonly ButtonHandler[];
	/** The handlers' context over the console's repository (the same services the bot builds). */
	readonly context: (repo: LeagueRepository, log: Logger, inbox: ConsoleInbox) => CommandContext;
	/**
	 * How the results inbox's messages look (commands/league/inbox-format.ts). With it and HTTP_PORT set, the console
	 * runs the HTTP server too: a file sent to it is previewed in the console, confirmed by typing `confirm`.
	 */
	readonly inboxMessages?: InboxMessages | undefined;
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** SIGTERM / SIGINT close the store and exit 0 (`npm start`). Off in tests (one process). */
	readonly handleSignals?: boolean;
}

/** What the console's services need: the inbox's store namespace, address and channel, and the pages' address. */
export interface ConsoleInbox {
	readonly inboxStore: KeyValueNamespace;
	readonly inboxUrl: () => string | undefined;
	readonly inboxChannel: string;
	/** The pages' address: the console's embeds link to its public leagues' pages, as the bot's do. */
	readonly webUrl: () => string | undefined;
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
		// A damaged or missing store: its one-line message and exit code, not a stack trace.
		if (!(error instanceof StoreIntegrityError)) throw error;
		err(`pitwall: ${error.message}\n`);
		return STORE_DAMAGED_EXIT_CODE;
	}
	const repo = createLeagueRepository(store, { log });
	let server: RunningHttpServer | undefined;
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
		let url = config.HTTP_PUBLIC_URL;
		const context = options.context(repo, log, {
			inboxStore: store.namespace('inbox'),
			inboxUrl: () => url,
			inboxChannel: CONSOLE_CHANNEL_ID,
			webUrl: () => url,
		});
		/** Prints a message the inbox posts (set once the console runs). */
		let show: ((payload: unknown) => string) | undefined;
		if (context.services !== undefined) {
			const services = context.services;
			const messages = options.inboxMessages;
			const poster: ChannelPoster = {
				post: (_channel, message) =>
					Promise.resolve(
						show === undefined
							? { ok: false, failure: { kind: 'not-text' } }
							: { ok: true, messageId: show(toDiscordBody(message)) },
					),
				findMarked: () => Promise.resolve({ ok: true, messageId: undefined }),
			};
			// The league pages always (a newcomer opens the sample league's at once), on HTTP_PORT or a free port.
			const { startHttpServer } = await import('../http/server.js');
			const { createLeagueWebService } = await import('../services/web/league-web-service.js');
			server = await startHttpServer({
				log,
				host: config.HTTP_HOST,
				port: config.HTTP_PORT ?? 0,
				web: createLeagueWebService(repo, services.leaderboard),
				inbox: messages && {
					inbox: services.inbox,
					outlet: { poster, messages },
					maxBytes: config.INBOX_MAX_BYTES,
					perLeague: config.INBOX_RATE_LIMIT,
				},
			});
			url ??= server.url;
			shutdown?.add('http server', () => server?.close());
			const sample =
				seeded.league.config.visibility === 'public' ? `/leagues/${encodeURIComponent(seeded.league.id)}` : '/';
			err(`pitwall: league pages at ${server.url}${sample}\n`);
			if (messages !== undefined) {
				err(`pitwall: results inbox at ${server.url}/inbox: previews appear here (/league inbox token:new)\n`);
			}
		}
		return await runConsole({
			commands: options.commands,
			buttons: options.buttons,
			context,
			channel: (given) => (show = given),
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
		await server?.close();
		await repo.close();
	}
}
