import { createKeyedMutex } from '../../storage/mutex.js';
import { createSlicer } from '../../event-loop.js';
import { runInSlices } from '../../storage/in-slices.js';
import { explainRace, expectedRanks, type RacerExplanation } from '../../league/explain-race.js';
import type { LeagueLog } from '../../league/race-log.js';
import { createReplay, type Replay } from '../../league/replay.js';
import { readChanges, writeChanges, type StoredChanges } from './change-cache-store.js';
import { getSystem } from '../../ratings/index.js';
import type { AnyRatingSystem, FieldEntry, Race } from '../../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { replayOptionsOf, replaySettingsKey } from '../../league/replay-options.js';
import { LONG_REPLAY, unlessLong } from './cache-wait.js';

/**
 * The rated history per (league, system) that `/rating` and `/race show` explain: one replay kept per
 * key with every player's last change, every player's standout races (best and worst place against the expected
 * place) and the rated fields of the races that are still someone's last race. Races submitted since are applied on
 * top; only an event that changed rated history (void, edit, merge, parameters, a make-up race dated before races
 * already rated) replays it all, yielding to the event loop between
 * slices (event-loop.ts). Calls for one key run one at a time, so a replay in progress is never applied twice.
 *
 * At scale (15,000 races of 20 racers): rather than every player's every result (300,000 objects per
 * system, 19 MB even as numbers), only their best and worst so far are kept, as numbers; the history is kept in the store (change-cache-store.ts)
 * after a full replay and every STORE_EVERY races, so a fresh process restores it instead of replaying it all; and
 * only the WARM most recently used (league, system) histories stay in memory.
 */

/** Races applied between two copies of a history in the store. */
const STORE_EVERY = 250;
/** (league, system) histories kept in memory: the headline systems of the busiest leagues. */
const WARM = 4;

/**
 * A result as numbers: race number (R<n>), rank, place, status (1: DNF), field size, expected rank, rating before,
 * rating after.
 */
type ResultNumbers = readonly number[];

/** A player's standout races so far: how many had an expected place, the best and worst of them (standoutsOf). */
export interface StandoutNumbers {
	placed: number;
	best: ResultNumbers;
	worst: ResultNumbers;
}

/**
 * Whether `a` beat its expected place by more than `b` (> 0), tied (0) or less: standoutsOf's order (rating-service.ts)
 * on numbers, the same operations in the same order, so the same bits.
 */
const better = (a: ResultNumbers, b: ResultNumbers) =>
	a[5]! - a[1]! - (b[5]! - b[1]!) || a[7]! - a[6]! - (b[7]! - b[6]!);

export interface LastChange {
	readonly race: string;
	readonly date?: string | undefined;
	readonly before: number;
	readonly after: number;
	/** Where the system rates cars: the car the player raced, and its part before and after the race (raw). */
	readonly car?: CarMove | undefined;
}

/** A car's part before and after a race (RatingChange.car). */
export interface CarMove {
	readonly name: string;
	readonly before: number;
	readonly after: number;
}

/** A car's last race, where the system rates cars: its part before (carried over) and after it. */
export interface CarLastChange {
	readonly race: string;
	readonly date?: string | undefined;
	readonly before: number;
	readonly after: number;
}

/** One race in a player's history: where they finished against where they were expected to. */
export interface RaceResult {
	readonly race: string;
	readonly date?: string | undefined;
	readonly rank: number;
	/** The first place of the racer's tie group (rank itself without a tie). */
	readonly place: number;
	readonly status: 'finished' | 'DNF';
	readonly fieldSize: number;
	readonly expectedRank: number;
	readonly before: number;
	readonly after: number;
}

/** The best and worst races of a player's history: most places above and below the expected place. */
export interface Standouts {
	readonly best: RaceResult;
	readonly worst: RaceResult;
}

/** A rated race, explained for every racer; or why the system did not rate it. */
export type RaceExplanation =
	| { readonly race: Race; readonly racers: readonly RacerExplanation[] }
	| { readonly race: Race; readonly unrated: string };

export interface ChangeCache {
	/** Every player's last change under `system`. */
	lastChanges(league: LeagueInfo, system: string): Promise<ReadonlyMap<string, LastChange>>;
	/** A player's best and worst races by places gained on the expected place (at least two such races). */
	standouts(league: LeagueInfo, system: string, player: string): Promise<Standouts | undefined>;
	/** The explanation of a player's last race under `system` (undefined when they have none). */
	lastExplanation(league: LeagueInfo, system: string, player: string): Promise<RacerExplanation | undefined>;
	/**
	 * What /rating shows of one player, in one turn of this key's queue: their last change, its explanation and their
	 * standout races (three turns, each waiting for the league's log, kept /rating queued under load).
	 * With `waitMs`, `{ pending: true }` when a long replay (cache-wait.ts: the first read of a big league whose copy
	 * in the store no longer holds, or one after a change that replays history) still runs after that long.
	 */
	player(
		league: LeagueInfo,
		system: string,
		player: string,
		options?: { readonly waitMs?: number | undefined },
	): Promise<PlayerChanges>;
	/** Where the system rates cars: a car's last race and its part's move in it (undefined for a car never rated). */
	lastCarChange(league: LeagueInfo, system: string, car: string): Promise<CarLastChange | undefined>;
	/** A confirmed race explained for every racer; undefined for a race not in the rated history (voided, unknown). */
	explain(league: LeagueInfo, system: string, raceId: string): Promise<RaceExplanation | undefined>;
}

export interface PlayerChanges {
	/** The history is being replayed (a long replay, not waited for): nothing else is set. */
	readonly pending?: true | undefined;
	readonly last?: LastChange | undefined;
	readonly explanation?: RacerExplanation | undefined;
	readonly standouts?: Standouts | undefined;
}

/** A rated field kept while it is some player's last race. */
interface KeptField {
	readonly race: Race;
	readonly field: readonly FieldEntry<unknown>[];
	readonly after: readonly unknown[];
	readonly expected: readonly number[];
	/** Players whose last race this is. */
	holders: number;
	explained?: RacerExplanation[];
}

interface Entry {
	seq: number;
	readonly system: AnyRatingSystem;
	readonly params: unknown;
	readonly paramsKey: string;
	readonly replay: Replay<unknown>;
	readonly byPlayer: Map<string, LastChange>;
	/** Each rated car's last change (empty where the system does not rate cars). */
	readonly byCar: Map<string, CarLastChange>;
	readonly standouts: Map<string, StandoutNumbers>;
	readonly lastRaceOf: Map<string, string>;
	readonly fields: Map<string, KeptField>;
	/** Races applied since the copy in the store; the keys of that copy's chunks. */
	sinceStored: number;
	storedKeys: readonly string[];
	/** Set when a rebuild replaced this entry: a copy queued for the store is then dropped. */
	replaced: boolean;
}

export interface ChangeCacheOptions {
	/** Races to replay from which a replay counts as long (default LONG_REPLAY; tests make it small). */
	readonly longReplay?: number | undefined;
}

export function createChangeCache(repo: LeagueRepository, options: ChangeCacheOptions = {}): ChangeCache {
	const { longReplay = LONG_REPLAY } = options;
	const entries = new Map<string, Entry>();
	/** Keys whose long replay is running. */
	const replaying = new Set<string>();

	/** Calls for one key run one at a time, in call order (a replay in progress is never applied twice). */
	const mutex = createKeyedMutex();
	const serial = <T>(key: string, task: () => Promise<T>): Promise<T> => mutex.run(key, task);

	const fresh = (state: LeagueLog, system: string, stored?: StoredChanges): Entry => {
		const config = state.config();
		const impl = getSystem(system);
		const params: unknown = impl.params(config?.params[system]);
		const raceOf = (id: string): Race => state.race(id)!;
		return {
			seq: stored?.seq ?? -1,
			system: impl,
			params,
			paramsKey: replaySettingsKey(config, system, state.seasons()),
			replay: createReplay<unknown, unknown>(impl, params, replayOptionsOf(config, state.seasons()), stored?.replay),
			byPlayer: new Map(stored?.lastChanges.map(({ player, ...change }) => [player, change])),
			byCar: new Map(stored?.lastCars?.map(({ car, ...change }) => [car, change])),
			standouts: new Map(stored?.standouts),
			lastRaceOf: new Map(stored?.lastRaceOf),
			fields: new Map(stored?.fields.map(({ race, ...kept }) => [race, { ...kept, race: raceOf(race) }] as const)),
			sinceStored: 0,
			storedKeys: [],
			replaced: false,
		};
	};

	/** The copy of (league, system) in the store, when it still holds for the log: else undefined (rebuild). */
	const restore = async (state: LeagueLog, league: string, system: string): Promise<Entry | undefined> => {
		try {
			const found = await readChanges(repo, league, system);
			if (found === undefined || state.touchedSince(found.changes.seq) !== Infinity) return undefined;
			if (found.changes.seq > state.seq()) return undefined; // written by a process further on than this one
			const entry = fresh(state, system, found.changes);
			if (entry.paramsKey !== found.changes.paramsKey) return undefined;
			entry.storedKeys = found.keys;
			return entry;
		} catch {
			return undefined; // unreadable or not of this log: a cache, so replay instead
		}
	};

	/**
	 * Write a copy of the entry to the store, written on a queue of its own, so that reads of this key do not wait
	 * behind the write (/rating's p99 was the save of a 10,000-race history). A failed write only costs a later
	 * replay: the copy is a cache. The copy is taken in slices while the caller holds the key (no race is applied to
	 * the entry meanwhile): at 2,000 players in one go it was 10–15 ms, added to the turn of the replay's last slice.
	 */
	const store = async (league: string, system: string, entry: Entry): Promise<void> => {
		entry.sinceStored = 0;
		const copy = await runInSlices(storedCopy(entry));
		// A failed write is not the reader's error (the copy is a cache); a stop waits for it (finishBeforeClose).
		repo.finishBeforeClose(
			serial(`${league}:${system}:store`, async () => {
				if (entry.replaced) return;
				entry.storedKeys = await writeChanges(repo, league, system, copy, entry.storedKeys);
			}),
		);
	};

	const applyRace = (entry: Entry, race: Race) => {
		const prepared = entry.replay.prepare(race);
		// The expected place needs every state to have a performance; a race the system cannot rate is skipped below.
		const expected = expectedRanks(entry.system, entry.params, prepared.field);
		const outcome = entry.replay.commit(prepared);
		if (outcome.skipped !== undefined) return;
		if (prepared.reset) {
			entry.byPlayer.clear();
			entry.byCar.clear();
			entry.lastRaceOf.clear();
			entry.fields.clear();
		}
		const after = prepared.field.map((e): unknown => entry.replay.player(e.player)!.state);
		const kept: KeptField = { race, field: prepared.field, after, expected, holders: 0 };
		entry.fields.set(race.id, kept);
		const tieSize = new Map<number, number>();
		for (const e of prepared.field) tieSize.set(e.rank, (tieSize.get(e.rank) ?? 0) + 1);
		const raceNumber = Number(race.id.slice(1));
		outcome.changes.forEach((c, i) => {
			entry.byPlayer.set(c.player, {
				race: race.id,
				date: race.date,
				before: c.before.rating,
				after: c.after.rating,
				...(c.car !== undefined && { car: c.car }),
			});
			if (c.car !== undefined) {
				const { before, after } = c.car;
				entry.byCar.set(c.car.name, { race: race.id, date: race.date, before, after });
			}
			const result = [
				raceNumber,
				c.rank,
				c.rank - (tieSize.get(c.rank)! - 1) / 2,
				c.status === 'DNF' ? 1 : 0,
				prepared.field.length,
				expected[i]!,
				c.before.rating,
				c.after.rating,
			];
			// standoutsOf, one race at a time: only races with an expected place; a later tie replaces the best and
			// the worst, as its loop does.
			if (Number.isFinite(result[5])) {
				const s = entry.standouts.get(c.player);
				if (s === undefined) entry.standouts.set(c.player, { placed: 1, best: result, worst: result });
				else {
					if (better(result, s.best) >= 0) s.best = result;
					if (better(result, s.worst) <= 0) s.worst = result;
					s.placed++;
				}
			}
			const previous = entry.lastRaceOf.get(c.player);
			if (previous !== undefined) {
				const old = entry.fields.get(previous);
				if (old !== undefined && --old.holders === 0) entry.fields.delete(previous);
			}
			entry.lastRaceOf.set(c.player, race.id);
			kept.holders++;
		});
	};

	/** The entry of (league, system), up to date with the league's log (returned too). */
	const update = async (league: LeagueInfo, system: string): Promise<Entry & { readonly log: LeagueLog }> => {
		const key = `${league.id}:${system}`;
		const state = await repo.loadState(league.id);
		let entry = entries.get(key);
		entries.delete(key); // set again below: the map's order is the order of use, least recent first
		let rebuild = false;
		if (entry !== undefined && state.touchedSince(entry.seq) !== Infinity) {
			entry.replaced = true;
			entry = undefined;
		}
		if (entry === undefined) {
			entry = await restore(state, league.id, system);
			rebuild = entry === undefined;
			entry ??= fresh(state, system);
		}
		entries.set(key, entry);
		for (const idle of [...entries.keys()].slice(0, Math.max(0, entries.size - WARM))) entries.delete(idle);
		const races = state.ratedRacesSince(entry.seq);
		if (races.length >= longReplay) replaying.add(key);
		try {
			const slicer = createSlicer();
			for (const { race } of races) {
				applyRace(entry, race);
				entry.sinceStored++;
				if (slicer.due()) await slicer.pause();
			}
		} catch (error) {
			entries.delete(key); // half-applied: the next call restores or replays it again
			throw error;
		} finally {
			replaying.delete(key);
		}
		entry.seq = state.seq();
		if ((rebuild && entry.sinceStored > 0) || entry.sinceStored >= STORE_EVERY) await store(league.id, system, entry);
		return Object.assign(entry, { log: state });
	};

	/** A result's numbers as a RaceResult (the date from the log: a race whose date changed was edited, and replayed). */
	const resultOf = (state: LeagueLog, n: ResultNumbers): RaceResult => {
		const race = `R${n[0]!}`;
		return {
			race,
			date: state.race(race)?.date,
			rank: n[1]!,
			place: n[2]!,
			status: n[3] === 1 ? 'DNF' : 'finished',
			fieldSize: n[4]!,
			expectedRank: n[5]!,
			before: n[6]!,
			after: n[7]!,
		};
	};

	const explainKept = (entry: Entry, kept: KeptField): RacerExplanation[] =>
		(kept.explained ??= explainRace(entry.system, entry.params, kept.field, kept.after, { mode: kept.race.mode }, [
			...kept.expected,
		]));

	/** A race no longer kept: replay up to it (yielding between slices), then rate it once more on the side. */
	const explainFromScratch = async (league: LeagueInfo, system: string, raceId: string) => {
		const state = await repo.loadState(league.id);
		const entry = fresh(state, system);
		const slicer = createSlicer();
		for (const { race } of state.ratedRaces()) {
			if (race.id === raceId) {
				const prepared = entry.replay.prepare(race);
				const outcome = entry.replay.commit(prepared);
				if (outcome.skipped !== undefined) return { race, unrated: outcome.skipped };
				const after = prepared.field.map((e): unknown => entry.replay.player(e.player)!.state);
				return { race, racers: explainRace(entry.system, entry.params, prepared.field, after, { mode: race.mode }) };
			}
			entry.replay.advance(race);
			if (slicer.due()) await slicer.pause();
		}
		return undefined;
	};

	const standoutsIn = (entry: Entry & { readonly log: LeagueLog }, player: string): Standouts | undefined => {
		const s = entry.standouts.get(player);
		return s === undefined || s.placed < 2
			? undefined
			: { best: resultOf(entry.log, s.best), worst: resultOf(entry.log, s.worst) };
	};

	const explanationIn = (entry: Entry, player: string): RacerExplanation | undefined => {
		const raceId = entry.lastRaceOf.get(player);
		const kept = raceId === undefined ? undefined : entry.fields.get(raceId);
		return kept === undefined ? undefined : explainKept(entry, kept).find((e) => e.player === player);
	};

	return {
		lastChanges: (league, system) =>
			serial(`${league.id}:${system}`, async () => (await update(league, system)).byPlayer),
		standouts: (league, system, player) =>
			serial(`${league.id}:${system}`, async () => standoutsIn(await update(league, system), player)),
		lastExplanation: (league, system, player) =>
			serial(`${league.id}:${system}`, async () => explanationIn(await update(league, system), player)),
		async player(league, system, player, read) {
			const key = `${league.id}:${system}`;
			const work = serial(key, async (): Promise<PlayerChanges> => {
				const entry = await update(league, system);
				const last = entry.byPlayer.get(player);
				if (last === undefined) return {};
				return { last, explanation: explanationIn(entry, player), standouts: standoutsIn(entry, player) };
			});
			const outcome = await unlessLong(work, read?.waitMs, () => replaying.has(key));
			return 'value' in outcome ? outcome.value : outcome;
		},
		lastCarChange: (league, system, car) =>
			serial(`${league.id}:${system}`, async () => (await update(league, system)).byCar.get(car)),
		explain: (league, system, raceId) =>
			serial(`${league.id}:${system}`, async (): Promise<RaceExplanation | undefined> => {
				const entry = await update(league, system);
				const kept = entry.fields.get(raceId);
				if (kept !== undefined) return { race: kept.race, racers: explainKept(entry, kept) };
				return explainFromScratch(league, system, raceId);
			}),
	};
}

/** Items copied between two pauses of storedCopy. */
const COPY_STEP = 200;

/**
 * What the store keeps of an entry, as of now, in steps (for runInSlices). Standouts and last races are copied, not
 * shared: they change in place as races are applied.
 */
function* storedCopy(entry: Entry): Generator<void, StoredChanges> {
	const replay = entry.replay.snapshot();
	yield;
	const lastChanges = yield* mapInSteps(entry.byPlayer, ([player, change]) => ({ player, ...change }));
	const lastCars = yield* mapInSteps(entry.byCar, ([car, change]) => ({ car, ...change }));
	const standouts = new Map(yield* mapInSteps(entry.standouts, ([player, s]) => [player, { ...s }] as const));
	const lastRaceOf = new Map(entry.lastRaceOf);
	yield;
	const fields = yield* mapInSteps(entry.fields, ([race, kept]) => ({
		race,
		field: kept.field,
		after: kept.after,
		expected: kept.expected,
		holders: kept.holders,
	}));
	return { seq: entry.seq, paramsKey: entry.paramsKey, replay, lastChanges, lastCars, standouts, lastRaceOf, fields };
}

function* mapInSteps<T, U>(items: Iterable<T>, copy: (item: T) => U): Generator<void, U[]> {
	const out: U[] = [];
	for (const item of items) {
		out.push(copy(item));
		if (out.length % COPY_STEP === 0) yield;
	}
	return out;
}
