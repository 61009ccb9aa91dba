import type { RaceInput } from '../../league/league-events.js';
import type { LeagueLog } from '../../league/race-log.js';
import { nameKey } from '../../league/race-log-checks.js';
import { createReplay, ReplayError, type RaceOutcome, type Replay } from '../../league/replay.js';
import { replayOptionsOf } from '../../league/replay-options.js';
import { createSlicer } from '../../event-loop.js';
import { expectedRanks } from '../../league/explain-race.js';
import { getSystem } from '../../ratings/index.js';
import type { EntryStatus, RatingSummary } from '../../ratings/types.js';

/** One racer of a preview: where they finished and what the race would do to their headline rating. */
export interface PreviewLine {
	readonly position: number;
	readonly name: string;
	readonly status: EntryStatus;
	readonly time?: number | undefined;
	/** What a result file says of the racer beyond the scoreboard: an inferred status, penalties, the class. */
	readonly note?: string | undefined;
	/** Not in the league yet: confirming creates the player. */
	readonly isNew: boolean;
	readonly before?: RatingSummary | undefined;
	readonly after?: RatingSummary | undefined;
	/** The place expected before the race (the odds engine's expected position over the rated field). */
	readonly expectedRank?: number | undefined;
}

export interface RatingPreview {
	readonly lines: PreviewLine[];
	/** Set when the headline system cannot rate this race (nothing changes under it). */
	readonly unrated?: string | undefined;
}

const NEW_PREFIX = 'new:';

/**
 * The ratings a race dated `date` is rated on: `head` (the ratings now) when it would be rated last; for a race dated
 * before races already rated (a make-up race, rating-order.ts), a replay of the races rated before its place,
 * yielding to the event loop between slices (a make-up race early in a long history replays most of it).
 */
export async function ratingsAtDate(
	state: LeagueLog,
	head: Replay<unknown>,
	systemId: string,
	date: string | undefined,
): Promise<Replay<unknown>> {
	const moved = state.ratedAfterDate(date);
	if (moved.length === 0) return head;
	const place = moved[0]!.position;
	const config = state.config();
	const system = getSystem(systemId);
	const params: unknown = system.params(config?.params[systemId]);
	const replay = createReplay<unknown, unknown>(system, params, replayOptionsOf(config, state.seasons()));
	const slicer = createSlicer();
	for (const { race, position } of state.ratedRaces()) {
		if (position >= place) break;
		replay.advance(race);
		if (slicer.due()) await slicer.pause();
	}
	return replay;
}

/**
 * The race as the headline system would rate it, computed on a fork of `ratings` (the ratings at its place in rating
 * order: ratingsAtDate): nothing is stored.
 * Known players keep their ids, new names get placeholder ids (`new:<name>`), exactly as confirming would rate them.
 */
export function previewRatings(
	state: LeagueLog,
	ratings: Replay<unknown>,
	systemId: string,
	race: RaceInput,
): RatingPreview {
	const config = state.config();
	const system = getSystem(systemId);
	const params: unknown = system.params(config?.params[systemId]);
	const replay = ratings.fork();
	const ids = race.entries.map((e) => state.resolve(e.player)?.id ?? `${NEW_PREFIX}${nameKey(e.player)}`);
	let outcome: RaceOutcome | undefined;
	let unrated: string | undefined;
	const expected = new Map<string, number>();
	try {
		const prepared = replay.prepare({
			id: 'preview',
			date: race.date,
			mode: race.mode,
			entries: race.entries.map((e, i) => ({ ...e, player: ids[i]! })),
		});
		const ranks = expectedRanks(system, params, prepared.field);
		outcome = replay.commit(prepared);
		unrated = outcome.skipped;
		if (unrated === undefined) prepared.field.forEach((entry, i) => expected.set(entry.player, ranks[i]!));
	} catch (error) {
		if (!(error instanceof ReplayError)) throw error;
		unrated = error.message;
	}
	const changes = new Map((outcome?.changes ?? []).map((c) => [c.player, c]));
	const lines = race.entries.map((e, i): PreviewLine => {
		const known = state.resolve(e.player);
		const change = changes.get(ids[i]!);
		return {
			position: e.position,
			name: known?.name ?? e.player,
			status: e.status,
			time: e.time,
			isNew: known === undefined,
			before: change?.before,
			after: change?.after,
			expectedRank: expected.get(ids[i]!),
		};
	});
	return { lines, ...(unrated !== undefined && { unrated }) };
}
