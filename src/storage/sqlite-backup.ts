import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { openSqliteStore } from './sqlite-store.js';
import { STORE_ID_KEY } from './sqlite-identity.js';
import { StoreIntegrityError } from './store-integrity-error.js';

/**
 * `npm run backup`: a consistent copy of a SQLite store, taken while the bot runs. The store is
 * opened as the bot opens it (identity and `quick_check` first: a damaged store is not backed up as if sound), and
 * copied with `VACUUM INTO`, one read transaction: in WAL mode the bot's writes go on meanwhile and the copy holds
 * every commit up to its start, never half of one. The copy is then checked on its own: `quick_check` and the same
 * store id. Restoring it: docs/storage.md, "Backup and restore".
 */

export interface BackupResult {
	readonly storeId: string;
	readonly to: string;
	readonly bytes: number;
	/** Events in the copy (every league's log). */
	readonly events: number;
}

export async function backupSqliteStore(from: string, to: string): Promise<BackupResult> {
	if (!existsSync(from)) throw new StoreIntegrityError(`there is no database at ${from}: nothing to back up`);
	if (existsSync(to)) throw new StoreIntegrityError(`${to} already exists: give the backup a new path`);
	await mkdir(dirname(to), { recursive: true });
	const store = await openSqliteStore(from, () => {});
	try {
		await store.backupTo(to);
	} finally {
		await store.close();
	}
	const copy = new KeyvSqlite({ uri: `sqlite://${to}` });
	copy.on('error', () => {});
	try {
		const query = (sql: string, ...params: unknown[]) => copy.query(sql, ...params) as Promise<unknown[]>;
		const [check] = (await query('PRAGMA quick_check(1)')) as { quick_check: string }[];
		const [row] = (await query('SELECT value FROM keyv WHERE key = ?', STORE_ID_KEY)) as { value: string }[];
		const copiedId = row === undefined ? undefined : (JSON.parse(row.value) as { value: { id: string } }).value.id;
		if (check?.quick_check !== 'ok' || copiedId !== store.id) {
			throw new StoreIntegrityError(`the backup ${to} did not check out (quick_check, store id): do not rely on it`);
		}
		const [{ n }] = (await query(`SELECT count(*) AS n FROM keyv WHERE key LIKE 'events:%'`)) as [{ n: number }];
		return { storeId: store.id, to, bytes: (await stat(to)).size, events: n };
	} finally {
		await copy.disconnect();
	}
}
