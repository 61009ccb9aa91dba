import { StoreError } from './keyv-store.js';
import { createMemoryStore } from './memory-store.js';
import type { Store } from './ports.js';

/**
 * `STORE_URL` → a Store. `sqlite://<path>` (default `sqlite://data/pitwall.sqlite`, relative to the working
 * directory), `memory://`, `postgresql://…` (or `postgres://…`) and `redis://…` (or `rediss://…`), each with an
 * atomic insert-if-absent on the server (docs/storage.md).
 */

export const DEFAULT_STORE_URL = 'sqlite://data/pitwall.sqlite';

export type StoreTarget =
	| { readonly kind: 'sqlite'; readonly path: string }
	| { readonly kind: 'memory' }
	| { readonly kind: 'postgresql' | 'redis'; readonly url: string };

export function parseStoreUrl(url: string): StoreTarget {
	const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
	switch (scheme) {
		case 'sqlite': {
			const path = url.slice('sqlite://'.length);
			if (path === '') throw new StoreError('STORE_URL sqlite:// needs a file path, e.g. sqlite://data/pitwall.sqlite');
			return { kind: 'sqlite', path };
		}
		case 'memory':
			return { kind: 'memory' };
		case 'postgres':
		case 'postgresql':
			return { kind: 'postgresql', url };
		case 'redis':
		case 'rediss':
			return { kind: 'redis', url };
		default:
			throw new StoreError(`STORE_URL "${url}" is not sqlite://…, postgresql://…, redis://… or memory://`);
	}
}

/** Each kind's module is imported when a store of that kind opens: the others' client packages are never loaded. */
export async function openStore(url: string, onError: (error: unknown) => void): Promise<Store> {
	const target = parseStoreUrl(url);
	switch (target.kind) {
		case 'sqlite':
			return (await import('./sqlite-store.js')).openSqliteStore(target.path, onError);
		case 'memory':
			return createMemoryStore();
		case 'postgresql':
			return (await import('./postgres-store.js')).openPostgresStore(target.url, onError);
		case 'redis':
			return (await import('./redis-store.js')).openRedisStore(target.url, onError);
	}
}
