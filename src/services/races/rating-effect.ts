import { createSlicer, yieldToEventLoop } from '../../event-loop.js';
import type { LeagueEvent } from '../../league/league-events.js';
import type { LeagueLog } from '../../league/race-log.js';
import { replayOptionsOf } from '../../league/replay-options.js';
import { createReplay, type Standing } from '../../league/replay.js';
import { getSystem } from '../../ratings/index.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { latestDatedRace, leagueReadingDay } from '../leagues/league-day.js';

/**
 * What a change to the history would do to the league's ratings as shown today (the previews of `/race edit` and
 * `/player merge`): the headline system replayed over the log with the change applied, on a copy (nothing is stored),
 * against the standings as they are. A change moves every race after it too, so this is a replay of the whole
 * history, cut into slices that let other interactions run (event-loop.ts): milliseconds for a league of hundreds of
 * races, about a second for 15,000.
 */

/** A player's standing on one side of the change: rating and place on the leaderboard. */
export interface StandingAt {
	readonly rating: number;
	/** 1-based, as /leaderboard numbers it. */
	readonly rank: number;
}

export interface RatingMove {
	readonly player: string;
	/** The name the player has before the change (a player merged away keeps theirs). */
	readonly name: string;
	/** Undefined: not rated now (a newcomer an edit adds, a racer who did not start). */
	readonly now?: StandingAt | undefined;
	/** Undefined: not rated after the change (a racer an edit removes who has no other race, a player merged away). */
	readonly after?: StandingAt | undefined;
}

export interface RatingEffect {
	readonly system: string;
	/** The day both standings are grown to (the league's reading day). */
	readonly day: string | undefined;
	/** The players the change is about (an edited race's racers as stored and as corrected; a merge's two), in their
	 * order after it. */
	readonly focus: readonly RatingMove[];
	/** Every other player whose rating changes (through the races after the change), largest change first. */
	readonly others: readonly RatingMove[];
	/** The system does not rate the edited race after the change (why); later races may still move. */
	readonly unrated?: string | undefined;
	/** Under the yearly reset, the year of an edited race from a season before the current one. */
	readonly earlierSeason?: string | undefined;
}

export interface EffectOptions {
	/** The players to list first, from the log with the change applied (an edit may add a player). */
	focus(changed: LeagueLog): readonly string[];
	/** The race whose rating after the change is reported (`unrated`, `earlierSeason`). */
	readonly race?: string | undefined;
}

/**
 * The effect of `event` (one that `state.check` accepted) on `systemId`'s standings at `day`. `now` are the standings
 * as the league shows them at this seq (repository ratingsAt), with `player` ids.
 */
export async function ratingEffect(
	state: LeagueLog,
	event: LeagueEvent,
	systemId: string,
	day: string | undefined,
	now: readonly Standing[],
	options: EffectOptions,
): Promise<RatingEffect> {
	// The copy is taken before anything else can move the live log; the work on it then starts a turn of its own.
	const changed = state.copy();
	const namesBefore = new Map(changed.players().map((p) => [p.id, p.name]));
	const earlierSeason = options.race === undefined ? undefined : seasonBefore(changed, options.race);
	await yieldToEventLoop();
	changed.apply({ ...event, seq: changed.seq() + 1 });
	const config = changed.config();
	const system = getSystem(systemId);
	const replay = createReplay<unknown, unknown>(
		system,
		system.params(config?.params[systemId]),
		replayOptionsOf(config, changed.seasons()),
	);
	let unrated: string | undefined;
	const slicer = createSlicer();
	for (const { race } of changed.ratedRaces()) {
		if (race.id === options.race) unrated = replay.apply(race).skipped;
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
		name: namesBefore.get(player) ?? changed.resolve(player)?.name ?? player,
		now: nowOf.get(player),
		after: afterOf.get(player),
	});
	const focusIds = new Set(options.focus(changed));
	const place = (m: RatingMove) => m.after?.rank ?? Infinity;
	const focus = [...focusIds].map(move).sort((a, b) => place(a) - place(b) || (a.now?.rank ?? 0) - (b.now?.rank ?? 0));
	const change = (m: RatingMove) => Math.abs((m.after?.rating ?? 0) - (m.now?.rating ?? 0));
	const others = [...new Set([...nowOf.keys(), ...afterOf.keys()])]
		.filter((id) => !focusIds.has(id))
		.map(move)
		.filter((m) => m.now?.rating !== m.after?.rating)
		.sort((a, b) => change(b) - change(a));
	return {
		system: systemId,
		day,
		focus,
		others,
		...(unrated !== undefined && { unrated }),
		...(earlierSeason !== undefined && { earlierSeason }),
	};
}

/**
 * The effect of `event` on the league's headline standings of today (its reading day), against the standings at the
 * same seq. Each step takes a turn of the event loop of its own (the caller read and checked the input in this one).
 */
export async function effectToday(
	repo: LeagueRepository,
	league: LeagueInfo,
	state: LeagueLog,
	now: Date,
	event: LeagueEvent,
	options: EffectOptions,
): Promise<RatingEffect> {
	const system = league.config.headline;
	const day = leagueReadingDay(state, league.config.timezone, now);
	// `state` is the league's live log: an event stored meanwhile moves it, and the standings must be of its seq.
	for (let tries = 0; ; tries++) {
		await yieldToEventLoop();
		const view = await repo.ratingsAt(league.id, system, day);
		await yieldToEventLoop();
		if (view.seq === state.seq() || tries === 3)
			return ratingEffect(state, event, system, day, view.standings, options);
	}
}

/** The options of a correction of a race: its racers as stored and as corrected come first. */
export function editEffectOptions(
	state: LeagueLog,
	edit: Extract<LeagueEvent, { type: 'race-edited' }>,
): EffectOptions {
	const stored = state.race(edit.race)!.entries;
	return {
		race: edit.race,
		focus: (changed) =>
			[...stored, ...edit.changes.entries]
				.map((e) => changed.resolve(e.player)?.id)
				.filter((id): id is string => id !== undefined),
	};
}

/** Under the yearly reset, the year of `raceId` when a later season has begun (its ratings restarted since). */
function seasonBefore(log: LeagueLog, raceId: string): string | undefined {
	const raceYear = log.race(raceId)?.date?.slice(0, 4);
	const seasonYear = latestDatedRace(log)?.date.slice(0, 4);
	if (log.config()?.reset !== 'yearly' || raceYear === undefined || seasonYear === undefined) return undefined;
	return raceYear < seasonYear ? raceYear : undefined;
}
