/**
 * Calibration: tune a rating system's main parameters on a league's own history, by maximising the backtest's
 * winner log-likelihood (backtest.ts) with a bounded number of backtests (docs/calibrate.md).
 *
 * Search: each searched quantity (calibration-space.ts) is mapped to u ∈ [0, 1] on a log scale (a share: on the log
 * of the half-life it makes, calibration-space.ts). Coordinate cycles
 * run Brent's bounded minimiser (golden section with parabolic steps; Brent 1973, ch. 5 `localmin`) along one
 * coordinate at a time, the others held at the best point so far: the first cycle over each whole range, later
 * cycles in a window around the best point that follows how far the coordinate last moved. Every searched value is rounded to 4
 * significant digits before its backtest, so the printed `--param` values reproduce the reported likelihood
 * exactly; a point already evaluated is not evaluated again. Deterministic: no randomness, fixed order.
 */
import { backtest } from './backtest.js';
import {
	historyHasCars,
	logSpan,
	paramValue,
	quantityAtUnit,
	quantityOf,
	searchSpace,
	unitOf,
	type SearchDimension,
} from './calibration-space.js';
import type { ReplayOptions } from '../league/replay.js';
import { ParamError, type ParamOverrides, type Race, type RatingSystem } from '../ratings/types.js';

export { searchSpace, type SearchDimension } from './calibration-space.js';

export interface CalibrateOptions {
	/** Parameters held fixed (and the starting point of searched ones), as from `--param`. */
	readonly fixed?: ParamOverrides | undefined;
	readonly reset?: ReplayOptions['reset'];
	/** How retirements are read (rankRace; default `ordered`). */
	readonly retirements?: ReplayOptions['retirements'];
	/** Hard cap on backtests, the default-parameter backtest included. Default: defaultMaxEvaluations. */
	readonly maxEvaluations?: number | undefined;
	/**
	 * Score only the races from this day on (YYYY-MM-DD; backtest.ts): the ratings still replay from the first race, so
	 * the numbers are tuned on that window of a longer history.
	 */
	readonly scoreFrom?: string | undefined;
	/** Search only these quantities (names from the system's search space). Default: all of them. */
	readonly only?: readonly string[] | undefined;
}

/** One backtest of the search. */
export interface CalibrationStep {
	/** 1-based backtest number. */
	readonly evaluation: number;
	/** The searched quantities (parameter values, or half-life in days). */
	readonly point: Readonly<Record<string, number>>;
	/** −Infinity when the backtest failed (see `error`). */
	readonly logLikelihood: number;
	readonly error?: string;
}

export interface CalibrationResult {
	readonly system: string;
	readonly dimensions: readonly SearchDimension[];
	readonly notes: readonly string[];
	/** Races scored by the backtest. */
	readonly races: number;
	/** With scoreFrom: the day, and the date of the first race scored (null when none was, or it has no date). */
	readonly scoreFrom?: string;
	readonly firstScoredDate?: string | null;
	/** The searched quantities at the defaults (with the fixed overrides); a half-life may be Infinity. */
	readonly defaultPoint: Readonly<Record<string, number>>;
	/** The best searched quantities found (equal to defaultPoint when nothing beat the defaults). */
	readonly bestPoint: Readonly<Record<string, number>>;
	/** The parameter values of the best point, by parameter name (φ for a half-life). */
	readonly bestParams: Readonly<Record<string, number>>;
	/** Fixed overrides plus bestParams: what to pass to system.params() to reproduce bestLogLikelihood. */
	readonly bestOverrides: ParamOverrides;
	readonly defaultLogLikelihood: number;
	readonly bestLogLikelihood: number;
	/** bestLogLikelihood − defaultLogLikelihood, never negative. */
	readonly gain: number;
	/**
	 * The standard error of `gain` (pairedGainError): how much of it the noise of so few races could make. 0 when
	 * nothing beat the defaults; Infinity with fewer than two races scored.
	 */
	readonly gainStandardError: number;
	/** Backtests run, ≤ maxEvaluations. */
	readonly evaluations: number;
	readonly maxEvaluations: number;
	readonly trace: readonly CalibrationStep[];
}

export const DEFAULT_MAX_EVALUATIONS = 60;
/** Backtests per searched quantity beyond two (endure and speed with cars search four). */
export const EVALUATIONS_PER_DIMENSION = 30;

/**
 * The default cap for a search of `dimensions` quantities: 60 up to two (each settles well within it), 30 per
 * quantity beyond (four: 120). Coordinate cycles spend a line search per quantity per cycle, and the coupled pairs of
 * a car search (k with kCar, the forgetting half-life with carCarry) need a few cycles to walk their ridges.
 */
export function defaultMaxEvaluations(dimensions: number): number {
	return Math.max(DEFAULT_MAX_EVALUATIONS, EVALUATIONS_PER_DIMENSION * dimensions);
}
/** Brent's tolerance, as a relative change of the searched quantity (1 %: far below what the data can resolve). */
const RELATIVE_TOLERANCE = 0.01;
/** A cycle improving the log-likelihood by less than this (nats) ends the search. */
const CYCLE_IMPROVEMENT = 0.02;
/** Largest half-width on u of a line search after the first cycle (which spans [0, 1]). */
const MAX_WINDOW = 0.25;
const MAX_CYCLES = 12;
/** Stand-in objective of a failed backtest (−LL): finite, so Brent's parabolic steps stay finite. */
const FAILED_OBJECTIVE = 1e15;

/** Round to 4 significant digits: the printed value is the evaluated value. */
export function roundParam(value: number): number {
	return Number(value.toPrecision(4));
}

function toUnit(dimension: SearchDimension, quantity: number): number {
	return unitOf(dimension, Math.min(Math.max(quantity, dimension.lo), dimension.hi));
}

function fromUnit(dimension: SearchDimension, u: number): number {
	return roundParam(quantityAtUnit(dimension, u));
}

/**
 * Calibrate `system` on `races`: the best winner log-likelihood over at most `maxEvaluations` backtests, never
 * worse than the defaults (the default-parameter backtest is the first evaluation).
 */
export function calibrate<S, P>(
	system: RatingSystem<S, P>,
	races: readonly Race[],
	options: CalibrateOptions = {},
): CalibrationResult {
	if (
		options.maxEvaluations !== undefined &&
		(!Number.isInteger(options.maxEvaluations) || options.maxEvaluations < 1)
	) {
		throw new ParamError(`calibrate: maxEvaluations must be a positive integer, got ${options.maxEvaluations}`);
	}
	const fixed = options.fixed ?? {};
	const reset = options.reset;
	const backtestOptions = { reset, retirements: options.retirements, scoreFrom: options.scoreFrom };
	const defaults = system.params(fixed) as Readonly<Record<string, unknown>>;
	const dated = races.length > 0 && races.every((race) => race.date !== undefined);
	const space = searchSpace(system.id, defaults, { dated, reset, cars: historyHasCars(races) });
	let dimensions = space.dimensions;
	if (options.only !== undefined) {
		const known = dimensions.map((d) => d.name);
		for (const name of options.only) {
			if (!known.includes(name)) {
				throw new ParamError(
					`calibrate ${system.id}: "${name}" is not searched here; searchable: ${known.join(', ') || '(none)'}`,
				);
			}
		}
		dimensions = dimensions.filter((d) => options.only!.includes(d.name));
	}
	const maxEvaluations = options.maxEvaluations ?? defaultMaxEvaluations(dimensions.length);

	const defaultPoint = Object.fromEntries(
		dimensions.map((d) => [d.name, quantityOf(d, Number(defaults[d.param]))]),
	) as Record<string, number>;

	const trace: CalibrationStep[] = [];
	const seen = new Map<string, number>();
	let racesScored = 0;
	let firstScoredDate: string | null | undefined;
	/** Backtest at a point (quantities by dimension, in order); memoised; −LL for the minimiser. */
	const evaluate = (quantities: readonly number[], overrides: ParamOverrides): number => {
		const key = quantities.join(',');
		const known = seen.get(key);
		if (known !== undefined) return known;
		const point = Object.fromEntries(dimensions.map((d, i) => [d.name, quantities[i]!]));
		let logLikelihood = -Infinity;
		let error: string | undefined;
		try {
			const result = backtest(system, system.params(overrides), races, backtestOptions);
			logLikelihood = result.winner_log_likelihood;
			racesScored = result.races;
			if (result.first_scored !== undefined) firstScoredDate = result.first_scored?.date ?? null;
		} catch (caught) {
			error = caught instanceof Error ? caught.message : String(caught);
		}
		if (Number.isNaN(logLikelihood)) logLikelihood = -Infinity;
		trace.push({ evaluation: trace.length + 1, point, logLikelihood, ...(error !== undefined && { error }) });
		seen.set(key, logLikelihood);
		return logLikelihood;
	};
	const overridesAt = (quantities: readonly number[]): ParamOverrides => ({
		...fixed,
		...Object.fromEntries(dimensions.map((d, i) => [d.param, paramValue(d, quantities[i]!)])),
	});

	const defaultQuantities = dimensions.map((d) => defaultPoint[d.name]!);
	const defaultLogLikelihood = evaluate(defaultQuantities, fixed);
	if (trace[0]?.error !== undefined) {
		throw new ParamError(`calibrate ${system.id}: the backtest at the defaults failed: ${trace[0].error}`);
	}

	// The cap counts backtests; a memoised point costs none, so calls are bounded separately to end the search.
	let calls = 0;
	const maxCalls = 4 * maxEvaluations + 20;
	const objective = (u: readonly number[]): number => {
		calls++;
		const quantities = dimensions.map((d, i) => fromUnit(d, u[i]!));
		const ll = evaluate(quantities, overridesAt(quantities));
		return Number.isFinite(ll) ? -ll : FAILED_OBJECTIVE;
	};
	if (dimensions.length > 0 && maxEvaluations > 1) {
		coordinateSearch(
			objective,
			dimensions.map((d, i) => toUnit(d, defaultQuantities[i]!)),
			() => Math.min(maxEvaluations - trace.length, maxCalls - calls),
			{
				tolerances: dimensions.map((d) => Math.log1p(RELATIVE_TOLERANCE) / logSpan(d)),
				minImprovement: CYCLE_IMPROVEMENT,
			},
		);
	}

	let best = trace[0]!;
	for (const step of trace) if (step.logLikelihood > best.logLikelihood) best = step;
	const atDefaults = best === trace[0];
	const bestQuantities = dimensions.map((d) => best.point[d.name]!);
	const bestParams = Object.fromEntries(
		dimensions.map((d, i) => [d.param, atDefaults ? Number(defaults[d.param]) : paramValue(d, bestQuantities[i]!)]),
	);
	const bestOverrides = atDefaults ? { ...fixed } : overridesAt(bestQuantities);
	// Two backtests more, outside the cap: the search keeps totals only, the noise bound needs each race's term.
	const gainStandardError = atDefaults
		? 0
		: pairedGainError(
				raceLogLikelihoods(system, fixed, races, options),
				raceLogLikelihoods(system, bestOverrides, races, options),
			);
	return {
		system: system.id,
		dimensions,
		notes: space.notes,
		races: racesScored,
		...(options.scoreFrom !== undefined && { scoreFrom: options.scoreFrom, firstScoredDate: firstScoredDate ?? null }),
		defaultPoint,
		bestPoint: best.point,
		bestParams,
		bestOverrides,
		defaultLogLikelihood,
		bestLogLikelihood: best.logLikelihood,
		gain: best.logLikelihood - defaultLogLikelihood,
		gainStandardError,
		evaluations: trace.length,
		maxEvaluations,
		trace,
	};
}

/** log P(winner) of each race a backtest scores, in order. */
function raceLogLikelihoods<S, P>(
	system: RatingSystem<S, P>,
	overrides: ParamOverrides,
	races: readonly Race[],
	options: CalibrateOptions,
): number[] {
	const terms: number[] = [];
	const { reset, retirements, scoreFrom } = options;
	backtest(system, system.params(overrides), races, { reset, retirements, scoreFrom }, (r) =>
		terms.push(Math.log(r.pWinner)),
	);
	return terms;
}

/**
 * The standard error of a log-likelihood gain Σ (b_r − a_r) over the same n races (a_r, b_r: log P(winner) of race r
 * under the current and the proposed settings), the races taken as independent draws: √n · s, with s the sample
 * standard deviation of the paired differences b_r − a_r. A gain within two of these is what re-drawing the same
 * number of races could give by chance (about 5 % one-sided), and since the proposal is the best of many backtests on
 * these very races the bound is, if anything, generous to it. Infinity with fewer than two races, or unequal lists.
 */
export function pairedGainError(current: readonly number[], proposed: readonly number[]): number {
	const n = current.length;
	if (n < 2 || proposed.length !== n) return Infinity;
	const d = current.map((a, i) => proposed[i]! - a);
	const mean = d.reduce((sum, x) => sum + x, 0) / n;
	const variance = d.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1);
	const error = Math.sqrt(n * variance);
	return Number.isFinite(error) ? error : Infinity;
}

export interface CoordinateSearchOptions {
	/** Tolerance of each coordinate's line search, on u. Default 1e-3. */
	readonly tolerances?: readonly number[] | undefined;
	/** A cycle improving f by less than this ends the search (after the first cycle). Default 0. */
	readonly minImprovement?: number | undefined;
}

/**
 * Minimise f over the unit box by coordinate cycles of bounded Brent line searches, starting at `start`.
 * The first cycle searches each coordinate over [0, 1]; later cycles search a window around the best point of
 * half-width max(8·tol, 2·|last move|), capped at MAX_WINDOW: it stays wide while a coordinate keeps moving (a
 * ridge between coupled coordinates) and narrows as it settles. `remaining()` is the number of calls to f still
 * allowed; no call is made when it is ≤ 0. Returns the best point.
 */
export function coordinateSearch(
	f: (u: readonly number[]) => number,
	start: readonly number[],
	remaining: () => number,
	options: CoordinateSearchOptions = {},
): { u: number[]; value: number } {
	const n = start.length;
	const tolerances = options.tolerances ?? start.map(() => 1e-3);
	const minImprovement = options.minImprovement ?? 0;
	const u = [...start];
	if (remaining() <= 0) return { u, value: Infinity };
	let value = f(u);
	const moved = start.map(() => MAX_WINDOW);
	for (let cycle = 0; cycle < MAX_CYCLES && remaining() > 0; cycle++) {
		const before = value;
		for (let i = 0; i < n && remaining() > 0; i++) {
			// Each line search gets an equal share of what is left for this cycle and the next.
			const share = n === 1 ? remaining() : Math.max(6, Math.floor(remaining() / (2 * n - i)));
			const window = Math.min(MAX_WINDOW, Math.max(8 * tolerances[i]!, 2 * moved[i]!));
			const lo = cycle === 0 ? 0 : Math.max(0, u[i]! - window);
			const hi = cycle === 0 ? 1 : Math.min(1, u[i]! + window);
			const line = brentMinimize(
				(x) => {
					const probe = [...u];
					probe[i] = x;
					return f(probe);
				},
				lo,
				hi,
				tolerances[i]!,
				Math.min(share, remaining()),
			);
			moved[i] = 0;
			if (line.value < value) {
				value = line.value;
				moved[i] = Math.abs(line.x - u[i]!);
				u[i] = line.x;
			}
		}
		// One coordinate: the first Brent search is the whole search (it stops at its tolerance).
		if (n === 1 || before - value <= minImprovement) break;
	}
	return { u, value };
}

/**
 * Brent's bounded minimiser (golden section plus parabolic interpolation; Brent 1973, `localmin`) of f on [a, b]
 * to tolerance `tol` in x, with at most `maxCalls` calls to f. Returns the best point seen.
 */
export function brentMinimize(
	f: (x: number) => number,
	a: number,
	b: number,
	tol: number,
	maxCalls: number,
): { x: number; value: number; calls: number } {
	if (maxCalls <= 0) return { x: 0.5 * (a + b), value: Infinity, calls: 0 };
	const golden = 0.5 * (3 - Math.sqrt(5));
	const eps = Math.sqrt(Number.EPSILON);
	let x = a + golden * (b - a);
	let w = x;
	let v = x;
	let fx = f(x);
	let fw = fx;
	let fv = fx;
	let calls = 1;
	let d = 0;
	let e = 0;
	while (calls < maxCalls) {
		const xm = 0.5 * (a + b);
		const tol1 = eps * Math.abs(x) + tol / 3;
		const tol2 = 2 * tol1;
		if (Math.abs(x - xm) <= tol2 - 0.5 * (b - a)) break;
		let parabolic = false;
		if (Math.abs(e) > tol1) {
			// Fit a parabola through x, w, v.
			let r = (x - w) * (fx - fv);
			let q = (x - v) * (fx - fw);
			let p = (x - v) * q - (x - w) * r;
			q = 2 * (q - r);
			if (q > 0) p = -p;
			q = Math.abs(q);
			r = e;
			e = d;
			if (Math.abs(p) < Math.abs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
				d = p / q;
				const trial = x + d;
				if (trial - a < tol2 || b - trial < tol2) d = x < xm ? tol1 : -tol1;
				parabolic = true;
			}
		}
		if (!parabolic) {
			e = x >= xm ? a - x : b - x;
			d = golden * e;
		}
		const next = x + (Math.abs(d) >= tol1 ? d : d > 0 ? tol1 : -tol1);
		const fNext = f(next);
		calls++;
		if (fNext <= fx) {
			if (next >= x) a = x;
			else b = x;
			v = w;
			fv = fw;
			w = x;
			fw = fx;
			x = next;
			fx = fNext;
		} else {
			if (next < x) a = next;
			else b = next;
			if (fNext <= fw || w === x) {
				v = w;
				fv = fw;
				w = next;
				fw = fNext;
			} else if (fNext <= fv || v === x || v === w) {
				v = next;
				fv = fNext;
			}
		}
	}
	return { x, value: fx, calls };
}
