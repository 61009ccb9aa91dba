/**
 * Child process of league-creation-processes.test.ts: opens the SQLite store at <file>, prints `ready`, waits for a
 * line on stdin (so two processes start their work together), then does one job and prints its outcome as JSON.
 *   seed <file>                      the console's first run (ensureSampleLeague)
 *   create <file> <prefix> <count>   creates leagues `<prefix> 0` … `<prefix> <count-1>` concurrently in guild g1
 * Usage: node --import tsx league-creation-worker.ts <job> <file> [args…]
 */
import { once } from 'node:events';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { LeagueError } from '../../src/league/race-log.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { config } from './helpers.js';

const [job, file, prefix, countText] = process.argv.slice(2);
const store = await openSqliteStore(file!, (error) => {
	console.error(error);
	process.exit(2);
});
const repo = createLeagueRepository(store);
process.stdout.write('ready\n');
await once(process.stdin, 'data');
if (job === 'seed') {
	process.stdout.write('seeding\n');
	const seeded = await ensureSampleLeague(repo, 'g1');
	process.stdout.write(`${JSON.stringify({ races: seeded.races })}\n`);
} else {
	const names = Array.from({ length: Number(countText) }, (_, i) => `${prefix} ${i}`);
	const outcomes = await Promise.all(
		names.map((name) =>
			repo.createLeague(config(name), `writer ${process.pid}`).then(
				() => 'created',
				(error: unknown) => {
					if (error instanceof LeagueError) return 'exists';
					throw error;
				},
			),
		),
	);
	process.stdout.write(`${JSON.stringify(Object.fromEntries(names.map((name, i) => [name, outcomes[i]])))}\n`);
}
await repo.close();
