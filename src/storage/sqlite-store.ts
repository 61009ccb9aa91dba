import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { guardFile, type FileGuard } from './file-guard.js';
import { guardSqliteFiles, type SqliteFilesGuard } from './sqlite-header-guard.js';
import { createKeyvStore, keyvSerialized } from './keyv-store.js';
import type { EntityName, KeyValueNamespace, Store } from './ports.js';
import { type KeyRow, scanByKey } from './scan-by-key.js';
import { checkIdentity, checkNotMissing, readMarker, STORE_ID_KEY } from './sqlite-identity.js';
import { RESTORE_HINT, StoreIntegrityError } from './store-integrity-error.js';
import { createReadOnlyFallback, type ReadOnlyFallback } from './sqlite-read-only.js';
import { StoreReadOnlyError } from './store-unavailable-error.js';

/**
 * The SQLite store: @keyv/sqlite on one file, in WAL mode with `synchronous=NORMAL` (ENVIRONMENT.md: single sets
 * from ~1.7k/s to ~16k/s). In WAL mode a commit is atomic and survives a killed process; NORMAL only risks losing
 * the last commits on power loss (never a torn or mixed state). @keyv/sqlite v4 exposes its connection through
 * `query`, which we use for the pragmas and for the atomic insert-if-absent of log events.
 *
 * Integrity: at open, the file's identity (sqlite-identity.ts: the store id in the database and in
 * `<file>.id` beside it) and `PRAGMA quick_check`; a damaged file is a one-line StoreIntegrityError, not a raw
 * SQLITE_CORRUPT. While open, every operation checks that the path is still the file opened (file-guard.ts) and that
 * the database and its WAL were not overwritten in place (sqlite-header-guard.ts).
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

/** @keyv/sqlite on `path`, its connection's `query`, and the keyv Store over it (no checks yet). */
function connect(path: string, onError: (error: unknown) => void) {
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
	return { adapter, query, table, insertIfAbsent, store };
}

export async function openSqliteStore(path: string, onError: (error: unknown) => void): Promise<SqliteStore> {
	const file = path !== ':memory:';
	const marker = file ? await readMarker(path) : undefined;
	if (file) {
		await mkdir(dirname(path), { recursive: true });
		checkNotMissing(path, existsSync(path), marker);
	}
	const { adapter, query, table, insertIfAbsent, store } = connect(path, onError);
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
	if (!file) return { ...store, id, backupTo: async (to) => void (await query('VACUUM INTO ?', to)) };
	// While the files cannot be written, reads go to a copy and this connection is left alone (sqlite-read-only.ts).
	const readOnly = createReadOnlyFallback(path, (copy) => Promise.resolve(connect(copy, onError).store), onError);
	const backupTo = async (to: string) => {
		const reader = await readOnly.reader();
		if (reader !== undefined) throw new StoreReadOnlyError();
		await query('VACUUM INTO ?', to);
	};
	const rescueTo = () => `${path}.rescued-${new Date().toISOString().replace(/[:.]/g, '-')}`;
	const [{ page_size: pageSize }] = (await query('PRAGMA page_size')) as [{ page_size: number }];
	const files = guardSqliteFiles(path, pageSize);
	const guard = guardFile(
		path,
		async () => {
			const to = rescueTo();
			await backupTo(to);
			return to;
		},
		files.look,
	);
	return { ...guarded(store, guard, readOnly, files), id, backupTo };
}

/**
 * Every write checks the file before and again before it is acknowledged; a read, at most once a second. Every
 * operation first looks whether the files can be written: while they cannot, writes are refused and reads go to the
 * read-only copy, and this connection is not touched (its WAL index mapping would end the process with SIGBUS).
 */
function guarded(store: Store, guard: FileGuard, readOnly: ReadOnlyFallback, files: SqliteFilesGuard): Store {
	const namespaces = new Map<EntityName, KeyValueNamespace>();
	let readOnlyAtClose = false;
	const writable = async () => {
		if ((await readOnly.reader()) !== undefined) throw new StoreReadOnlyError();
	};
	const wrap = (name: EntityName, ns: KeyValueNamespace): KeyValueNamespace => {
		const write =
			<A extends unknown[], R>(op: (...args: A) => Promise<R>) =>
			async (...args: A): Promise<R> => {
				await guard.check();
				await writable();
				const result = await op(...args).catch(async (error: unknown) => {
					await guard.check(); // SQLite failing on an overwritten file (SQLITE_CORRUPT) is told as that
					throw error;
				});
				await guard.check(); // written into a file that was deleted or overwritten meanwhile: not acknowledged
				return result;
			};
		const read =
			<A extends unknown[], R>(op: (target: KeyValueNamespace, ...args: A) => Promise<R>) =>
			async (...args: A): Promise<R> => {
				await guard.checkRecent();
				const reader = await readOnly.reader();
				return op(reader === undefined ? ns : reader.namespace(name), ...args);
			};
		return {
			get: read((target, key: string) => target.get(key)),
			getMany: read((target, keys: readonly string[]) => target.getMany(keys)),
			set: write((key: string, value: unknown) => ns.set(key, value)),
			add: write((key: string, value: unknown) => ns.add(key, value)),
			delete: write((key: string) => ns.delete(key)),
		};
	};
	return {
		kind: store.kind,
		namespace(name) {
			let ns = namespaces.get(name);
			if (ns === undefined) namespaces.set(name, (ns = wrap(name, store.namespace(name))));
			return ns;
		},
		...(store.scan !== undefined && {
			scan: (name: EntityName) =>
				(async function* () {
					await guard.check();
					const reader = await readOnly.reader();
					yield* (reader ?? store).scan!(name);
				})(),
		}),
		close: async () => {
			readOnlyAtClose = (await readOnly.reader().catch(() => store)) !== undefined;
			await readOnly.close();
			// Closing checkpoints the WAL through the mapping of an unwritable -shm (SIGBUS): the connection is left
			// for the process's exit to drop, as a killed process would (WAL keeps every commit).
			if (readOnlyAtClose) return;
			// A connection over an overwritten file would checkpoint its WAL into the database when closed (garbage
			// frames over a sound file, or sound frames over garbage): left for the process's exit, with the
			// descriptors the guard holds (closing them would drop SQLite's locks).
			if (guard.lost !== undefined) return;
			await store.close();
			files.close();
			await readOnly.release();
		},
	};
}
