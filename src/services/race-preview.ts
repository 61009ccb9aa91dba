import type { RaceInput } from '../league/league-events.js';
import type { LeagueLog } from '../league/race-log.js';
import { nameKey } from '../league/race-log-checks.js';
import { createReplay, ReplayError, type RaceOutcome, type ReplaySnapshot } from '../league/replay.js';
import { getSystem } from '../ratings/index.js';
import type { EntryStatus, RatingSummary } from '../ratings/types.js';

/** One racer of a preview: where they finished and what the race would do to their headline rating. */
export interface PreviewLine {
	readonly position: number;
	readonly name: string;
	readonly status: EntryStatus;
	readonly time?: number | undefined;
	/** Not in the league yet: confirming creates the player. */
	readonly isNew: boolean;
	readonly before?: RatingSummary | undefined;
	readonly after?: RatingSummary | undefined;
}

export interface RatingPreview {
	readonly lines: PreviewLine[];
	/** Set when the headline system cannot rate this race (nothing changes under it). */
	readonly unrated?: string | undefined;
}

const NEW_PREFIX = 'new:';

/**
 * The race as the headline system would rate it, computed on a copy of the ratings snapshot: nothing is stored.
 * Known players keep their ids, new names get placeholder ids (`new:<name>`), exactly as confirming would rate them.
 */
export function previewRatings(
	state: LeagueLog,
	snapshot: ReplaySnapshot<unknown>,
	systemId: string,
	race: RaceInput,
): RatingPreview {
	const config = state.config();
	const system = getSystem(systemId);
	const replay = createReplay(system, system.params(config?.params[systemId]), { reset: config?.reset }, snapshot);
	const ids = race.entries.map((e) => state.resolve(e.player)?.id ?? `${NEW_PREFIX}${nameKey(e.player)}`);
	let outcome: RaceOutcome | undefined;
	let unrated: string | undefined;
	try {
		outcome = replay.apply({
			id: 'preview',
			date: race.date,
			mode: race.mode,
			entries: race.entries.map((e, i) => ({ ...e, player: ids[i]! })),
		});
		unrated = outcome.skipped;
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
		};
	});
	return { lines, ...(unrated !== undefined && { unrated }) };
}
