import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { guardFile, type FileGuard } from './file-guard.js';
import { createKeyvStore, keyvSerialized } from './keyv-store.js';
import type { EntityName, KeyValueNamespace, Store } from './ports.js';
import { type KeyRow, scanByKey } from './scan-by-key.js';
import { checkIdentity, checkNotMissing, readMarker, STORE_ID_KEY } from './sqlite-identity.js';
import { RESTORE_HINT, StoreIntegrityError } from './store-integrity-error.js';

/**
 * The SQLite store: @keyv/sqlite on one file, in WAL mode with `synchronous=NORMAL` (ENVIRONMENT.md: single sets
 * from ~1.7k/s to ~16k/s). In WAL mode a commit is atomic and survives a killed process; NORMAL only risks losing
 * the last commits on power loss (never a torn or mixed state). @keyv/sqlite v4 exposes its connection through
 * `query`, which we use for the pragmas and for the atomic insert-if-absent of log events.
 *
 * Integrity (issue 9 item 4): at open, the file's identity (sqlite-identity.ts: the store id in the database and in
 * `<file>.id` beside it) and `PRAGMA quick_check`; a damaged file is a one-line StoreIntegrityError, not a raw
 * SQLITE_CORRUPT. While open, every operation checks that the path is still the file opened (file-guard.ts).
 */

export interface SqliteStore extends Store {
	/** The store id (sqlite-identity.ts); `memory` for `:memory:`. */
	readonly id: string;
	/** A consistent copy to `to` (`VACUUM INTO`: a read transaction, so writers go on meanwhile). */
	backupTo(to: string): Promise<void>;
}

/** SQLite's codes for a file that is not a sound database. */
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

const damaged = (path: string, error: unknown): StoreIntegrityError | undefined => {
	const code = (error as { code?: unknown } | undefined)?.code;
	if (typeof code !== 'string' || !DAMAGED.has(code)) return undefined;
	return new StoreIntegrityError(
		`the database ${path} is damaged (${code}): pitwall will not open it; restore it from a backup (${RESTORE_HINT})`,
	);
};

/** SQLite's own words, kept to one short line for the operator's message. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').slice(0, 160);

export async function openSqliteStore(path: string, onError: (error: unknown) => void): Promise<SqliteStore> {
	const file = path !== ':memory:';
	const marker = file ? await readMarker(path) : undefined;
	if (file) {
		await mkdir(dirname(path), { recursive: true });
		checkNotMissing(path, existsSync(path), marker);
	}
	const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5000 });
	// A connection error also rejects the first query, where it is reported; this listener keeps it from being thrown
	// a second time as an unhandled 'error' event.
	adapter.on('error', () => {});
	const query = (sql: string, ...params: unknown[]) => adapter.query(sql, ...params) as Promise<unknown[]>;
	const table = adapter.opts.table ?? 'keyv';
	// One statement, so atomic; RETURNING tells whether the row was inserted (SQLite ≥ 3.35).
	const insertIfAbsent = async (key: string, serialized: string) => {
		const rows = await query(
			`INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING RETURNING key`,
			key,
			serialized,
		);
		return rows.length === 1;
	};
	let id = 'memory';
	try {
		await query('PRAGMA journal_mode=WAL');
		await query('PRAGMA synchronous=NORMAL');
		if (file) {
			const [check] = (await query('PRAGMA quick_check(1)')) as { quick_check?: string }[];
			if (check?.quick_check !== 'ok') {
				throw new StoreIntegrityError(
					`the database ${path} is damaged (quick_check: ${oneLine(check?.quick_check ?? 'no answer')}): pitwall will not ` +
						`open it; restore it from a backup (${RESTORE_HINT})`,
				);
			}
			const readId = async () => {
				const [row] = (await query(`SELECT value FROM ${table} WHERE key = ?`, STORE_ID_KEY)) as { value: string }[];
				return row === undefined ? undefined : (JSON.parse(row.value) as { value: { id: string } }).value.id;
			};
			id = await checkIdentity(path, marker, {
				read: readId,
				create: async (newId) => {
					await insertIfAbsent(STORE_ID_KEY, keyvSerialized({ v: 1, id: newId }));
					return (await readId())!; // another process may have created it first: theirs stands
				},
			});
		}
	} catch (error) {
		await adapter.disconnect().catch(() => {});
		throw damaged(path, error) ?? error;
	}
	const backupTo = async (to: string) => {
		await query('VACUUM INTO ?', to);
	};
	const store = createKeyvStore({
		kind: 'sqlite',
		adapter,
		onError,
		insertIfAbsent,
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
	if (!file) return { ...store, id, backupTo };
	const rescueTo = () => `${path}.rescued-${new Date().toISOString().replace(/[:.]/g, '-')}`;
	const guard = guardFile(path, async () => {
		const to = rescueTo();
		await backupTo(to);
		return to;
	});
	return { ...guarded(store, guard), id, backupTo };
}

/** Every write checks the file before and again before it is acknowledged; a read, at most once a second. */
function guarded(store: Store, guard: FileGuard): Store {
	const namespaces = new Map<EntityName, KeyValueNamespace>();
	const wrap = (ns: KeyValueNamespace): KeyValueNamespace => {
		const write =
			<A extends unknown[], R>(op: (...args: A) => Promise<R>) =>
			async (...args: A): Promise<R> => {
				await guard.check();
				const result = await op(...args);
				await guard.check(); // written into a file that was deleted meanwhile: not acknowledged
				return result;
			};
		return {
			get: async (key) => (await guard.checkRecent(), ns.get(key)),
			getMany: async (keys) => (await guard.checkRecent(), ns.getMany(keys)),
			set: write((key: string, value: unknown) => ns.set(key, value)),
			add: write((key: string, value: unknown) => ns.add(key, value)),
			delete: write((key: string) => ns.delete(key)),
		};
	};
	return {
		kind: store.kind,
		namespace(name) {
			let ns = namespaces.get(name);
			if (ns === undefined) namespaces.set(name, (ns = wrap(store.namespace(name))));
			return ns;
		},
		...(store.scan !== undefined && {
			scan: (name: EntityName) => {
				const rows = store.scan!(name);
				return (async function* () {
					await guard.check();
					yield* rows;
				})();
			},
		}),
		close: () => store.close(),
	};
}
