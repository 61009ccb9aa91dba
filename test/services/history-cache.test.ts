/** The packed histories of history-cache.ts against a replay of the same races kept as objects. */
import { describe, expect, it } from 'vitest';
import { playerHistoriesInSteps } from '../../src/league/player-history.js';
import { replayOptionsOf } from '../../src/league/replay-options.js';
import { getSystem, raceSystems } from '../../src/ratings/index.js';
import { createHistoryCache } from '../../src/services/caches/history-cache.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { buildBigLeague } from '../../bench/big-league-data.js';
import { mulberry32 } from '../support/mulberry32.js';
import { addRace, organizer, world, type World } from './helpers.js';

const POOL = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'];

/** `races` races of 3-6 racers (one DNF now and then), a week apart from `from`, in one league. */
async function league(w: World, name: string, races: number, from: string) {
	const random = mulberry32(races);
	const info = await w.services.leagues.create(organizer, { name, headline: 'glicko' });
	for (let r = 0; r < races; r++) {
		const field = [...POOL].sort(() => random() - 0.5).slice(0, 3 + Math.floor(random() * 4));
		const text = field.map((p, i) => (i === field.length - 1 && random() < 0.3 ? `DNF ${p}` : `${i + 1}. ${p}`));
		const day = new Date(Date.parse(from) + r * 7 * 86_400_000).toISOString().slice(0, 10);
		await addRace(w, text.join('\n'), name, day);
	}
	return info;
}

/** What playerHistoriesInSteps gives for every player of the league under `system`: the objects the cache packs. */
async function replayed(repo: LeagueRepository, id: string, system: string) {
	const log = await repo.loadState(id);
	const impl = getSystem(system);
	const params: unknown = impl.params(log.config()?.params[system]);
	const races = log.ratedRaces().map((r) => r.race);
	const options = replayOptionsOf(log.config(), log.seasons());
	const players = log.players().map((p) => p.id);
	const steps = playerHistoriesInSteps(impl, params, races, players, options, Infinity);
	let step = steps.next();
	while (step.done !== true) step = steps.next();
	return { players, histories: step.value };
}

describe('the history cache', () => {
	it('gives every player of every system the steps a replay gives, bit for bit, across a yearly reset and a void', async () => {
		const w = world();
		const cup = await league(w, 'Cup', 40, '2025-10-04'); // into 2026: a yearly reset at the first race of 2026
		await w.services.leagues.configure(organizer, 'Cup', { reset: 'yearly' });
		const cache = createHistoryCache(w.repo);
		const check = async () => {
			const info = (await w.repo.getLeague(cup.id))!;
			for (const system of raceSystems) {
				const expected = await replayed(w.repo, cup.id, system.id);
				const got = await cache.histories(info, system.id, expected.players);
				expect(got.histories).toEqual(expected.histories);
				const steps = [...got.histories.values()].flat();
				// stk rates none of these races (it needs finish times; these results are places only).
				if (system.id === 'stk') continue;
				expect(steps.length).toBeGreaterThan(100);
				// Newcomer steps after the reset are there: the reset is in the packed flags, not only in the first race.
				const restarts = steps.filter((s) => s.newcomer && s.date! >= '2026-01-01');
				expect(restarts.length).toBeGreaterThanOrEqual(4);
			}
		};
		await check();
		await w.services.races.void(organizer, 'R3', 'test'); // replays every system
		await check();
		await addRace(w, '1. Ann\n2. Hal\n3. Bob', 'Cup', '2026-09-01'); // applied on top
		await check();
	});

	it('replays a changed history into the arrays of the history it replaces, not into new ones beside them', async () => {
		const w = world();
		const cup = await league(w, 'Cup', 60, '2025-01-04');
		const cache = createHistoryCache(w.repo);
		const players = (await w.repo.loadState(cup.id)).players().map((p) => p.id);
		const read = async () => cache.histories((await w.repo.getLeague(cup.id))!, 'glicko', players);
		// Bytes of every Float64Array made while `run` runs (the packed steps are the only ones this cache makes).
		const allocated = async (run: () => Promise<unknown>) => {
			const real = globalThis.Float64Array;
			let bytes = 0;
			globalThis.Float64Array = new Proxy(real, {
				construct(target, args: [number]) {
					const made = new target(...args);
					bytes += made.byteLength;
					return made;
				},
			});
			try {
				await run();
			} finally {
				globalThis.Float64Array = real;
			}
			return bytes;
		};
		const first = await allocated(read);
		expect(first).toBeGreaterThan(60 * 3 * 8 * 8); // 60 races of 3 or more racers, 8 numbers or more a step
		await w.services.races.void(organizer, 'R1', 'test');
		expect(await allocated(read)).toBe(0); // one step fewer for R1's racers: their arrays have room
		await w.services.races.restore(organizer, 'R1', 'test');
		let restored: Awaited<ReturnType<typeof read>> | undefined;
		expect(await allocated(async () => (restored = await read()))).toBe(0);
		const expected = await replayed(w.repo, cup.id, 'glicko');
		expect(restored!.histories).toEqual(expected.histories);
	});

	it('with a wait, answers nothing while a long replay runs, and that replay goes on for the next read', async () => {
		const store = createMemoryStore();
		// 2,000 races of 20: a replay of many slices (8 ms each), far more than the 1 ms waited.
		const id = await buildBigLeague(store, { races: 2_000, racers: 20, players: 300, seed: 3 });
		const repo = createLeagueRepository(store);
		const info = (await repo.getLeague(id))!;
		const driver = (await repo.loadState(id)).resolve('Driver 0001')!.id;
		const expected = await replayed(repo, id, 'folyami');
		let rebuilt = 0;
		const counting: LeagueRepository = {
			...repo,
			loadState: async (league, options) => {
				const log = await repo.loadState(league, options);
				return Object.assign(Object.create(log) as typeof log, {
					ratedRacesSince: (basis: number) => {
						const races = log.ratedRacesSince(basis);
						if (races.length > 1) rebuilt++;
						return races;
					},
				});
			},
		};
		const cache = createHistoryCache(counting);
		expect(await cache.historiesUnlessLong(info, 'folyami', [driver], 1)).toBeUndefined();
		// The next read (waiting) gets the replay the first one started: one replay of the whole history, not two.
		const got = await cache.histories(info, 'folyami', [driver]);
		expect(got.histories.get(driver)).toEqual(expected.histories.get(driver));
		expect(rebuilt).toBe(1);
		// A short replay is always waited for: one more race on top.
		await repo.appendEvent(id, {
			type: 'race-submitted',
			race: {
				date: '2099-01-01',
				mode: 'tt',
				entries: [
					{ player: driver, position: 1, status: 'finished' },
					{ player: 'New', position: 2, status: 'finished' },
				],
			},
			by: 'test',
		} as never);
		const after = await cache.historiesUnlessLong(info, 'folyami', [driver], 1);
		expect(after!.histories.get(driver)!.length).toBe(expected.histories.get(driver)!.length + 1);
		expect(rebuilt).toBe(1);
	});

	it('with a wait, waits for a small league: a short replay is never left out', async () => {
		const w = world();
		const cup = await league(w, 'Cup', 12, '2026-01-03');
		const info = (await w.repo.getLeague(cup.id))!;
		const ann = (await w.repo.loadState(cup.id)).resolve('Ann')!.id;
		const expected = await replayed(w.repo, cup.id, 'glicko');
		const got = await createHistoryCache(w.repo).historiesUnlessLong(info, 'glicko', [ann], 0);
		expect(got!.histories.get(ann)).toEqual(expected.histories.get(ann));
	});
});
