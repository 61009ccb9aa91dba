/**
 * Championship points systems for the forecast: points for P1, P2, … of one race. A name (`f1`,
 * `motogp`) or a custom comma-separated list of non-negative numbers, as `/forecast points:` and
 * `/league config points:` take it and `pitwall forecast --points` reads it.
 */

/** F1 since 2010 (the fastest-lap point left out): 25-18-15-12-10-8-6-4-2-1. */
export const F1_POINTS: readonly number[] = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1];

/** MotoGP: 25-20-16-13-11-10-9-8-7-6-5-4-3-2-1. */
export const MOTOGP_POINTS: readonly number[] = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

export const NAMED_POINTS: Readonly<Record<string, readonly number[]>> = { f1: F1_POINTS, motogp: MOTOGP_POINTS };

/** Places that score at most (a longer list is surely a mistake, and keeps the text of a league config small). */
export const MAX_POINTS_PLACES = 100;

export class PointsTableError extends Error {
	override readonly name = 'PointsTableError';
}

/**
 * Parse `f1`, `motogp` or a list such as `10, 6, 4, 3, 2, 1`. Throws PointsTableError with the reason: an empty
 * list, a value that is not a number, a negative or non-finite value, too many places, or no place scoring.
 */
export function parsePointsTable(text: string): number[] {
	const trimmed = text.trim();
	const named = NAMED_POINTS[trimmed.toLowerCase()];
	if (named !== undefined && Object.hasOwn(NAMED_POINTS, trimmed.toLowerCase())) return [...named];
	if (trimmed === '') throw new PointsTableError('the points list is empty: give f1, motogp or e.g. 10,6,4,3,2,1');
	const parts = trimmed.split(',').map((part) => part.trim());
	if (parts.length > MAX_POINTS_PLACES) {
		throw new PointsTableError(`at most ${MAX_POINTS_PLACES} scoring places (got ${parts.length})`);
	}
	const points = parts.map((part, i) => {
		if (!/^\d+(\.\d+)?$/.test(part)) {
			throw new PointsTableError(
				part === ''
					? `place ${i + 1} of the points list is empty (two commas in a row?)`
					: `"${part}" (place ${i + 1}) is not a non-negative number: give f1, motogp or e.g. 10,6,4,3,2,1`,
			);
		}
		return Number(part);
	});
	if (!points.some((p) => p > 0)) throw new PointsTableError('no place scores any points');
	return points;
}

/** The text a league config stores and a reply shows: the name when the list is a named one, else the list. */
export function pointsTableText(points: readonly number[]): string {
	for (const [name, table] of Object.entries(NAMED_POINTS)) {
		if (table.length === points.length && table.every((p, i) => p === points[i])) return name;
	}
	return points.join(',');
}

/**
 * A driver's championship total from the points of each of their races: every result, or only the best `best`
 * (dropped results) when given.
 */
export function countedPoints(results: readonly number[], best?: number): number {
	const kept =
		best === undefined || best >= results.length ? results : [...results].sort((a, b) => b - a).slice(0, best);
	let sum = 0;
	for (const p of kept) sum += p;
	return sum;
}
