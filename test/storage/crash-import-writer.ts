/**
 * Child process of crash-import.test.ts: imports histories of 300 races into new SQLite leagues (`Imp 0`, `Imp 1`,
 * …), one after another, until it is killed. Usage: node --import tsx crash-import-writer.ts <file.sqlite> <seed>.
 * Prints `importing` just before each import is appended.
 */
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { config, randomRaces } from './helpers.js';

const IMPORT_SIZE = 300; // crash-import.test.ts expects this size

const [file, seedText] = process.argv.slice(2);
const seed = Number(seedText);
const store = await openSqliteStore(file!, (error) => {
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
