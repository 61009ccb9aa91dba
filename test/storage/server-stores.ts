import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import pg from 'pg';
import { inject } from 'vitest';
import '../support/store-servers.js';
import type { StoreSpec } from './store-spec.js';

/**
 * Stores on the private test servers (test/setup/store-servers.ts). Each `serverStores()` call (one per test file)
 * gets its own PostgreSQL schema and Redis key prefix, and each file name its own table / sub-prefix, so test files
 * running in parallel never see each other's keys; `cleanup` drops them.
 */

export interface ServerAdapter {
	readonly name: 'postgresql' | 'redis';
	/** Why the server is not there (its cases skip with this), or undefined. */
	readonly unavailable: string | undefined;
	/** The store of `file` (undefined while the server is unavailable). */
	readonly spec: (file: string) => StoreSpec;
	cleanup(): Promise<void>;
}

const tableName = (file: string): string => `k_${file.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);

export function serverStores(): ServerAdapter[] {
	const servers = inject('storeServers');
	const run = randomBytes(5).toString('hex');
	const schema = `t_${run}`;
	const postgresUrl = 'url' in servers.postgresql ? servers.postgresql.url : undefined;
	const redisUrl = 'url' in servers.redis ? servers.redis.url : undefined;
	const postgresql: ServerAdapter = {
		name: 'postgresql',
		unavailable: 'unavailable' in servers.postgresql ? servers.postgresql.unavailable : undefined,
		spec: (file) => ({ kind: 'postgresql', url: postgresUrl!, schema, table: tableName(file) }),
		async cleanup() {
			if (postgresUrl === undefined) return;
			const client = new pg.Client(postgresUrl);
			await client.connect();
			await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
			await client.end();
		},
	};
	const redis: ServerAdapter = {
		name: 'redis',
		unavailable: 'unavailable' in servers.redis ? servers.redis.unavailable : undefined,
		spec: (file) => ({ kind: 'redis', url: redisUrl!, prefix: `t${run}:${file}` }),
		async cleanup() {
			if (redisUrl === undefined) return;
			const client = createClient({ url: redisUrl });
			await client.connect();
			for await (const batch of client.scanIterator({ MATCH: `t${run}:*`, COUNT: 500 })) {
				const keys = Array.isArray(batch) ? batch : [batch];
				if (keys.length > 0) await client.del(keys);
			}
			await client.close();
		},
	};
	return [postgresql, redis];
}
