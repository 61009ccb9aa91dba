import type { Performance } from '../ratings/types.js';
import { fillKeys, keyParameters } from './race-draws.js';
import { seedState } from './seeded-random.js';
import { ForecastInputError } from './forecast-input-error.js';

export { ForecastInputError };

/**
 * The championship forecast: the rest of a season simulated, Monte Carlo, from today's ratings.
 *
 * Model and assumptions:
 * - Every contender starts every remaining race. Each race's finishing order is sampled from the headline system's
 *   performance model (types.ts `Performance`, the odds engine's): one independent draw per racer and race, the
 *   best draw wins. exp-longest: T = E/λ, longest wins; exp-shortest: T = E/μ, shortest wins; gamma3-shortest:
 *   T = (E1 + E2 + E3)/rate, shortest wins; normal-highest: X = mean + sd·Z, highest wins (E standard exponential,
 *   Z standard normal).
 * - Ratings stay as they are today for the rest of the season: no rating moves after a simulated race. Where a
 *   system carries an uncertainty, it is only what its performance model already holds: Glicko's sd includes the
 *   RD, so every race draws afresh around the same mean. The uncertainty is not drawn once per season (a driver
 *   who is really stronger than rated stays stronger in every race), so P(title) of a long shot is, if anything,
 *   under-stated.
 * - A race's points go to places 1..k of the points table; a driver's total is the sum of their points so far and
 *   the simulated ones, or, with dropped results, of their best `bestResults` race scores over the whole season.
 * - Ties: a tie on final points for first splits the title evenly between the tied drivers (each gets 1/m of that
 *   season); a driver is in the top 3 when at most two drivers have strictly more points. Ties inside a simulated
 *   race cannot happen with continuous draws, except between racers whose scaled draws underflow to 0 (more than
 *   ~300 orders of magnitude behind the best): the first listed is placed ahead.
 * - The Monte Carlo standard error of P(title) is √(p(1-p)/N) for N seasons.
 *
 * The work is in `createForecastRun`, which simulates seasons in slices (a service yields to the event loop between
 * them); the seeded generator's stream continues across slices, so the result depends only on the seed and the
 * number of seasons. Typed arrays, nothing allocated per season.
 */

export interface ForecastInput {
	/** Each contender's performance today (system.performance(state grown to today, params)); all of one kind. */
	readonly field: readonly Performance[];
	/** The points each contender scored in each race so far this season (same order as `field`). */
	readonly results: readonly (readonly number[])[];
	readonly racesLeft: number;
	/** Points for P1, P2, … of one race (points-table.ts). */
	readonly points: readonly number[];
	/** Dropped results: only each driver's best `bestResults` race scores count. Absent: every result counts. */
	readonly bestResults?: number | undefined;
	/** Seasons simulated (default DEFAULT_SEASONS). */
	readonly seasons?: number | undefined;
	readonly seed?: number | undefined;
}

export interface ForecastRow {
	/** Counted points so far (after drops). */
	readonly pointsNow: number;
	readonly pTitle: number;
	/** Monte Carlo standard error of pTitle: √(p(1-p)/N). */
	readonly pTitleError: number;
	readonly pTop3: number;
	readonly expectedPoints: number;
}

export interface ForecastResult {
	readonly seasons: number;
	readonly seed: number;
	/** In the order of `field`. */
	readonly rows: readonly ForecastRow[];
}

export const DEFAULT_SEASONS = 100_000;
export const DEFAULT_SEED = 1;
export const MAX_SEASONS = 10_000_000;
export const MAX_RACES_LEFT = 200;

export interface ForecastRun {
	/** Seasons still to simulate. */
	readonly remaining: number;
	/** Simulate up to `count` more seasons. */
	step(count: number): void;
	/** The result; only once `remaining` is 0. */
	result(): ForecastResult;
}

function checkInput(input: ForecastInput): { seasons: number; seed: number; bestResults: number | undefined } {
	const n = input.field.length;
	if (n === 0) throw new ForecastInputError('no contenders');
	if (input.results.length !== n) throw new ForecastInputError('one list of results per contender');
	if (!(Number.isInteger(input.racesLeft) && input.racesLeft >= 0 && input.racesLeft <= MAX_RACES_LEFT)) {
		throw new ForecastInputError(`races left must be a whole number from 0 to ${MAX_RACES_LEFT}`);
	}
	if (input.points.length === 0 || input.points.some((p) => !(Number.isFinite(p) && p >= 0))) {
		throw new ForecastInputError('points must be a non-empty list of non-negative numbers');
	}
	const seasons = input.seasons ?? DEFAULT_SEASONS;
	if (!(Number.isInteger(seasons) && seasons >= 1 && seasons <= MAX_SEASONS)) {
		throw new ForecastInputError(`seasons must be a whole number from 1 to ${MAX_SEASONS}`);
	}
	const bestResults = input.bestResults;
	if (bestResults !== undefined && !(Number.isInteger(bestResults) && bestResults >= 1)) {
		throw new ForecastInputError('best results must be a whole number of at least 1');
	}
	for (const results of input.results) {
		if (results.some((p) => !(Number.isFinite(p) && p >= 0))) {
			throw new ForecastInputError('points so far must be non-negative numbers');
		}
	}
	return { seasons, seed: input.seed ?? DEFAULT_SEED, bestResults };
}

/** Insert `value` into the descending array a[0..len-1] keeping the best `cap` (a[len] is free when len < cap). */
function insertDescending(a: Float64Array, len: number, cap: number, value: number): number {
	let i = len < cap ? len : cap - 1;
	if (len >= cap && value <= a[cap - 1]!) return len;
	while (i > 0 && a[i - 1]! < value) {
		a[i] = a[i - 1]!;
		i--;
	}
	a[i] = value;
	return len < cap ? len + 1 : len;
}

export function createForecastRun(input: ForecastInput): ForecastRun {
	const { seasons, seed, bestResults } = checkInput(input);
	const n = input.field.length;
	const races = input.racesLeft;
	const { kind, mean, scale } = keyParameters(input.field);
	// Scoring places: trailing zeros of the table score nothing, and no race has more than n places.
	let k = Math.min(input.points.length, n);
	while (k > 0 && input.points[k - 1] === 0) k--;
	const points = Float64Array.from(input.points.slice(0, k));

	// Points so far: the counted total, and with drops each driver's best `bestResults` scores (descending, 0-padded).
	const drop = bestResults !== undefined;
	const keep = bestResults ?? 0;
	const pastTop = new Float64Array(n * keep);
	const pointsNow = new Float64Array(n);
	for (let j = 0; j < n; j++) {
		const sorted = [...input.results[j]!].sort((a, b) => b - a);
		const counted = drop ? sorted.slice(0, keep) : sorted;
		for (let i = 0; i < counted.length; i++) {
			pointsNow[j] = pointsNow[j]! + counted[i]!;
			if (drop) pastTop[j * keep + i] = counted[i]!;
		}
	}

	const state = seedState(seed);
	const key = new Float64Array(n);
	const topKey = new Float64Array(k);
	const topIdx = new Int32Array(k);
	const total = new Float64Array(n);
	/** With drops: the season's simulated race scores of each driver, n × races. */
	const raceScore = new Float64Array(drop ? n * races : 0);
	const best = new Float64Array(drop ? keep + races : 0);
	const title = new Float64Array(n);
	const top3 = new Float64Array(n);
	const pointsSum = new Float64Array(n);
	let spare = NaN; // the second normal of a pair

	const sampleKeys = () => {
		spare = fillKeys(kind, n, mean, scale, key, state, spare);
	};

	/** One race: the k best keys (a small descending insertion list), each scoring its place's points. */
	const race = (r: number) => {
		sampleKeys();
		let m = 0;
		for (let j = 0; j < n; j++) {
			const v = key[j]!;
			if (m === k && v <= topKey[k - 1]!) continue;
			let i = m < k ? m : k - 1;
			while (i > 0 && topKey[i - 1]! < v) {
				topKey[i] = topKey[i - 1]!;
				topIdx[i] = topIdx[i - 1]!;
				i--;
			}
			topKey[i] = v;
			topIdx[i] = j;
			if (m < k) m++;
		}
		for (let p = 0; p < m; p++) {
			const j = topIdx[p]!;
			if (drop) raceScore[j * races + r] = points[p]!;
			else total[j] = total[j]! + points[p]!;
		}
	};

	/** With drops: the sum of each driver's best `keep` scores of the season (points so far and simulated). */
	const countDrops = () => {
		for (let j = 0; j < n; j++) {
			let len = 0;
			for (let i = 0; i < keep; i++) len = insertDescending(best, len, keep, pastTop[j * keep + i]!);
			for (let r = 0; r < races; r++) len = insertDescending(best, len, keep, raceScore[j * races + r]!);
			let sum = 0;
			for (let i = 0; i < len; i++) sum += best[i]!;
			total[j] = sum;
		}
	};

	const season = () => {
		if (drop) raceScore.fill(0);
		else total.set(pointsNow);
		for (let r = 0; r < races; r++) race(r);
		if (drop) countDrops();
		// The leader's total and how many share it; the third-largest total of the multiset (top 3 ⇔ ≥ it).
		let a = -Infinity;
		let b = -Infinity;
		let c = -Infinity;
		let leaders = 0;
		for (let j = 0; j < n; j++) {
			const v = total[j]!;
			pointsSum[j] = pointsSum[j]! + v;
			if (v > a) {
				c = b;
				b = a;
				a = v;
				leaders = 1;
			} else {
				if (v === a) leaders++;
				if (v > b) {
					c = b;
					b = v;
				} else if (v > c) c = v;
			}
		}
		const share = 1 / leaders;
		for (let j = 0; j < n; j++) {
			const v = total[j]!;
			if (v === a) title[j] = title[j]! + share;
			if (v >= c) top3[j] = top3[j]! + 1;
		}
	};

	let done = 0;
	return {
		get remaining() {
			return seasons - done;
		},
		step(count) {
			const end = Math.min(seasons, done + Math.max(0, Math.floor(count)));
			for (; done < end; done++) season();
		},
		result() {
			if (done < seasons) throw new Error('forecast: result() before every season was simulated');
			const rows: ForecastRow[] = [];
			for (let j = 0; j < n; j++) {
				const p = title[j]! / seasons;
				rows.push({
					pointsNow: pointsNow[j]!,
					pTitle: p,
					pTitleError: Math.sqrt((p * (1 - p)) / seasons),
					pTop3: top3[j]! / seasons,
					expectedPoints: pointsSum[j]! / seasons,
				});
			}
			return { seasons, seed, rows };
		},
	};
}

/** The whole forecast in one call (the CLI, the bench, tests); services step it in slices. */
export function forecastChampionship(input: ForecastInput): ForecastResult {
	const run = createForecastRun(input);
	run.step(run.remaining);
	return run.result();
}
