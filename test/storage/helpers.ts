import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import type { EntryInput, LeagueConfig, RaceInput } from '../../src/league/league-events.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/ports.js';
import { mulberry32 } from '../support/mulberry32.js';
import { serverStores } from './server-stores.js';
import { openSpec, type StoreSpec } from './store-spec.js';

/** Test helpers: every adapter, a temp dir per test file, seeded random races. */

export const failOnError = (error: unknown): never => {
	throw error instanceof Error ? error : new Error(String(error));
};

export interface Adapter {
	readonly name: string;
	/** Open (or reopen) the store at `file`. Memory stores are shared per file name. */
	open(file: string): Promise<Store>;
	/** Where the store of `file` lives, for a child process (absent for memory). */
	readonly spec?: ((file: string) => StoreSpec) | undefined;
	/** Why this adapter's server is not running (its cases skip, naming it), or undefined. */
	readonly unavailable?: string | undefined;
}

/**
 * Skips the current test when the adapter's server could not be started, with the reason (never a silent pass).
 * Call inside a describe.each(list) body.
 */
export function skipUnavailable(adapter: Adapter): void {
	beforeEach((context) => {
		if (adapter.unavailable !== undefined) context.skip(adapter.unavailable);
	});
}

/** memory, sqlite, postgresql and redis (the whole storage suite runs on every store). */
export function adapters(): { list: Adapter[]; dir: string; cleanup: () => Promise<void> } {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-storage-'));
	const memories = new Map<string, Store>();
	const memory: Adapter = {
		name: 'memory',
		open: (file) => {
			let store = memories.get(file);
			if (store === undefined) memories.set(file, (store = createMemoryStore()));
			return Promise.resolve({ ...store, close: () => Promise.resolve() });
		},
	};
	const sqliteSpec = (file: string): StoreSpec => ({ kind: 'sqlite', path: join(dir, `${file}.sqlite`) });
	const sqlite: Adapter = { name: 'sqlite', spec: sqliteSpec, open: (file) => openSpec(sqliteSpec(file), failOnError) };
	const servers = serverStores();
	const onServer = servers.map((server): Adapter => ({
		name: server.name,
		unavailable: server.unavailable,
		spec: server.spec,
		open: (file) => openSpec(server.spec(file), failOnError),
	}));
	return {
		list: [memory, sqlite, ...onServer],
		dir,
		cleanup: async () => {
			rmSync(dir, { recursive: true, force: true });
			await Promise.all(servers.map((server) => server.cleanup()));
		},
	};
}

export const config = (name = 'Main', extra: Partial<LeagueConfig> = {}): LeagueConfig => ({
	guildId: 'g1',
	name,
	headline: 'folyami',
	params: {},
	timezone: 'Europe/Budapest',
	...extra,
});

/** `n` races over a pool of `pool` players named P01…, 2-8 entries each, some DNF, one race every 1-3 days. */
export function randomRaces(seed: number, n: number, pool = 12): RaceInput[] {
	const random = mulberry32(seed);
	const names = Array.from({ length: pool }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);
	let day = Date.UTC(2024, 0, 1);
	return Array.from({ length: n }, () => {
		day += (1 + Math.floor(random() * 3)) * 86_400_000;
		const field = [...names].sort(() => random() - 0.5).slice(0, 2 + Math.floor(random() * 7));
		const entries = field.map((player, i): EntryInput => ({
			player,
			position: i + 1,
			status: random() < 0.1 ? 'DNF' : 'finished',
		}));
		return { date: new Date(day).toISOString().slice(0, 10), entries };
	});
}
