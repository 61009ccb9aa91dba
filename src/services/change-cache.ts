import { createSlicer } from '../event-loop.js';
import { explainRace, expectedRanks, type RacerExplanation } from '../league/explain-race.js';
import type { LeagueLog } from '../league/race-log.js';
import { createReplay, type Replay } from '../league/replay.js';
import { getSystem } from '../ratings/index.js';
import type { AnyRatingSystem, FieldEntry, Race } from '../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';

/**
 * The rated history per (league, system) that `/rating` and `/race show` explain (issue 8 §4): one replay kept per
 * key with every player's last change, every player's race results (place against the expected place) and the rated
 * fields of the races that are still someone's last race. Races submitted since are applied on top; only an event
 * that changed rated history (void, edit, merge, parameters) replays it all, yielding to the event loop between
 * slices (event-loop.ts). Calls for one key run one at a time, so a replay in progress is never applied twice.
 */

export interface LastChange {
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

/** A rated race, explained for every racer; or why the system did not rate it. */
export type RaceExplanation =
	| { readonly race: Race; readonly racers: readonly RacerExplanation[] }
	| { readonly race: Race; readonly unrated: string };

export interface ChangeCache {
	/** Every player's last change under `system`. */
	lastChanges(league: LeagueInfo, system: string): Promise<ReadonlyMap<string, LastChange>>;
	/** A player's rated races under `system`, oldest first ([] when never rated). */
	results(league: LeagueInfo, system: string, player: string): Promise<readonly RaceResult[]>;
	/** The explanation of a player's last race under `system` (undefined when they have none). */
	lastExplanation(league: LeagueInfo, system: string, player: string): Promise<RacerExplanation | undefined>;
	/** A confirmed race explained for every racer; undefined for a race not in the rated history (voided, unknown). */
	explain(league: LeagueInfo, system: string, raceId: string): Promise<RaceExplanation | undefined>;
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
	readonly replay: Replay<unknown>;
	readonly byPlayer: Map<string, LastChange>;
	readonly results: Map<string, RaceResult[]>;
	readonly lastRaceOf: Map<string, string>;
	readonly fields: Map<string, KeptField>;
}

export function createChangeCache(repo: LeagueRepository): ChangeCache {
	const entries = new Map<string, Entry>();
	const queues = new Map<string, Promise<unknown>>();

	/** Run `task` after every earlier task of the same key. */
	const serial = <T>(key: string, task: () => Promise<T>): Promise<T> => {
		const run = (queues.get(key) ?? Promise.resolve()).then(task);
		queues.set(
			key,
			run.catch(() => undefined),
		);
		return run;
	};

	const fresh = (state: LeagueLog, system: string): Entry => {
		const config = state.config();
		const impl = getSystem(system);
		const params: unknown = impl.params(config?.params[system]);
		return {
			seq: -1,
			system: impl,
			params,
			replay: createReplay<unknown, unknown>(impl, params, { reset: config?.reset }),
			byPlayer: new Map(),
			results: new Map(),
			lastRaceOf: new Map(),
			fields: new Map(),
		};
	};

	const applyRace = (entry: Entry, race: Race) => {
		const prepared = entry.replay.prepare(race);
		// The expected place needs every state to have a performance; a race the system cannot rate is skipped below.
		const expected = expectedRanks(entry.system, entry.params, prepared.field);
		const outcome = entry.replay.commit(prepared);
		if (outcome.skipped !== undefined) return;
		if (prepared.reset) {
			entry.byPlayer.clear();
			entry.lastRaceOf.clear();
			entry.fields.clear();
		}
		const after = prepared.field.map((e): unknown => entry.replay.player(e.player)!.state);
		const kept: KeptField = { race, field: prepared.field, after, expected, holders: 0 };
		entry.fields.set(race.id, kept);
		const tieSize = new Map<number, number>();
		for (const e of prepared.field) tieSize.set(e.rank, (tieSize.get(e.rank) ?? 0) + 1);
		outcome.changes.forEach((c, i) => {
			entry.byPlayer.set(c.player, { race: race.id, date: race.date, before: c.before.rating, after: c.after.rating });
			const result: RaceResult = {
				race: race.id,
				date: race.date,
				rank: c.rank,
				place: c.rank - (tieSize.get(c.rank)! - 1) / 2,
				status: c.status,
				fieldSize: prepared.field.length,
				expectedRank: expected[i]!,
				before: c.before.rating,
				after: c.after.rating,
			};
			const list = entry.results.get(c.player);
			if (list === undefined) entry.results.set(c.player, [result]);
			else list.push(result);
			const previous = entry.lastRaceOf.get(c.player);
			if (previous !== undefined) {
				const old = entry.fields.get(previous);
				if (old !== undefined && --old.holders === 0) entry.fields.delete(previous);
			}
			entry.lastRaceOf.set(c.player, race.id);
			kept.holders++;
		});
	};

	/** The entry of (league, system), up to date with the league's log. */
	const update = async (league: LeagueInfo, system: string): Promise<Entry> => {
		const key = `${league.id}:${system}`;
		const state = await repo.loadState(league.id);
		let entry = entries.get(key);
		const rebuild = entry === undefined || state.touchedSince(entry.seq) !== Infinity;
		if (entry === undefined || rebuild) {
			entry = fresh(state, system);
			entries.set(key, entry);
		}
		const slicer = createSlicer();
		for (const { race } of state.ratedRaces(entry.seq)) {
			applyRace(entry, race);
			if (slicer.due()) await slicer.pause();
		}
		entry.seq = state.seq();
		return entry;
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

	return {
		lastChanges: (league, system) =>
			serial(`${league.id}:${system}`, async () => (await update(league, system)).byPlayer),
		results: (league, system, player) =>
			serial(`${league.id}:${system}`, async () => [...((await update(league, system)).results.get(player) ?? [])]),
		lastExplanation: (league, system, player) =>
			serial(`${league.id}:${system}`, async () => {
				const entry = await update(league, system);
				const raceId = entry.lastRaceOf.get(player);
				const kept = raceId === undefined ? undefined : entry.fields.get(raceId);
				return kept === undefined ? undefined : explainKept(entry, kept).find((e) => e.player === player);
			}),
		explain: (league, system, raceId) =>
			serial(`${league.id}:${system}`, async (): Promise<RaceExplanation | undefined> => {
				const entry = await update(league, system);
				const kept = entry.fields.get(raceId);
				if (kept !== undefined) return { race: kept.race, racers: explainKept(entry, kept) };
				return explainFromScratch(league, system, raceId);
			}),
	};
}
