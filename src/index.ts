/**
 * `npm start`. With DISCORD_TOKEN (in the environment or .env) the bot validates its configuration and connects to
 * Discord; a bad variable stops it with one message per problem and exit code 2. Without a token, the local
 * console runs (src/console/): the same slash commands typed as text, over the same store; with arguments, the CLI
 * (`tsx src/index.ts demo` is `pitwall demo`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, loadDotEnv, shardsSetting, type Config, type ShardsSetting } from './config.js';
import { createLogger } from './logger.js';
import { handleShutdownSignals } from './shutdown.js';

async function runBot(): Promise<number> {
	let config: Config;
	let shards: ShardsSetting | undefined;
	try {
		config = loadConfig();
		shards = shardsSetting(process.env);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		process.stderr.write(`pitwall: ${error.message}\n(see .env.example)\n`);
		return 2;
	}
	const log = createLogger({
		level: config.LOG_LEVEL,
		pretty: config.NODE_ENV === 'development' && process.stdout.isTTY,
		secrets: [config.DISCORD_TOKEN],
	});
	// From here on SIGTERM / SIGINT close what is open so far, newest first (src/shutdown.ts).
	const shutdown = handleShutdownSignals({ log });
	// The bot's own event-loop figures, for a benchmark driving this process (src/event-loop-log.ts).
	const loopLog = process.env['PITWALL_EVENT_LOOP_LOG'];
	if (loopLog) shutdown.add('event-loop log', (await import('./event-loop-log.js')).startEventLoopLog(loopLog));
	if (shards !== undefined) {
		// SHARDS=auto|N: this process only manages the shards, each of which runs this file as a bot.
		const { startShards } = await import('./discord/shard-manager.js');
		const running = await startShards({
			script: fileURLToPath(import.meta.url),
			shards,
			token: config.DISCORD_TOKEN,
			apiUrl: config.DISCORD_API_URL,
			log,
		});
		shutdown.add('shards', () => running.stop());
		log.info({ shards: running.total }, 'shards running');
		return 0;
	}
	const [
		{ startBot },
		{ commands, buttons },
		{ openStore },
		{ StoreIntegrityError, STORE_DAMAGED_EXIT_CODE },
		{ createLeagueRepository },
		{ createServices },
		{ createNoticeService },
		{ createChannelPoster },
		{ createJobs },
		{ createScheduler },
		{ createLeaderLease },
		{ createChartRenderer },
		{ disableValidators },
		{ inboxMessages },
		{ warmUpCalendar },
		{ favourMainThread, MAIN_THREAD_NICE },
	] = await Promise.all([
		import('./discord/client.js'),
		import('../commands/index.js'),
		import('./storage/store-url.js'),
		import('./storage/store-integrity-error.js'),
		import('./storage/league-repository.js'),
		import('./services/index.js'),
		import('./services/posts/notices.js'),
		import('./discord/channel-poster.js'),
		import('./jobs/index.js'),
		import('./jobs/scheduler.js'),
		import('./jobs/leader-lease.js'),
		import('./charts/create-chart-renderer.js'),
		import('@discordjs/builders'),
		import('../commands/league/inbox-format.js'),
		import('./services/leagues/league-day.js'),
		import('./thread-priority.js'),
	]);
	let store;
	try {
		store = await openStore(config.STORE_URL, (error) => log.error({ err: error }, 'store error'));
	} catch (error) {
		// A damaged or missing store: its one-line message and exit code, not a stack trace.
		if (!(error instanceof StoreIntegrityError)) throw error;
		process.stderr.write(`pitwall: ${error.message}\n`);
		shutdown.dispose();
		return STORE_DAMAGED_EXIT_CODE;
	}
	// The builders' validators check every embed and button again on each reply (a few percent of the bot's CPU
	// under load). Every reply is already fitted to Discord's limits (src/formats/embed.ts, reply.ts),
	// and the tests, which build the same replies in-process, keep the validators on.
	disableValidators();
	warmUpCalendar();
	// After the store's first query, which started libuv's pool: its threads keep the normal priority.
	const priority = favourMainThread();
	log.info({ nice: priority === 'raised' ? MAIN_THREAD_NICE : 0 }, `main thread priority: ${priority}`);
	const repo = createLeagueRepository(store, { log });
	shutdown.add('store', () => repo.close());
	const jobs = store.namespace('jobs');
	const notices = createNoticeService({ store: jobs, getLeague: (id) => repo.getLeague(id) });
	// One chart renderer for the life of the process (a worker thread; re-creating it per chart leaks).
	const charts = createChartRenderer();
	shutdown.add('charts', () => charts.close());
	const http = httpSettings(config);
	const services = createServices(repo, {
		jobs,
		charts,
		inboxStore: store.namespace('inbox'),
		inboxUrl: () => http.url,
		// Embeds link to public leagues' pages only at an address meant for others (not the bare host and port).
		webUrl: () => (config.HTTP_PORT === undefined ? undefined : config.HTTP_PUBLIC_URL),
		log,
	});
	const client = await startBot({ config, context: { log, services, charts }, commands, buttons, notices });
	shutdown.add('discord client', () => client.destroy());
	if (http.serve) {
		// The results inbox posts through this client; the server closes before it (shutdown runs newest first).
		const { startHttpServer } = await import('./http/server.js');
		const { createLeagueWebService } = await import('./services/web/league-web-service.js');
		try {
			const server = await startHttpServer({
				log,
				host: config.HTTP_HOST,
				port: http.port,
				web: createLeagueWebService(repo, services.leaderboard),
				inbox: {
					inbox: services.inbox,
					outlet: { poster: createChannelPoster(client), messages: inboxMessages },
					maxBytes: config.INBOX_MAX_BYTES,
					perLeague: config.INBOX_RATE_LIMIT,
				},
			});
			http.url ??= server.url;
			shutdown.add('http server', () => server.close());
		} catch (error) {
			// The port is taken or the address is not this machine's: the bot goes on answering Discord without it.
			http.url = undefined;
			log.error({ err: error, host: config.HTTP_HOST, port: http.port }, 'http server could not start: inbox off');
		}
	}
	// Shards and an overlapping restart share the store: the jobs run where the lease is (src/jobs/leader-lease.ts).
	const lease = createLeaderLease({ store: jobs, holder: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}` });
	const scheduler = createScheduler({
		log,
		lease,
		jobs: createJobs({
			services,
			jobs,
			poster: createChannelPoster(client),
			notices,
			guildIds: () => client.guilds.cache.keys(),
			log,
		}),
	});
	// Let a job in flight finish (it may be posting) before the client and then the store close.
	shutdown.add('scheduler', () => scheduler.stop());
	// Jobs post in the guilds the client knows: start them once it is ready.
	if (client.isReady()) scheduler.start();
	else client.once('clientReady', () => scheduler.start());
	return 0;
}

/**
 * Whether this process runs the HTTP server (HTTP_PORT set; under SHARDS=N, shard 0 only: the shards share one
 * address, and any process can post in any channel and answer any preview's buttons, the previews being in the
 * store), and the address `/league inbox` shows (HTTP_PUBLIC_URL, else the host and port, known once listening).
 */
function httpSettings(config: Config): { serve: boolean; port: number; url: string | undefined } {
	const port = config.HTTP_PORT;
	if (port === undefined) return { serve: false, port: 0, url: undefined };
	const shard = process.env['SHARDING_MANAGER'] === undefined ? undefined : process.env['SHARDS'];
	const url = config.HTTP_PUBLIC_URL ?? (port === 0 ? undefined : `http://${config.HTTP_HOST}:${port}`);
	return { serve: shard === undefined || shard === '0', port, url };
}

async function runLocal(argv: readonly string[]): Promise<number> {
	// `tsx src/index.ts demo …`: the CLI (same as `npm run pitwall -- …`), loaded only then.
	if (argv.length > 0) return (await import('./cli/main.js')).main(argv);
	process.stderr.write(
		'pitwall: no DISCORD_TOKEN set, so running the local console (type help; the demo is `npm run pitwall demo`).\n' +
			'To run the bot, set DISCORD_TOKEN and DISCORD_APP_ID (see .env.example).\n',
	);
	const [{ startConsole }, { commands, buttons }, { createServices }, { createChartRenderer }, , { inboxMessages }] =
		await Promise.all([
			import('./console/start-console.js'),
			import('../commands/index.js'),
			import('./services/index.js'),
			import('./charts/create-chart-renderer.js'),
			import('@discordjs/builders'),
			import('../commands/league/inbox-format.js'),
		]);
	// Charts are written as PNG files whose paths the console prints (src/console/render.ts).
	const charts = createChartRenderer();
	try {
		return await startConsole({
			commands,
			buttons,
			// With HTTP_PORT set, the console runs the results inbox too (its previews are printed here).
			context: (repo, log, inbox) => ({ log, charts, services: createServices(repo, { charts, log, ...inbox }) }),
			inboxMessages,
			handleSignals: true,
		});
	} finally {
		await charts.close();
	}
}

loadDotEnv();
if (process.env['DISCORD_TOKEN']?.trim()) {
	process.exitCode = await runBot();
} else {
	process.exitCode = await runLocal(process.argv.slice(2));
}
