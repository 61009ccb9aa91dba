import { createSlicer } from '../../event-loop.js';
import { explainRace, expectedRanks, type RacerExplanation } from '../../league/explain-race.js';
import type { LeagueLog } from '../../league/race-log.js';
import { replayOptionsOf } from '../../league/replay-options.js';
import { createReplay, type Replay } from '../../league/replay.js';
import { getSystem } from '../../ratings/index.js';
import type { AnyRatingSystem, FieldEntry, Race } from '../../ratings/types.js';
import { createKeyedMutex } from '../../storage/mutex.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { changeWhy, type ChangeWhy } from '../ratings/change-why.js';

/**
 * Every rated race of a league explained, for the web pages (a race page explains each of its racers, a player page
 * each of the player's races: docs/web.md). The change cache (change-cache.ts) keeps only the fields of races that are
 * still someone's last race, and explains an older one by replaying the history up to it: right for `/race show` of
 * one race now and then, too slow for a page that explains a player's 150 races. Here one replay per (league, system)
 * keeps every rated field: the pre-race states the replay's `prepare` gives, the post-race states its `commit` leaves
 * and the expected places, exactly as the change cache records them (applyRace), so `explainRace` over them gives the
 * same bits as `/race show` and `/rating` (test/http/league-race-pages.test.ts compares them). Races submitted since
 * are applied on top; an event that changed rated history (void, edit, merge, parameters) replays it all, yielding
 * to the event loop between slices. Only the KEPT most recently used histories stay in memory (a field per race:
 * about as much as the history cache's steps).
 */

/** (league, system) histories kept in memory: the headline system of the busiest leagues. */
const KEPT = 2;
/**
 * Races whose explanation is kept once made, per history: a field's explanation costs about 0.5 ms (every pair of its
 * racers), a player page needs one per race of theirs, and pages of many players share races.
 */
const EXPLAINED_RACES = 4000;

interface KeptField {
	readonly race: Race;
	readonly field: readonly FieldEntry<unknown>[];
	readonly after: readonly unknown[];
	readonly expected: readonly number[];
}

interface Entry {
	seq: number;
	readonly system: AnyRatingSystem;
	readonly params: unknown;
	readonly replay: Replay<unknown>;
	readonly fields: Map<string, KeptField>;
	/** Races the system did not rate, with why (replay's `skipped`). */
	readonly unrated: Map<string, { readonly race: Race; readonly why: string }>;
	/** Each player's rated races, in rating order. */
	readonly racesOf: Map<string, string[]>;
	/** Explanations made, by race, most recently used last (at most EXPLAINED_RACES). */
	readonly explained: Map<string, readonly ChangeWhy[]>;
}

/**
 * The explanations are `changeWhy`'s (change-why.ts) with player ids where names go and no race name: names change
 * without touching rated history (a rename), so the caller names them (named()).
 */
export type RaceWhys =
	{ readonly race: Race; readonly racers: readonly ChangeWhy[] } | { readonly race: Race; readonly unrated: string };

export interface WebRaceHistory {
	/** A confirmed race explained for every racer, or why the system did not rate it; undefined when not rated history. */
	explain(league: LeagueInfo, system: string, raceId: string): Promise<RaceWhys | undefined>;
	/** Every rated race of `player` under `system`, explained for them, in rating order (oldest first). */
	playerRaces(league: LeagueInfo, system: string, player: string): Promise<ChangeWhy[]>;
	/**
	 * Brings the history up to the log's head and explains its races, newest first (at most the kept number), yielding
	 * to the event loop between slices: what a new version's first player and race pages would otherwise each pay.
	 */
	warm(league: LeagueInfo, system: string): Promise<void>;
}

/** An explanation of RaceWhys with the names of today and the race's name. */
export function named(w: ChangeWhy, nameOf: (id: string) => string, raceName: string | undefined): ChangeWhy {
	const opponent = <T extends { readonly player: string } | undefined>(o: T): T =>
		o === undefined ? o : { ...o, name: nameOf(o.player) };
	return {
		...w,
		...(raceName !== undefined && { raceName }),
		name: nameOf(w.player),
		strongestBeaten: opponent(w.strongestBeaten),
		strongestLostTo: opponent(w.strongestLostTo),
		biggestGain: opponent(w.biggestGain),
		biggestLoss: opponent(w.biggestLoss),
	};
}

export function createWebRaceHistory(repo: LeagueRepository): WebRaceHistory {
	const entries = new Map<string, Entry>();
	const mutex = createKeyedMutex();

	const fresh = (state: LeagueLog, systemId: string): Entry => {
		const config = state.config();
		const system = getSystem(systemId);
		const params: unknown = system.params(config?.params[systemId]);
		return {
			seq: -1,
			system,
			params,
			replay: createReplay<unknown, unknown>(system, params, replayOptionsOf(config, state.seasons())),
			fields: new Map(),
			unrated: new Map(),
			racesOf: new Map(),
			explained: new Map(),
		};
	};

	/** change-cache.ts applyRace: the expected places before commit, the post-race states after it. */
	const applyRace = (entry: Entry, race: Race) => {
		const prepared = entry.replay.prepare(race);
		const expected = expectedRanks(entry.system, entry.params, prepared.field);
		const outcome = entry.replay.commit(prepared);
		if (outcome.skipped !== undefined) {
			entry.unrated.set(race.id, { race, why: outcome.skipped });
			return;
		}
		const after = prepared.field.map((e): unknown => entry.replay.player(e.player)!.state);
		entry.fields.set(race.id, { race, field: prepared.field, after, expected });
		for (const e of prepared.field) {
			const list = entry.racesOf.get(e.player);
			if (list === undefined) entry.racesOf.set(e.player, [race.id]);
			else list.push(race.id);
		}
	};

	const update = async (league: LeagueInfo, systemId: string): Promise<Entry> => {
		const key = `${league.id}:${systemId}`;
		const state = await repo.loadState(league.id);
		let entry = entries.get(key);
		entries.delete(key); // set again below: the map's order is the order of use, least recent first
		if (entry !== undefined && (state.touchedSince(entry.seq) !== Infinity || entry.seq > state.seq())) {
			entry = undefined;
		}
		entry ??= fresh(state, systemId);
		entries.set(key, entry);
		for (const idle of [...entries.keys()].slice(0, Math.max(0, entries.size - KEPT))) entries.delete(idle);
		const slicer = createSlicer();
		for (const { race } of state.ratedRacesSince(entry.seq)) {
			applyRace(entry, race);
			if (slicer.due()) await slicer.pause();
		}
		entry.seq = state.seq();
		return entry;
	};

	const explainKept = (entry: Entry, kept: KeptField): readonly ChangeWhy[] => {
		const known = entry.explained.get(kept.race.id);
		entry.explained.delete(kept.race.id); // set again below: most recently used last
		const whys =
			known ??
			explainRace(entry.system, entry.params, kept.field, kept.after, { mode: kept.race.mode }, [...kept.expected]).map(
				(e: RacerExplanation) => changeWhy(e, { id: kept.race.id, date: kept.race.date }, (id) => id),
			);
		entry.explained.set(kept.race.id, whys);
		if (entry.explained.size > EXPLAINED_RACES) entry.explained.delete(entry.explained.keys().next().value!);
		return whys;
	};

	return {
		async warm(league, system) {
			const key = `${league.id}:${system}`;
			const entry = await mutex.run(key, () => update(league, system));
			// Outside the lock: a page asked meanwhile is answered between slices. Explanations are made one race at a
			// time, synchronously, so a page and the warm-up never see half of one; a newer version's entry ends it.
			const slicer = createSlicer();
			const ids = [...entry.fields.keys()].reverse().slice(0, EXPLAINED_RACES);
			for (const raceId of ids.reverse()) {
				if (entries.get(key) !== entry) return;
				const kept = entry.fields.get(raceId);
				if (kept !== undefined && !entry.explained.has(raceId)) explainKept(entry, kept);
				if (slicer.due()) await slicer.pause();
			}
		},
		explain: (league, system, raceId) =>
			mutex.run(`${league.id}:${system}`, async (): Promise<RaceWhys | undefined> => {
				const entry = await update(league, system);
				const kept = entry.fields.get(raceId);
				if (kept !== undefined) return { race: kept.race, racers: explainKept(entry, kept) };
				const unrated = entry.unrated.get(raceId);
				return unrated && { race: unrated.race, unrated: unrated.why };
			}),
		playerRaces: (league, system, player) =>
			mutex.run(`${league.id}:${system}`, async () => {
				const entry = await update(league, system);
				return (entry.racesOf.get(player) ?? []).flatMap((raceId): ChangeWhy[] => {
					// One racer's explanation needs the whole field's pre-race ratings: the field's, then theirs.
					const why = explainKept(entry, entry.fields.get(raceId)!).find((w) => w.player === player);
					return why === undefined ? [] : [why];
				});
			}),
	};
}
