import { KeyvPostgres, type KeyvPostgresOptions } from '@keyv/postgres';
import pg from 'pg';
import { createKeyvStore, StoreError } from './keyv-store.js';
import type { Store } from './ports.js';
import { type KeyRow, scanByKey } from './scan-by-key.js';
import { serverName } from './server-name.js';

/**
 * The PostgreSQL store: @keyv/postgres for get/set/getMany/delete (one `keyv` table, the same
 * `<namespace>:<key>` → keyv JSON rows as SQLite), and the driver for what the adapter has no operation for: the
 * atomic insert-if-absent, `INSERT … ON CONFLICT (key) DO NOTHING RETURNING key` (one statement, so atomic across
 * every process on the server; a row back means it was ours). `set` is the adapter's upsert, committed (and, with
 * the default `synchronous_commit=on`, flushed to the WAL) before it resolves; `getMany` is one `key = ANY($1)`.
 */

export interface PostgresStoreOptions {
	/** Schema of the table (default `public`); tests give each store its own. */
	readonly schema?: string | undefined;
	readonly table?: string | undefined;
}

type PooledOptions = KeyvPostgresOptions & { readonly pool: pg.Pool };

/**
 * @keyv/postgres keeps ONE module-wide pool per URI and its `disconnect` ends whichever pool is current: two stores
 * in one process (migrate between two databases, a test opening a store twice) would share or close each other's
 * connections. This subclass runs the adapter's queries on the pool this store owns, and leaves closing it to us.
 */
class PooledKeyvPostgres extends KeyvPostgres {
	override connect(): Promise<(sql: string, values?: unknown) => Promise<unknown[]>> {
		const { pool } = this.opts as PooledOptions;
		return Promise.resolve(async (sql, values) => (await pool.query(sql, values as unknown[])).rows as unknown[]);
	}

	override disconnect(): Promise<void> {
		return Promise.resolve();
	}
}

const identifier = (name: string): string => {
	if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
		throw new StoreError(`PostgreSQL name "${name}" is not a plain identifier`);
	return name;
};

export async function openPostgresStore(
	url: string,
	onError: (error: unknown) => void,
	options: PostgresStoreOptions = {},
): Promise<Store> {
	const schema = identifier(options.schema ?? 'public');
	const table = identifier(options.table ?? 'keyv');
	const qualified = `${schema}.${table}`;
	const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000 });
	// An idle connection dropped by the server is reported here; without a listener it would crash the process.
	pool.on('error', onError);
	try {
		await createTable(pool, schema, qualified);
		const { rows } = await pool.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
		if (rows[0]?.synchronous_commit === 'off') {
			onError(new StoreError(`PostgreSQL at ${serverName(url)} has synchronous_commit=off: a stored race can be lost`));
		}
	} catch (error) {
		await pool.end();
		const reason = error instanceof Error ? error.message : String(error);
		throw new StoreError(`could not open the PostgreSQL store at ${serverName(url)}: ${reason}`, { cause: error });
	}
	const pooled: PooledOptions = { uri: url, schema, table, pool };
	const adapter = new PooledKeyvPostgres(pooled);
	return createKeyvStore({
		kind: 'postgresql',
		adapter,
		onError,
		insertIfAbsent: async (key, serialized) => {
			const result = await pool.query(
				`INSERT INTO ${qualified} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key`,
				[key, serialized],
			);
			return result.rowCount === 1;
		},
		scan: (prefix) =>
			scanByKey(
				async (after, limit) =>
					(
						await pool.query<KeyRow>(
							`SELECT key, value FROM ${qualified} WHERE starts_with(key, $1) AND key > $2 ORDER BY key LIMIT $3`,
							[prefix, after, limit],
						)
					).rows,
			),
		// The adapter creates its table from its constructor, unawaited; its `query` waits for that, so closing the
		// pool after one query never cuts it off (a store opened and closed at once, as migrate may).
		close: async () => {
			await adapter.query('SELECT 1').catch(() => undefined);
			await pool.end();
		},
	});
}

/**
 * The adapter's own table (same DDL, so either may create it), created here and awaited, so a wrong URL or a
 * missing privilege fails the open with its reason. Two processes creating it at once: one gets a unique violation
 * on the catalog (23505) or "already exists" (42P07); the table is there either way.
 */
async function createTable(pool: pg.Pool, schema: string, qualified: string): Promise<void> {
	const statements = [
		...(schema === 'public' ? [] : [`CREATE SCHEMA IF NOT EXISTS ${schema}`]),
		`CREATE TABLE IF NOT EXISTS ${qualified}(key VARCHAR(255) PRIMARY KEY, value TEXT )`,
	];
	for (const sql of statements) {
		try {
			await pool.query(sql);
		} catch (error) {
			const code = (error as { code?: unknown }).code;
			if (code !== '23505' && code !== '42P07' && code !== '42P06') throw error;
		}
	}
}
