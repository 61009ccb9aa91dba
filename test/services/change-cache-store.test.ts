/**
 * The change cache's history kept in the store: a fresh process restores it and answers exactly as a
 * full replay does; it is used (a changed stored number shows), and dropped once a void changed rated history.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { expectedRanks } from '../../src/league/explain-race.js';
import { createReplay } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { createChangeCache, type ChangeCache, type RaceResult } from '../../src/services/caches/change-cache.js';
import { standoutsOf } from '../../src/services/ratings/rating-service.js';
import { decodeFloats, encodeFloats } from '../../src/services/caches/change-cache-store.js';
import type { LeagueInfo, LeagueRepository, Store } from '../../src/storage/ports.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { GUILD, world } from './helpers.js';

const SYSTEM = 'glicko';
let store: Store;
let league: LeagueInfo;
let players: string[];

/** Every player's last change, results and last explanation under SYSTEM. */
async function answers(cache: ChangeCache) {
	const last = await cache.lastChanges(league, SYSTEM);
	const out = [];
	for (const player of players) {
		const one = {
			last: last.get(player),
			standouts: await cache.standouts(league, SYSTEM, player),
			why: await cache.lastExplanation(league, SYSTEM, player),
		};
		// /rating's one call gives the same three answers.
		const together = await cache.player(league, SYSTEM, player);
		expect({ last: together.last, standouts: together.standouts, why: together.explanation }).toStrictEqual(one);
		out.push(one);
	}
	return out;
}

/** A repository over `store` whose cache reads find nothing: the change cache replays the whole log. */
const withoutCopies = (repo: LeagueRepository): LeagueRepository => ({
	...repo,
	readCache: (_league, keys) => Promise.resolve(keys.map(() => undefined)),
});

/**
 * Repositories over the shared store. A change cache writes its copy on a queue of its own, after its answers: each
 * test waits for its repositories' queued writes (close waits for them; the memory store's close does nothing), so
 * that no copy a test wrote lands in the next one (seen: a copy landing after the next test had changed it).
 */
const opened: LeagueRepository[] = [];
const repository = (): LeagueRepository => {
	const repo = createLeagueRepository(store);
	opened.push(repo);
	return repo;
};
afterEach(async () => {
	await Promise.all(opened.splice(0).map((repo) => repo.close()));
});

beforeAll(async () => {
	store = createMemoryStore();
	const w = world(store);
	league = (await ensureSampleLeague(w.repo, GUILD)).league;
	players = (await w.repo.loadState(league.id)).players().map((p) => p.id);
});

describe('standout races kept race by race', () => {
	it("are what standoutsOf finds in the whole list of each player's results", async () => {
		const repo = repository();
		const state = await repo.loadState(league.id);
		const impl = getSystem(SYSTEM);
		const params: unknown = impl.params();
		const replay = createReplay<unknown, unknown>(impl, params);
		const results = new Map<string, RaceResult[]>();
		for (const { race } of state.ratedRaces()) {
			const prepared = replay.prepare(race);
			const expected = expectedRanks(impl, params, prepared.field);
			const outcome = replay.commit(prepared);
			outcome.changes.forEach((c, i) => {
				const tied = prepared.field.filter((e) => e.rank === c.rank).length;
				const list = results.get(c.player) ?? [];
				results.set(c.player, list);
				list.push({
					race: race.id,
					date: race.date,
					rank: c.rank,
					place: c.rank - (tied - 1) / 2,
					status: c.status,
					fieldSize: prepared.field.length,
					expectedRank: expected[i]!,
					before: c.before.rating,
					after: c.after.rating,
				});
			});
		}
		const cache = createChangeCache(repo);
		for (const player of players) {
			expect(await cache.standouts(league, SYSTEM, player), player).toStrictEqual(
				standoutsOf(results.get(player) ?? []),
			);
		}
	});
});

describe('the change cache in the store', () => {
	it('stores the floats bit for bit: NaN, infinities, -0', () => {
		const values = [NaN, Infinity, -Infinity, -0, 0, 1 / 3, 1500.123456789, Number.MIN_VALUE];
		expect(decodeFloats(encodeFloats(values))).toStrictEqual(values);
	});

	it('a fresh process restores the stored history and answers as a full replay does', async () => {
		const first = createChangeCache(repository());
		const replayed = await answers(first);
		// The copy is written on a queue of its own, after the answers.
		await vi.waitFor(async () =>
			expect(await store.namespace('derived-caches').get(`${league.id}:changes:${SYSTEM}`)).toBeDefined(),
		);
		const restored = await answers(createChangeCache(repository()));
		expect(restored).toStrictEqual(replayed);
		expect(replayed.filter((a) => a.standouts !== undefined).length).toBeGreaterThan(10);
	});

	it('the stored copy is what a fresh process reads', async () => {
		const caches = store.namespace('derived-caches');
		const key = `${league.id}:changes:${SYSTEM}`;
		const head = (await caches.get(key)) as { last: { players: string[]; values: string } };
		const values = decodeFloats(head.last.values);
		await caches.set(key, { ...head, last: { ...head.last, values: encodeFloats([12345, ...values.slice(1)]) } });
		const last = await createChangeCache(repository()).lastChanges(league, SYSTEM);
		expect(last.get(head.last.players[0]!)?.before).toBe(12345);
		await caches.set(key, head);
	});

	it('after a void the stored copy no longer holds: the answers are a full replay of the new log', async () => {
		const repo = repository();
		await repo.appendEvent(league.id, { type: 'race-voided', race: 'R3', reason: 'test', by: 'u' });
		const restored = await answers(createChangeCache(repository()));
		const replayed = await answers(createChangeCache(withoutCopies(repository())));
		expect(restored).toStrictEqual(replayed);
	});
});
