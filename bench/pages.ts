/**
 * The league web pages under load (docs/web.md): a generated public league of 2,000 players (bench/big-league-data.ts:
 * PAGES_RACES races of 20), served by the bot's HTTP server in a child process (`--serve`: the services, the store in
 * memory, as the console runs them), and driven from this process at a fixed arrival rate, open loop: each request is
 * sent at its scheduled time whatever the answers before it, and its latency counts from that time (a server that
 * falls behind shows it, rather than slowing the load down). The mix: the league page, player pages and race pages
 * (a player of any rank or a race drawn at random each time, so most are the first request of their page), the
 * standings JSON; the league page is its first page 4 times in 5, else a later one.
 * Prints p50/p95/p99/max latency per kind and overall, and the errors.
 *
 * The first request of each kind after the start, the background warm-up they start and the first PAGES_SETTLE seconds
 * of load are reported apart from the figure (a running bot has done them before its pages are read at this rate).
 *
 *   npx tsx bench/pages.ts    (PAGES_RATE=200 PAGES_SECONDS=10 PAGES_RACES=3000 PAGES_SETTLE=2; PAGES_TIMELINE=1:
 *                             per second of the run; PAGES_PROF=<dir>: a CPU profile of the server)
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildBigLeague } from './big-league-data.js';
import { mulberry32 } from '../test/support/mulberry32.js';

const RATE = Number(process.env['PAGES_RATE'] ?? 200);
const SECONDS = Number(process.env['PAGES_SECONDS'] ?? 10);
const RACES = Number(process.env['PAGES_RACES'] ?? 3000);
const PLAYERS = 2000;
const TIMEOUT_MS = 10_000;
/** Seconds at the start of the load reported apart (see the report). */
const SETTLE = Number(process.env['PAGES_SETTLE'] ?? 2);

/** Share of each kind of request in the load. */
const MIX = [
	{ kind: 'league page', share: 0.25 },
	{ kind: 'player page', share: 0.35 },
	{ kind: 'race page', share: 0.3 },
	{ kind: 'standings API', share: 0.1 },
] as const;
type Kind = (typeof MIX)[number]['kind'];

async function serve(): Promise<void> {
	const { createMemoryStore } = await import('../src/storage/memory-store.js');
	const { createLeagueRepository } = await import('../src/storage/league-repository.js');
	const { createServices } = await import('../src/services/index.js');
	const { createLeagueWebService } = await import('../src/services/web/league-web-service.js');
	const { startHttpServer } = await import('../src/http/server.js');
	const { createLogger } = await import('../src/logger.js');
	const store = createMemoryStore();
	const id = await buildBigLeague(store, { races: RACES, racers: 20, players: PLAYERS, seed: 9 });
	const clock = () => new Date('2026-01-01T12:00:00Z');
	const repo = createLeagueRepository(store, { clock });
	const services = createServices(repo, { clock });
	await services.leagues.configure({ userId: 'bench', guildId: 'bench', manageGuild: true, roles: [] }, id, {
		visibility: 'public',
	});
	const web = createLeagueWebService(repo, services.leaderboard, clock);
	const server = await startHttpServer({
		log: createLogger({ level: 'silent', write: () => {} }),
		web,
		host: '127.0.0.1',
		port: 0,
	});
	process.stdout.write(JSON.stringify({ url: server.url, league: id }) + '\n');
	// The driver asks (SIGUSR2) once its first requests are answered: the warm-up they started (every system's
	// standings, the explained history, the chart histories) is awaited and its end reported, as a running bot is
	// warm a few seconds after a race is submitted.
	process.on('SIGUSR2', () => {
		const league = (async () => (await repo.getLeague(id))!)();
		void league.then((l) => web.warmed(l)).then(() => process.stdout.write('warmed\n'));
	});
	process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

const percentile = (sorted: readonly number[], p: number) =>
	sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (x: number) => (Number.isNaN(x) ? '-' : `${x.toFixed(1)} ms`);

async function drive(): Promise<void> {
	const script = fileURLToPath(import.meta.url);
	const started = performance.now();
	const child = spawn(
		process.execPath,
		[
			...(process.env['PAGES_PROF'] ? ['--cpu-prof', '--cpu-prof-dir=' + process.env['PAGES_PROF']] : []),
			'--import',
			'tsx',
			script,
			'--serve',
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let out = '';
	const lines: ((line: string) => void)[] = [];
	child.stdout.on('data', (chunk: Buffer) => {
		out += chunk.toString();
		for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
			const line = out.slice(0, end);
			out = out.slice(end + 1);
			lines.shift()?.(line);
		}
	});
	const nextLine = () =>
		new Promise<string>((resolve, reject) => {
			lines.push(resolve);
			child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
		});
	const { url, league } = JSON.parse(await nextLine()) as { url: string; league: string };
	const setup = performance.now() - started;
	try {
		const base = `${url}/leagues/${encodeURIComponent(league)}`;
		const random = mulberry32(7);
		const pick = (n: number) => 1 + Math.floor(random() * n);
		const address = (kind: Kind): string => {
			switch (kind) {
				case 'league page':
					// Most visitors read the top; some page on (100 rows a page).
					return random() < 0.8 ? base : `${base}?page=${1 + pick(Math.ceil(PLAYERS / 100) - 1)}`;
				case 'player page':
					return `${base}/players/${pick(PLAYERS)}`;
				case 'race page':
					return `${base}/races/R${pick(RACES)}`;
				case 'standings API':
					return `${url}/api/v1/leagues/${encodeURIComponent(league)}/standings`;
			}
		};
		const kindAt = (): Kind => {
			let r = random();
			for (const m of MIX) if ((r -= m.share) < 0) return m.kind;
			return MIX[0].kind;
		};
		// The first request of each kind after the start, sequentially: the first replays (every system's standings,
		// the explained history, the chart histories) are a start's (or a new race's) cost, measured apart; then the
		// warm-up they started is waited for, as a running bot has done it by the time its pages are read.
		const warm: string[] = [];
		const warmStart = performance.now();
		for (const kind of MIX.map((m) => m.kind)) {
			const t = performance.now();
			const res = await fetch(address(kind));
			await res.arrayBuffer();
			warm.push(`${kind} ${ms(performance.now() - t)} (${res.status})`);
		}
		const warmed = nextLine();
		child.kill('SIGUSR2');
		await warmed;
		const warmTook = performance.now() - warmStart;
		const load = loadavg()[0]!;

		const samples: { kind: Kind; latency: number; at: number; error?: string }[] = [];
		const total = Math.round(RATE * SECONDS);
		const interval = 1000 / RATE;
		const t0 = performance.now() + 50;
		const inFlight: Promise<void>[] = [];
		let sent = 0;
		await new Promise<void>((done) => {
			const tick = () => {
				// Every request whose time has come is sent now (a late timer sends the ones it owes at once).
				while (sent < total && t0 + sent * interval <= performance.now()) {
					const scheduled = t0 + sent * interval;
					const kind = kindAt();
					const target = address(kind);
					sent++;
					inFlight.push(
						fetch(target, { signal: AbortSignal.timeout(TIMEOUT_MS) })
							.then(async (res) => {
								await res.arrayBuffer();
								const latency = performance.now() - scheduled;
								const at = scheduled - t0;
								samples.push(res.ok ? { kind, latency, at } : { kind, latency, at, error: `HTTP ${res.status}` });
							})
							.catch((error: unknown) => {
								const latency = performance.now() - scheduled;
								samples.push({ kind, latency, at: scheduled - t0, error: String(error) });
							}),
					);
				}
				if (sent >= total) done();
				else setTimeout(tick, Math.max(0, t0 + sent * interval - performance.now()));
			};
			setTimeout(tick, Math.max(0, t0 - performance.now()));
		});
		await Promise.all(inFlight);
		const elapsed = (performance.now() - t0) / 1000;

		console.log(
			`\nleague pages under load: ${PLAYERS} players, ${RACES} races of 20; ${RATE} requests/s for ${SECONDS} s, open loop ` +
				`(server in a child process, set up in ${(setup / 1000).toFixed(1)} s)`,
		);
		console.log(`  first request of each kind after the start: ${warm.join(' · ')}`);
		console.log(`  warm-up of the version (background, from the first request): ${(warmTook / 1000).toFixed(1)} s`);
		console.log(
			`  load average (1 min) on ${cpus().length} cores: ${load.toFixed(1)} before the run, ${loadavg()[0]!.toFixed(1)} after`,
		);
		const line = (label: string, rows: typeof samples) => {
			const sorted = rows.map((s) => s.latency).sort((a, b) => a - b);
			const errors = rows.filter((s) => s.error !== undefined).length;
			console.log(
				`  ${label.padEnd(14)} n=${String(rows.length).padStart(5)}  p50 ${ms(percentile(sorted, 50)).padStart(9)}  ` +
					`p95 ${ms(percentile(sorted, 95)).padStart(9)}  p99 ${ms(percentile(sorted, 99)).padStart(9)}  ` +
					`max ${ms(sorted.at(-1) ?? NaN).padStart(9)}  errors ${errors}`,
			);
		};
		// The first SETTLE seconds of load apart: the step from idle to the full rate (new connections, the page code's
		// first compilation, the warm-up's garbage collected) is a start's cost, as the first requests are.
		const settled = samples.filter((s) => s.at >= SETTLE * 1000);
		console.log(`  from ${SETTLE} s into the load on (the figure):`);
		for (const { kind } of MIX)
			line(
				kind,
				settled.filter((s) => s.kind === kind),
			);
		line('all', settled);
		line(
			`first ${SETTLE} s`,
			samples.filter((s) => s.at < SETTLE * 1000),
		);
		line('whole run', samples);
		const all = settled.map((s) => s.latency).sort((a, b) => a - b);
		const p99 = percentile(all, 99);
		const failed = samples.filter((s) => s.error !== undefined).length;
		console.log(
			`  ${samples.length} answers in ${elapsed.toFixed(1)} s; target: p99 under 50 ms at ${RATE}/s, no error: ` +
				`${p99 < 50 && failed === 0 ? 'met' : 'NOT met'} (p99 ${ms(p99)} from ${SETTLE} s on, ${failed} errors)`,
		);
		if (process.env['PAGES_TIMELINE'] === '1') {
			// Per second of the schedule: a server that falls behind steadily, or one stall, read differently.
			for (let second = 0; second < SECONDS; second++) {
				const sorted = samples
					.filter((s) => Math.floor(s.at / 1000) === second)
					.map((s) => s.latency)
					.sort((a, b) => a - b);
				console.log(`  second ${second}: p50 ${ms(percentile(sorted, 50))}, max ${ms(sorted.at(-1) ?? NaN)}`);
			}
		}
		const errors = samples.filter((s) => s.error !== undefined);
		if (errors.length > 0) console.log(`  first error: ${errors[0]!.kind}: ${errors[0]!.error}`);
	} finally {
		child.kill('SIGTERM');
	}
}

if (process.argv.includes('--serve')) await serve();
else await drive();
