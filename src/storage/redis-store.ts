import KeyvRedis, { createClient } from '@keyv/redis';
import { createKeyvStore, StoreError } from './keyv-store.js';
import { createOutageLog } from './outage-log.js';
import type { Store } from './ports.js';
import { serverName } from './server-name.js';

/**
 * The Redis store: @keyv/redis for get/set/getMany (one MGET)/delete over a client this store owns,
 * with keys `<namespace>:<key>` (behind `<prefix>::` when given) holding keyv JSON, as in SQLite; and the client
 * itself for what the adapter has no operation for: the atomic insert-if-absent `SET key value NX` (one command,
 * so atomic across every process on the server: OK when ours, nil when the key existed), and SCAN for migrate.
 * `set` resolves when Redis has applied the write; it is durable only with `appendonly yes` and `appendfsync
 * always` (Redis then fsyncs the AOF before it replies): the store reports a server configured otherwise.
 */

export interface RedisStoreOptions {
	/** A key prefix (`<prefix>::…`) so several stores can share one server; tests give each store its own. */
	readonly prefix?: string | undefined;
}

/** Tries of the first connection before the open fails; afterwards the client reconnects without end. */
const FIRST_CONNECT_TRIES = 3;

/**
 * How long a command may wait for its answer, queued while the client reconnects included. Without it a command
 * waited for the server to come back: a `/race submit` during an outage was answered after 45 s, and an outage past
 * Discord's 15 minutes would have lost the answer. A command that times out before it was sent is dropped from the
 * queue (never sent later); one already sent may still have been applied: the repository looks at the log before it
 * answers (league-repository.ts). PostgreSQL fails at once on a refused connection; this is the same within seconds,
 * and rides out a restart of the server shorter than it.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 3000;

const globEscaped = (text: string): string => text.replace(/[*?[\]\\]/g, '\\$&');

export async function openRedisStore(
	url: string,
	onError: (error: unknown) => void,
	options: RedisStoreOptions = {},
): Promise<Store> {
	let opened = false;
	// One line per outage, not one per reconnection attempt (outage-log.ts).
	const outage = createOutageLog(onError, `the Redis store at ${serverName(url)}`);
	const client = createClient({
		url,
		commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
		socket: {
			connectTimeout: 10_000,
			// Returning the error ends the tries and rejects connect(): a wrong URL fails the open, not hangs it.
			reconnectStrategy: (retries: number, cause: Error) =>
				opened ? Math.min(50 * 2 ** retries, 2000) : retries >= FIRST_CONNECT_TRIES ? cause : 200,
		},
	});
	client.on('error', (error: unknown) => {
		if (opened) outage.onError(error);
	});
	client.on('ready', () => outage.recovered());
	try {
		await client.connect();
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new StoreError(`could not open the Redis store at ${serverName(url)}: ${reason}`, { cause: error });
	}
	opened = true;
	await reportVolatileServer(client, url, onError);
	const prefix = options.prefix === undefined || options.prefix === '' ? undefined : options.prefix;
	const adapter = new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true });
	const stored = (key: string) => adapter.createKeyPrefix(key, prefix);
	return createKeyvStore({
		kind: 'redis',
		adapter,
		adapterNamespace: { value: prefix },
		onError: outage.onError,
		insertIfAbsent: async (key, serialized) =>
			(await client.set(stored(key), serialized, { condition: 'NX' })) === 'OK',
		async *scan(namespacePrefix) {
			const skip = stored('').length;
			for await (const batch of client.scanIterator({
				MATCH: `${globEscaped(stored(namespacePrefix))}*`,
				COUNT: 200,
			})) {
				const keys = Array.isArray(batch) ? batch : [batch];
				if (keys.length === 0) continue;
				const values = await client.mGet(keys);
				for (const [i, value] of values.entries()) {
					// A key deleted between SCAN and MGET is simply gone.
					if (value !== null) yield [keys[i]!.slice(skip), value] as const;
				}
			}
		},
		close: async () => {
			opened = false;
			if (client.isOpen) await client.close();
		},
	});
}

/** Redis acknowledges a write before it is on disk unless the AOF is on and fsynced on every write: say so. */
async function reportVolatileServer(
	client: { configGet(pattern: string): Promise<Record<string, string>> },
	url: string,
	onError: (error: unknown) => void,
): Promise<void> {
	let config: Record<string, string>;
	try {
		config = { ...(await client.configGet('appendonly')), ...(await client.configGet('appendfsync')) };
	} catch {
		return; // CONFIG is often disabled on hosted Redis: nothing to check.
	}
	if (config['appendonly'] !== 'yes' || config['appendfsync'] !== 'always') {
		onError(
			new StoreError(
				`Redis at ${serverName(url)} has appendonly=${config['appendonly']}, appendfsync=${config['appendfsync']}: ` +
					'an acknowledged race can be lost if the server stops (set appendonly yes, appendfsync always)',
			),
		);
	}
}
