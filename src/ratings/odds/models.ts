/**
 * The four performance models of the odds engine, each reduced to what a shared-node quadrature needs.
 *
 * Every place probability is a 1-D integral over the performance value v of one racer i:
 *   P(i finishes at place c+1) = ∫ f_i(v) · P(exactly c others are ahead of value v) dv,
 * the others being independent with b_j(v) = P(j ahead of value v). The integration variable t is s = log x for
 * the time models (x = e^s; dx = x ds, see specs/endure-elo.md "Fast endure win probability") and v/σ_min for the
 * normal model. On a uniform grid t_k = t_0 + k·h, the trapezoid rule is h·Σ_k g(t_k) (the integrands vanish at
 * both ends of the range, so end weights do not matter).
 *
 * At each node a model fills, for all racers j at once (fillNode, for the engine's walk):
 * - weight[j], racer j's density in t (density in v times dv/dt);
 * - beat[j] = b_j(t) and behind[j] = 1 - b_j(t), the smaller computed directly and the other as 1 minus it, so
 *   that both keep their relative accuracy (a hopeless racer's Π(1 - b) is a product of tiny behind-probabilities).
 *   Folyami takes behind directly at every node and beat as 1 minus it: beat needs only absolute accuracy there
 *   (gamma3Model);
 * - bounds on the log-slopes of the P(win) integrands, which are log-concave in t, for the walk's stopping rule.
 * The place matrix uses fillBeat and fillLogWeight on a fixed grid.
 */
import type { Performance } from '../types.js';
import * as special from '../special.js';
import { OddsInputError } from './errors.js';
import { endureWinPass, type WinSums } from './endure-win.js';

export { OddsAccuracyError, OddsInputError } from './errors.js';

// Module-local copies of the imports used in inner loops: under tsx and vitest an imported binding is a getter
// call on every use, which made the normal model 5x slower.
const { LN2, LOG_SQRT_2PI, THRESH, erfSmall, erfcxLarge, normalUpperTail } = special;

export type PerformanceKind = Performance['kind'];

export interface Grid {
	readonly lo: number;
	readonly hi: number;
}

export interface FieldModel {
	readonly kind: PerformanceKind;
	readonly n: number;
	/**
	 * The direction of t in which a performance is better (+1: the highest value or longest time wins; -1: the
	 * shortest time wins). Going that way every b_j falls, going the other way every b_j grows.
	 */
	readonly ahead: 1 | -1;
	/**
	 * The trapezoid step for the integrands of places 1..`places`, from the accuracy study in docs/odds.md (error
	 * below about 1e-15 for equal fields, the worst case); the engine halves it if its sum check fails.
	 */
	step(places: number): number;
	/**
	 * A node range outside which the integrands of places 1..`places` carry less than about 1e-17 of probability
	 * mass per racer (the place matrix: places = n).
	 */
	grid(places: number): Grid;
	/** A node inside the bulk of the winner's distribution: the engine walks up and down from it. */
	start(): number;
	/**
	 * Fill, at node t, for every racer j: weight[j] (racer j's density in t, linear: every integrand is the weight
	 * times a product of probabilities ≤ 1, so a weight that underflows leaves a term that does too), beat[j] = b_j(t)
	 * and behind[j] = 1 - b_j(t), behind always to full relative accuracy and beat at least to about 1e-16 absolute
	 * (the smaller one directly, the other as 1 minus it; Folyami's beat as 1 - behind), and the log-slopes that
	 * the engine's stopping rules need:
	 * - slope[0] ≤ d/dt log f_i(t) ≤ slope[1] for every racer's P(win) integrand f_i = density_i·Π_{j≠i}(1 - b_j).
	 *   Each f_i is log-concave in t (a product of log-concave factors), so slope[0] also bounds the slope at every
	 *   node below t, and slope[1] at every node above.
	 * - fall[j], the rate at which racer j's density falls in the direction -`ahead` (toward worse performances):
	 * positive once the node is past racer j's mode in that direction. Each density is log-concave in t, so fall[j]
	 * also bounds the rate at every node beyond (the engine's P(top 3) stopping rule going that way).
	 */
	fillNode(
		t: number,
		weight: Float64Array,
		beat: Float64Array,
		behind: Float64Array,
		fall: Float64Array,
		slope: Float64Array,
	): void;
	/**
	 * Optional dedicated P(win) quadrature at step h (normal model): p[i] = P(win) of racer i, before the ΣP = 1
	 * check. Without it the engine walks fillNode from start(). Returns the narrowest integrand's standard deviation
	 * in t (see the engine's width check).
	 */
	win?(h: number, p: Float64Array): number;
	/**
	 * Optional (exp-longest): one P(win)-only pass of the walk at step h and offset, with the walk's contract (node
	 * sums and moments added into sums; the same nodes and stopping rule), computed its own faster way.
	 */
	winPass?(h: number, offset: number, sums: WinSums): void;
	/**
	 * Optional (normal model, whose means may lie up to 1e5 sd apart): the nearest t beyond `t` in direction dir at
	 * which some racer's density can be non-zero in floating point, or ±Infinity if none. The walk jumps there from a
	 * node where every density underflows: the nodes skipped hold exact zeros (a racer far ahead).
	 */
	nextMass?(t: number, dir: number): number;
	fillBeat(t: number, out: Float64Array): void;
	fillLogWeight(t: number, out: Float64Array): void;
}

const SQRT1_2 = Math.SQRT1_2;
/** Renormalization bounds of the running product Π div (see the header). */
const PROD_LO = 1e-200;

/** Rates scaled so that the largest is 1 (every probability is invariant under a common scale of the rates). */
function scaledRates(field: readonly Performance[]): { rate: Float64Array; min: number; sum: number } {
	const n = field.length;
	const rate = new Float64Array(n);
	let max = 0;
	for (let j = 0; j < n; j++) {
		const p = field[j]!;
		if (p.kind === 'normal-highest') throw new OddsInputError('internal: normal performance in a rate model');
		if (!(Number.isFinite(p.rate) && p.rate > 0)) {
			throw new OddsInputError(`racer ${j}: rate must be finite and > 0, got ${p.rate}`);
		}
		rate[j] = p.rate;
		if (p.rate > max) max = p.rate;
	}
	let min = Infinity;
	let sum = 0;
	for (let j = 0; j < n; j++) {
		const r = rate[j]! / max;
		rate[j] = r;
		if (r < min) min = r;
		sum += r;
	}
	if (!(min > 1e-280)) throw new OddsInputError('rates span more than 280 orders of magnitude');
	return { rate, min, sum };
}

/** log of each rate (the place matrix's log-weights), computed when first needed. */
function logRates(rate: Float64Array): Float64Array {
	const out = new Float64Array(rate.length);
	for (let j = 0; j < rate.length; j++) out[j] = Math.log(rate[j]!);
	return out;
}

/**
 * The mean of log(rate) from running products, one log per 1e-20 of product instead of one per racer (the walk's
 * start node, once per call). Rates are scaled into (1e-280, 1], so a product still above 1e-20 times the next rate
 * stays above 1e-300: nothing underflows.
 */
function meanLogRate(rate: Float64Array): number {
	let logSum = 0;
	let prod = 1;
	for (let j = 0; j < rate.length; j++) {
		prod *= rate[j]!;
		if (prod < 1e-20) {
			logSum += Math.log(prod);
			prod = 1;
		}
	}
	return (logSum + Math.log(prod)) / rate.length;
}

/**
 * The largest P(win) and P(top 3) step of the exp-longest walk up to STEP_CAP_EXP_MAX_N racers (0.1, the spec's,
 * above). The trapezoid error of the maximum of a few exponentials in s = log x stays near 1e-14 up to h = 0.25,
 * and 0.5/ln n takes over from n = 8 (docs/odds.md, accuracy study). A hopeless racer's integrand narrows with n:
 * with 0.5/ln n its relative error (after the width check) was 1e-11 at 20 racers but 2.4e-10 at 50, so larger
 * fields keep 0.1.
 */
const STEP_CAP_EXP = 0.25;
const STEP_CAP_EXP_MAX_N = 20;

/**
 * exp-longest (endure-Elo): T_j ~ Exp(λ_j), the largest T wins. j is ahead of value x when T_j > x:
 * b_j = e^{-λ_j x}, 1 - b_j = -expm1(-λ_j x). Density in s = log x: λ x e^{-λ x}.
 * Grid (λ_max = 1), upper end s_hi = ln(40/λ_min) + 0.5 (spec), where every density λx e^{-λx} is below 2e-27.
 * Lower end for exp-longest and places 1..k, k ≤ 3: racer i needs n - k others behind x, probability at most
 * C(n-1, k-1)·x^{n-k}, so the integrand is O(C(n-1, k-1)·x^{n-k+1}) and the spec's P(win) bound generalizes to
 * s_lo = -40/(n-k+1) - 1 (k = 1 is the spec's -40/n - 1). Every other case includes an integrand that only decays
 * like λ_i x = λ_i e^s (last place of exp-longest, first place of exp-shortest): s_lo = -39 - ln Σλ, tail mass
 * ≤ λ_i e^{s_lo} ≤ 1.2e-17.
 */
function expModel(kind: 'exp-longest' | 'exp-shortest', field: readonly Performance[]): FieldModel {
	const n = field.length;
	const { rate, min, sum } = scaledRates(field);
	let logRate: Float64Array | undefined;
	const hi = Math.log(40 / min) + 0.5;
	const longest = kind === 'exp-longest';
	// Near the winner's median: the largest of n exponentials is about (ln n + γ)/λ.
	const start = (): number => (longest ? Math.log(Math.log(n) + 0.58) - meanLogRate(rate) : -Math.log(sum));
	return {
		kind,
		n,
		ahead: longest ? 1 : -1,
		// DEVIATION: the spec fixes h = 0.1. The max of n exponentials narrows like 1/ln n in s, and h = 0.1 leaves
		// 4e-10 errors at n = 5000 equal racers: h = min(0.1, 0.5/ln n) (0.1 from 21 to 148 racers), for P(top 3)
		// too; up to 20 racers the cap is 0.25 instead (STEP_CAP_EXP: speed). Middle order statistics
		// narrow like 1/√n: h ≤ 0.8/√n for the full place matrix. exp-shortest (minima) keeps its width: 0.1.
		step: (places) => {
			if (places > 3) return Math.min(0.1, 0.8 / Math.sqrt(n));
			if (!longest) return 0.1;
			// P(top 3) takes the P(win) step: on equal and random fields up to 2000 racers it stays within 3e-14 of
			// h/3 (the old 0.35/ln n was not needed).
			const h = Math.min(n <= STEP_CAP_EXP_MAX_N ? STEP_CAP_EXP : 0.1, 0.5 / Math.log(n));
			// DEVIATION: P(win) alone takes the largest ln 2/m below it, so that its pass squares its way
			// up an octave in m steps (endure-win.ts): smaller than the study's step, never larger.
			return places === 1 ? Math.LN2 / Math.ceil(Math.LN2 / h) : h;
		},
		grid: (places) =>
			longest && places <= 3 && places < n ? { lo: -40 / (n - places + 1) - 1, hi } : { lo: -39 - Math.log(sum), hi },
		start,
		// endure's P(win): its own pass, without an exponential per racer and node (endure-win.ts).
		...(longest
			? { winPass: (h: number, offset: number, sums: WinSums) => endureWinPass(rate, n, start(), h, offset, sums) }
			: {}),
		fillNode: longest
			? (s, weight, beat, behind, fall, slope) => {
					// d/ds log f_i = 1 - a_i + Σ_{j≠i} g(a_j), a = λx, g(a) = a·e^{-a}/(1 - e^{-a}) ∈ (0, 1]; a + g(a) grows
					// with a. Densities: d/ds log(λx e^{-λx}) = 1 - a, falling going down (behind) at 1 - a_j.
					const x = Math.exp(s);
					let gSum = 0;
					let hi = -Infinity;
					let lo = Infinity;

					for (let j = 0; j < n; j++) {
						const a = rate[j]! * x;
						let b: number;
						let c: number;
						if (a < 0.7) {
							c = -Math.expm1(-a); // 1 - b_j = P(T_j < x)
							b = 1 - c;
						} else {
							b = Math.exp(-a);
							c = 1 - b;
						}
						weight[j] = a * b; // λx·e^{-λx}
						beat[j] = b;
						behind[j] = c;
						fall[j] = 1 - a;
						const g = (a * b) / c;
						gSum += g;
						const ag = a + g;
						if (ag > hi) hi = ag;
						if (ag < lo) lo = ag;
					}
					slope[0] = 1 + gSum - hi;
					slope[1] = 1 + gSum - lo;
				}
			: (s, weight, beat, behind, fall, slope) => {
					// d/ds log f_i = 1 - Σ_j a_j for every racer (a = μx). Densities: d/ds log(μx e^{-μx}) = 1 - a,
					// falling going up (behind) at a_j - 1.
					const x = Math.exp(s);
					let total = 0;

					for (let j = 0; j < n; j++) {
						const a = rate[j]! * x;
						let b: number;
						let c: number;
						if (a < 0.7) {
							b = -Math.expm1(-a);
							c = 1 - b;
						} else {
							c = Math.exp(-a);
							b = 1 - c;
						}
						weight[j] = a * c; // μx·e^{-μx}
						beat[j] = b;
						behind[j] = c;
						total += a;
						fall[j] = a - 1;
					}
					slope[0] = 1 - total;
					slope[1] = 1 - total;
				},
		fillBeat: longest
			? (s, out) => {
					const x = Math.exp(s);
					for (let j = 0; j < n; j++) out[j] = Math.exp(-rate[j]! * x);
				}
			: (s, out) => {
					const x = Math.exp(s);
					for (let j = 0; j < n; j++) out[j] = -Math.expm1(-rate[j]! * x);
				},
		fillLogWeight: (s, out) => {
			const x = Math.exp(s);
			logRate ??= logRates(rate);
			for (let j = 0; j < n; j++) out[j] = logRate[j]! + s - rate[j]! * x;
		},
	};
}

/**
 * P(Gamma(3, 1) < y) = 1 - e^{-y}(1 + y + y²/2), the regularized lower incomplete gamma P(3, y). For y < 1 the
 * series e^{-y} Σ_{m≥3} y^m/m! avoids the cancellation of 1 - S.
 */
export function gamma3Cdf(y: number): number {
	if (y < 1) return Math.exp(-y) * gamma3Series(y);
	if (y > GAMMA3_FAR) return 1; // the survival underflows (and y² could overflow)
	return 1 - Math.exp(-y) * (1 + y + 0.5 * y * y);
}

/** Beyond this y = θx the Gamma(3, 1) survival and density underflow: e^{-800}·(1 + 800 + 800²/2) < 1e-342. */
const GAMMA3_FAR = 800;

/**
 * Σ_{m≥3} y^m/m! for y < 1 (P(3, y) = e^{-y} times it): (y³/6)·Σ_{k=0}^{K} y^k·3!/(k+3)! by Horner, with K = 16 for
 * y < 1 (the first omitted term is below 6/20! = 2.5e-18 of the sum, which is ≥ 1) and fewer terms for smaller y
 * under the same bound: K = 11 below 0.3 (0.3¹²·6/15! = 2.5e-18), 8 below 0.084 (0.084⁹·6/12! = 2.6e-18) and 5
 * below 0.0073 (0.0073⁶·6/9! = 2.5e-18). The walk's lower tail is made of such nodes (speed).
 */
function gamma3Series(y: number): number {
	const first = y < 0.0073 ? 11 : y < 0.084 ? 8 : y < 0.3 ? 5 : 0;
	let acc = GAMMA3_SERIES[first]!;
	for (let k = first + 1; k < GAMMA3_SERIES.length; k++) acc = acc * y + GAMMA3_SERIES[k]!;
	return ((y * y * y) / 6) * acc;
}

/** 3!/(k+3)! for k = 16 down to 0 (gamma3Series: entry 16 - K is the highest term kept). */
const GAMMA3_SERIES = new Float64Array([
	6 / 121645100408832000,
	6 / 6402373705728000,
	6 / 355687428096000,
	6 / 20922789888000,
	6 / 1307674368000,
	6 / 87178291200,
	6 / 6227020800,
	6 / 479001600,
	6 / 39916800,
	6 / 3628800,
	6 / 362880,
	6 / 40320,
	6 / 5040,
	6 / 720,
	6 / 120,
	6 / 24,
	6 / 6,
]);

/** log S(y) = log(e^{-y}(1 + y + y²/2)), the log survival of Gamma(3, 1). */
export function gamma3LogSurvival(y: number): number {
	if (y > 1e150) return -y + 2 * Math.log(y) - LN2;
	return -y + Math.log1p(y + 0.5 * y * y);
}

/**
 * The Folyami walk's step for P(win) (places = 1) and P(top 3). The smallest of n Gamma(3) times keeps its width
 * in log-time, but the integrands of the racers behind it narrow slowly with n: the accuracy study (docs/odds.md)
 * keeps the error at h against h/4 near 1e-14 with 0.15 up to 100 racers for P(win), and for P(top 3) with 0.2 up
 * to 5 racers and 0.15 up to 20; 0.1 (the first version's step at every n) beyond.
 */
function gamma3Step(places: number, n: number): number {
	if (places === 1) return n <= 100 ? 0.15 : 0.1;
	return n <= 5 ? 0.2 : n <= 20 ? 0.15 : 0.1;
}

/**
 * gamma3-shortest (Folyami): T_j ~ Gamma(3, θ_j), the smallest T wins. j is ahead of value x when T_j < x:
 * b_j = P(3, θ_j x), 1 - b_j = S(θ_j x). Density in s = log x: (θx)³ e^{-θx}/2.
 * Grid (θ_max = 1): every integrand is O(x³) near 0 (tail mass ≤ e^{3 s_lo}/6 = 9.5e-20 at s_lo = -14) and
 * carries the factor y³e^{-y}/2 ≤ 1e-21 beyond y = θ_min·x = 60.
 */
function gamma3Model(field: readonly Performance[]): FieldModel {
	const n = field.length;
	const { rate, min } = scaledRates(field);
	let logRate: Float64Array | undefined;
	const grid = { lo: -14, hi: Math.log(60 / min) };
	return {
		kind: 'gamma3-shortest',
		n,
		ahead: -1,
		// The smallest of n Gamma(3) keeps its width in log-time (h = 0.1 at every n); middle order statistics
		// narrow like 1/√n: h ≤ 0.5/√n for the full place matrix.
		step: (places) => (places > 3 ? Math.min(0.1, 0.5 / Math.sqrt(n)) : gamma3Step(places, n)),
		grid: () => grid,
		start: () => {
			// The smallest of n Gamma(3) times is near x with Σ (θx)³/6 = 1.
			let cubes = 0;
			for (let j = 0; j < n; j++) cubes += rate[j]! ** 3;
			return Math.log(Math.cbrt(6 / cubes));
		},
		fillNode: (s, weight, beat, behind, fall, slope) => {
			// d/ds log f_i = 3 - y_i - Σ_{j≠i} κ(y_j), y = θx, κ(y) = y·(y²/2)/(1 + y + y²/2) (y times the hazard of
			// Gamma(3, 1)). Densities: d/ds log(y³e^{-y}/2) = 3 - y, falling going up (behind) at y_j - 3.
			const x = Math.exp(s);
			let kSum = 0;
			let hi = -Infinity;
			let lo = Infinity;
			for (let j = 0; j < n; j++) {
				const y = rate[j]! * x;
				fall[j] = y - 3;
				let d: number; // y - κ(y) = y(1 + y)/(1 + y + y²/2)
				if (y > GAMMA3_FAR) {
					// Racer j is surely ahead: e^{-y}(1 + y + y²/2) and y³e^{-y}/2 underflow, and y² or y³ alone would
					// overflow beyond 1e102 (NaN from ∞·0): a racer far ahead of the others.
					weight[j] = 0;
					beat[j] = 1;
					behind[j] = 0;
					d = (1 + 1 / y) / (0.5 + (1 + 1 / y) / y);
				} else {
					const e = Math.exp(-y);
					const poly = 1 + y + 0.5 * y * y;
					weight[j] = 0.5 * y * y * y * e; // (θx)³e^{-θx}/2
					// The survival c = S(y) directly, at every y: the products Π(1 - b) of P(win) are made of it. b = 1 - c
					// is then exact to about 1e-16 absolute but not relative when y is small, which P(top 3) allows: b_j
					// enters it only as a term b_j·Π_{k≠j} c_k of P(at most two others ahead) ≥ Π_k c_k, so an absolute
					// error δ in b_j moves that sum by at most δ/c_j of it, ≤ 2δ where c_j ≥ 1/2 (and where c_j < 1/2,
					// b_j > 1/2 is relatively exact). The series for P(3, y) (gamma3Cdf) cost 20% of the walk.
					const c = e * poly;
					beat[j] = 1 - c;
					behind[j] = c;
					d = y - (0.5 * y * y * y) / poly;
				}
				kSum += y - d;
				if (d > hi) hi = d;
				if (d < lo) lo = d;
			}
			slope[0] = 3 - kSum - hi;
			slope[1] = 3 - kSum - lo;
		},
		fillBeat: (s, out) => {
			const x = Math.exp(s);
			for (let j = 0; j < n; j++) out[j] = gamma3Cdf(rate[j]! * x);
		},
		fillLogWeight: (s, out) => {
			const x = Math.exp(s);
			logRate ??= logRates(rate);
			for (let j = 0; j < n; j++) out[j] = 3 * (logRate[j]! + s) - rate[j]! * x - LN2;
		},
	};
}

/** The largest (range of m ± 9σ)/σ_min of a normal field (see normalModel). */
const MAX_SPREAD = 1e5;
/** Standardized half-width of the normal grid: φ(9) = 1.0e-18. */
const NORMAL_Z = 9;

/**
 * normal-highest (Glicko): X_j ~ N(m_j, σ_j²), the largest X wins. j is ahead of value v when X_j > v:
 * b_j = Φ((m_j - v)/σ_j), 1 - b_j = Φ(z_j) with z_j = (v - m_j)/σ_j. Variable t = (v - c)/σ_min (c = a central
 * mean), so z_j = (c - m_j)/σ_j + (σ_min/σ_j)·t and the density in t is (σ_min/σ_j)·φ(z_j).
 * The integrand is entire and Gaussian-like, so the trapezoid error falls like exp(-2π²σ_eff²/h²) for an
 * integrand of standard width σ_eff (in units of σ_min): the maximum of n equal normals has σ_eff ≈ 1/√(2 ln n)
 * (0.35 at n = 5000), a middle order statistic ≈ 1.25/√n; the steps below keep 2π²σ_eff²/h² ≥ 37.
 * Grid: up to max(m + 9σ), where every density is below φ(9) = 1.0e-18. Places 1..k need at most k - 1 others
 * ahead; below the (k+1)-th largest m_j - 9σ_j at least k others are ahead with probability ≥ 1 - k·Φ(-9), so the
 * lower end is that value (tail mass ≤ k·1.1e-19 per racer), and min(m - 9σ) for every place.
 */
function normalModel(field: readonly Performance[]): FieldModel {
	const n = field.length;
	const off = new Float64Array(n);
	const sc = new Float64Array(n);
	let sdMin = Infinity;
	let meanSum = 0;
	for (let j = 0; j < n; j++) {
		const p = field[j]!;
		if (p.kind !== 'normal-highest') throw new OddsInputError('internal: rate performance in the normal model');
		if (!Number.isFinite(p.mean)) throw new OddsInputError(`racer ${j}: mean must be finite, got ${p.mean}`);
		if (!(Number.isFinite(p.sd) && p.sd > 0))
			throw new OddsInputError(`racer ${j}: sd must be finite and > 0, got ${p.sd}`);
		if (p.sd < sdMin) sdMin = p.sd;
		meanSum += p.mean;
	}
	const c = meanSum / n;
	const lows = new Float64Array(n);
	let hi = -Infinity;
	let lowMin = Infinity;
	// The P(win) descent's hard floor: below every m - 38.6σ every density is below e^{-745} (normalWin).
	let floor = Infinity;
	for (let j = 0; j < n; j++) {
		const p = field[j] as { mean: number; sd: number };
		off[j] = (c - p.mean) / p.sd;
		sc[j] = sdMin / p.sd;
		const low = (p.mean - NORMAL_Z * p.sd - c) / sdMin;
		lows[j] = low;
		if (low < lowMin) lowMin = low;
		floor = Math.min(floor, (p.mean - TAIL_Z_END * p.sd - c) / sdMin);
		hi = Math.max(hi, (p.mean + NORMAL_Z * p.sd - c) / sdMin);
	}
	// DEVIATION from the first version's 1e6: nodes sit at |t| up to the spread, where z_j = off_j + sc_j·t carries a
	// rounding of about |t|·1e-16 per racer. At a spread of 5e5 that broke the 1e-12 sum check (fieldOdds threw on 12
	// racers with one 4.9e5 sd ahead); at 1e5 random fields stay within 9e-13. Ratings never come near (Glicko:
	// thousands of points over sd of tens).
	if (hi - lowMin > MAX_SPREAD) {
		throw new OddsInputError(
			`normal field too spread out: (range of means ± 9 sd)/(smallest sd) = ${hi - lowMin} > ${MAX_SPREAD}`,
		);
	}
	// Built on first use: the P(win) path needs neither (its model is built per call).
	let sorted = false;
	let logSc: Float64Array | undefined;
	const logScale = (): Float64Array => {
		if (!logSc) {
			logSc = new Float64Array(n);
			for (let j = 0; j < n; j++) logSc[j] = Math.log(sc[j]!);
		}
		return logSc;
	};
	return {
		kind: 'normal-highest',
		n,
		ahead: 1,
		// Widths in units of σ_min: the max of n normals ≈ 1/√(2 ln n), middle order statistics ≈ 1.25/√n.
		step: (places) => {
			const maxWidth = 1 / Math.sqrt(2 * Math.log(Math.max(n, 2)));
			if (places === 1) return Math.min(0.25, 0.5 * maxWidth);
			// P(top 3): the P(win) step up to 100 racers (within 3e-14 of h/3 on equal fields), 0.35·width above.
			const top3 = Math.min(0.25, (n <= 100 ? 0.5 : 0.35) * maxWidth);
			return places > 3 ? Math.min(top3, 0.8 / Math.sqrt(n)) : top3;
		},
		grid: (places) => {
			if (!sorted) {
				lows.sort(); // ascending
				sorted = true;
			}
			return { lo: places < n ? lows[n - 1 - places]! : lows[0]!, hi };
		},
		win: (h, p) => normalWin(off, sc, n, floor, h, p),
		nextMass: (t, dir) => {
			// Racer j's density sc_j·φ(z_j) is exactly 0 for |z_j| ≥ UNDERFLOW_Z: its support is t ∈ (-off_j ± 39)/sc_j.
			let next = dir > 0 ? Infinity : -Infinity;
			for (let j = 0; j < n; j++) {
				const edge = (-off[j]! - dir * UNDERFLOW_Z) / sc[j]!;
				if (dir > 0 ? edge > t && edge < next : edge < t && edge > next) next = edge;
				const far = (-off[j]! + dir * UNDERFLOW_Z) / sc[j]!;
				if (dir > 0 ? far > t && edge <= t : far < t && edge >= t) return t; // t is inside racer j's support
			}
			return next;
		},
		start: () => {
			let top = -Infinity;
			for (let j = 0; j < n; j++) top = Math.max(top, -off[j]! / sc[j]!);
			return top;
		},
		fillNode: (t, weight, beat, behind, fall, slope) => {
			// d/dt log f_i = -sc_i·z_i + Σ_{j≠i} sc_j·λ(z_j), λ = φ/Φ (inverse Mills ratio; z + λ(z) grows with z).
			// Densities: d/dt log φ(z_j) = -sc_j·z_j, falling going down (behind) at -sc_j·z_j.
			let lamSum = 0;
			let hi = -Infinity;
			let lo = Infinity;

			for (let j = 0; j < n; j++) {
				const s = sc[j]!;
				const z = off[j]! + s * t;
				const u = z * SQRT1_2;
				let b: number; // Q(z) = erfc(u)/2
				let c: number; // Φ(z) = erfc(-u)/2
				let pdf: number; // φ(z)
				if (u > THRESH) {
					const e = Math.exp(-u * u);
					b = u > 26.7 ? 0 : 0.5 * e * erfcxLarge(u);
					c = 1 - b;
					pdf = INV_SQRT_2PI * e;
				} else if (u >= -THRESH) {
					b = 0.5 - 0.5 * erfSmall(u);
					c = 1 - b;
					pdf = INV_SQRT_2PI * Math.exp(-0.5 * z * z);
				} else {
					const e = Math.exp(-u * u);
					c = 0.5 * e * erfcxLarge(-u);
					b = 1 - c;
					pdf = INV_SQRT_2PI * e;
				}
				weight[j] = s * pdf;
				beat[j] = b;
				behind[j] = c;
				// λ(z) without 0/0 far in the lower tail: √(2/π)/erfcx(-u).
				const lam = u < -THRESH ? SQRT_2_OVER_PI / erfcxLarge(-u) : pdf / c;
				lamSum += s * lam;
				const d = s * (z + lam);
				if (d > hi) hi = d;
				if (d < lo) lo = d;
				fall[j] = -s * z;
			}
			slope[0] = lamSum - hi;
			slope[1] = lamSum - lo;
		},
		fillBeat: (t, out) => {
			for (let j = 0; j < n; j++) out[j] = normalUpperTail(off[j]! + sc[j]! * t);
		},
		fillLogWeight: (t, out) => {
			const logSc = logScale();
			for (let j = 0; j < n; j++) {
				const z = off[j]! + sc[j]! * t;
				out[j] = logSc[j]! - 0.5 * z * z - LOG_SQRT_2PI;
			}
		},
	};
}

/** φ(z) = e^{-z²/2}/√(2π) is exactly 0 in doubles from z = 38.6 on (e^{-745}); 39 with a margin. */
const UNDERFLOW_Z = 39;
/** √(2/π): φ(z)/Φ(z) = √(2/π)/erfcx(u) with u = -z/√2. */
const SQRT_2_OVER_PI = 0.7978845608028654;
const INV_SQRT_2PI = 0.3989422804014327;
/**
 * Σ_j P(X_j above the top node) ≤ this. Above it each racer's integrand is its density times Π_{j≠i} Φ(z_j) ∈
 * [1 - ΣT, 1]: taking the density alone is a relative error ≤ 1e-11 of that part of P(win) (normalWin).
 */
const TOP_TAIL_SUM = 1e-11;
/** Upper-tail nodes of racer i run up to z_i = 38.6, where φ underflows (e^{-745}): nothing representable is dropped. */
const TAIL_Z_END = 38.6;
/** The descent stops once, for every racer, the remaining nodes hold less than this fraction of its sum so far. */
const BOTTOM_TAIL = 1e-14;

/** Scratch arrays of the normal P(win) loop, reused across calls (grown as needed). */
let ratioScratch = new Float64Array(64);
let moment1Scratch = new Float64Array(64);
let moment2Scratch = new Float64Array(64);

/**
 * P(win) of the normal model at step h (t in units of σ_min, z_j = off_j + sc_j·t), p[i] before the ΣP = 1 check.
 * The P(win) integrand of racer i is f_i = sc_i·φ(z_i)·Π_{j≠i} Φ(z_j) = E·r_i with E = Π_j Φ(z_j) and
 * r_i = sc_i·φ(z_i)/Φ(z_i) (sc_i times the inverse Mills ratio), so a node costs one exp(L), L = log E, plus one
 * rational function per racer (and one exp for racers above their mean).
 * - Top: above t_top, every z_j ≥ z_top with n·Φ(-z_top) ≤ 1e-11, Π_{j≠i} Φ(z_j) ∈ [1 - ΣT, 1] where
 *   T_j = Φ(-z_j(t_top)), so the nodes above t_top contribute h·Σ sc_i·φ(z_i) (up to z_i = 38.6, where φ
 *   underflows) with a relative error ≤ ΣT ≤ 1e-11 of that part of each racer's P(win) (relative
 *   accuracy down to 1e-300, not only 1e-12 absolute).
 * - Bottom: nodes are summed downward from t_top. Each f_i is log-concave (a product of log-concave factors), with
 *   d/dt log f_i = -sc_i·z_i + Σ_{j≠i} sc_j·λ(z_j) ≥ D := Σ_j sc_j·max(0, -z_j) - max_j sc_j·max(0, z_j), using
 *   the inverse Mills ratio λ(z) ≥ max(0, -z); by log-concavity D also bounds the slope at every node below. When
 *   D > 0 racer i's nodes below t hold at most h·f_i(t)·q/(1 - q), q = e^{-D·h}; the descent stops once that is
 *   below 1e-14 of racer i's sum so far for every racer (relative, so a hopeless racer's mass far down is kept),
 *   and in any case at `floor`, min(m - 38.6σ), below which every density underflows.
 */
function normalWin(off: Float64Array, sc: Float64Array, n: number, floor: number, h: number, p: Float64Array): number {
	if (ratioScratch.length < n) {
		ratioScratch = new Float64Array(2 * n);
		moment1Scratch = new Float64Array(2 * n);
		moment2Scratch = new Float64Array(2 * n);
	}
	const r = ratioScratch;
	const m1 = moment1Scratch;
	const m2 = moment2Scratch;
	const m0 = new Float64Array(n); // the main loop's part of each P(win), for its width
	m1.fill(0, 0, n);
	m2.fill(0, 0, n);
	// z_top with φ(z)/z ≤ φ(z) ≤ 1e-8/n (z ≥ 1), so Φ(-z_top) ≤ 1e-8/n.
	const zTop = Math.max(1, Math.sqrt(2 * Math.log((n * INV_SQRT_2PI) / TOP_TAIL_SUM)));
	let tTop = -Infinity;
	for (let j = 0; j < n; j++) tTop = Math.max(tTop, (zTop - off[j]!) / sc[j]!);
	p.fill(0, 0, n);
	// Upper tail: Π_{j≠i} Φ(z_j) = 1 to 1e-11, the integrand is racer i's density. Its node values follow
	// φ(z + δ) = φ(z)·e^{-zδ - δ²/2}, the ratio itself shrinking by e^{-δ²} per node: two products per node, no exp.
	// The nodes left after a term hold at most term·ratio/(1 - ratio) (the ratios fall): stop below 1e-17 of the sum.
	for (let i = 0; i < n; i++) {
		const s = sc[i]!;
		const step = s * h;
		const z1 = off[i]! + s * tTop + step; // ≥ z_top > 0
		let acc = 0;
		if (z1 < TAIL_Z_END) {
			let term = Math.exp(-0.5 * z1 * z1);
			let ratio = Math.exp(-z1 * step - 0.5 * step * step);
			const shrink = Math.exp(-step * step);
			while (term > 0) {
				acc += term;
				if (term * ratio <= 1e-17 * acc * (1 - ratio)) break;
				term *= ratio;
				ratio *= shrink;
			}
		}
		p[i] = s * INV_SQRT_2PI * acc;
	}
	for (let k = 0, t = tTop; t >= floor; k++, t = tTop - k * h) {
		let logAcc = 0;
		let prod = 1;
		let down = 0; // Σ sc_j·max(0, -z_j)
		let up = 0; // max sc_j·max(0, z_j)
		for (let j = 0; j < n; j++) {
			const s = sc[j]!;
			const z = off[j]! + s * t;
			if (z > NORMAL_Z) {
				// Φ(z) = 1 to 1.1e-19 (a relative error of E below 1e-16 for n ≤ 1000): r_j = sc_j·φ(z_j).
				const rz = s * INV_SQRT_2PI * Math.exp(-0.5 * z * z);
				r[j] = rz;
				if (s * z > up) up = s * z;
				continue;
			}
			const u = -z * SQRT1_2;
			let c: number;
			let rj: number;
			if (u > THRESH) {
				// Φ(z) = e^{-u²}·erfcx(u)/2: the e^{-u²} goes to the log, erfcx(u)/2 ≥ 1e-7 for u ≤ 1e6 to the product.
				const ex = erfcxLarge(u);
				c = 0.5 * ex;
				logAcc -= u * u;
				rj = (s * SQRT_2_OVER_PI) / ex;
				down -= s * z;
			} else if (u >= -THRESH) {
				c = 0.5 - 0.5 * erfSmall(u);
				rj = (s * INV_SQRT_2PI * Math.exp(-0.5 * z * z)) / c;
				if (z < 0) down -= s * z;
				else if (s * z > up) up = s * z;
			} else {
				const e = Math.exp(-u * u);
				c = 1 - 0.5 * e * erfcxLarge(-u);
				rj = (s * INV_SQRT_2PI * e) / c;
				if (s * z > up) up = s * z;
			}
			r[j] = rj;
			prod *= c;
			if (prod < PROD_LO) {
				logAcc += Math.log(prod);
				prod = 1;
			}
		}
		const E = Math.exp(logAcc) * prod;
		if (E > 0) {
			const tau = k * h;
			for (let i = 0; i < n; i++) {
				const term = E * r[i]!;
				p[i] = p[i]! + term;
				m0[i] = m0[i]! + term;
				m1[i] = m1[i]! + term * tau;
				m2[i] = m2[i]! + term * tau * tau;
			}
		}
		const d = down - up;
		if (d > 0) {
			// Racer i's nodes below hold at most E·r_i·q/(1 - q): stop once that is below BOTTOM_TAIL of its sum so
			// far, for every racer (a racer whose term underflowed stays below every representable value).
			const q = Math.exp(-d * h);
			const f = q / (1 - q);
			let done = true;
			if (E > 0) {
				for (let i = 0; i < n; i++) {
					if (E * r[i]! * f > BOTTOM_TAIL * p[i]!) {
						done = false;
						break;
					}
				}
			}
			if (done) break;
		}
	}
	let width = Infinity;
	for (let i = 0; i < n; i++) {
		p[i] = p[i]! * h;
		const w = m0[i]!;
		if (!(w * h >= 1e-300)) continue; // not held to relative accuracy; moments near the smallest doubles are noise
		const mean = m1[i]! / w;
		width = Math.min(width, Math.sqrt(Math.max(m2[i]! / w - mean * mean, 0)));
	}
	return width;
}

/** Check that one field shares one kind and build its model. `field` must be non-empty. */
export function fieldModel(field: readonly Performance[]): FieldModel {
	const kind = field[0]!.kind;
	for (let j = 1; j < field.length; j++) {
		if (field[j]!.kind !== kind) {
			throw new OddsInputError(
				`all performances of a field must share one kind: racer 0 is ${kind}, racer ${j} is ${field[j]!.kind}`,
			);
		}
	}
	switch (kind) {
		case 'exp-longest':
		case 'exp-shortest':
			return expModel(kind, field);
		case 'gamma3-shortest':
			return gamma3Model(field);
		case 'normal-highest':
			return normalModel(field);
	}
}
