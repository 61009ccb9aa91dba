import { createSlicer, yieldToEventLoop } from '../event-loop.js';
import type { LeagueEvent } from '../league/league-events.js';
import { createLeagueLog, type LeagueLog } from '../league/race-log.js';
import { replayOptionsOf } from '../league/replay-options.js';
import { createReplay, type Standing } from '../league/replay.js';
import { getSystem } from '../ratings/index.js';
import { latestDatedRace } from './league-day.js';

/**
 * What a correction would do to the league's ratings as shown today (the `/race edit` preview): the headline system
 * replayed over the log with the correction applied, on a copy (nothing is stored), against the standings as they are.
 * A correction changes every race after it too, so this is a replay of the whole history, cut into slices that let
 * other interactions run (event-loop.ts): milliseconds for a league of hundreds of races, seconds for 15,000.
 */

/** A player's standing on one side of the correction: shown rating and place on the leaderboard. */
export interface StandingAt {
	readonly rating: number;
	/** 1-based, as /leaderboard numbers it. */
	readonly rank: number;
}

export interface RatingMove {
	readonly player: string;
	readonly name: string;
	/** Undefined: not rated now (a newcomer the correction adds, a racer who did not start). */
	readonly now?: StandingAt | undefined;
	/** Undefined: not rated after the correction (a racer it removes who has no other race). */
	readonly after?: StandingAt | undefined;
}

export interface EditEffect {
	readonly system: string;
	/** The day both standings are grown to (the league's reading day). */
	readonly day: string | undefined;
	/** The racers of the race, as stored and as corrected, in their order after the correction. */
	readonly racers: readonly RatingMove[];
	/** Every other player whose rating changes (races after this one), largest change first. */
	readonly others: readonly RatingMove[];
	/** The system does not rate the corrected race (why); later races may still move. */
	readonly unrated?: string | undefined;
	/** Under the yearly reset, the year of a race from a season before the current one (today's ratings restarted). */
	readonly earlierSeason?: string | undefined;
}

/**
 * The effect of `edit` (a race-edited event that `state.check` accepted) on `system`'s standings at `day`. `now` are
 * the standings as the league shows them at this seq (repository ratingsAt), with `player` ids.
 */
export async function editEffect(
	state: LeagueLog,
	edit: Extract<LeagueEvent, { type: 'race-edited' }>,
	systemId: string,
	day: string | undefined,
	now: readonly Standing[],
): Promise<EditEffect> {
	// The copy is taken before anything else can move the live log; the work on it then starts a turn of its own.
	const corrected = createLeagueLog(state.snapshot());
	const stored = corrected.race(edit.race)!.entries;
	const raceYear = corrected.race(edit.race)!.date?.slice(0, 4);
	const seasonYear = latestDatedRace(state)?.date.slice(0, 4);
	const earlierSeason =
		state.config()?.reset === 'yearly' && raceYear !== undefined && seasonYear !== undefined && raceYear < seasonYear
			? raceYear
			: undefined;
	await yieldToEventLoop();
	corrected.apply({ ...edit, seq: corrected.seq() + 1 });
	const config = corrected.config();
	const system = getSystem(systemId);
	const replay = createReplay<unknown, unknown>(
		system,
		system.params(config?.params[systemId]),
		replayOptionsOf(config),
	);
	let unrated: string | undefined;
	const slicer = createSlicer();
	for (const { race } of corrected.ratedRaces()) {
		if (race.id === edit.race) unrated = replay.apply(race).skipped;
		else replay.advance(race);
		if (slicer.due()) await slicer.pause();
	}
	const after = replay.standings(day);
	await yieldToEventLoop();
	const at = (standings: readonly Standing[]) =>
		new Map(standings.map((row, i) => [row.player, { rating: row.rating, rank: i + 1 }]));
	const nowOf = at(now);
	const afterOf = at(after);
	const move = (player: string): RatingMove => ({
		player,
		name: corrected.resolve(player)?.name ?? player,
		now: nowOf.get(player),
		after: afterOf.get(player),
	});
	const inRace = [...stored, ...edit.changes.entries]
		.map((e) => corrected.resolve(e.player)?.id)
		.filter((id): id is string => id !== undefined);
	const racerIds = new Set(inRace);
	const place = (m: RatingMove) => m.after?.rank ?? Infinity;
	const racers = [...racerIds].map(move).sort((a, b) => place(a) - place(b) || (a.now?.rank ?? 0) - (b.now?.rank ?? 0));
	const change = (m: RatingMove) => Math.abs((m.after?.rating ?? 0) - (m.now?.rating ?? 0));
	const others = [...new Set([...nowOf.keys(), ...afterOf.keys()])]
		.filter((id) => !racerIds.has(id))
		.map(move)
		.filter((m) => m.now?.rating !== m.after?.rating)
		.sort((a, b) => change(b) - change(a));
	return {
		system: systemId,
		day,
		racers,
		others,
		...(unrated !== undefined && { unrated }),
		...(earlierSeason !== undefined && { earlierSeason }),
	};
}
