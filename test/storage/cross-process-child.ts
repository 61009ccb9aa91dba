/**
 * A second process on one store (cross-process.test.ts): opens the store of the spec on its own connection and says
 * `ready`. Mode add: for each `go` line on stdin, `add` the next key k0…k(n-1) and answer `won` or `lost` (the parent
 * sends each go to both processes at once, so every key is contested). Mode append: on the first `go`, append n
 * races to a league at once and print the seqs as one JSON line.
 */
import { createInterface } from 'node:readline';
import type { RaceInput } from '../../src/league/league-events.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openSpec, type StoreSpec } from './store-spec.js';

const [specJson, mode, tag, count, league] = process.argv.slice(2);
const spec = JSON.parse(specJson!) as StoreSpec;
const n = Number(count);
const store = await openSpec(spec, (error) => {
	process.stderr.write(`store error: ${String(error)}\n`);
	process.exit(3);
});
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

if (mode === 'add') {
	const jobs = store.namespace('jobs');
	for (let i = 0; i < n; i += 1) {
		await lines.next();
		process.stdout.write((await jobs.add(`race:k${i}`, { v: 1, tag })) ? 'won\n' : 'lost\n');
	}
} else {
	await lines.next();
	const repo = createLeagueRepository(store);
	const race = (i: number): RaceInput => ({
		date: '2024-03-01',
		entries: [
			{ player: `${tag}${i}`, position: 1, status: 'finished' },
			{ player: 'Shared', position: 2, status: 'finished' },
		],
	});
	const results = await Promise.all(
		Array.from({ length: n }, (_, i) => repo.appendEvent(league!, { type: 'race-submitted', race: race(i), by: tag! })),
	);
	process.stdout.write(`${JSON.stringify({ seqs: results.map((result) => result.seq) })}\n`);
}
await store.close();
process.exit(0);
