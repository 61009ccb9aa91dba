import type { EntityName, KeyValueNamespace, Store } from './ports.js';

/**
 * The in-memory adapter (tests, `STORE_URL=memory://`). Values are kept as JSON text, so a read returns a copy and
 * anything that would not survive the SQLite adapter's JSON round trip fails here too. Every operation completes
 * synchronously inside its promise, so `add` is atomic.
 */
export function createMemoryStore(): Store {
	const rows = new Map<string, string>();
	const namespace = (name: EntityName): KeyValueNamespace => {
		const full = (key: string) => `${name}:${key}`;
		const read = (key: string): unknown => {
			const text = rows.get(full(key));
			return text === undefined ? undefined : JSON.parse(text);
		};
		return {
			get: (key) => Promise.resolve(read(key)),
			getMany: (keys) => Promise.resolve(keys.map(read)),
			set(key, value) {
				rows.set(full(key), JSON.stringify(value));
				return Promise.resolve();
			},
			add(key, value) {
				if (rows.has(full(key))) return Promise.resolve(false);
				rows.set(full(key), JSON.stringify(value));
				return Promise.resolve(true);
			},
			delete(key) {
				rows.delete(full(key));
				return Promise.resolve();
			},
		};
	};
	/** A copy of the namespace's rows at the call, so writes during the scan do not disturb it. */
	async function* scan(name: EntityName): AsyncIterable<readonly [string, unknown]> {
		const prefix = `${name}:`;
		const copy = await Promise.resolve([...rows].filter(([key]) => key.startsWith(prefix)));
		for (const [key, text] of copy) yield [key.slice(prefix.length), JSON.parse(text)];
	}
	return { kind: 'memory', namespace, scan, close: () => Promise.resolve() };
}
