import { type DeserializedData, type Deserialize, Keyv, type KeyvStoreAdapter } from 'keyv';
import { yieldToEventLoop } from '../event-loop.js';
import type { EntityName, KeyValueNamespace, Store } from './ports.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

/**
 * The keyv adapter of the Store port. One keyv instance per entity namespace (keys `<namespace>:<key>`), all over
 * one store adapter (for SQLite: one connection, so writes never contend for the file lock). Values are plain JSON,
 * serialised with JSON.stringify (exact for every finite double, and faster than keyv's default serializer). A large
 * record is parsed in a turn of the event loop of its own (parseInTurn).
 * Errors are never swallowed: `throwOnErrors` makes a failed write reject (so it is never acknowledged) and every
 * keyv instance has an `error` listener.
 */

export class StoreError extends Error {
	override readonly name = 'StoreError';
}

export interface KeyvStoreOptions {
	readonly kind: string;
	readonly adapter: KeyvStoreAdapter;
	/**
	 * Atomic insert-if-absent on the backend for a full (namespaced) key and a keyv-serialised value. Without it,
	 * `add` is a get-then-set, atomic only within this process (appends are serialised per league in process).
	 */
	readonly insertIfAbsent?: ((key: string, serialized: string) => Promise<boolean>) | undefined;
	/** Every (full key, keyv-serialised value) whose key starts with `prefix` (`<namespace>:`), for Store.scan. */
	readonly scan?: ((prefix: string) => AsyncIterable<readonly [string, string]>) | undefined;
	/**
	 * The adapter's own namespace after keyv set it. Keyv writes its namespace into the shared adapter on every
	 * `new Keyv`, and an adapter that prefixes keys itself (@keyv/redis: `<namespace>::<key>`) would then file every
	 * entity under whichever namespace was opened last, and move them when another one opens. Setting it back to a
	 * fixed value after each keyv keeps one key layout: keyv's `<namespace>:<key>`, behind this fixed prefix.
	 */
	readonly adapterNamespace?: { readonly value: string | undefined } | undefined;
	readonly onError: (error: unknown) => void;
	readonly close?: (() => Promise<void>) | undefined;
}

/** What keyv writes for `set(key, value)` with our serializer and no TTL. */
export const keyvSerialized = (value: unknown): string => JSON.stringify({ value });

/** The value of a keyv-serialised record (keyvSerialized's inverse). */
export const keyvValue = (serialized: string): unknown => (JSON.parse(serialized) as { value: unknown }).value;

/**
 * Records of more characters than this are parsed in a turn of their own (about half a millisecond of JSON.parse).
 * A record arrives in an I/O callback, and several often arrive in one poll of the event loop (the chunks of a league
 * state, a change cache, rating snapshots, read by replays running side by side): parsed there, 4-8 ms each for the
 * largest (850,000 characters), they added up with the other callbacks of that poll into blocks of 50 ms and more
 * (bench/real-bot.ts). Queued with the other long work (event-loop.ts), one runs per turn.
 */
const PARSE_IN_TURN_CHARS = 64 * 1024;

const parseRecord = <Value>(text: string) => JSON.parse(text) as DeserializedData<Value>;

export const parseInTurn: Deserialize = <Value>(text: string) =>
	text.length > PARSE_IN_TURN_CHARS
		? yieldToEventLoop().then(() => parseRecord<Value>(text))
		: parseRecord<Value>(text);

/**
 * Any failure of the backend in an operation is the store not doing it (a server that does not answer, a timeout, a
 * locked or full disk): it reaches the services as a StoreUnavailableError, which users are told about in plain
 * words (services/errors.ts). A write that failed may still have been applied (its answer was lost): `unknown`.
 */
const unavailable = (kind: string, write: boolean, error: unknown): StoreUnavailableError => {
	if (error instanceof StoreUnavailableError) return error;
	const reason = error instanceof Error ? error.message : String(error);
	return new StoreUnavailableError(
		`the ${kind} store did not ${write ? 'store' : 'read'}: ${reason}`,
		write ? 'unknown' : 'no',
		{
			cause: error,
		},
	);
};

const failing =
	<A extends unknown[], R>(kind: string, write: boolean, op: (...args: A) => Promise<R>) =>
	async (...args: A): Promise<R> => {
		try {
			return await op(...args);
		} catch (error) {
			throw unavailable(kind, write, error);
		}
	};

export function createKeyvStore(options: KeyvStoreOptions): Store {
	const namespaces = new Map<EntityName, KeyValueNamespace>();
	const make = (name: EntityName): KeyValueNamespace => {
		const ns = makeRaw(name);
		const { kind } = options;
		return {
			get: failing(kind, false, (key: string) => ns.get(key)),
			getMany: failing(kind, false, (keys: readonly string[]) => ns.getMany(keys)),
			set: failing(kind, true, (key: string, value: unknown) => ns.set(key, value)),
			add: failing(kind, true, (key: string, value: unknown) => ns.add(key, value)),
			delete: failing(kind, true, (key: string) => ns.delete(key)),
		};
	};
	const makeRaw = (name: EntityName): KeyValueNamespace => {
		const keyv = new Keyv<unknown>({
			store: options.adapter,
			namespace: name,
			serialize: JSON.stringify,
			deserialize: parseInTurn,
			throwOnErrors: true,
		});
		if (options.adapterNamespace !== undefined) options.adapter.namespace = options.adapterNamespace.value;
		keyv.on('error', options.onError);
		const set = async (key: string, value: unknown) => {
			if (!(await keyv.set(key, value))) throw new StoreError(`could not write ${name}:${key}`);
		};
		return {
			get: (key) => keyv.get(key),
			getMany: (keys) => keyv.getMany([...keys]),
			set,
			async add(key, value) {
				if (options.insertIfAbsent !== undefined) {
					return options.insertIfAbsent(`${name}:${key}`, keyvSerialized(value));
				}
				if ((await keyv.get(key)) !== undefined) return false;
				await set(key, value);
				return true;
			},
			async delete(key) {
				await keyv.delete(key);
			},
		};
	};
	const scan = options.scan;
	return {
		kind: options.kind,
		namespace(name) {
			let ns = namespaces.get(name);
			if (ns === undefined) namespaces.set(name, (ns = make(name)));
			return ns;
		},
		...(scan === undefined
			? {}
			: {
					async *scan(name: EntityName) {
						const prefix = `${name}:`;
						try {
							for await (const [key, raw] of scan(prefix)) yield [key.slice(prefix.length), keyvValue(raw)] as const;
						} catch (error) {
							throw unavailable(options.kind, false, error);
						}
					},
				}),
		close: async () => {
			await (options.close ?? (() => options.adapter.disconnect?.()))();
		},
	};
}
