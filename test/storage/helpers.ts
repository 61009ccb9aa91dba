import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntryInput, LeagueConfig, RaceInput } from '../../src/league/league-events.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { mulberry32 } from '../support/mulberry32.js';

/** Test helpers: both adapters, a temp dir per test file, seeded random races. */

export const failOnError = (error: unknown): never => {
	throw error instanceof Error ? error : new Error(String(error));
};

export interface Adapter {
	readonly name: string;
	/** Open (or reopen, for sqlite) the store at `file`. Memory stores are shared per file name. */
	open(file: string): Promise<Store>;
}

export function adapters(): { list: Adapter[]; dir: string; cleanup: () => void } {
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
	const sqlite: Adapter = { name: 'sqlite', open: (file) => openSqliteStore(join(dir, `${file}.sqlite`), failOnError) };
	return { list: [memory, sqlite], dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
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
