/**
 * The real bot at scale: the bot's own process, as `npm start` runs it (the built dist/index.js when there is one,
 * else src/index.ts through tsx; scripts/node-flags; scripts/start.sh's malloc settings), with discord.js, the chart
 * worker and SQLite, driven through the fake Discord (test/e2e/fake-discord.ts, in this process) on a league of
 * 15,000 races of 20 racers (bench/big-league-data.ts) and a second league of 1,000 races in the same server.
 *
 * It sends a cold /rating (the first after the start; the rating snapshots exist, as in a league that has been
 * running), a warm one, /leaderboard with its chart, then /race void R1, /race restore R1 and /league config
 * parameters:folyami.k=20, each replaying every rating system over the whole history; during each replay, a /rating
 * in the same league and one in the other league every second. Prints the bot's peak RSS (VmHWM), its longest
 * event-loop block while answering and the GC pause inside it (the bot measures its own loop:
 * PITWALL_EVENT_LOOP_LOG, src/event-loop-log.ts), and the latency of the reads sent during the replays.
 * Targets: peak RSS under 250 MB, no block of 50 ms or more, a read during a replay answered at once (from the
 * ratings before the change, saying so). A /rating whose league's explanation and chart caches still replay (the
 * first after a start or a change) answers after a short wait without those parts, saying so: its row says which.
 *
 * To compare a change: bundle the sources elsewhere (scripts/build.ts, buildDist({ outdir })) and run with
 * REAL_BOT_ENTRY=<outdir>/index.js; REAL_BOT_NODE_ARGS adds node flags to the bot (--cpu-prof, --heapsnapshot-signal).
 *
 *   npx tsx bench/real-bot.ts
 *
 * Timings on these shared 2-core machines vary with their load: the load average is printed.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { openSqliteStore } from '../src/storage/sqlite-store.js';
import { startFakeDiscord, type Actor, type InteractionHandle, type RawOption } from '../test/e2e/fake-discord.js';
import { BIG_LEAGUE, buildBigLeague } from './big-league-data.js';
import { botNodeFlags } from './timing.js';

const TARGET_RSS_MB = 250;
const TARGET_BLOCK_MS = 50;
const TIMEOUT_MS = 120_000;
/** Reads sent during a replay: one per league every this many milliseconds. */
const PROBE_EVERY_MS = 1_000;
const OTHER_RACES = 1_000;

const member: Actor = { userId: '400000000000000002' };
const organizer: Actor = { userId: '400000000000000001', permissions: PermissionFlagsBits.ManageGuild };
const text = (name: string, value: string | number): RawOption => ({
	name,
	type: typeof value === 'number' ? 4 : 3,
	value,
});
const sub = (name: string, options: RawOption[]): RawOption => ({ name, type: 1, options });
const root = join(import.meta.dirname, '..');
const loadAverage = () => `load average ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`;

interface Answer {
	readonly ms: number;
	readonly text: string;
}

/** The final answer (the reply, or the edit after a defer): its time and everything a user reads in it. */
async function answered(handle: InteractionHandle): Promise<Answer> {
	const started = performance.now();
	const first = await handle.next(TIMEOUT_MS);
	const final = first.kind === 'callback' && first.type === 5 ? await handle.next(TIMEOUT_MS) : first;
	const data = ('data' in final ? final.data : undefined) as
		{ content?: string; embeds?: { title?: string; description?: string; footer?: { text?: string } }[] } | undefined;
	const embeds = (data?.embeds ?? []).map((e) => [e.title, e.description, e.footer?.text].join('\n'));
	return { ms: performance.now() - started, text: [data?.content ?? '', ...embeds].join('\n') };
}

/** The bot's event-loop lines (src/event-loop-log.ts) between two epoch times: longest delay and its interval's GC. */
function loopBetween(
	file: string,
	from: number,
	to: number,
): { maxMs: number; gcMs: number; heapMb: number; atPeak?: Memory } {
	if (!existsSync(file)) return { maxMs: Number.NaN, gcMs: Number.NaN, heapMb: Number.NaN };
	let worst = { maxMs: 0, gcMs: 0 };
	let heapMb = 0;
	// `from` on the monotonic clock of the lines' `blockUs` (this process and the bot share it).
	const fromUs = Number(process.hrtime.bigint() / 1000n) - (Date.now() - from) * 1000;
	let atPeak: Memory | undefined;
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (line === '') continue;
		const entry = JSON.parse(line) as {
			t: number;
			maxMs: number;
			gcMs: number;
			heapMb?: number;
			blockUs?: [number, number];
		} & Partial<Memory>;
		if (entry.t < from || entry.t > to + 300) continue;
		// An interval's longest block that ended before the command was sent (the bot's start-up, before it connected,
		// in the first command's first interval) delayed nothing of it.
		const before = entry.blockUs !== undefined && entry.blockUs[1] < fromUs;
		if (!before && entry.maxMs > worst.maxMs) worst = entry;
		heapMb = Math.max(heapMb, entry.heapMb ?? 0);
		if (entry.rssMb !== undefined && entry.rssMb > (atPeak?.rssMb ?? 0))
			atPeak = { rssMb: entry.rssMb, heapMb: entry.heapMb ?? 0, buffersMb: entry.buffersMb ?? 0 };
	}
	return { ...worst, heapMb, ...(atPeak !== undefined && { atPeak }) };
}

/** Until the bot's event-loop log has a line of an interval that ended after `epochMs` (at most a second). */
async function loopLineAfter(file: string, epochMs: number): Promise<void> {
	for (let waited = 0; waited < 1_000; waited += 50) {
		const lines = existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n') : [];
		const last = lines.at(-1);
		if (last !== undefined && last !== '' && (JSON.parse(last) as { t: number }).t >= epochMs) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** The bot's memory in one line of its event-loop log (src/event-loop-log.ts), in MB. */
interface Memory {
	readonly rssMb: number;
	readonly heapMb: number;
	readonly buffersMb: number;
}

async function main(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-real-bot-'));
	const path = join(dir, 'bot.sqlite');
	const loopFile = join(dir, 'event-loop.jsonl');
	const fake = await startFakeDiscord({ heartbeatMs: 41_250 });
	let bot: ReturnType<typeof spawn> | undefined;
	try {
		console.log(
			`\n== The real bot at scale: ${BIG_LEAGUE.races} races of ${BIG_LEAGUE.racers} racers, SQLite, through the fake Discord`,
		);
		console.log(`  ${loadAverage()} at the start`);
		let started = Date.now();
		const store = await openSqliteStore(path, (e) => console.error(e));
		const where = { guildId: fake.guildId };
		await buildBigLeague(store, BIG_LEAGUE, { ...where, name: 'Big' });
		await buildBigLeague(store, { ...BIG_LEAGUE, races: OTHER_RACES, seed: 10 }, { ...where, name: 'Other' });
		// Rated once, as a league that has been running is: its headline's rating snapshots are in the store.
		const repo = createLeagueRepository(store);
		const services = createServices(repo);
		const actor = { userId: 'bench', guildId: fake.guildId, manageGuild: true, roles: [] };
		for (const league of ['Big', 'Other']) await services.ratings.rating(actor, { league, player: 'Driver 0000' });
		await repo.close();
		console.log(`  leagues generated and rated once in ${((Date.now() - started) / 1000).toFixed(1)} s`);

		// REAL_BOT_SOURCE=1 runs the sources through tsx even when a build exists (while changing them).
		// REAL_BOT_ENTRY=<file.js> runs another build (one bundled elsewhere, to compare before and after a change).
		const built = process.env['REAL_BOT_ENTRY'] ?? join(root, 'dist', 'index.js');
		const useBuild = existsSync(built) && process.env['REAL_BOT_SOURCE'] !== '1';
		const entry = useBuild ? [built] : ['--import', 'tsx', join(root, 'src', 'index.ts')];
		// REAL_BOT_NODE_ARGS: more node flags for the bot (--cpu-prof, --heapsnapshot-signal=SIGUSR2, …) to find a cause.
		const extra = (process.env['REAL_BOT_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
		bot = spawn(process.execPath, [...botNodeFlags(), ...extra, ...entry], {
			cwd: root,
			env: {
				...process.env,
				DISCORD_TOKEN: fake.token,
				DISCORD_APP_ID: fake.appId,
				DISCORD_API_URL: fake.apiUrl,
				STORE_URL: `sqlite://${path}`,
				LOG_LEVEL: 'warn',
				MALLOC_ARENA_MAX: '2',
				MALLOC_MMAP_THRESHOLD_: '131072',
				PITWALL_EVENT_LOOP_LOG: loopFile,
			},
			stdio: ['ignore', 'inherit', 'inherit'],
		});
		const pid = bot.pid!;
		const memory = () => {
			const status = readFileSync(`/proc/${pid}/status`, 'utf8');
			const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
			return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
		};
		started = Date.now();
		while (fake.identified.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
		console.log(
			`  bot (${useBuild ? built : 'src/index.ts through tsx'}) connected in ${Date.now() - started} ms; RSS ${memory().rss.toFixed(0)} MB`,
		);

		const rating = (league: string, player: string) =>
			answered(fake.sendSlashCommand('rating', [text('player', player), text('league', league)], member));
		const commandsFrom = Date.now();
		const ownCpuFrom = process.cpuUsage();
		const blocks: number[] = [];
		const row = async (label: string, ms: number, from: number, note = '') => {
			const to = Date.now();
			// The bot writes a line at the end of each interval (250 ms): wait for the one that holds the command's end,
			// or a command shorter than an interval (a warm /rating) would read none.
			await loopLineAfter(loopFile, to);
			const loop = loopBetween(loopFile, from, to);
			blocks.push(loop.maxMs);
			console.log(
				`  ${label.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms   longest block ${loop.maxMs.toFixed(1).padStart(5)} ms` +
					` (GC ${loop.gcMs.toFixed(0)} ms)   RSS ${memory().rss.toFixed(0)} MB, V8 heap ≤ ${loop.heapMb} MB${note}`,
			);
		};
		let from = Date.now();
		const cold = await rating('Big', 'Driver 0000');
		await row('cold /rating (first after the start)', cold.ms, from, preparing(cold));
		from = Date.now();
		const warm = await rating('Big', 'Driver 0001');
		await row('/rating, warm', warm.ms, from, preparing(warm));
		from = Date.now();
		const board = await answered(fake.sendSlashCommand('leaderboard', [text('league', 'Big')], member));
		await row('/leaderboard with its chart', board.ms, from);

		const changes: [string, string, RawOption][] = [
			['/race void R1', 'race', sub('void', [text('race', 'R1'), text('reason', 'bench'), text('league', 'Big')])],
			[
				'/race restore R1',
				'race',
				sub('restore', [text('race', 'R1'), text('reason', 'bench'), text('league', 'Big')]),
			],
			[
				'/league config parameters:folyami.k=20',
				'league',
				sub('config', [text('league', 'Big'), text('parameters', 'folyami.k=20')]),
			],
		];
		let player = 2;
		const during: { same: Answer[]; other: Answer[] } = { same: [], other: [] };
		for (const [label, command, option] of changes) {
			from = Date.now();
			let done = false;
			const change = answered(fake.sendSlashCommand(command, [option], organizer)).finally(() => (done = true));
			const probes: Promise<void>[] = [];
			const same: Answer[] = [];
			const other: Answer[] = [];
			// The first reads go out just after the change, while its event is being stored.
			await new Promise((resolve) => setTimeout(resolve, 100));
			while (!done) {
				const name = `Driver ${String(player++).padStart(4, '0')}`;
				probes.push(rating('Big', name).then((a) => void same.push(a)));
				probes.push(rating('Other', name).then((a) => void other.push(a)));
				await Promise.race([change, new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS))]);
			}
			const answer = await change;
			await Promise.all(probes);
			during.same.push(...same);
			during.other.push(...other);
			const noticed = same.filter((a) => /being recomputed/i.test(a.text)).length;
			await row(
				label,
				answer.ms,
				from,
				`\n    reads meanwhile: same league ${spread(same)} (${noticed} of ${same.length} said they were from before the change),` +
					` other league ${spread(other)}`,
			);
			from = Date.now();
			const after = await rating('Big', 'Driver 0000');
			await row(
				'  /rating after it',
				after.ms,
				from,
				(/being recomputed/i.test(after.text) ? '   (STILL SAYS RECOMPUTING)' : '') + preparing(after),
			);
		}
		const loop = loopBetween(loopFile, commandsFrom, Date.now());
		const { peak, rss } = memory();
		// A read sent during a replay that finished before the read got to it answers with the new ratings: it is a read
		// after the change (as `/rating after it`), and may wait a moment for the league's caches.
		const recomputing = (a: Answer) => /being recomputed/i.test(a.text);
		const reads = during.same.filter(recomputing).map((a) => a.ms);
		const late = during.same.filter((a) => !recomputing(a)).map((a) => a.ms);
		console.log(
			`  longest event-loop block inside the bot over these commands: ${loop.maxMs.toFixed(1)} ms (the GC pause of` +
				` its interval: ${loop.gcMs.toFixed(0)} ms)   target < ${TARGET_BLOCK_MS} ms`,
		);
		console.log(
			`  /rating in the league being replayed, answered from before the change: slowest` +
				` ${Math.max(...reads).toFixed(0)} ms of ${reads.length}   target: at once` +
				(late.length === 0
					? ''
					: `\n    ${late.length} more reached the league after its replay and answered with the new ratings, as` +
						` /rating after it does: slowest ${Math.max(...late).toFixed(0)} ms`),
		);
		console.log(
			`  bot process: RSS peak ${peak.toFixed(0)} MB (V8 heap at most ${loop.heapMb} MB), now ${rss.toFixed(0)} MB   target < ${TARGET_RSS_MB} MB;` +
				` ${loadAverage()} at the end`,
		);
		// CPU seconds (all its threads: GC helpers and workers too) depend far less on the machine's load than timings do.
		const ticks = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
		console.log(
			`  bot CPU time since its start: ${((Number(ticks[11]) + Number(ticks[12])) / 100).toFixed(1)} s` +
				` (user and system, every thread)`,
		);
		// This process shares the two cores with the bot: what it took from them while the bot answered.
		const own = process.cpuUsage(ownCpuFrom);
		console.log(
			`  this benchmark's own CPU time over the commands (the fake Discord, the probes, reading the bot's log):` +
				` ${((own.user + own.system) / 1e6).toFixed(1)} s`,
		);
		const at = loop.atPeak;
		if (at !== undefined)
			console.log(
				`  at the highest RSS the bot logged (${at.rssMb} MB): V8 heap ${at.heapMb} MB, ArrayBuffers ${at.buffersMb} MB,` +
					` the rest ${at.rssMb - at.heapMb - at.buffersMb} MB (code and libraries, worker threads, SQLite, malloc)`,
			);
	} finally {
		if (bot?.exitCode === null) {
			bot.kill('SIGTERM');
			await new Promise((resolve) => bot!.once('exit', resolve));
		}
		await fake.close();
		// REAL_BOT_LOOP_COPY=<file>: keep the bot's event-loop lines (its heap, buffers and RSS each interval) to study.
		const copy = process.env['REAL_BOT_LOOP_COPY'];
		if (copy !== undefined && existsSync(loopFile)) copyFileSync(loopFile, copy);
		rmSync(dir, { recursive: true, force: true });
	}
}

/** What a /rating answered without while its league's caches replayed (commands/rating.ts preparingNotice). */
function preparing(answer: Answer): string {
	const said = /⏳ (.*) (?:is|are) still being prepared/.exec(answer.text)?.[1];
	return said === undefined ? '' : `   (without ${said.toLowerCase()}: still being prepared)`;
}

/** `median 41 ms, slowest 65 ms`. */
function spread(answers: readonly Answer[]): string {
	if (answers.length === 0) return 'none sent';
	const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
	return `median ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms, slowest ${ms.at(-1)!.toFixed(0)} ms`;
}

await main();
