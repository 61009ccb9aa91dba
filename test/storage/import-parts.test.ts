import { afterAll, describe, expect, it } from 'vitest';
import { bigImportCsv } from '../../bench/big-import-data.js';
import { raceInputOf } from '../../src/console/sample-league.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import type { LeagueEventInput, LoggedEvent, RaceInput } from '../../src/league/league-events.js';
import { foldEvents } from '../../src/league/race-log.js';
import { PART_RACES } from '../../src/storage/event-parts.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { migrateStore } from '../../src/storage/migrate-store.js';
import type { KeyValueNamespace, Store } from '../../src/storage/ports.js';
import { adapters, config, skipUnavailable } from './helpers.js';

/**
 * A big `/league import` is stored in parts (event-parts.ts): the races as part records, then the small event naming
 * them. On every store: 10,000 races read back whole, from a fresh process's repository, with no record anywhere
 * near the 14.8 MB of one record; a crash after the parts and before the event leaves nothing visible, and the next
 * import into the league deletes the orphans; migrate copies the parts with the log.
 */

const { list, cleanup } = adapters();
afterAll(cleanup);

// The generated history of bench/league-import.ts (10,000 races of 20), as /league import reads it.
const BIG: RaceInput[] = parseHistoryCsv(bigImportCsv(), 'big-import.csv').map((race) => ({
	name: race.id,
	...raceInputOf(race),
}));
const importOf = (races: readonly RaceInput[]): LeagueEventInput => ({
	type: 'league-imported',
	races,
	source: 'big-import.csv',
	by: 'organizer',
});
/** What a reload reads of the races (the JSON form: fields left undefined are absent). */
const stored = (races: readonly RaceInput[]) => JSON.parse(JSON.stringify(races)) as RaceInput[];

/** Every record of the `events` namespace (the log, and the parts beside it), by key. */
async function eventRecords(store: Store): Promise<Map<string, unknown>> {
	const records = new Map<string, unknown>();
	for await (const [key, value] of store.scan!('events')) records.set(key, value);
	return records;
}

describe.each(list)('a big import stored in parts ($name)', (adapter) => {
	skipUnavailable(adapter);

	it('10,000 races read back whole from a fresh repository; the event names its parts; no record is big', async () => {
		expect(BIG).toHaveLength(10_000);
		expect(BIG.reduce((n, race) => n + race.entries.length, 0)).toBe(200_000);
		const file = `parts-whole-${adapter.name}`;
		const writer = createLeagueRepository(await adapter.open(file), { systems: [] });
		const { id } = await writer.createLeague(config('Big'), 'organizer');
		const result = await writer.appendEvent(id, importOf(BIG));
		expect(result.seq).toBe(1);
		expect(result.newPlayers).toHaveLength(2_000); // the generator draws every racer from 2,000 players
		await writer.close();

		const store = await adapter.open(file);
		const records = await eventRecords(store);
		const event = records.get(`${id}:1`) as Record<string, unknown>;
		expect(event['races']).toBeUndefined();
		expect(event['parts']).toEqual({ attempt: 0, parts: 10_000 / PART_RACES, races: 10_000 });
		const largest = Math.max(...[...records.values()].map((value) => JSON.stringify(value).length));
		expect(largest).toBeLessThan(1024 * 1024); // one record of the whole import was 14.8 MB
		expect(records.size).toBe(2 + 1 + 10_000 / PART_RACES); // two events, the attempt, its parts

		const reader = createLeagueRepository(store, { systems: [] });
		const events = await reader.readEvents(id);
		expect(events.map((e) => e.type)).toEqual(['league-configured', 'league-imported']);
		const imported = events[1] as Extract<(typeof events)[1], { type: 'league-imported' }>;
		expect(imported.races).toEqual(stored(BIG));
		expect(imported.source).toBe('big-import.csv');
		const state = await reader.loadState(id);
		expect(state.races()).toHaveLength(10_000);
		expect(state.races().at(-1)).toMatchObject({ id: 'R10000', name: '10000', date: BIG.at(-1)!.date });
		expect(state.snapshot()).toEqual(foldEvents(events).snapshot());
		await reader.close();
	}, 120_000);

	it('a crash after the parts and before the event leaves nothing visible; the next import deletes the orphans', async () => {
		const file = `parts-crash-${adapter.name}`;
		const races = BIG.slice(0, 3 * PART_RACES);
		const base = await adapter.open(file);
		// The process dies as it writes the event: the write never comes back, and nothing after it runs.
		const crashing: Store = {
			...base,
			namespace(name) {
				const ns = base.namespace(name);
				if (name !== 'events') return ns;
				return {
					...ns,
					// The event at a seq (`<league>:<seq>`) that names parts: its write never answers.
					add: (key, value) =>
						/:\d+$/.test(key) && (value as { parts?: unknown }).parts !== undefined
							? new Promise<boolean>(() => {})
							: ns.add(key, value),
				} satisfies KeyValueNamespace;
			},
		};
		const dying = createLeagueRepository(crashing, { systems: [] });
		const { id } = await dying.createLeague(config('Crash'), 'organizer');
		void dying.appendEvent(id, importOf(races));
		await expect.poll(async () => (await eventRecords(base)).has(`${id}:import0.2`), { timeout: 30_000 }).toBe(true);

		// The next process: the league as it was, no race; the parts are there, but no event names them.
		const next = createLeagueRepository(await adapter.open(file), { systems: [] });
		expect((await next.readEvents(id)).map((e) => e.type)).toEqual(['league-configured']);
		expect((await next.loadState(id)).races()).toEqual([]);
		expect((await next.getLeague(id))?.seq).toBe(0);
		const orphans = [0, 1, 2].map((k) => `${id}:import0.${k}`);
		const before = await eventRecords(base);
		for (const key of orphans) expect(before.has(key)).toBe(true);

		// The organizer imports again: stored whole (a new attempt), and the crashed attempt's parts are gone.
		await next.appendEvent(id, importOf(races));
		const after = await eventRecords(base);
		for (const key of orphans) expect(after.has(key)).toBe(false);
		expect(after.get(`${id}:1`)).toMatchObject({ parts: { attempt: 1, parts: 3, races: 3 * PART_RACES } });
		const reread = createLeagueRepository(await adapter.open(file), { systems: [] });
		const events = await rereadEvents(reread, id);
		expect(events).toEqual(stored(races));
		await Promise.all([next.close(), reread.close()]);
	}, 120_000);
});

const rereadEvents = async (repo: ReturnType<typeof createLeagueRepository>, id: string) => {
	const [, imported] = await repo.readEvents(id);
	return (imported as Extract<LoggedEvent, { type: 'league-imported' }>).races;
};

describe('migrate copies an import stored in parts', () => {
	const target = list.find((adapter) => adapter.name === 'sqlite')!;

	it('memory → sqlite: the 10,000 races read back whole from the copy', async () => {
		const memory = list.find((adapter) => adapter.name === 'memory')!;
		const from = await memory.open('parts-migrate');
		const repo = createLeagueRepository(from, { systems: [] });
		const { id } = await repo.createLeague(config('Copied'), 'organizer');
		await repo.appendEvent(id, importOf(BIG));
		const to = await target.open('parts-migrate');
		const report = await migrateStore(from, to);
		expect(report.records.events).toBe(2 + 1 + 10_000 / PART_RACES);
		expect(report.leagues).toBe(1);
		const copy = createLeagueRepository(to, { systems: [] });
		expect(await rereadEvents(copy, id)).toEqual(stored(BIG));
		expect((await copy.loadState(id)).snapshot()).toEqual((await repo.loadState(id)).snapshot());
		await Promise.all([repo.close(), copy.close()]);
	}, 120_000);
});
