import { join } from 'node:path';
import { createClient } from '@keyv/redis';
import pg from 'pg';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/cli/migrate.js';
import type { CliIo } from '../../src/cli/command.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { raceSystems } from '../../src/ratings/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { allEntityNames } from '../../src/storage/migrate-store.js';
import type { LeagueRepository, Store } from '../../src/storage/ports.js';
import { openStore } from '../../src/storage/store-url.js';
import { adapters, config, failOnError, randomRaces } from './helpers.js';

/**
 * `npm run migrate`: the ZakStunts sample league (and a second league, a void, a rename, a daily record
 * and a job key) from SQLite to PostgreSQL to Redis, through the CLI with real URLs; then every league's events,
 * every system's ratings, the daily record and the job key read the same from Redis as from SQLite. These use the
 * servers' default table (public.keyv) and unprefixed Redis keys, which no other test file touches, and drop them.
 */

const { list, dir, cleanup } = adapters();
const servers = list.filter((adapter) => adapter.name === 'postgresql' || adapter.name === 'redis');
const url = (name: string) => {
	const spec = list.find((adapter) => adapter.name === name)!.spec!('unused');
	return 'url' in spec ? spec.url : '';
};

afterAll(async () => {
	await cleanup();
	if (servers.some((server) => server.unavailable !== undefined)) return;
	const client = new pg.Client(url('postgresql'));
	await client.connect();
	await client.query('DROP TABLE IF EXISTS public.keyv');
	await client.end();
	const redis = createClient({ url: url('redis') });
	await redis.connect();
	for (const name of allEntityNames) {
		for await (const batch of redis.scanIterator({ MATCH: `${name}:*`, COUNT: 500 })) {
			const keys = Array.isArray(batch) ? batch : [batch];
			if (keys.length > 0) await redis.del(keys);
		}
	}
	await redis.close();
});

const captured = () => {
	const out: string[] = [];
	const err: string[] = [];
	const io: CliIo = { out: (text) => void out.push(text), err: (text) => void err.push(text) };
	return { io, out, err };
};

/** Everything a user could see of a store, as JSON: leagues, events, states, every system's ratings. */
async function view(repo: LeagueRepository, store: Store) {
	const leagues = await repo.listAllLeagues();
	const result: Record<string, unknown> = { leagues };
	for (const league of leagues) {
		result[`${league.id}:events`] = await repo.readEvents(league.id);
		result[`${league.id}:players`] = (await repo.loadState(league.id)).snapshot();
		for (const system of raceSystems) {
			const ratings = await repo.ratingsAt(league.id, system.id);
			result[`${league.id}:${system.id}`] = { standings: ratings.standings, players: ratings.snapshot.players };
		}
	}
	result['daily'] = await repo.readDaily('g1.zakstunts', ['2024-06-01']);
	result['job'] = await store.namespace('jobs').get('post:g1.zakstunts:2024-06');
	return JSON.stringify(result);
}

describe('npm run migrate', () => {
	beforeEach((context) => {
		for (const server of servers) if (server.unavailable !== undefined) context.skip(server.unavailable);
	});

	it('sqlite (sample league) → postgresql → redis: the same events, records and ratings of every system', async () => {
		const file = join(dir, 'source.sqlite');
		const source = await openStore(`sqlite://${file}`, failOnError);
		const repo = createLeagueRepository(source);
		const seeded = await ensureSampleLeague(repo, 'g1');
		expect(seeded.races).toBeGreaterThan(100);
		const id = seeded.league.id;
		await repo.appendEvent(id, { type: 'race-voided', race: 'R7', reason: 'test', by: 'u1' });
		const state = await repo.loadState(id);
		const first = state.snapshot().players[0]!;
		await repo.appendEvent(id, { type: 'player-renamed', player: first.id, name: 'Renamed One', by: 'u1' });
		const other = await repo.createLeague(config('Other', { guildId: 'g2' }), 'u0');
		for (const race of randomRaces(5, 20)) await repo.appendEvent(other.id, { type: 'race-submitted', race, by: 'u2' });
		const standings = (await repo.standingsOn(id, 'folyami', ['2024-06-01'])).get('2024-06-01')!;
		await repo.addDaily({ league: id, day: '2024-06-01', basis: 1, systems: { folyami: standings } });
		await source.namespace('jobs').set(`post:${id}:2024-06`, { v: 1, state: 'posted', attempt: 1, at: 'now' });
		const expected = await view(repo, source);
		await source.close();

		const toPostgres = captured();
		const started = performance.now();
		expect(await migrate(['--from', `sqlite://${file}`, '--to', url('postgresql')], toPostgres.io)).toBe(0);
		const sqliteToPostgres = performance.now() - started;
		expect(toPostgres.out.join('')).toMatch(
			/copied 2 leagues \(\d+ records\) from sqlite .* to postgresql 127\.0\.0\.1:\d+\/postgres in [\d.]+ s; every record read back equal/,
		);

		const toRedis = captured();
		const middle = performance.now();
		expect(await migrate(['--from', url('postgresql'), '--to', url('redis')], toRedis.io)).toBe(0);
		const postgresToRedis = performance.now() - middle;
		process.stdout.write(
			`migrate of the sample league: sqlite→postgresql ${sqliteToPostgres.toFixed(0)} ms, postgresql→redis ${postgresToRedis.toFixed(0)} ms\n`,
		);

		for (const target of [url('postgresql'), url('redis')]) {
			const store = await openStore(target, failOnError);
			expect(await view(createLeagueRepository(store), store), target).toBe(expected);
			await store.close();
		}
	});

	it('refuses a non-empty target unless given --force, and bad arguments, each with a clear message', async () => {
		const file = join(dir, 'small.sqlite');
		const source = await openStore(`sqlite://${file}`, failOnError);
		await createLeagueRepository(source).createLeague(config('Small', { guildId: 'g9' }), 'u0');
		await source.close();
		const empty = join(dir, 'empty.sqlite');
		const once = captured();
		expect(await migrate(['--from', `sqlite://${file}`, '--to', `sqlite://${empty}`], once.io)).toBe(0);

		const again = captured();
		expect(await migrate(['--from', `sqlite://${file}`, '--to', `sqlite://${empty}`], again.io)).toBe(2);
		expect(again.err.join('')).toMatch(/the target sqlite store is not empty \(it holds events:g9\.small:0\).*--force/);
		const forced = captured();
		expect(await migrate(['--from', `sqlite://${file}`, '--to', `sqlite://${empty}`, '--force'], forced.io)).toBe(0);

		const missing = captured();
		expect(await migrate(['--from', `sqlite://${file}`], missing.io)).toBe(2);
		expect(missing.err.join('')).toMatch(/missing required option --to/);
		const memory = captured();
		expect(await migrate(['--from', `sqlite://${file}`, '--to', 'memory://'], memory.io)).toBe(2);
		expect(memory.err.join('')).toMatch(/memory:\/\/ lives only inside one process/);
		const unreachable = captured();
		expect(await migrate(['--from', `sqlite://${file}`, '--to', 'redis://127.0.0.1:1'], unreachable.io)).toBe(2);
		expect(unreachable.err.join('')).toMatch(/could not open the Redis store at 127\.0\.0\.1:1/);
		const refused = captured();
		const secret = 'postgresql://someone:s3cret@127.0.0.1:1/pitwall';
		expect(await migrate(['--from', secret, '--to', `sqlite://${empty}`], refused.io)).toBe(2);
		expect(refused.err.join('')).toMatch(
			/could not open the PostgreSQL store at 127\.0\.0\.1:1\/pitwall: .*ECONNREFUSED/,
		);
		expect(refused.err.join('')).not.toMatch(/s3cret|someone/);
	});
});
