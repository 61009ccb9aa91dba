import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStoreUrl, openStore } from '../../src/storage/store-url.js';
import { adapters, skipUnavailable } from './helpers.js';

const { list, cleanup } = adapters();
afterAll(cleanup);

describe.each(list)('Store contract: $name adapter', (adapter) => {
	skipUnavailable(adapter);

	it('get of a missing key is undefined; set then get returns an equal copy', async () => {
		const ns = (await adapter.open('basic')).namespace('events');
		expect(await ns.get('nope')).toBeUndefined();
		const value = { v: 1, nested: { list: [1, 'two', null], flag: true } };
		await ns.set('k', value);
		expect(await ns.get('k')).toEqual(value);
		expect(await ns.get('k')).not.toBe(value);
	});

	it('finite doubles survive the round trip bit for bit', async () => {
		const ns = (await adapter.open('doubles')).namespace('rating-snapshots');
		const numbers = [0.1 + 0.2, 1 / 3, Math.PI * 1e-300, 5e-324, 1.7976931348623157e308, -2.5e-7, 1500.0000000000002];
		await ns.set('n', numbers);
		const back = (await ns.get('n')) as number[];
		back.forEach((x, i) => expect(Object.is(x, numbers[i])).toBe(true));
	});

	it('getMany returns values in key order with undefined for gaps', async () => {
		const ns = (await adapter.open('many')).namespace('events');
		await ns.set('a', 1);
		await ns.set('c', 3);
		expect(await ns.getMany(['c', 'b', 'a'])).toEqual([3, undefined, 1]);
	});

	it('a record of a million characters reads back equal through get and getMany', async () => {
		const ns = (await adapter.open('large')).namespace('league-state');
		const races = Array.from({ length: 10_000 }, (_, i) => ({
			id: `R${i}`,
			entries: [{ player: 'p'.repeat(60), time: i / 3 }],
		}));
		const value = { v: 1, races };
		expect(JSON.stringify(value).length).toBeGreaterThan(1_000_000);
		await ns.set('big', value);
		await ns.set('small', { v: 1 });
		expect(await ns.get('big')).toEqual(value);
		expect(await ns.getMany(['small', 'big'])).toEqual([{ v: 1 }, value]);
	});

	it('add writes only when absent, and concurrent adds of one key have exactly one winner', async () => {
		const ns = (await adapter.open('add')).namespace('events');
		expect(await ns.add('x', 'first')).toBe(true);
		expect(await ns.add('x', 'second')).toBe(false);
		expect(await ns.get('x')).toBe('first');
		const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => ns.add('race', i)));
		expect(wins.filter(Boolean)).toHaveLength(1);
		expect(await ns.get('race')).toBe(wins.indexOf(true));
	});

	it('a value written with add reads back through get (same serialisation as set)', async () => {
		const ns = (await adapter.open('add-read')).namespace('events');
		await ns.add('e', { v: 1, text: ':colon', n: 0.1 });
		expect(await ns.get('e')).toEqual({ v: 1, text: ':colon', n: 0.1 });
	});

	it('scan yields every key of one namespace with its value, and only those', async () => {
		const store = await adapter.open('scan');
		const events = store.namespace('events');
		const keys = Array.from({ length: 150 }, (_, i) => `g1.main:${i}`);
		for (const key of keys) await events.set(key, { v: 1, key });
		await events.add('g1.main:added', { v: 1, key: 'g1.main:added' });
		await store.namespace('guilds').set('g1', { v: 1, leagues: [] });
		await store.namespace('rating-index').set('g1.main:glicko', { v: 1 });
		const seen = new Map<string, unknown>();
		for await (const [key, value] of store.scan!('events')) seen.set(key, value);
		expect([...seen.keys()].sort()).toEqual([...keys, 'g1.main:added'].sort());
		for (const [key, value] of seen) expect(value).toEqual({ v: 1, key });
		const guilds: string[] = [];
		for await (const [key] of store.scan!('guilds')) guilds.push(key);
		expect(guilds).toEqual(['g1']);
		await store.close();
	});

	it('keys stay where they were written whatever order the namespaces are opened in', async () => {
		const first = await adapter.open('order');
		await first.namespace('events').set('k', 'event');
		await first.namespace('jobs').set('k', 'job');
		expect(await first.namespace('events').get('k')).toBe('event');
		await first.close();
		const second = await adapter.open('order');
		expect(await second.namespace('jobs').get('k')).toBe('job');
		expect(await second.namespace('events').getMany(['k', 'x'])).toEqual(['event', undefined]);
		expect(await second.namespace('events').add('k', 'other')).toBe(false);
		await second.close();
	});

	it('namespaces are isolated, delete removes, data survives a reopen', async () => {
		const store = await adapter.open('reopen');
		await store.namespace('events').set('k', 'event');
		await store.namespace('guilds').set('k', 'guild');
		await store.namespace('guilds').set('gone', 1);
		await store.namespace('guilds').delete('gone');
		await store.close();
		const again = await adapter.open('reopen');
		expect(await again.namespace('events').get('k')).toBe('event');
		expect(await again.namespace('guilds').get('k')).toBe('guild');
		expect(await again.namespace('guilds').get('gone')).toBeUndefined();
		expect(await again.namespace('league-state').get('k')).toBeUndefined();
		await again.close();
	});
});

describe('STORE_URL', () => {
	it('maps each scheme to its adapter', () => {
		expect(parseStoreUrl('sqlite://data/pitwall.sqlite')).toEqual({ kind: 'sqlite', path: 'data/pitwall.sqlite' });
		expect(parseStoreUrl('memory://')).toEqual({ kind: 'memory' });
		expect(parseStoreUrl('postgresql://u@localhost/db')).toEqual({
			kind: 'postgresql',
			url: 'postgresql://u@localhost/db',
		});
		expect(parseStoreUrl('postgres://h/db')).toMatchObject({ kind: 'postgresql' });
		expect(parseStoreUrl('redis://localhost:6379')).toEqual({ kind: 'redis', url: 'redis://localhost:6379' });
		expect(parseStoreUrl('rediss://h:6380')).toMatchObject({ kind: 'redis' });
		expect(() => parseStoreUrl('mysql://x')).toThrow(/not sqlite/);
		expect(() => parseStoreUrl('sqlite://')).toThrow(/file path/);
	});

	it('sqlite:// creates the directory and puts the file in WAL mode', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'pitwall-wal-'));
		const path = join(dir, 'nested', 'league.sqlite');
		const store = await openStore(`sqlite://${path}`, () => {});
		await store.namespace('events').set('k', 1);
		expect(existsSync(`${path}-wal`)).toBe(true);
		await store.close();
		const probe = new KeyvSqlite({ uri: `sqlite://${path}` });
		expect(await probe.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
		await probe.disconnect();
		rmSync(dir, { recursive: true, force: true });
	});
});
