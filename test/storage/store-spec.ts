import { openPostgresStore } from '../../src/storage/postgres-store.js';
import type { Store } from '../../src/storage/ports.js';
import { openRedisStore } from '../../src/storage/redis-store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';

/** Where a test store lives, as JSON a child process can be given (cross-process.test.ts) to open the same store. */
export type StoreSpec =
	| { readonly kind: 'sqlite'; readonly path: string }
	| { readonly kind: 'postgresql'; readonly url: string; readonly schema: string; readonly table: string }
	| { readonly kind: 'redis'; readonly url: string; readonly prefix: string };

/** Opens the store of `spec`, on a connection (pool, client) of its own. */
export function openSpec(spec: StoreSpec, onError: (error: unknown) => void): Promise<Store> {
	switch (spec.kind) {
		case 'sqlite':
			return openSqliteStore(spec.path, onError);
		case 'postgresql':
			return openPostgresStore(spec.url, onError, { schema: spec.schema, table: spec.table });
		case 'redis':
			return openRedisStore(spec.url, onError, { prefix: spec.prefix });
	}
}
