/**
 * Child process of store-faults.test.ts: a repository over one store (store-spec.ts), driven line by line on stdin so
 * a fault that kills the process (SIGBUS) shows as its exit, not as a failed assertion inside the test's own process.
 * Usage: node --import tsx store-faults-child.ts <store spec JSON> <races to submit first>. Prints `ready <seq>`, then
 * answers each line: `write` (submit the next race), `read` (folyami standings), `fresh` (the log re-read from the
 * store), with one JSON line each: { ok, seq?, players?, error?, message?, ms }.
 */
import { createInterface } from 'node:readline';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { config, randomRaces } from './helpers.js';
import { openSpec, type StoreSpec } from './store-spec.js';

const [specJson, firstText] = process.argv.slice(2);
const logged: string[] = [];
const store = await openSpec(JSON.parse(specJson!) as StoreSpec, (error) =>
	logged.push(error instanceof Error ? error.message : String(error)),
);
const repo = createLeagueRepository(store, { ratingEvery: 5, stateEvery: 7 });
const league = (await repo.getLeague('g1.main')) ?? (await repo.createLeague(config(), 'child'));
const races = randomRaces(23, 1000);
let next = 0;
for (; next < Number(firstText); next++) {
	await repo.appendEvent(league.id, { type: 'race-submitted', race: races[next]!, by: 'child' });
}
console.log(`ready ${(await repo.loadState(league.id)).seq()}`);

const commands: Record<string, () => Promise<object>> = {
	write: async () => ({
		seq: (await repo.appendEvent(league.id, { type: 'race-submitted', race: races[next++]!, by: 'child' })).seq,
	}),
	read: async () => {
		const view = await repo.ratingsAt(league.id, 'folyami');
		return { seq: view.seq, players: view.standings.map((row) => [row.player, row.rating]) };
	},
	fresh: async () => ({ seq: (await repo.loadState(league.id, { fresh: true })).seq() }),
	logged: () => Promise.resolve({ logged }),
	close: async () => (await repo.close(), {}),
};

for await (const line of createInterface({ input: process.stdin })) {
	const started = performance.now();
	try {
		const answer = await commands[line]!();
		console.log(JSON.stringify({ ok: true, ...answer, ms: performance.now() - started }));
	} catch (error) {
		const { name, message } = error as Error;
		console.log(JSON.stringify({ ok: false, error: name, message, ms: performance.now() - started }));
	}
}
