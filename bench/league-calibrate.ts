/**
 * `/league calibrate` on a big league: a generated league of 10,000 races of 20 racers
 * (big-league-data.ts), one system calibrated by the service on its worker thread, with the service's cap on
 * backtests (LEAGUE_MAX_EVALUATIONS). Prints, per system, the time to the proposal, the backtests it ran, the longest
 * event-loop block meanwhile (target < 50 ms: the work is on the worker; only the races' hand-over and the league's
 * state are on the bot's thread), the process's peak RSS (the worker's heap included) and the gain.
 *
 *   npx tsx bench/league-calibrate.ts [races] [system ...]
 */
import { availableParallelism, loadavg } from 'node:os';
import { createServices, type Actor } from '../src/services/index.js';
import { LEAGUE_MAX_EVALUATIONS } from '../src/services/calibration/league-calibrate-service.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { createMemoryStore } from '../src/storage/memory-store.js';
import { buildBigLeague } from './big-league-data.js';
import { fmtMs, measureBlocking } from './timing.js';

const TARGET_BLOCK_MS = 50;
const actor: Actor = { userId: 'bench', guildId: 'bench', manageGuild: true, roles: [] };

export async function runLeagueCalibrateBench(
	races = 10_000,
	systemIds: readonly string[] = ['folyami', 'glicko', 'endure'],
): Promise<void> {
	console.log(
		`\n== /league calibrate: ${races} races of 20 racers, cap ${LEAGUE_MAX_EVALUATIONS} backtests, on a worker thread`,
	);
	// The worker takes one core; on a shared machine the bot's thread competes with other processes for the other.
	console.log(`  load average ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores at the start`);
	const store = createMemoryStore();
	await buildBigLeague(store, { races, racers: 20, players: 2_000, seed: 9 });
	const services = createServices(createLeagueRepository(store));
	await services.leagues.info(actor, 'Big'); // the league's log read once, as the bot has it before a command
	for (const system of systemIds) {
		(globalThis as { gc?: () => void }).gc?.(); // the league's building garbage is not this command's
		const rssBefore = process.memoryUsage().rss;
		let peakRss = rssBefore;
		// When the longest stalls happened (s from the ask): at the start, the bot's own work (the races handed over);
		// anywhere else, the machine (the worker and other processes sharing 2 cores).
		const started = performance.now();
		const stalls: { at: number; ms: number }[] = [];
		let last = started;
		const sampler = setInterval(() => {
			const now = performance.now();
			if (now - last > 30) stalls.push({ at: (now - started) / 1000, ms: now - last - 10 });
			last = now;
			peakRss = Math.max(peakRss, process.memoryUsage().rss);
		}, 10);
		const run = await measureBlocking(() => services.calibrate.calibrate(actor, { league: 'Big', system }));
		clearInterval(sampler);
		const worst = stalls.sort((a, b) => b.ms - a.ms).slice(0, 3);
		const r = run.value.result;
		console.log(
			`  ${system.padEnd(8)} proposal in ${fmtMs(run.ms)}  ${String(r.evaluations).padStart(2)} backtests  ` +
				`event-loop delay max ${fmtMs(run.maxBlockMs)} (target < ${TARGET_BLOCK_MS} ms), p99 ${fmtMs(run.p99Ms)}, ` +
				`longest GC here ${fmtMs(run.maxGcMs)}, process peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB (${(rssBefore / 2 ** 20).toFixed(0)} MB before)  ` +
				`LL ${r.defaultLogLikelihood.toFixed(1)} → ${r.bestLogLikelihood.toFixed(1)} (+${r.gain.toFixed(1)} on ${r.races} races)`,
		);
		console.log(
			`           stalls over 20 ms: ${stalls.length}; longest ${worst.map((s) => `${fmtMs(s.ms)} at ${s.at.toFixed(2)} s`).join(', ') || '-'}`,
		);
	}
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const [races, ...systemIds] = process.argv.slice(2);
	await runLeagueCalibrateBench(Number(races ?? 10_000), systemIds.length > 0 ? systemIds : undefined);
}
