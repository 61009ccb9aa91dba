import { createRequire } from 'node:module';
import { createMemoryStore } from './memory-store.js';
import type { KeyvStoreAdapter } from 'keyv';
import { createKeyvStore, StoreError } from './keyv-store.js';
import type { Store } from './ports.js';
import { openSqliteStore } from './sqlite-store.js';

/**
 * `STORE_URL` → a Store. `sqlite://<path>` (default `sqlite://data/pitwall.sqlite`, relative to the working
 * directory), `memory://`, and, for the scale-out issue, `postgresql://…` / `redis://…` via their keyv adapters:
 * those are refused with a clear message while the adapter package is not installed.
 */

export const DEFAULT_STORE_URL = 'sqlite://data/pitwall.sqlite';

export type StoreTarget =
	| { readonly kind: 'sqlite'; readonly path: string }
	| { readonly kind: 'memory' }
	| { readonly kind: 'postgresql' | 'redis'; readonly url: string; readonly adapterPackage: string };

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
			return { kind: 'postgresql', url, adapterPackage: '@keyv/postgres' };
		case 'redis':
		case 'rediss':
			return { kind: 'redis', url, adapterPackage: '@keyv/redis' };
		default:
			throw new StoreError(`STORE_URL "${url}" is not sqlite://…, postgresql://…, redis://… or memory://`);
	}
}

const installed = (name: string): boolean => {
	try {
		createRequire(import.meta.url).resolve(name);
		return true;
	} catch {
		return false;
	}
};

export async function openStore(url: string, onError: (error: unknown) => void): Promise<Store> {
	const target = parseStoreUrl(url);
	switch (target.kind) {
		case 'sqlite':
			return openSqliteStore(target.path, onError);
		case 'memory':
			return createMemoryStore();
		default: {
			if (!installed(target.adapterPackage)) {
				throw new StoreError(
					`STORE_URL selects ${target.kind}, whose keyv adapter ${target.adapterPackage} is not installed yet ` +
						`(npm install ${target.adapterPackage}); use sqlite://… until the scale-out issue lands`,
				);
			}
			// Untested until the scale-out issue: the adapter's default export takes the URL. Without an atomic
			// insert-if-absent, appends are ordered only within one process (see docs/storage.md).
			const module = (await import(target.adapterPackage)) as { default: new (url: string) => KeyvStoreAdapter };
			return createKeyvStore({ kind: target.kind, adapter: new module.default(target.url), onError });
		}
	}
}
