import { dayNumber } from './dates.js';

/**
 * Rating order: the one order in which every replay of a league rates its races (the bot's log and every cache of
 * it, the previews, the `pitwall` CLI over a history file), so that they all give the same numbers.
 *
 * Races are rated in date order; races of the same date in confirmation order (a league's log order, a file's
 * order: an import keeps its file's order within a date). A make-up race dated before races already rated is rated
 * before them, and they are rated again after it.
 *
 * An undated race sorts as if dated the latest date of the races confirmed before it (voided ones included, so that
 * voiding or restoring a race never moves another), after them on that date; before any dated race it sorts first.
 * So an undated race is always rated after every race confirmed before it, as when every race was rated in
 * confirmation order, and a league without dates is rated in confirmation order.
 */

/** What the order reads of a race: its date, if any. */
export interface Dated {
	readonly date?: string | undefined;
}

/**
 * A race's place in rating order as one number, comparable across the events of a log: a smaller position is rated
 * first. It encodes (the date the race sorts by, its index in confirmation order), so it never changes unless the
 * race's date (or, for an undated race, an earlier race's date) is edited.
 */
export type RatingPosition = number;

/** Before every race: a replay that has rated nothing. */
export const BEFORE_EVERY_RACE: RatingPosition = -1;

/**
 * Races per league a position can tell apart. 2^24 × the day slots of the years 0000-9999 (about 3.7 million) stays
 * below 2^53, so positions are exact integers.
 */
const INDEX_SPAN = 2 ** 24;
/** Day slot 0 is "no date" (before every date); day numbers of year 0000 are about -719,500. */
const DAY_OFFSET = 800_000;

/**
 * The date each race sorts by, given the races in confirmation order: its own, or for an undated race the latest
 * date of the races before it ('' when none has one: before every date).
 */
export function sortDates(races: readonly Dated[]): string[] {
	let latest = '';
	return races.map((race) => {
		if (race.date === undefined) return latest;
		if (race.date > latest) latest = race.date;
		return race.date;
	});
}

/** The position of the race at `index` (0-based) in confirmation order that sorts by `sortDate` (sortDates). */
export function ratingPosition(sortDate: string, index: number): RatingPosition {
	if (!Number.isInteger(index) || index < 0 || index >= INDEX_SPAN) {
		throw new RangeError(`a league holds at most ${INDEX_SPAN} races`);
	}
	const slot = sortDate === '' ? 0 : dayNumber(sortDate) + DAY_OFFSET;
	return slot * INDEX_SPAN + index;
}

/** The positions of races given in confirmation order. */
export function ratingPositions(races: readonly Dated[]): RatingPosition[] {
	return sortDates(races).map((date, i) => ratingPosition(date, i));
}

/** The indices (into `races`, given in confirmation order) in rating order. */
export function ratingOrderOf(races: readonly Dated[]): number[] {
	return orderOfPositions(ratingPositions(races));
}

/** The indices of `positions` in rating order (confirmation order but for make-up races: nearly sorted already). */
export function orderOfPositions(positions: readonly RatingPosition[]): number[] {
	return positions.map((_, i) => i).sort((a, b) => positions[a]! - positions[b]!);
}

/** `races`, given in confirmation order, in rating order (a new array). */
export function inRatingOrder<T extends Dated>(races: readonly T[]): T[] {
	return ratingOrderOf(races).map((i) => races[i]!);
}

/** Race runs named before the rest are counted (`R3, R5–R7 … and 12 more races`). */
const RUNS_SHOWN = 6;

/**
 * Race ids as a short list: runs of consecutive ids as ranges (`R14–R17`), at most RUNS_SHOWN runs, the rest
 * counted. Ids keep the given order (rating order); ids that are not `R<n>` stand alone.
 */
export function raceRuns(ids: readonly string[]): string {
	const runs: string[][] = [];
	const numberOf = (id: string) => (/^R[1-9]\d*$/u.test(id) ? Number(id.slice(1)) : NaN);
	for (const id of ids) {
		const run = runs.at(-1);
		if (run !== undefined && numberOf(id) === numberOf(run.at(-1)!) + 1) run.push(id);
		else runs.push([id]);
	}
	const named = runs.slice(0, RUNS_SHOWN).map((run) => (run.length === 1 ? run[0]! : `${run[0]}–${run.at(-1)}`));
	const rest = runs.slice(RUNS_SHOWN).reduce((n, run) => n + run.length, 0);
	if (rest > 0) return `${named.join(', ')} and ${rest} more race${rest === 1 ? '' : 's'}`;
	return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

/**
 * What the preview of a race rated before races already rated says (a make-up race, a date moved earlier, a
 * restored race): `Dated 2026-11-10, before R14–R17 already rated: their ratings will be recomputed.` `done`: said
 * after the fact ("were recomputed").
 */
export function movedRacesText(date: string | undefined, moved: readonly string[], done = false): string {
	const dated = date === undefined ? 'Undated' : `Dated ${date}`;
	const its = moved.length === 1 ? 'its' : 'their';
	return `${dated}, before ${raceRuns(moved)} already rated: ${its} ratings ${done ? 'were' : 'will be'} recomputed.`;
}
