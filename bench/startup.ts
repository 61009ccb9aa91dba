/**
 * Start-up and idle footprint of the bot (`npm run bench`; alone: `npx tsx bench/startup.ts`).
 *
 * - Baseline: a node process that only imports discord.js and canvas (the two packages the bot cannot start without),
 *   from spawn to exit.
 * - The bot against the fake Discord (test/e2e/fake-discord.ts, in this process), from spawn to the first `/about`
 *   answer, sent as soon as the bot identifies on the gateway: the built bot (`node dist/index.js`, what `npm start`
 *   runs) and the sources through tsx (`node --import tsx src/index.ts`, what `npm start` ran before the build).
 * - The built bot's RSS right after that answer and after IDLE_SECONDS without traffic.
 * Every process runs with `npm start`'s V8 flags (scripts/node-flags) and MALLOC_ARENA_MAX=2, on a fresh SQLite store
 * in a temp dir; medians of RUNS starts each. Targets: first answer within 2× the baseline; idle RSS ≤ 110 MiB.
 * STARTUP_BUNDLED=1 adds a build with the pure-JavaScript packages bundled too (scripts/build.ts), for comparison.
 *
 * Timings on these shared 2-core machines vary with their load: the load average is printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startFakeDiscord } from '../test/e2e/fake-discord.js';
import { buildDist } from '../scripts/build.js';
import { botNodeFlags } from './timing.js';

const RUNS = Number(process.env['STARTUP_RUNS'] ?? 5);
const IDLE_SECONDS = 5;
const TARGET_RATIO = 2;
const TARGET_IDLE_MIB = 110;
const root = join(import.meta.dirname, '..');

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const mib = (pid: number, field: 'VmRSS' | 'VmHWM') =>
	Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Spawn to exit of a node that imports discord.js and canvas and nothing else. */
async function baselineMs(): Promise<number> {
	const started = performance.now();
	const child = spawn(
		process.execPath,
		[...botNodeFlags(), '--input-type=module', '-e', "await import('discord.js'); await import('canvas');"],
		{ cwd: root, stdio: 'inherit', env: { ...process.env, MALLOC_ARENA_MAX: '2' } },
	);
	const [code] = (await once(child, 'exit')) as [number | null];
	if (code !== 0) throw new Error(`the baseline import exited with ${code}`);
	return performance.now() - started;
}

interface Start {
	readonly firstAnswerMs: number;
	readonly rssMib: number;
	readonly idleRssMib: number;
}

/** One start of the bot (`nodeArgs` then the script) against a fresh fake Discord; stopped with SIGTERM after. */
async function startBot(nodeArgs: readonly string[], idle: boolean): Promise<Start> {
	const fake = await startFakeDiscord();
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-startup-'));
	let bot: ReturnType<typeof spawn> | undefined;
	try {
		const started = performance.now();
		bot = spawn(process.execPath, [...botNodeFlags(), ...nodeArgs], {
			// A directory of its own: no .env of the developer's, a store of its own.
			cwd: dir,
			env: {
				...process.env,
				DISCORD_TOKEN: fake.token,
				DISCORD_APP_ID: fake.appId,
				DISCORD_API_URL: fake.apiUrl,
				STORE_URL: `sqlite://${join(dir, 'store.sqlite')}`,
				LOG_LEVEL: 'warn',
				NODE_ENV: 'production',
				MALLOC_ARENA_MAX: '2',
			},
			stdio: ['ignore', 'inherit', 'inherit'],
		});
		const exited = once(bot, 'exit');
		while (fake.identified.length === 0) {
			if (bot.exitCode !== null) throw new Error(`the bot exited with ${bot.exitCode} before connecting`);
			await delay(2);
		}
		const reply = await fake.sendSlashCommand('about').next(20_000);
		const firstAnswerMs = performance.now() - started;
		if (reply.kind !== 'callback' || !String(reply.data?.['content']).startsWith('**pitwall')) {
			throw new Error(`unexpected /about answer: ${JSON.stringify(reply)}`);
		}
		const rssMib = mib(bot.pid!, 'VmRSS');
		if (idle) await delay(IDLE_SECONDS * 1000);
		const idleRssMib = idle ? mib(bot.pid!, 'VmRSS') : Number.NaN;
		bot.kill('SIGTERM');
		await exited;
		return { firstAnswerMs, rssMib, idleRssMib };
	} finally {
		if (bot !== undefined && bot.exitCode === null && bot.signalCode === null) bot.kill('SIGKILL');
		await fake.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

async function measure(nodeArgs: readonly string[], idle: boolean) {
	const starts: Start[] = [];
	for (let i = 0; i < RUNS; i++) starts.push(await startBot(nodeArgs, idle));
	return {
		firstAnswerMs: median(starts.map((start) => start.firstAnswerMs)),
		rssMib: median(starts.map((start) => start.rssMib)),
		idleRssMib: median(starts.map((start) => start.idleRssMib)),
	};
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');

export async function runStartupBench(): Promise<void> {
	console.log(`\nstart-up (medians of ${RUNS} starts; load average ${loadavg()[0]!.toFixed(1)})`);
	// The build npm start runs (rebuilt here only when a source changed).
	const build = spawnSync('bash', [join(root, 'scripts', 'build.sh')], { stdio: 'inherit' });
	if (build.status !== 0) throw new Error('scripts/build.sh failed');

	const baselines: number[] = [];
	for (let i = 0; i < RUNS; i++) baselines.push(await baselineMs());
	const baseline = median(baselines);
	console.log(`  node importing discord.js and canvas alone          ${seconds(baseline)}`);

	const built = await measure([join(root, 'dist', 'index.js')], true);
	const ratio = built.firstAnswerMs / baseline;
	console.log(
		`  built bot (dist/index.js): first /about answered in  ${seconds(built.firstAnswerMs)}` +
			` (${ratio.toFixed(2)}× the baseline; target ≤ ${TARGET_RATIO}×: ${met(ratio <= TARGET_RATIO)})`,
	);
	const sources = await measure(['--import', import.meta.resolve('tsx'), join(root, 'src', 'index.ts')], false);
	console.log(
		`  sources through tsx: first /about answered in        ${seconds(sources.firstAnswerMs)}` +
			` (${(sources.firstAnswerMs / built.firstAnswerMs).toFixed(2)}× the built bot)`,
	);
	console.log(
		`  built bot's RSS: ${built.rssMib.toFixed(0)} MiB after the answer, ${built.idleRssMib.toFixed(0)} MiB after` +
			` ${IDLE_SECONDS} s idle (target ≤ ${TARGET_IDLE_MIB} MiB: ${met(built.idleRssMib <= TARGET_IDLE_MIB)});` +
			` through tsx: ${sources.rssMib.toFixed(0)} MiB after the answer`,
	);

	if (process.env['STARTUP_BUNDLED'] === '1') {
		// The comparison build goes beside dist/ (one level below the root, as the layout needs) and is removed after.
		const outdir = join(root, 'dist-bundled');
		try {
			await buildDist({ bundlePackages: true, outdir });
			const bundled = await measure([join(outdir, 'index.js')], true);
			console.log(
				`  with the packages bundled too: first answer in ${seconds(bundled.firstAnswerMs)},` +
					` RSS ${bundled.rssMib.toFixed(0)} MiB after it, ${bundled.idleRssMib.toFixed(0)} MiB idle`,
			);
		} finally {
			rmSync(outdir, { recursive: true, force: true });
		}
	}
}

if (process.argv[1] !== undefined && join(process.argv[1]) === import.meta.filename) await runStartupBench();
