import { yearOf } from '../league/dates.js';
import type { Race } from '../ratings/types.js';
import { isResult, resultPoints } from '../league/championship.js';

/**
 * The season so far, for the championship forecast: the races dated in the calendar year of the reading
 * day, up to it, and each driver's points in each of them under the forecast's points table. The bot (league races,
 * entries by player id) and `pitwall forecast` (a history CSV, entries by name) both read it here, so that they give
 * the same numbers.
 *
 * A race's points: a finisher at position p scores points[p - 1] (0 beyond the table; tied positions score the same);
 * a DNF scores 0 but is a result (it counts against a dropped-results limit only as a 0, which never matters); DNS and
 * DSQ entries are not results.
 *
 * The contenders: every driver with a result this season, each assumed to start every remaining race. Before the
 * season's first race, the drivers of the latest race up to the day. At most MAX_CONTENDERS: those with the most
 * points so far (ties: the first to appear).
 *
 * A history without a single date (the sample league, many small leagues) has no calendar to count a season in: it is
 * read as a season starting from zero, with the drivers of its latest race (the last in log order) as contenders, and
 * `undated` says so (with `asOf` undefined there is no year either).
 */

export const MAX_CONTENDERS = 60;

export interface SeasonSoFar {
	/** The reading day's calendar year; undefined for an undated history read without a day. */
	readonly year: number | undefined;
	/** No race of the history carries a date: a season from zero with the latest race's drivers. */
	readonly undated: boolean;
	/** Races of this season counted. */
	readonly races: number;
	/** Player keys (ids or names, as in the races), in order of first appearance. */
	readonly contenders: readonly string[];
	/** The points of each contender in each of their races this season. */
	readonly results: readonly (readonly number[])[];
	/** Drivers left out past MAX_CONTENDERS. */
	readonly leftOut: number;
	/**
	 * Before the season's first race: the date of the latest race up to the day, whose drivers are the contenders (a
	 * league whose last race was years ago is forecast from that race's field, which the reply says).
	 */
	readonly contendersFrom?: string | undefined;
}

/** Races, none of them dated: no calendar to count a season in. */
export function isUndatedHistory(races: readonly Race[]): boolean {
	return races.length > 0 && races.every((race) => race.date === undefined);
}

/** A result (a finish or a DNF), read as the championship table reads it (championship.ts). */
const scoring = isResult;

export function seasonSoFar(
	races: readonly Race[],
	asOf: string | undefined,
	points: readonly number[],
	bestResults?: number,
	/** A named season's first day (seasons.ts): its races count, not the calendar year's. */
	seasonStart?: string,
): SeasonSoFar {
	const undated = isUndatedHistory(races);
	if (undated || asOf === undefined) {
		const last = undated ? races[races.length - 1] : undefined;
		const drivers = (last?.entries ?? [])
			.filter((e) => scoring(e.status))
			.sort((a, b) => a.position - b.position)
			.map((e) => e.player);
		const everyDriver = [...new Set(drivers)];
		const contenders = everyDriver.slice(0, MAX_CONTENDERS);
		return {
			year: asOf === undefined ? undefined : yearOf(asOf),
			undated,
			races: 0,
			contenders,
			results: contenders.map(() => []),
			leftOut: everyDriver.length - contenders.length,
		};
	}
	const year = yearOf(asOf);
	const results = new Map<string, number[]>();
	let counted = 0;
	let latest: Race | undefined;
	for (const race of races) {
		if (race.date === undefined || race.date > asOf) continue;
		if (latest === undefined || race.date >= (latest.date ?? '')) latest = race;
		if (seasonStart !== undefined ? race.date < seasonStart : yearOf(race.date) !== year) continue;
		counted++;
		for (const entry of race.entries) {
			const scored = resultPoints(entry, points);
			if (scored === undefined) continue;
			const list = results.get(entry.player);
			if (list === undefined) results.set(entry.player, [scored]);
			else list.push(scored);
		}
	}
	let contendersFrom: string | undefined;
	if (results.size === 0 && latest !== undefined) {
		for (const entry of latest.entries) if (scoring(entry.status)) results.set(entry.player, []);
		contendersFrom = latest.date;
	}
	let contenders = [...results.keys()];
	const leftOut = Math.max(0, contenders.length - MAX_CONTENDERS);
	if (leftOut > 0) {
		const total = (player: string) => {
			const list = [...results.get(player)!].sort((a, b) => b - a);
			return list.slice(0, bestResults ?? list.length).reduce((s, p) => s + p, 0);
		};
		const order = new Map(contenders.map((player, i) => [player, i]));
		contenders = [...contenders]
			.sort((a, b) => total(b) - total(a) || order.get(a)! - order.get(b)!)
			.slice(0, MAX_CONTENDERS)
			.sort((a, b) => order.get(a)! - order.get(b)!);
	}
	return {
		year,
		undated,
		races: counted,
		contenders,
		results: contenders.map((p) => results.get(p)!),
		leftOut,
		contendersFrom,
	};
}
