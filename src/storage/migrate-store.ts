import { StoreError } from './keyv-store.js';
import type { EntityName, Store } from './ports.js';

/**
 * `npm run migrate`: copy every record of every namespace from one store to another, as stored (the
 * event log, the caches and snapshots, guild lists, daily records, job keys), then read every record back from the
 * target and compare. Run it with the bot stopped: records written during the copy may be missed (the read-back
 * then says which).
 */

/** Every namespace, in copy order: the log first, the guild lists (which make leagues visible) last. */
const ORDER = {
	events: 0,
	'league-state': 1,
	'rating-snapshots': 2,
	'rating-index': 3,
	'daily-standings': 4,
	'derived-caches': 5,
	jobs: 6,
	inbox: 7,
	guilds: 8,
} satisfies Record<EntityName, number>; // a new EntityName fails to compile here until it is copied too

export const allEntityNames: readonly EntityName[] = (Object.keys(ORDER) as EntityName[]).sort(
	(a, b) => ORDER[a] - ORDER[b],
);

export interface MigrateOptions {
	/** Copy into a target that already holds records (same keys are overwritten, others kept). */
	readonly force?: boolean | undefined;
	/** Hears each namespace once copied. */
	readonly progress?: ((name: EntityName, records: number) => void) | undefined;
}

export interface MigrateReport {
	readonly records: Readonly<Record<EntityName, number>>;
	readonly total: number;
	/** Leagues copied (their seq-0 `league-configured` events). */
	readonly leagues: number;
}

/** Writes in flight at once: enough to hide a server's round trip, few enough for 15 MB snapshots. */
const WINDOW = 16;
const VERIFY_BATCH = 100;

const scanOf = (store: Store, name: EntityName): AsyncIterable<readonly [string, unknown]> => {
	if (store.scan === undefined) throw new StoreError(`the ${store.kind} store cannot list its records`);
	return store.scan(name);
};

export async function migrateStore(from: Store, to: Store, options: MigrateOptions = {}): Promise<MigrateReport> {
	if (options.force !== true) await refuseNonEmpty(to);
	const records = {} as Record<EntityName, number>;
	let leagues = 0;
	for (const name of allEntityNames) {
		const target = to.namespace(name);
		const inFlight = new Set<Promise<void>>();
		let count = 0;
		for await (const [key, value] of scanOf(from, name)) {
			const write = target.set(key, value).finally(() => inFlight.delete(write));
			inFlight.add(write);
			if (inFlight.size >= WINDOW) await Promise.race(inFlight);
			count += 1;
			if (name === 'events' && key.endsWith(':0')) leagues += 1;
		}
		await Promise.all(inFlight);
		records[name] = count;
		options.progress?.(name, count);
	}
	for (const name of allEntityNames) await verify(from, to, name, records[name]);
	return { records, total: Object.values(records).reduce((a, b) => a + b, 0), leagues };
}

async function refuseNonEmpty(to: Store): Promise<void> {
	for (const name of allEntityNames) {
		for await (const [key] of scanOf(to, name)) {
			throw new StoreError(
				`the target ${to.kind} store is not empty (it holds ${name}:${key}); migrate copies into an empty store ` +
					'only, unless given --force (records with the same key are then overwritten, the others kept)',
			);
		}
	}
}

/** Every source record reads back from the target as the same JSON, and the source still has as many. */
async function verify(from: Store, to: Store, name: EntityName, copied: number): Promise<void> {
	const target = to.namespace(name);
	let batch: (readonly [string, unknown])[] = [];
	let seen = 0;
	const check = async () => {
		const back = await target.getMany(batch.map(([key]) => key));
		batch.forEach(([key, value], i) => {
			if (JSON.stringify(back[i]) !== JSON.stringify(value)) {
				throw new StoreError(`migrate: ${name}:${key} reads back different from the target ${to.kind} store`);
			}
		});
		batch = [];
	};
	for await (const entry of scanOf(from, name)) {
		batch.push(entry);
		seen += 1;
		if (batch.length === VERIFY_BATCH) await check();
	}
	if (batch.length > 0) await check();
	if (seen !== copied) {
		throw new StoreError(`migrate: the source's ${name} changed during the copy (${copied} copied, ${seen} now)`);
	}
}
