import { afterAll, describe, expect, it } from 'vitest';
import type { RaceInput } from '../../src/league/league-events.js';
import { LeagueError } from '../../src/league/race-log.js';
import { replayHistory } from '../../src/league/replay.js';
import { inRatingOrder } from '../../src/league/rating-order.js';
import { getSystem, raceSystems } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { LogMovedError, type LeagueRepository } from '../../src/storage/ports.js';
import { adapters, config, randomRaces, type Adapter, skipUnavailable } from './helpers.js';

const { list, cleanup } = adapters();
afterAll(cleanup);

const options = { ratingEvery: 5, stateEvery: 7 };
const open = async (adapter: Adapter, file: string): Promise<LeagueRepository> =>
	createLeagueRepository(await adapter.open(file), options);

/** Submit races in order; returns the league id. */
async function seed(repo: LeagueRepository, races: readonly RaceInput[], name = 'Main'): Promise<string> {
	const { id } = await repo.createLeague(config(name), 'u0');
	for (const race of races) await repo.appendEvent(id, { type: 'race-submitted', race, by: 'u1' });
	return id;
}

/**
 * The reference: a full replay (replay.ts) of races written by the test in confirmation order, players mapped to the
 * league's ids, rated in date order (rating-order.ts: an edit below moves a race's date back).
 */
async function expected(repo: LeagueRepository, league: string, races: readonly RaceInput[], system: string) {
	const log = await repo.loadState(league);
	const plain: Race[] = races.map((r, i) => ({
		id: `X${i}`,
		date: r.date,
		entries: r.entries.map((e) => ({ ...e, player: log.resolve(e.player)!.id })),
	}));
	const sys = getSystem(system);
	return replayHistory(sys, sys.params(), inRatingOrder(plain)).snapshot().players;
}

const players = async (repo: LeagueRepository, league: string, system: string) =>
	JSON.stringify((await repo.ratingsAt(league, system)).snapshot.players);

describe.each(list)('league repository: $name adapter', (adapter) => {
	skipUnavailable(adapter);

	it('creates, gets and lists leagues per guild; a duplicate name is refused', async () => {
		const repo = await open(adapter, 'leagues');
		const main = await repo.createLeague(config('Main'), 'u0');
		await repo.createLeague(config('Sprint Cup'), 'u0');
		await repo.createLeague(config('Other', { guildId: 'g2' }), 'u0');
		expect(main).toMatchObject({ id: 'g1.main', seq: 0, config: { name: 'Main', headline: 'folyami' } });
		expect((await repo.listLeagues('g1')).map((l) => l.id)).toEqual(['g1.main', 'g1.sprint-cup']);
		expect((await repo.listLeagues('g2')).map((l) => l.config.name)).toEqual(['Other']);
		await expect(repo.createLeague(config('MAIN'), 'u0')).rejects.toThrow(/already exists/);
		expect(await repo.getLeague('g1.nope')).toBeUndefined();
		await expect(
			repo.appendEvent('g1.nope', { type: 'race-voided', race: 'R1', reason: 'x', by: 'u' }),
		).rejects.toThrow(/unknown league/);
	});

	it('emoji-only league names get distinct, stable ids', async () => {
		const repo = await open(adapter, 'emoji-leagues');
		const car = await repo.createLeague(config('🏎️'), 'u0');
		const flag = await repo.createLeague(config('🏁'), 'u0');
		const both = await repo.createLeague(config('🏎️🏁'), 'u0');
		expect(new Set([car.id, flag.id, both.id]).size).toBe(3);
		expect((await repo.listLeagues('g1')).map((l) => l.config.name)).toEqual(['🏎️', '🏁', '🏎️🏁']);
		await expect(repo.createLeague(config('🏁'), 'u0')).rejects.toThrow(/a league named "🏁" already exists/);
		// Stable: the same name in another store (or after a restart) has the same id.
		const again = await open(adapter, 'emoji-leagues-2');
		expect((await again.createLeague(config('🏁'), 'u0')).id).toBe(flag.id);
	});

	it('50 concurrent submissions all land, contiguous, in call order', async () => {
		const repo = await open(adapter, 'concurrent');
		const { id } = await repo.createLeague(config(), 'u0');
		const races = randomRaces(7, 50);
		const results = await Promise.all(
			races.map((race, i) => repo.appendEvent(id, { type: 'race-submitted', race, by: `u${i}` })),
		);
		expect(results.map((r) => r.seq)).toEqual(races.map((_, i) => i + 1));
		expect(results.map((r) => r.race)).toEqual(races.map((_, i) => `R${i + 1}`));
		const events = await repo.readEvents(id);
		expect(events.map((e) => e.seq)).toEqual(Array.from({ length: 51 }, (_, i) => i));
		expect(events.slice(1).map((e) => e.by)).toEqual(races.map((_, i) => `u${i}`));
	});

	it('a refused event writes nothing and later events still land', async () => {
		const repo = await open(adapter, 'refused');
		const id = await seed(repo, randomRaces(1, 3));
		await expect(repo.appendEvent(id, { type: 'race-voided', race: 'R9', reason: 'x', by: 'u' })).rejects.toThrow(
			LeagueError,
		);
		const ok = await repo.appendEvent(id, { type: 'race-voided', race: 'R2', reason: 'x', by: 'u' });
		expect(ok.seq).toBe(4);
		expect((await repo.readEvents(id, 4)).map((e) => e.type)).toEqual(['race-voided']);
	});

	it('an append at a seq lands only while the log is there: of two decided at once, one lands (atSeq)', async () => {
		const repo = await open(adapter, 'at-seq');
		const id = await seed(repo, randomRaces(2, 3));
		const head = (await repo.getLeague(id))!.seq;
		const configured = (by: string) => ({ type: 'league-configured' as const, config: config('Main'), by });
		const [first, second] = await Promise.allSettled([
			repo.appendEvent(id, configured('a'), { atSeq: head }),
			repo.appendEvent(id, configured('b'), { atSeq: head }),
		]);
		expect(first).toMatchObject({ status: 'fulfilled', value: { seq: head + 1 } });
		expect(second).toMatchObject({
			status: 'rejected',
			reason: { name: 'LogMovedError', expected: head, head: head + 1 },
		});
		expect((await repo.readEvents(id, head + 1)).map((e) => e.by)).toEqual(['a']);
		await expect(repo.appendEvent(id, configured('c'), { atSeq: head })).rejects.toBeInstanceOf(LogMovedError);
		expect((await repo.appendEvent(id, configured('d'), { atSeq: head + 1 })).seq).toBe(head + 2);
	});

	it('ratings from snapshot + tail equal a full replay, bit for bit, warm and after a reopen, for every system', async () => {
		const races = randomRaces(11, 37);
		const repo = await open(adapter, 'snapshots');
		const id = await seed(repo, races);
		const reopened = await open(adapter, 'snapshots');
		for (const system of raceSystems) {
			const full = JSON.stringify(await expected(repo, id, races, system.id));
			expect(await players(repo, id, system.id)).toBe(full);
			expect(await players(reopened, id, system.id)).toBe(full);
		}
		expect((await reopened.loadState(id)).snapshot()).toEqual((await repo.loadState(id)).snapshot());
	});

	it('void and edit replay from that race on and equal a full replay of the edited log (warm and cold)', async () => {
		const races = randomRaces(23, 40);
		const repo = await open(adapter, 'void-edit');
		const id = await seed(repo, races);
		for (const system of raceSystems) await repo.ratingsAt(id, system.id); // warm caches first
		await repo.appendEvent(id, { type: 'race-voided', race: 'R12', reason: 'wrong track', by: 'u9' });
		const edit = randomRaces(99, 1)[0]!;
		await repo.appendEvent(id, { type: 'race-edited', race: 'R30', reason: 'typo', changes: edit, by: 'u9' });
		const edited = races.map((r, i) => (i === 29 ? edit : r)).filter((_, i) => i !== 11);
		const reopened = await open(adapter, 'void-edit');
		for (const system of raceSystems) {
			const full = JSON.stringify(await expected(repo, id, edited, system.id));
			expect(await players(repo, id, system.id)).toBe(full);
			expect(await players(reopened, id, system.id)).toBe(full);
		}
	});

	it('merge re-rates the merged players as one; rename and alias change no rating', async () => {
		const races: RaceInput[] = [
			...randomRaces(5, 10),
			{
				date: '2024-03-01',
				entries: [
					{ player: 'Solo', position: 1, status: 'finished' },
					{ player: 'P01', position: 2, status: 'finished' },
				],
			},
			...randomRaces(6, 10).map((r) => ({ ...r, date: '2024-04-01' })),
		];
		const repo = await open(adapter, 'merge');
		const id = await seed(repo, races);
		const before = await players(repo, id, 'glicko');
		await repo.appendEvent(id, { type: 'player-renamed', player: 'P02', name: 'Second', by: 'u' });
		await repo.appendEvent(id, { type: 'alias-added', player: 'Second', alias: 'Deux', by: 'u' });
		expect(await players(repo, id, 'glicko')).toBe(before);
		await expect(repo.appendEvent(id, { type: 'players-merged', from: 'Solo', into: 'P01', by: 'u' })).rejects.toThrow(
			/both raced in R11/,
		);
		await repo.appendEvent(id, { type: 'players-merged', from: 'Solo', into: 'P03', by: 'u' });
		const merged = races.map((r) => ({
			...r,
			entries: r.entries.map((e) => (e.player === 'Solo' ? { ...e, player: 'P03' } : e)),
		}));
		const full = JSON.stringify(await expected(repo, id, merged, 'glicko'));
		expect(await players(repo, id, 'glicko')).toBe(full);
		expect(await players(await open(adapter, 'merge'), id, 'glicko')).toBe(full);
		const view = await repo.ratingsAt(id, 'glicko');
		expect(view.standings.some((s) => s.name === 'P03')).toBe(true);
		expect(view.standings.some((s) => s.name === 'Solo')).toBe(false);
		expect(view.standings.some((s) => s.name === 'Second')).toBe(true);
	});

	it('new parameters re-rate the whole league', async () => {
		const races = randomRaces(3, 12);
		const repo = await open(adapter, 'params');
		const id = await seed(repo, races);
		await repo.ratingsAt(id, 'glicko');
		await repo.appendEvent(id, {
			type: 'league-configured',
			config: config('Main', { params: { glicko: { c: 50 } } }),
			by: 'u',
		});
		const log = await repo.loadState(id);
		const sys = getSystem('glicko');
		const plain = log.ratedRaces().map((r) => r.race);
		const full = JSON.stringify(replayHistory(sys, sys.params({ c: 50 }), plain).snapshot().players);
		expect(await players(repo, id, 'glicko')).toBe(full);
		expect(await players(await open(adapter, 'params'), id, 'glicko')).toBe(full);
	});

	it('an import is one event of N races, rated as N submissions, snapshots whole batches, voids and edits as usual', async () => {
		const races = randomRaces(31, 43);
		const repo = await open(adapter, 'import');
		const { id } = await repo.createLeague(config(), 'u0');
		const heard: [number, number][] = [];
		const result = await repo.appendEvent(
			id,
			{ type: 'league-imported', races, source: 'test.csv', by: 'u1' },
			{ progress: (done, total) => heard.push([done, total]) },
		);
		expect(result.seq).toBe(1);
		expect(await repo.readEvents(id)).toHaveLength(2);
		// Progress counts races replayed over every system, up to all of them, never backwards.
		expect(heard.at(-1)).toEqual([43 * raceSystems.length, 43 * raceSystems.length]);
		expect(heard.every(([done], i) => i === 0 || done >= heard[i - 1]![0])).toBe(true);
		const reopened = await open(adapter, 'import');
		for (const system of raceSystems) {
			const full = JSON.stringify(await expected(repo, id, races, system.id));
			expect(await players(repo, id, system.id)).toBe(full);
			expect(await players(reopened, id, system.id)).toBe(full);
		}
		await repo.appendEvent(id, { type: 'race-voided', race: 'R12', reason: 'wrong track', by: 'u9' });
		const edit = randomRaces(99, 1)[0]!;
		await repo.appendEvent(id, { type: 'race-edited', race: 'R30', reason: 'typo', changes: edit, by: 'u9' });
		const extra = randomRaces(5, 6, 14);
		for (const race of extra) await repo.appendEvent(id, { type: 'race-submitted', race, by: 'u1' });
		const edited = [...races.map((r, i) => (i === 29 ? edit : r)).filter((_, i) => i !== 11), ...extra];
		const cold = await open(adapter, 'import');
		for (const system of raceSystems) {
			const full = JSON.stringify(await expected(repo, id, edited, system.id));
			expect(await players(repo, id, system.id)).toBe(full);
			expect(await players(cold, id, system.id)).toBe(full);
		}
	});

	it('an import into a league with races is refused and the log does not grow', async () => {
		const repo = await open(adapter, 'import-refused');
		const id = await seed(repo, randomRaces(3, 2));
		await expect(
			repo.appendEvent(id, { type: 'league-imported', races: randomRaces(4, 3), source: 'x.csv', by: 'u1' }),
		).rejects.toThrow(new LeagueError('this league already has 2 races: import into a new league'));
		expect(await repo.readEvents(id)).toHaveLength(3);
	});
});

describe('league repository: close', () => {
	it('lets the work handed to finishBeforeClose finish, even work handed over while it waits, then closes', async () => {
		const store = createMemoryStore();
		const order: string[] = [];
		const closeStore = store.close.bind(store);
		store.close = async () => {
			order.push('store closed');
			await closeStore();
		};
		const repo = createLeagueRepository(store);
		const later = (ms: number, what: string) =>
			new Promise<void>((resolve) => setTimeout(() => (order.push(what), resolve()), ms));
		repo.finishBeforeClose(
			later(30, 'first write').then(() => repo.finishBeforeClose(later(20, 'write queued behind it'))),
		);
		repo.finishBeforeClose(Promise.reject(new Error('a failed cache write is its own business')));
		await repo.close();
		expect(order).toEqual(['first write', 'write queued behind it', 'store closed']);
	});
});

describe('league repository: a league opened by several reads at once', () => {
	it('is read from the store and indexed once, and every read gets the same log', async () => {
		const store = createMemoryStore();
		const league = await seed(createLeagueRepository(store, options), randomRaces(3, 40, 6));
		let stateReads = 0;
		const counted: typeof store = {
			...store,
			namespace(name) {
				const inner = store.namespace(name);
				if (name !== 'league-state') return inner;
				return { ...inner, get: (key) => (key === league && stateReads++, inner.get(key)) };
			},
		};
		const cold = createLeagueRepository(counted, options);
		const logs = await Promise.all([1, 2, 3, 4].map(() => cold.loadState(league)));
		expect(stateReads).toBe(1);
		expect(logs[0]!.races()).toHaveLength(40);
		for (const log of logs) expect(log.races()).toBe(logs[0]!.races());
	});
});
