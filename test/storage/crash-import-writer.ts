/**
 * Child process of crash-import.test.ts: imports histories of 300 races into new leagues (SQLite, PostgreSQL or Redis) (`Imp 0`, `Imp 1`,
 * …), one after another, until it is killed. Usage: node --import tsx crash-import-writer.ts <store spec JSON> <seed>.
 * Prints `importing` just before each import is appended.
 */
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { config, randomRaces } from './helpers.js';
import { openSpec, type StoreSpec } from './store-spec.js';

const IMPORT_SIZE = 300; // crash-import.test.ts expects this size

const [specJson, seedText] = process.argv.slice(2);
const seed = Number(seedText);
const store = await openSpec(JSON.parse(specJson!) as StoreSpec, (error) => {
	console.error(error);
	process.exit(2);
});
const repo = createLeagueRepository(store, { ratingEvery: 50, stateEvery: 7 });
for (let i = 0; ; i++) {
	const name = `Imp ${seed}-${i}`;
	const league = await repo.createLeague(config(name), 'writer');
	const races = randomRaces(seed * 1000 + i, IMPORT_SIZE, 40);
	console.log('importing');
	await repo.appendEvent(league.id, { type: 'league-imported', races, source: `${name}.csv`, by: 'writer' });
}
