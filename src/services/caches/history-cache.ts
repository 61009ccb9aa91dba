import { createKeyedMutex } from '../../storage/mutex.js';
import { createSlicer } from '../../event-loop.js';
import type { HistoryStep } from '../../league/player-history.js';
import type { LeagueLog, RatedRace } from '../../league/race-log.js';
import { createReplay, type Replay } from '../../league/replay.js';
import { racersOf } from '../../league/packed-entries.js';
import { getSystem } from '../../ratings/index.js';
import type { AnyRatingSystem, RatingSummary } from '../../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { replayOptionsOf } from '../../league/replay-options.js';
import { LONG_REPLAY, unlessLong } from './cache-wait.js';

/**
 * Every player's rating history per (league, system), for the /rating chart. Replaying a 10,000-race
 * league for one chart took a second of the event loop (bench:load: at 2.5 charts a second nothing else was
 * answered); here the replay is kept and races submitted since are applied on top, so a chart reads its players'
 * steps. An event that changed rated history (void, edit, merge, parameters, a make-up race dated before races already
 * rated) replays it all, yielding between slices.
 * Only the most recently used histories are kept. Calls for one key run one at a time, so a replay in progress is
 * never applied twice.
 *
 * Packed: a step is a row of numbers in its player's Float64Array (race number and ordinal in one, races before and
 * flags in one, the rating and uncertainty before the race, the state after it), not four objects. At 15,000 races of
 * 20 racers the objects were 300,000 steps, 600,000 summaries and 300,000 states, about 90 MB of V8 heap per (league,
 * system) and most of the real bot's garbage collection pauses (bench/real-bot.ts); packed, 8 bytes a number outside
 * the heap (56 bytes a step for a state of three numbers). What is not packed is derived when
 * a step is read: the summary after the race is `system.summary` of the state after it (exactly what the replay
 * computed: replay.ts commit), the date is the race's in the log the history was replayed from.
 */

/** (league, system) histories kept in memory. */
const KEPT = 2;

/**
 * Numbers of a step before its state's: race number (R<n>) × ORDINALS + ordinal, races before × FLAGS + flags, then
 * rating and uncertainty before. Integers share a number (exactly: both parts stay far below 2^53) as six numbers a
 * step were 16 bytes more than four, 5 MB at 300,000 steps.
 */
const HEAD = 4;
const ORDINALS = 2 ** 26;
const FLAGS = 16;
const NEWCOMER = 1;
const PROVISIONAL_BEFORE = 2;
const NO_UNCERTAINTY_BEFORE = 4;
/** A state that is not the system's flat record of numbers: kept as it is (`odd`), never met with today's systems. */
const ODD_STATE = 8;

/** One player's steps: `steps` rows of `width` numbers, the array grown by half again when full. */
interface PackedSteps {
	numbers: Float64Array;
	steps: number;
	odd?: Map<number, unknown>;
}

interface Entry {
	seq: number;
	races: number;
	readonly system: AnyRatingSystem;
	readonly params: unknown;
	readonly replay: Replay<unknown>;
	/** The fields of the system's state, in the order they are packed (those of its newcomer state). */
	readonly stateKeys: readonly string[];
	readonly width: number;
	readonly histories: Map<string, PackedSteps>;
}

/** The rated histories of the players asked, at the log's head (a player never rated: []). */
export interface Histories {
	readonly log: LeagueLog;
	readonly histories: ReadonlyMap<string, readonly HistoryStep<unknown>[]>;
}

export interface HistoryCache {
	/** The rated history of `players` under `system` at the log's head. */
	histories(league: LeagueInfo, system: string, players: readonly string[]): Promise<Histories>;
	/**
	 * `histories`, or undefined when a long replay (cache-wait.ts: a first read of a big league, or one after a change
	 * that replays its history) still runs after `waitMs`: the replay goes on, and a later call finds it done.
	 */
	historiesUnlessLong(
		league: LeagueInfo,
		system: string,
		players: readonly string[],
		waitMs: number,
	): Promise<Histories | undefined>;
}

export interface HistoryCacheOptions {
	/** Races to replay from which a replay counts as long (default LONG_REPLAY; tests make it small). */
	readonly longReplay?: number | undefined;
}

/** Whether `state` is a flat record of exactly `keys`, each a number (what a step packs). */
function packable(state: unknown, keys: readonly string[]): state is Record<string, number> {
	if (typeof state !== 'object' || state === null) return false;
	let count = 0;
	for (const key in state) {
		if (typeof (state as Record<string, unknown>)[key] !== 'number') return false;
		count++;
	}
	return count === keys.length && keys.every((key) => Object.hasOwn(state, key));
}

/** Room in `packed` for `more` steps: its array is replaced by one half again as large, or as large as needed. */
function makeRoom(packed: PackedSteps, width: number, more: number): void {
	const needed = (packed.steps + more) * width;
	if (needed <= packed.numbers.length) return;
	const grown = new Float64Array(Math.max(needed, Math.ceil((packed.numbers.length / width) * 1.5 + 4) * width));
	grown.set(packed.numbers.subarray(0, packed.steps * width));
	packed.numbers = grown;
}

function pushStep(
	entry: Entry,
	packed: PackedSteps,
	row: { race: number; index: number; before: RatingSummary; newcomer: boolean; state: unknown },
): void {
	const { width, stateKeys } = entry;
	makeRoom(packed, width, 1);
	const at = packed.steps * width;
	const n = packed.numbers;
	const state = row.state;
	const packs = packable(state, stateKeys);
	if (!(row.index < ORDINALS && row.race < ORDINALS))
		throw new Error(`history cache: race ${row.race} is beyond its packing`);
	const flags =
		(row.newcomer ? NEWCOMER : 0) |
		(row.before.provisional ? PROVISIONAL_BEFORE : 0) |
		(row.before.uncertainty === undefined ? NO_UNCERTAINTY_BEFORE : 0) |
		(packs ? 0 : ODD_STATE);
	n[at] = row.race * ORDINALS + row.index;
	n[at + 1] = row.before.races * FLAGS + flags;
	n[at + 2] = row.before.rating;
	n[at + 3] = row.before.uncertainty ?? 0;
	if (packs) for (let i = 0; i < stateKeys.length; i++) n[at + HEAD + i] = state[stateKeys[i]!]!;
	else (packed.odd ??= new Map()).set(packed.steps, state);
	packed.steps++;
}

/** The steps of one player as HistoryStep objects (a chart reads a few players' hundred-odd steps). */
function unpack(entry: Entry, log: LeagueLog, packed: PackedSteps | undefined): HistoryStep<unknown>[] {
	if (packed === undefined) return [];
	const { width, stateKeys, system, params } = entry;
	const n = packed.numbers;
	const steps: HistoryStep<unknown>[] = [];
	for (let s = 0; s < packed.steps; s++) {
		const at = s * width;
		const flags = n[at + 1]! % FLAGS;
		const state: unknown =
			flags & ODD_STATE ? packed.odd!.get(s) : Object.fromEntries(stateKeys.map((key, i) => [key, n[at + HEAD + i]!]));
		const raceNumber = Math.floor(n[at]! / ORDINALS);
		const race = `R${raceNumber}`;
		steps.push({
			race,
			index: n[at]! - raceNumber * ORDINALS,
			date: log.race(race)?.date,
			before: {
				rating: n[at + 2]!,
				uncertainty: flags & NO_UNCERTAINTY_BEFORE ? undefined : n[at + 3]!,
				races: Math.floor(n[at + 1]! / FLAGS),
				provisional: (flags & PROVISIONAL_BEFORE) !== 0,
			},
			after: system.summary(state, params),
			newcomer: (flags & NEWCOMER) !== 0,
			state,
		});
	}
	return steps;
}

export function createHistoryCache(repo: LeagueRepository, options: HistoryCacheOptions = {}): HistoryCache {
	const { longReplay = LONG_REPLAY } = options;
	const entries = new Map<string, Entry>();
	/** Keys whose long replay is running. */
	const replaying = new Set<string>();

	/** Calls for one key run one at a time, in call order (a replay in progress is never applied twice). */
	const mutex = createKeyedMutex();
	const serial = <T>(key: string, task: () => Promise<T>): Promise<T> => mutex.run(key, task);

	/**
	 * A new entry for a replay from the first race. `replaced`, the entry it replaces (a change to rated history):
	 * its players' arrays are written over rather than allocated again. Allocated anew, the new arrays (20 MB at
	 * 15,000 races of 20) were held beside the old ones until a full garbage collection freed those, and the bot's RSS
	 * peaked with both. Nothing reads the old entry any more: reads of a key run one at a time and copy their steps out.
	 */
	const fresh = (log: LeagueLog, systemId: string, replaced?: Entry): Entry => {
		const config = log.config();
		const system = getSystem(systemId);
		const params: unknown = system.params(config?.params[systemId]);
		const replay = createReplay<unknown, unknown>(system, params, replayOptionsOf(config, log.seasons()));
		const newcomer: unknown = system.newcomer(params);
		const stateKeys = typeof newcomer === 'object' && newcomer !== null ? Object.keys(newcomer) : [];
		const width = HEAD + stateKeys.length;
		const histories = new Map<string, PackedSteps>();
		if (
			replaced !== undefined &&
			replaced.width === width &&
			replaced.stateKeys.every((key, i) => stateKeys[i] === key)
		)
			for (const [player, packed] of replaced.histories) histories.set(player, { numbers: packed.numbers, steps: 0 });
		return { seq: -1, races: 0, system, params, replay, stateKeys, width, histories };
	};

	const update = async (league: LeagueInfo, systemId: string) => {
		const key = `${league.id}:${systemId}`;
		const log = await repo.loadState(league.id);
		let entry = entries.get(key);
		const rebuild = entry === undefined || log.touchedSince(entry.seq) !== Infinity;
		if (entry === undefined || rebuild) entry = fresh(log, systemId, entry);
		// Most recently used last; the oldest beyond KEPT are dropped.
		entries.delete(key);
		entries.set(key, entry);
		while (entries.size > KEPT) entries.delete(entries.keys().next().value!);
		const races = log.ratedRacesSince(entry.seq);
		if (races.length >= longReplay) replaying.add(key);
		try {
			await apply(entry, races);
		} catch (error) {
			entries.delete(key); // half-applied: the next call replays from scratch
			throw error;
		} finally {
			replaying.delete(key);
		}
		entry.seq = log.seq();
		return { log, entry };
	};

	/**
	 * Every player's array made large enough, once, for the steps `races` can add (one per entry). Grown a step at a
	 * time, a replay of 15,000 races of 20 allocated each player's array about ten times over (3× the 24 MB kept, all of
	 * it outside V8's heap, where the freed arrays stayed in the bot's RSS as malloc's free space); a few new races
	 * still grow an array by half again, as pushStep does.
	 */
	const reserve = async (entry: Entry, races: readonly RatedRace[]) => {
		const coming = new Map<string, number>();
		// Counted in slices too: 300,000 entries take a few dozen milliseconds.
		const slicer = createSlicer();
		for (const { race } of races) {
			for (const player of racersOf(race)) coming.set(player, (coming.get(player) ?? 0) + 1);
			if (slicer.due()) await slicer.pause();
		}
		// A player of the replaced history who races no more (merged into another) keeps no array.
		for (const [player, packed] of entry.histories)
			if (packed.steps === 0 && !coming.has(player)) entry.histories.delete(player);
		// And allocated in slices: a cold start's first replay makes every player's array here (65 ms in one go at
		// 15,000 races of 20, the bot's longest block).
		for (const [player, count] of coming) {
			let packed = entry.histories.get(player);
			if (packed === undefined) {
				packed = { numbers: new Float64Array(0), steps: 0 };
				entry.histories.set(player, packed);
			}
			makeRoom(packed, entry.width, count);
			if (slicer.due()) await slicer.pause();
		}
	};

	/** `races` applied to the entry in slices, each step packed. */
	const apply = async (entry: Entry, races: readonly RatedRace[]) => {
		await reserve(entry, races);
		const slicer = createSlicer();
		for (const { race } of races) {
			const outcome = entry.replay.apply(race);
			entry.races++;
			const raceNumber = Number(race.id.slice(1));
			for (const change of outcome.changes) {
				let packed = entry.histories.get(change.player);
				if (packed === undefined) {
					packed = { numbers: new Float64Array(4 * entry.width), steps: 0 };
					entry.histories.set(change.player, packed);
				}
				pushStep(entry, packed, {
					race: raceNumber,
					index: entry.races,
					before: change.before,
					newcomer: change.newcomer,
					state: entry.replay.player(change.player)!.state,
				});
			}
			if (slicer.due()) await slicer.pause();
		}
	};

	const read = (league: LeagueInfo, system: string, players: readonly string[]) =>
		serial(`${league.id}:${system}`, async (): Promise<Histories> => {
			const { log, entry } = await update(league, system);
			return { log, histories: new Map(players.map((p) => [p, unpack(entry, log, entry.histories.get(p))])) };
		});

	return {
		histories: (league, system, players) => read(league, system, players),
		async historiesUnlessLong(league, system, players, waitMs) {
			const outcome = await unlessLong(read(league, system, players), waitMs, () =>
				replaying.has(`${league.id}:${system}`),
			);
			return 'value' in outcome ? outcome.value : undefined;
		},
	};
}
