import { createReplay, type ReplayOptions } from './replay.js';
import type { Race, RatingSummary, RatingSystem } from '../ratings/types.js';

/**
 * A player's rating history under one system (the rating chart): for every race they were rated in,
 * their state before it (grown over the idle days since their previous race, as the system rated it) and after it.
 * Between two points the rating follows `system.elapse` of the earlier race state (standings.ts), so a chart can
 * draw the idle stretches exactly.
 */

export interface HistoryStep<S> {
	readonly race: string;
	/** The race's ordinal among the races replayed (1-based): the x of a chart when races are undated. */
	readonly index: number;
	readonly date?: string | undefined;
	readonly before: RatingSummary;
	readonly after: RatingSummary;
	/** First race (or first after a yearly reset). */
	readonly newcomer: boolean;
	/** The state after the race: `system.elapse` of it gives the idle days that follow. */
	readonly state: S;
}

/**
 * The histories of `players` over `races` (in rating order), as a generator that pauses after every `slice` races so an
 * impure caller can yield to the event loop; the return value is the result (players never rated get []).
 */
export function* playerHistoriesInSteps<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	races: readonly Race[],
	players: readonly string[],
	options: ReplayOptions,
	slice: number,
): Generator<void, Map<string, HistoryStep<S>[]>, void> {
	const wanted = new Set(players);
	const histories = new Map<string, HistoryStep<S>[]>(players.map((p) => [p, []]));
	const replay = createReplay(system, params, options);
	let sinceYield = 0;
	for (const [i, race] of races.entries()) {
		const outcome = replay.apply(race);
		for (const change of outcome.changes) {
			if (!wanted.has(change.player)) continue;
			histories.get(change.player)!.push({
				race: race.id,
				index: i + 1,
				date: race.date,
				before: change.before,
				after: change.after,
				newcomer: change.newcomer,
				state: replay.player(change.player)!.state,
			});
		}
		if (++sinceYield >= slice) {
			sinceYield = 0;
			yield;
		}
	}
	return histories;
}
