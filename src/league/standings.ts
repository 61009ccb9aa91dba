import { createReplay, type Replay, type ReplayOptions, type Standing } from './replay.js';
import type { LeagueLog } from './race-log.js';
import type { Race, RatingSystem } from '../ratings/types.js';

/**
 * A league's standings as of a day: the one definition that reads, the daily job, the monthly post, the
 * charts and the CLI all share.
 *
 * The standings of `day` are the replay, in rating order (rating-order.ts), of the races that had happened by then
 * (dated on or before `day`, or undated), with each player's state grown over the idle days from their last dated race
 * to `day` (Replay.standings(day): system.elapse once from the race state, never composed, so the same history and day
 * always give the same bits). Reads use "today" in the league's time zone, or the latest race date when a race is
 * dated later than today (replay.ts has then already rated it; see `readingDay`).
 */

/** Whether a race counts in the standings of `day`: dated on or before it, or undated. */
export function happenedBy(race: Race, day: string): boolean {
	return race.date === undefined || race.date <= day;
}

/** The latest date of the given races (undefined when none is dated). */
export function latestRaceDate(races: readonly Race[]): string | undefined {
	let latest: string | undefined;
	for (const race of races)
		if (race.date !== undefined && (latest === undefined || race.date > latest)) latest = race.date;
	return latest;
}

/**
 * The day a read shows: today, or the latest race date when a race is dated after today (an organizer may confirm
 * one), so that every confirmed race is in what a player sees.
 */
export function readingDay(today: string, latestRace: string | undefined): string {
	return latestRace !== undefined && latestRace > today ? latestRace : today;
}

/** One system's standings of a history as of `day`, computed from scratch (the reference for every cache). */
export function standingsAsOf<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	races: readonly Race[],
	day: string,
	options: ReplayOptions = {},
): Standing[] {
	const replay = createReplay(system, params, options);
	for (const race of races) if (happenedBy(race, day)) replay.advance(race);
	return replay.standings(day);
}

/**
 * One system's standings on each of `days`, equal to `standingsAsOf` for each day. When the races that count grow as
 * a prefix of the log from one day to the next (races confirmed in date order, the usual case), one replay walks the
 * history once; otherwise each day is computed from scratch.
 */
export function standingsOnDays<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	races: readonly Race[],
	days: readonly string[],
	options: ReplayOptions = {},
): Map<string, Standing[]> {
	const steps = standingsOnDaysInSteps(system, params, races, days, options, Infinity);
	for (let step = steps.next(); ; step = steps.next()) if (step.done === true) return step.value;
}

/**
 * `standingsOnDays` as a generator that pauses after every `slice` races replayed, so that an impure caller can let
 * other work run in between (event-loop.ts); its return value is the result.
 */
export function* standingsOnDaysInSteps<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	races: readonly Race[],
	days: readonly string[],
	options: ReplayOptions,
	slice: number,
): Generator<void, Map<string, Standing[]>, void> {
	const result = new Map<string, Standing[]>();
	const sorted = [...days].sort();
	const prefix = countsAsPrefix(races);
	let replay: Replay<S> = createReplay(system, params, options);
	let next = 0;
	let sinceYield = 0;
	for (const day of sorted) {
		if (!prefix) {
			replay = createReplay(system, params, options);
			next = 0;
		}
		for (; next < races.length; next++) {
			const race = races[next]!;
			if (!happenedBy(race, day)) {
				if (prefix) break;
				continue;
			}
			replay.advance(race);
			if (++sinceYield >= slice) {
				sinceYield = 0;
				yield;
			}
		}
		result.set(day, replay.standings(day));
	}
	return result;
}

/** Whether, for every day, the races that happened by then are a prefix of the log (undated races first, dates non-decreasing). */
function countsAsPrefix(races: readonly Race[]): boolean {
	let previous: string | undefined;
	for (const race of races) {
		if (race.date === undefined) {
			if (previous !== undefined) return false;
			continue;
		}
		if (previous !== undefined && race.date < previous) return false;
		previous = race.date;
	}
	return true;
}

/**
 * Whether standings of `day` computed at log seq `basis` still hold at the log's head (derived records
 * are caches). They do while no later event changed rated history (LeagueLog.touchedSince: a void, edit, merge or
 * parameter change) and no race confirmed later counts on `day` (dated on or before it, or undated).
 */
export function standingsUnchangedSince(log: LeagueLog, basis: number, day: string): boolean {
	if (log.touchedSince(basis) !== Infinity) return false;
	return !log.races().some((race) => race.seq > basis && (race.date === undefined || race.date <= day));
}
