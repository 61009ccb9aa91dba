/**
 * `/league stats` on a big league: a generated league of 10,000 races of 20 racers (big-league-data.ts),
 * every race system backtested by the stats service. Prints the time of the first answer, its longest event-loop
 * block (target < 50 ms: the service yields between slices) and the time of a second, cached answer.
 *
 *   npx tsx bench/league-stats.ts
 */
import { createServices, type Actor } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { createMemoryStore } from '../src/storage/memory-store.js';
import { buildBigLeague } from './big-league-data.js';
import { fmtMs, measureBlocking } from './timing.js';

const TARGET_BLOCK_MS = 50;
const actor: Actor = { userId: 'bench', guildId: 'bench', manageGuild: true, roles: [] };

export async function benchLeagueStats(races = 10_000): Promise<void> {
	console.log(`\n== /league stats: ${races} races of 20 racers, every race system backtested`);
	const store = createMemoryStore();
	await buildBigLeague(store, { races, racers: 20, players: 2_000, seed: 9 });
	const services = createServices(createLeagueRepository(store));
	await services.leagues.info(actor, 'Big'); // the league's log read once, as the bot has it before a command
	const first = await measureBlocking(() => services.stats.stats(actor, { league: 'Big' }));
	console.log(
		`  first answer ${fmtMs(first.ms)}, longest event-loop block ${fmtMs(first.maxBlockMs)} (target < ${TARGET_BLOCK_MS} ms), p99 delay ${fmtMs(first.p99Ms)}, longest GC ${fmtMs(first.maxGcMs)}`,
	);
	const again = await measureBlocking(() => services.stats.stats(actor, { league: 'Big' }));
	console.log(`  cached answer ${fmtMs(again.ms)}`);
	for (const s of first.value.systems) {
		const { races: scored, winner_log_likelihood: ll, brier_winner: brier } = s.backtest;
		console.log(
			`  ${s.system.padEnd(8)} races ${scored}  LL ${ll.toFixed(1)}  Brier ${brier?.toFixed(4) ?? '-'}  picked ${((s.stats.winnersPickedShare ?? 0) * 100).toFixed(1)}%`,
		);
	}
}

if (import.meta.url === `file://${process.argv[1]}`) await benchLeagueStats(Number(process.argv[2] ?? 10_000));
