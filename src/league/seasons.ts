import { nameKey } from './race-log-checks.js';
import type { LeagueLog, RaceRecord } from './race-log.js';

/**
 * A league's seasons, as every reader sees them (docs/seasons.md): the named seasons the organizers started
 * (`/season start`, kept by the log), or, for a league that never started one, one implicit season per calendar year
 * with a dated race, named by the year ("2026"): what the forecast and the yearly reset have always read as a season.
 *
 * A race belongs to the season whose days [start, end] contain its date; an undated race belongs to none, and so does
 * a race dated between two seasons (after one ended, before the next started).
 */

export interface Season {
	readonly name: string;
	/** The first day, `YYYY-MM-DD`. */
	readonly start: string;
	/** The last day; undefined while a named season is open. An implicit season ends on 31 December. */
	readonly end?: string | undefined;
	/** The number of races planned (`/season start races:`); undefined when none was given, and for implicit seasons. */
	readonly plannedRaces?: number | undefined;
	/** A calendar year of a league without named seasons. */
	readonly implicit: boolean;
}

/** The league's seasons in start order: the named ones, else the implicit calendar years. */
export function seasonsOf(log: LeagueLog): readonly Season[] {
	const named = log.seasons();
	if (named.length > 0) {
		return named.map((s) => ({
			name: s.name,
			start: s.start,
			...(s.end !== undefined && { end: s.end }),
			...(s.plannedRaces !== undefined && { plannedRaces: s.plannedRaces }),
			implicit: false,
		}));
	}
	const years = new Set<string>();
	for (const race of log.races()) {
		if (race.status === 'confirmed' && race.date !== undefined) years.add(race.date.slice(0, 4));
	}
	return [...years]
		.sort()
		.map((year) => ({ name: year, start: `${year}-01-01`, end: `${year}-12-31`, implicit: true }));
}

/** Whether `date` is one of the season's days. */
export function seasonContains(season: Season, date: string): boolean {
	return date >= season.start && (season.end === undefined || date <= season.end);
}

/**
 * A season by name (case-insensitive), or, without one, the current season: the one containing `today`, else the
 * latest started by then, else the first (every season still to come). Undefined for an unknown name or a league
 * without seasons.
 */
export function findSeason(log: LeagueLog, ref: string | undefined, today: string): Season | undefined {
	const seasons = seasonsOf(log);
	if (ref !== undefined && ref.trim() !== '') return seasons.find((s) => nameKey(s.name) === nameKey(ref));
	return seasons.find((s) => seasonContains(s, today)) ?? seasons.filter((s) => s.start <= today).at(-1) ?? seasons[0];
}

/** The confirmed races dated in the season, in rating order (the order of LeagueLog.ratedRaces). */
export function racesOfSeason(log: LeagueLog, season: Season): readonly RaceRecord[] {
	const out: RaceRecord[] = [];
	for (const { race } of log.ratedRaces()) {
		if (race.date === undefined || !seasonContains(season, race.date)) continue;
		const record = log.race(race.id);
		if (record !== undefined) out.push(record);
	}
	return out;
}

/** Whether the season is over on `today`: its last day is past. */
export function seasonEnded(season: Season, today: string): boolean {
	return season.end !== undefined && season.end < today;
}

/**
 * A soft reset's share from the percentage an organizer gives (`season-share:30`, `--season-share 30`): one
 * conversion for the bot and the CLI, so that both move ratings by the same bits.
 */
export function shareOfPercent(percent: number): number {
	return percent / 100;
}
