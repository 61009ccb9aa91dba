import type { EntityName, KeyValueNamespace, Store } from '../../src/storage/ports.js';

/**
 * A store whose writes fail on demand: a full disk or a locked store, for the keys a test chooses.
 * `failSet` makes `set` throw before writing; `failAdd` makes `add` throw before writing; `loseAddAck` makes `add`
 * write and then throw (the row is durable but the caller never hears so: a connection lost after the commit).
 * Each rule is a predicate on (namespace, key), changed between steps; `undefined` lets everything through.
 */
export type FaultRule = ((namespace: EntityName, key: string) => boolean) | undefined;

export interface FaultyStore extends Store {
	failSet: FaultRule;
	failAdd: FaultRule;
	loseAddAck: FaultRule;
	/** Writes refused or unacknowledged so far, as `namespace:key`. */
	readonly faults: string[];
}

export class InjectedFault extends Error {
	override readonly name = 'InjectedFault';
}

export function faultyStore(inner: Store): FaultyStore {
	const store: FaultyStore = {
		kind: inner.kind,
		failSet: undefined,
		failAdd: undefined,
		loseAddAck: undefined,
		faults: [],
		namespace(name) {
			const ns = inner.namespace(name);
			const hit = (rule: FaultRule, key: string) => {
				if (rule === undefined || !rule(name, key)) return false;
				store.faults.push(`${name}:${key}`);
				return true;
			};
			const wrapped: KeyValueNamespace = {
				get: (key) => ns.get(key),
				getMany: (keys) => ns.getMany(keys),
				async set(key, value) {
					if (hit(store.failSet, key)) throw new InjectedFault(`SQLITE_FULL: database or disk is full (${name})`);
					await ns.set(key, value);
				},
				async add(key, value) {
					if (hit(store.failAdd, key)) throw new InjectedFault(`SQLITE_BUSY: database is locked (${name})`);
					const added = await ns.add(key, value);
					if (added && hit(store.loseAddAck, key)) throw new InjectedFault(`connection lost after commit (${name})`);
					return added;
				},
				delete: (key) => ns.delete(key),
			};
			return wrapped;
		},
		close: () => inner.close(),
	};
	return store;
}
