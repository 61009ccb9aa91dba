import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { eventToDomain, SchemaVersionError } from '../../src/storage/records.js';
import { allEntityNames } from '../../src/storage/migrate-store.js';
import { type Adapter, adapters, config, randomRaces, skipUnavailable } from './helpers.js';

const { list, dir, cleanup } = adapters();
afterAll(cleanup);
const sqlite = list.find((adapter) => adapter.name === 'sqlite')!;

async function seeded(file: string, adapter: Adapter) {
	const store = await adapter.open(file);
	const repo = createLeagueRepository(store, { ratingEvery: 4, stateEvery: 5 });
	const { id } = await repo.createLeague(config(), 'u0');
	for (const race of randomRaces(2, 12)) await repo.appendEvent(id, { type: 'race-submitted', race, by: 'u1' });
	await repo.appendEvent(id, { type: 'race-voided', race: 'R3', reason: 'x', by: 'u1' });
	return { store, repo, id };
}

describe.each(list)('schema versions: $name adapter', (adapter) => {
	skipUnavailable(adapter);

	it('every stored record, in every namespace, carries schema version 1', async () => {
		const { store } = await seeded('versions', adapter);
		const found = new Map<string, number>();
		for (const name of allEntityNames) {
			for await (const [key, value] of store.scan!(name)) {
				expect((value as { v: unknown }).v, `${name}:${key}`).toBe(1);
				found.set(name, (found.get(name) ?? 0) + 1);
			}
		}
		await store.close();
		expect([...found.keys()].sort()).toEqual(['events', 'guilds', 'league-state', 'rating-index', 'rating-snapshots']);
	});

	it.each([
		['events', (id: string) => `${id}:14`],
		['league-state', (id: string) => id],
	] as const)('a %s record from a newer pitwall is refused with a clear message', async (namespace, key) => {
		const { store, id } = await seeded(`future-${namespace}`, adapter);
		const raw = { v: 2, seq: 14, type: 'race-voided', race: 'R1', reason: 'x', by: 'u', at: 't' };
		await store.namespace(namespace).set(key(id), namespace === 'events' ? raw : { v: 2, league: id, state: {} });
		const fresh = createLeagueRepository(await adapter.open(`future-${namespace}`));
		await expect(fresh.loadState(id)).rejects.toThrow(SchemaVersionError);
		await expect(fresh.loadState(id)).rejects.toThrow(/schema version 2, but this pitwall reads up to version 1/);
	});

	it('a rating snapshot from a newer pitwall is refused, not silently replayed', async () => {
		const { store, id } = await seeded('future-rating', adapter);
		const index = (await store.namespace('rating-index').get(`${id}:glicko`)) as { entries: { upTo: number }[] };
		expect(index.entries.length).toBeGreaterThan(0);
		await store.namespace('rating-snapshots').set(`${id}:glicko:${index.entries.at(-1)!.upTo}`, { v: 3 });
		const fresh = createLeagueRepository(await adapter.open('future-rating'));
		await expect(fresh.ratingsAt(id, 'glicko')).rejects.toThrow(/schema version 3/);
	});
});

describe('records', () => {
	it('the SQLite file holds the same records under <namespace>:<key> with keyv JSON', async () => {
		const { store } = await seeded('raw', sqlite);
		await store.close();
		const probe = new KeyvSqlite({ uri: `sqlite://${join(dir, 'raw.sqlite')}` });
		const rows = (await probe.query('SELECT key, value FROM keyv')) as { key: string; value: string }[];
		await probe.disconnect();
		const namespaces = new Set(rows.map((row) => row.key.split(':')[0]));
		// `meta` holds the store id (sqlite-identity.ts).
		expect([...namespaces].sort()).toEqual([
			'events',
			'guilds',
			'league-state',
			'meta',
			'rating-index',
			'rating-snapshots',
		]);
		for (const row of rows) expect((JSON.parse(row.value) as { value: { v: unknown } }).value.v, row.key).toBe(1);
	});

	it('a record without a version is refused', () => {
		expect(() => eventToDomain({ seq: 0, type: 'race-voided' }, 'event x')).toThrow(/no valid schema version/);
		expect(() => eventToDomain({ v: 1, seq: 0, type: 'nonsense' }, 'event x')).toThrow(/not a league event/);
	});
});
