import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { createKeyvStore } from './keyv-store.js';
import { type KeyRow, scanByKey } from './scan-by-key.js';
import type { Store } from './ports.js';

/**
 * The SQLite store: @keyv/sqlite on one file, in WAL mode with `synchronous=NORMAL` (ENVIRONMENT.md: single sets
 * from ~1.7k/s to ~16k/s). In WAL mode a commit is atomic and survives a killed process; NORMAL only risks losing
 * the last commits on power loss (never a torn or mixed state). @keyv/sqlite v4 exposes its connection through
 * `query`, which we use for the pragmas and for the atomic insert-if-absent of log events.
 */
export async function openSqliteStore(path: string, onError: (error: unknown) => void): Promise<Store> {
	if (path !== ':memory:') await mkdir(dirname(path), { recursive: true });
	const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5000 });
	const query = (sql: string, ...params: unknown[]) => adapter.query(sql, ...params) as Promise<unknown[]>;
	await query('PRAGMA journal_mode=WAL');
	await query('PRAGMA synchronous=NORMAL');
	const table = adapter.opts.table ?? 'keyv';
	return createKeyvStore({
		kind: 'sqlite',
		adapter,
		onError,
		// One statement, so atomic; RETURNING tells whether the row was inserted (SQLite ≥ 3.35).
		insertIfAbsent: async (key, serialized) => {
			const rows = await query(
				`INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING RETURNING key`,
				key,
				serialized,
			);
			return rows.length === 1;
		},
		scan: (prefix) =>
			scanByKey(
				(after, limit) =>
					query(
						`SELECT key, value FROM ${table} WHERE substr(key, 1, ?) = ? AND key > ? ORDER BY key LIMIT ?`,
						prefix.length,
						prefix,
						after,
						limit,
					) as Promise<KeyRow[]>,
			),
	});
}
