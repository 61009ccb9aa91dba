import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { openSqliteStore } from '../src/storage/sqlite-store.js';
import { BIG_LEAGUE, buildBigLeague } from './big-league-data.js';
import { existsSync } from 'node:fs';
const path = '/tmp/diag/big.sqlite';
const fresh = !existsSync(path);
const store = await openSqliteStore(path, (e) => console.error(e));
if (fresh) {
	await buildBigLeague(store, BIG_LEAGUE, { guildId: 'g', name: 'Big' });
	const repo = createLeagueRepository(store);
	const services = createServices(repo);
	const actor = { userId: 'bench', guildId: 'g', manageGuild: true, roles: [] };
	await services.ratings.rating(actor, { league: 'Big', player: 'Driver 0000' });
	await new Promise((r) => setTimeout(r, 20000));
	await repo.close();
}
