/**
 * Child process of crash.test.ts: appends events to a league (SQLite, PostgreSQL or Redis: store-spec.ts) as fast as it can until it is killed.
 * Usage: node --import tsx crash-writer.ts <store spec JSON> <seed>. Prints `ready` once the league has an event, and
 * `acked` once its first writes are acknowledged.
 */
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { config, randomRaces } from './helpers.js';
import { openSpec, type StoreSpec } from './store-spec.js';
import { mulberry32 } from '../support/mulberry32.js';

const [specJson, seedText] = process.argv.slice(2);
const seed = Number(seedText);
const random = mulberry32(seed);
const store = await openSpec(JSON.parse(specJson!) as StoreSpec, (error) => {
	console.error(error);
	process.exit(2);
});
const repo = createLeagueRepository(store, { ratingEvery: 5, stateEvery: 7 });
const league = (await repo.getLeague('g1.main')) ?? (await repo.createLeague(config(), 'writer'));
console.log('ready');
const races = randomRaces(seed, 100_000);
for (let i = 0; ; i++) {
	const state = await repo.loadState(league.id);
	const confirmed = state.races().filter((r) => r.status === 'confirmed');
	const pick = confirmed[Math.floor(random() * confirmed.length)];
	const roll = random();
	const writes =
		roll < 0.1 && pick !== undefined
			? [repo.appendEvent(league.id, { type: 'race-voided', race: pick.id, reason: `void ${i}`, by: 'w' })]
			: roll < 0.2 && pick !== undefined
				? [
						repo.appendEvent(league.id, {
							type: 'race-edited',
							race: pick.id,
							reason: 'edit',
							changes: races[i]!,
							by: 'w',
						}),
					]
				: // Several submissions at once: they must land in call order, none lost.
					[0, 1, 2].map((k) =>
						repo.appendEvent(league.id, { type: 'race-submitted', race: races[i * 3 + k]!, by: 'w' }),
					);
	await Promise.all(writes);
	if (i === 0) console.log('acked'); // the first writes of this run are stored: the test may now pick its moment
}
