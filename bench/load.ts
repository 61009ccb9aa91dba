/**
 * `npm run bench:load`: the bot as `npm start` runs it (its own process, `node --import tsx
 * src/index.ts`), driven through the fake Discord (test/e2e/fake-discord.ts, in this process) with concurrent
 * interactions at a fixed arrival rate, on a league of 10,000 races and 2,000 drivers: /rating, /odds and
 * /leaderboard (some with their chart), and submissions with Confirm. Prints throughput, p50/p99/max latency (to the
 * final answer: the edit after a defer), the slowest acknowledgement, errors and answers past 3 s, and the bot's RSS.
 *
 *   LOAD_RATE=200 LOAD_SECONDS=60 STORE_URL=sqlite://… npx tsx bench/load.ts
 *   LOAD_STORE=postgresql npx tsx bench/load.ts
 *
 * Defaults: 200 interactions/s for 60 s after a 5 s warm-up, on a fresh SQLite store in a temp dir. LOAD_STORE=
 * postgresql (or redis) starts a private server of that kind in the temp dir (PostgreSQL with fsync on, Redis writing
 * every command to disk before answering: as in production) and runs on it.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { openStore } from '../src/storage/store-url.js';
import { startFakeDiscord, type Actor, type InteractionHandle, type RawOption } from '../test/e2e/fake-discord.js';
import type { RaceInput } from '../src/league/league-events.js';
import { addDays } from '../src/league/dates.js';
import { races } from './storage.js';
import { mulberry32 } from '../test/support/mulberry32.js';
import { botNodeFlags } from './timing.js';
import { startPostgres, startRedis } from '../test/setup/store-servers.js';

const RATE = Number(process.env['LOAD_RATE'] ?? 200);
const SECONDS = Number(process.env['LOAD_SECONDS'] ?? 60);
const WARMUP_SECONDS = 5;
const RACES = 10_000;
const DRIVERS = 2_000;
const TIMEOUT_MS = 10_000;

const member: Actor = { userId: '400000000000000002' };
const organizer: Actor = { userId: '400000000000000001', permissions: PermissionFlagsBits.ManageGuild };
const text = (name: string, value: string | number | boolean): RawOption => ({
	name,
	type: typeof value === 'number' ? 4 : typeof value === 'boolean' ? 5 : 3,
	value,
});
const sub = (name: string, options: RawOption[]): RawOption => ({ name, type: 1, options });

interface Sample {
	readonly kind: string;
	readonly ackMs: number;
	readonly totalMs: number;
	readonly error?: string;
}

const percentile = (xs: readonly number[], p: number) => {
	const sorted = [...xs].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** Waits for the final answer: the reply, or the edit after a defer. Returns the acknowledgement time too. */
async function answered(handle: InteractionHandle, started: number): Promise<{ ackMs: number; body: unknown }> {
	const first = await handle.next(TIMEOUT_MS);
	const ackMs = performance.now() - started;
	const final = first.kind === 'callback' && first.type === 5 ? await handle.next(TIMEOUT_MS) : first;
	return { ackMs, body: 'data' in final ? final.data : undefined };
}

const failure = (body: unknown) => {
	const content = (body as { content?: unknown } | undefined)?.content;
	return typeof content === 'string' && content.startsWith('Something went wrong') ? content : undefined;
};

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-load-'));
	chmodSync(dir, 0o711); // PostgreSQL's own user must reach its directory inside
	const server = await privateServer(dir);
	const storeUrl = server?.status.url ?? process.env['STORE_URL'] ?? `sqlite://${join(dir, 'load.sqlite')}`;
	// Discord's own heartbeat interval (41.25 s), not the tests' quick one: a busy bot must not look dead here.
	const fake = await startFakeDiscord({ heartbeatMs: 41_250 });
	const next = mulberry32(2026);
	const driver = () => `Driver ${String(Math.floor(next() * DRIVERS)).padStart(4, '0')}`;

	// The league: 10,000 races in one import event (as /league import stores them).
	let started = performance.now();
	const repo = createLeagueRepository(await openStore(storeUrl, (error) => console.error(error)));
	const league = await repo.createLeague(
		{ guildId: fake.guildId, name: 'Load', headline: 'glicko', params: {}, timezone: 'UTC' },
		'bench',
	);
	const generated = races(7);
	// One race a day up to yesterday, as a league that has been racing: the generator's days from 2000 run into 2027,
	// and a submission dated today then came before the last 170 races (a make-up race, rated at its date: every
	// preview replayed the whole history), which no league that races today sends 10 times a second.
	const today = new Date().toISOString().slice(0, 10);
	const history: RaceInput[] = Array.from({ length: RACES }, (_, i) => ({
		...(generated.next().value as RaceInput),
		date: addDays(today, i - RACES),
	}));
	await repo.appendEvent(league.id, { type: 'league-imported', races: history, source: 'bench', by: 'bench' });
	await repo.close();
	console.log(`load: league of ${RACES} races built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

	// The bot, as npm start runs it.
	// LOAD_NODE_ARGS: extra node flags for the bot (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
	const nodeArgs = [...botNodeFlags(), ...(process.env['LOAD_NODE_ARGS'] ?? '').split(' ').filter(Boolean)];
	const bot = spawn(
		process.execPath,
		[...nodeArgs, '--import', 'tsx', join(import.meta.dirname, '..', 'src', 'index.ts')],
		{
			env: {
				...process.env,
				DISCORD_TOKEN: fake.token,
				DISCORD_APP_ID: fake.appId,
				DISCORD_API_URL: fake.apiUrl,
				STORE_URL: storeUrl,
				LOG_LEVEL: 'warn',
				MALLOC_ARENA_MAX: '2',
			},
			stdio: ['ignore', 'inherit', 'inherit'],
		},
	);
	/** The bot's CPU seconds so far (utime + stime from /proc, in clock ticks of 1/100 s). */
	const cpuOfBot = () => {
		const fields = readFileSync(`/proc/${bot.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
		return (Number(fields[11]) + Number(fields[12])) / 100;
	};
	const rssOfBot = () => {
		const status = readFileSync(`/proc/${bot.pid}/status`, 'utf8');
		return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
	};
	while (fake.identified.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
	started = performance.now();
	await answered(fake.sendSlashCommand('rating', [text('player', driver())], member), started);
	console.log(`load: bot connected; first /rating (cold) ${(performance.now() - started).toFixed(0)} ms`);

	const mix: [number, string, () => Promise<Sample>][] = [
		[40, 'rating', () => one('rating', [text('player', driver()), text('chart', false)])],
		[5, 'rating+chart', () => one('rating+chart', [text('player', driver())], 'rating')],
		[
			20,
			'odds',
			() => one('odds', [text('players', [driver(), driver(), driver(), driver()].join(', ')), text('chart', false)]),
		],
		[3, 'odds+chart', () => one('odds+chart', [text('players', [driver(), driver(), driver()].join(', '))], 'odds')],
		[25, 'leaderboard', () => one('leaderboard', [text('page', 1 + Math.floor(next() * 100)), text('chart', false)])],
		[2, 'leaderboard+chart', () => one('leaderboard+chart', [text('page', 1)], 'leaderboard')],
		[5, 'submit+confirm', submitAndConfirm],
	];
	async function one(kind: string, options: RawOption[], name = kind): Promise<Sample> {
		const t0 = performance.now();
		try {
			const { ackMs, body } = await answered(fake.sendSlashCommand(name, options, member), t0);
			return { kind, ackMs, totalMs: performance.now() - t0, error: failure(body) };
		} catch (error) {
			return { kind, ackMs: Number.NaN, totalMs: performance.now() - t0, error: String(error) };
		}
	}
	async function submitAndConfirm(): Promise<Sample> {
		const t0 = performance.now();
		try {
			const field = [...new Set(Array.from({ length: 12 }, driver))];
			const results = field.map((name, i) => `${i + 1}. ${name}`).join('; ');
			const preview = await answered(
				fake.sendSlashCommand('race', [sub('submit', [text('results', results)])], organizer),
				t0,
			);
			const components = (preview.body as { components?: { components: { custom_id: string }[] }[] }).components;
			const confirm = components?.[0]?.components.find((c) => c.custom_id.startsWith('race:confirm:'))?.custom_id;
			if (confirm === undefined)
				return { kind: 'submit+confirm', ackMs: preview.ackMs, totalMs: 0, error: 'no preview' };
			const click = fake.clickButton(confirm, organizer);
			await click.next(TIMEOUT_MS); // the deferred update
			const stored = await click.next(TIMEOUT_MS);
			const error = failure('data' in stored ? stored.data : undefined);
			return { kind: 'submit+confirm', ackMs: preview.ackMs, totalMs: performance.now() - t0, error };
		} catch (error) {
			return { kind: 'submit+confirm', ackMs: Number.NaN, totalMs: performance.now() - t0, error: String(error) };
		}
	}
	const total = mix.reduce((sum, [weight]) => sum + weight, 0);
	const pick = () => {
		let r = next() * total;
		for (const [weight, , run] of mix) if ((r -= weight) < 0) return run;
		return mix[0]![2];
	};

	// Open loop: arrivals at RATE per second whatever the answers do (as users do), for warm-up + SECONDS.
	const samples: Promise<Sample>[] = [];
	const measuredFrom = performance.now() + WARMUP_SECONDS * 1000;
	let cpuAtStart = { bot: 0, driver: process.cpuUsage() };
	setTimeout(() => void (cpuAtStart = { bot: cpuOfBot(), driver: process.cpuUsage() }), WARMUP_SECONDS * 1000);
	const end = measuredFrom + SECONDS * 1000;
	let peakRss = 0;
	const rssTimer = setInterval(() => void (peakRss = Math.max(peakRss, rssOfBot())), 500);
	for (let i = 0, t0 = performance.now(); ; i++) {
		const due = t0 + (i * 1000) / RATE;
		if (due >= end) break;
		const wait = due - performance.now();
		if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
		const sample = pick()();
		if (due >= measuredFrom) samples.push(sample);
	}
	const results = await Promise.all(samples);
	clearInterval(rssTimer);
	const finished = performance.now();
	const seconds = (finished - measuredFrom) / 1000;
	const botCpu = (cpuOfBot() - cpuAtStart.bot) / seconds;
	const driverUsage = process.cpuUsage(cpuAtStart.driver);
	const driverCpu = (driverUsage.user + driverUsage.system) / 1e6 / seconds;

	const ok = results.filter((r) => r.error === undefined);
	const totals = ok.map((r) => r.totalMs);
	const late = results.filter((r) => !(r.ackMs < 3000)).length;
	console.log(
		`load (${storeUrl.split(':')[0]}): ${results.length} interactions offered at ${RATE}/s for ${SECONDS} s; ` +
			`${(ok.length / ((finished - measuredFrom) / 1000)).toFixed(0)}/s answered; ` +
			`latency p50 ${percentile(totals, 50).toFixed(1)} ms, p99 ${percentile(totals, 99).toFixed(1)} ms, ` +
			`max ${Math.max(...totals).toFixed(0)} ms; slowest acknowledgement ${Math.max(...results.map((r) => r.ackMs)).toFixed(0)} ms; ` +
			`${results.length - ok.length} errors; ${late} past 3 s; bot RSS peak ${peakRss.toFixed(0)} MB; ` +
			`CPU: bot ${(botCpu * 100).toFixed(0)}%, fake Discord and driver ${(driverCpu * 100).toFixed(0)}% (of one core)`,
	);
	for (const [, kind] of mix) {
		const of = ok.filter((r) => r.kind === kind).map((r) => r.totalMs);
		if (of.length > 0) {
			console.log(
				`  ${kind.padEnd(18)} n=${String(of.length).padStart(5)}  p50 ${percentile(of, 50).toFixed(1)} ms  p99 ${percentile(of, 99).toFixed(1)} ms`,
			);
		}
	}
	const errors = [...new Set(results.filter((r) => r.error !== undefined).map((r) => `${r.kind}: ${r.error}`))];
	for (const error of errors.slice(0, 5)) console.log(`  error: ${error}`);
	bot.kill('SIGTERM');
	await new Promise((resolve) => bot.once('exit', resolve));
	await fake.close();
	await server?.stop();
	rmSync(dir, { recursive: true, force: true });
}

/** The server LOAD_STORE asks for, started in `dir`; undefined for SQLite. */
async function privateServer(dir: string) {
	const kind = process.env['LOAD_STORE'] ?? 'sqlite';
	if (kind === 'sqlite') return undefined;
	if (kind !== 'postgresql' && kind !== 'redis')
		throw new Error(`LOAD_STORE is sqlite, postgresql or redis, not ${kind}`);
	const started = kind === 'postgresql' ? await startPostgres(dir, { durable: true }) : await startRedis(dir);
	if (!('url' in started.status)) throw new Error(`${kind} did not start: ${started.status.unavailable}`);
	return { status: { url: started.status.url }, stop: started.stop };
}

await main();
