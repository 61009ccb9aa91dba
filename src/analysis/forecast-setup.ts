import { yearOf } from '../league/dates.js';
import type { Performance, Race } from '../ratings/types.js';
import type { ForecastInput } from './forecast.js';
import { seasonSoFar, type SeasonSoFar } from './season-so-far.js';

/**
 * From a league's history and day to the forecast's input, one definition for the bot's `/forecast`
 * and `pitwall forecast`: the season so far (season-so-far.ts) and each contender's performance from their rating
 * state grown to the day (`performanceOf`: system.performance(replay.stateAt(player, day), params)).
 */

export interface ForecastSetupOptions {
	readonly races: readonly Race[];
	/** The reading day: ratings are grown to it, the season is its calendar year (undefined: an undated history). */
	readonly asOf: string | undefined;
	readonly racesLeft: number;
	/** The current named season's first day: the season so far counts from it (absent: the calendar year). */
	readonly seasonStart?: string | undefined;
	readonly points: readonly number[];
	readonly bestResults?: number | undefined;
	readonly seasons?: number | undefined;
	readonly seed?: number | undefined;
	readonly performanceOf: (player: string) => Performance;
}

export interface ForecastSetup {
	readonly season: SeasonSoFar;
	readonly input: ForecastInput;
}

export function forecastSetup(options: ForecastSetupOptions): ForecastSetup {
	const season = seasonSoFar(options.races, options.asOf, options.points, options.bestResults, options.seasonStart);
	return {
		season,
		input: {
			field: season.contenders.map((player) => options.performanceOf(player)),
			results: season.results,
			racesLeft: options.racesLeft,
			points: options.points,
			bestResults: options.bestResults,
			seasons: options.seasons,
			seed: options.seed,
		},
	};
}

/**
 * Races left when the user gives none: last calendar year's number of races less this year's so far, or undefined
 * when last year had no more races than this one (the caller then asks for the number).
 */
export function racesLeftFromLastYear(races: readonly Race[], asOf: string): number | undefined {
	const year = yearOf(asOf);
	let last = 0;
	let now = 0;
	for (const race of races) {
		if (race.date === undefined || race.date > asOf) continue;
		const y = yearOf(race.date);
		if (y === year - 1) last++;
		else if (y === year) now++;
	}
	return last > now ? last - now : undefined;
}

/**
 * Races left when the user gives none and the current season planned its number of races (`/season start races:`):
 * the planned number less the season's races dated up to the reading day (never below 0).
 */
export function racesLeftFromSeason(
	races: readonly Race[],
	asOf: string,
	season: { readonly start: string; readonly plannedRaces: number },
): { readonly left: number; readonly held: number } {
	const held = races.filter((race) => race.date !== undefined && race.date >= season.start && race.date <= asOf).length;
	return { left: Math.max(0, season.plannedRaces - held), held };
}
