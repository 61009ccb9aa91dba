import { createKeyedMutex } from '../storage/mutex.js';
import { createSlicer } from '../event-loop.js';
import type { HistoryStep } from '../league/player-history.js';
import type { LeagueLog } from '../league/race-log.js';
import { createReplay, type Replay } from '../league/replay.js';
import { getSystem } from '../ratings/index.js';
import type { AnyRatingSystem } from '../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';
import { replayOptionsOf } from '../league/replay-options.js';

/**
 * Every player's rating history per (league, system), for the /rating chart (issue 7 §4). Replaying a 10,000-race
 * league for one chart took a second of the event loop (bench:load: at 2.5 charts a second nothing else was
 * answered); here the replay is kept and races submitted since are applied on top, so a chart reads its players'
 * steps. An event that changed rated history (void, edit, merge, parameters, a make-up race dated before races already
 * rated) replays it all, yielding between slices.
 * Only the most recently used histories are kept (each holds a step per rated entry: about 30 MB at 10,000 races of
 * 15). Calls for one key run one at a time, so a replay in progress is never applied twice.
 */

/** (league, system) histories kept in memory. */
const KEPT = 2;

interface Entry {
	seq: number;
	races: number;
	readonly system: AnyRatingSystem;
	readonly params: unknown;
	readonly replay: Replay<unknown>;
	readonly histories: Map<string, HistoryStep<unknown>[]>;
}

export interface HistoryCache {
	/** The rated history of `players` under `system` at the log's head (a player never rated: []). */
	histories(
		league: LeagueInfo,
		system: string,
		players: readonly string[],
	): Promise<{ readonly log: LeagueLog; readonly histories: ReadonlyMap<string, readonly HistoryStep<unknown>[]> }>;
}

export function createHistoryCache(repo: LeagueRepository): HistoryCache {
	const entries = new Map<string, Entry>();

	/** Calls for one key run one at a time, in call order (a replay in progress is never applied twice). */
	const mutex = createKeyedMutex();
	const serial = <T>(key: string, task: () => Promise<T>): Promise<T> => mutex.run(key, task);

	const fresh = (log: LeagueLog, systemId: string): Entry => {
		const config = log.config();
		const system = getSystem(systemId);
		const params: unknown = system.params(config?.params[systemId]);
		const replay = createReplay<unknown, unknown>(system, params, replayOptionsOf(config, log.seasons()));
		return { seq: -1, races: 0, system, params, replay, histories: new Map() };
	};

	const update = async (league: LeagueInfo, systemId: string) => {
		const key = `${league.id}:${systemId}`;
		const log = await repo.loadState(league.id);
		let entry = entries.get(key);
		const rebuild = entry === undefined || log.touchedSince(entry.seq) !== Infinity;
		if (entry === undefined || rebuild) entry = fresh(log, systemId);
		// Most recently used last; the oldest beyond KEPT are dropped.
		entries.delete(key);
		entries.set(key, entry);
		while (entries.size > KEPT) entries.delete(entries.keys().next().value!);
		const slicer = createSlicer();
		for (const { race } of log.ratedRacesSince(entry.seq)) {
			const outcome = entry.replay.apply(race);
			entry.races++;
			for (const change of outcome.changes) {
				const step: HistoryStep<unknown> = {
					race: race.id,
					index: entry.races,
					date: race.date,
					before: change.before,
					after: change.after,
					newcomer: change.newcomer,
					state: entry.replay.player(change.player)!.state,
				};
				const steps = entry.histories.get(change.player);
				if (steps === undefined) entry.histories.set(change.player, [step]);
				else steps.push(step);
			}
			if (slicer.due()) await slicer.pause();
		}
		entry.seq = log.seq();
		return { log, entry };
	};

	return {
		histories: (league, system, players) =>
			serial(`${league.id}:${system}`, async () => {
				const { log, entry } = await update(league, system);
				return { log, histories: new Map(players.map((p) => [p, [...(entry.histories.get(p) ?? [])]])) };
			}),
	};
}
