/**
 * The four performance models of the odds engine, each reduced to what a shared-node quadrature needs.
 *
 * Every place probability is a 1-D integral over the performance value v of one racer i:
 *   P(i finishes at place c+1) = ∫ f_i(v) · P(exactly c others are ahead of value v) dv,
 * the others being independent with b_j(v) = P(j ahead of value v). The integration variable t is s = log x for
 * the time models (x = e^s; dx = x ds, see specs/endure-elo.md "Fast endure win probability") and v/σ_min for the
 * normal model. On a uniform grid t_k = lo + k·h, the trapezoid rule is h·Σ_k g(t_k) (the integrands vanish to
 * below 1e-17 at both ends of the grid, so end weights do not matter).
 *
 * At each node a model fills, for all racers j at once:
 * - logWeight[j] = log of racer j's density in t (density in v times dv/dt);
 * - beat[j] = b_j(t), computed without cancellation (the place paths);
 * - for the P(win) path, the behind-probability 1 - b_j = div[j]·e^{-shift[j]}, split so that most racers need no
 *   logarithm: the model returns L = Σ_j log(1 - b_j) (spec: "compute L once per node"), accumulated as
 *   -Σ shift + log Π div with the product renormalized into the log whenever it drops below 1e-200; every
 *   div[j] lies in [1e-7, 1]. Racer i's P(win) term is then exp(logWeight[i] + L + shift[i]) / div[i]
 *   = density_i · Π_{j≠i}(1 - b_j).
 */
import type { Performance } from './types.js';
import * as special from './special.js';

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
	 * The trapezoid step for the integrands of places 1..`places`, from the accuracy study in docs/odds.md (error
	 * below about 1e-15 for equal fields, the worst case); the engine halves it if its sum check fails.
	 */
	step(places: number): number;
	/**
	 * A node range outside which the integrands of places 1..`places` (1 = P(win), 3 = P(top 3), n = every place)
	 * carry less than about 1e-17 of probability mass per racer.
	 */
	grid(places: number): Grid;
	/** Fill logWeight, shift, div at node t; return L = Σ_j log(1 - b_j(t)). */
	fillWinTerms(t: number, logWeight: Float64Array, shift: Float64Array, div: Float64Array): number;
	/**
	 * Optional dedicated P(win) quadrature at step h (normal model): p[i] = P(win) of racer i, before the ΣP = 1
	 * check. Without it the engine sums fillWinTerms over the grid(1) nodes.
	 */
	win?(h: number, p: Float64Array): void;
	fillBeat(t: number, out: Float64Array): void;
	fillLogWeight(t: number, out: Float64Array): void;
}

/** The engine's error for an invalid field (mixed kinds, non-finite or non-positive parameters). */
export class OddsInputError extends Error {
	override readonly name = 'OddsInputError';
}

const SQRT1_2 = Math.SQRT1_2;
/** Renormalization bounds of the running product Π div (see the header). */
const PROD_LO = 1e-200;
/** Smallest div a model hands out; below it the factor goes to shift as -log(1 - b). */
const DIV_MIN = 1e-7;

/** Rates scaled so that the largest is 1 (every probability is invariant under a common scale of the rates). */
function scaledRates(field: readonly Performance[]): {
	rate: Float64Array;
	logRate: Float64Array;
	min: number;
	sum: number;
} {
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
	const logRate = new Float64Array(n);
	let min = Infinity;
	let sum = 0;
	for (let j = 0; j < n; j++) {
		const r = rate[j]! / max;
		rate[j] = r;
		logRate[j] = Math.log(r);
		if (r < min) min = r;
		sum += r;
	}
	if (!(min > 1e-280)) throw new OddsInputError('rates span more than 280 orders of magnitude');
	return { rate, logRate, min, sum };
}

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
	const { rate, logRate, min, sum } = scaledRates(field);
	const hi = Math.log(40 / min) + 0.5;
	const longest = kind === 'exp-longest';
	return {
		kind,
		n,
		// DEVIATION: the spec fixes h = 0.1. The max of n exponentials narrows like 1/ln n in s, and h = 0.1 leaves
		// 4e-10 errors at n = 5000 equal racers: h = min(0.1, 0.5/ln n) (0.1 up to n = 148). The third largest is
		// about half as wide: min(0.1, 0.35/ln n) for P(top 3). Middle order statistics narrow like 1/√n:
		// h ≤ 0.8/√n for the full place matrix. exp-shortest (minima) keeps its width: 0.1.
		step: (places) => {
			if (places > 3) return Math.min(0.1, 0.8 / Math.sqrt(n));
			if (!longest) return 0.1;
			return Math.min(0.1, (places === 1 ? 0.5 : 0.35) / Math.log(n));
		},
		grid: (places) =>
			longest && places <= 3 && places < n ? { lo: -40 / (n - places + 1) - 1, hi } : { lo: -39 - Math.log(sum), hi },
		fillWinTerms: longest
			? (s, logWeight, shift, div) => {
					const x = Math.exp(s);
					let logAcc = 0;
					let prod = 1;
					for (let j = 0; j < n; j++) {
						const a = rate[j]! * x;
						logWeight[j] = logRate[j]! + s - a;
						const c = -Math.expm1(-a); // 1 - b_j = P(T_j < x)
						if (c >= DIV_MIN) {
							shift[j] = 0;
							div[j] = c;
							prod *= c;
							if (prod < PROD_LO) {
								logAcc += Math.log(prod);
								prod = 1;
							}
						} else {
							const lc = Math.log(c);
							shift[j] = -lc;
							div[j] = 1;
							logAcc += lc;
						}
					}
					return logAcc + Math.log(prod);
				}
			: (s, logWeight, shift, div) => {
					const x = Math.exp(s);
					let total = 0;
					for (let j = 0; j < n; j++) {
						const a = rate[j]! * x;
						logWeight[j] = logRate[j]! + s - a;
						shift[j] = a; // 1 - b_j = e^{-μ_j x}
						div[j] = 1;
						total -= a;
					}
					return total;
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
			for (let j = 0; j < n; j++) out[j] = logRate[j]! + s - rate[j]! * x;
		},
	};
}

/**
 * P(Gamma(3, 1) < y) = 1 - e^{-y}(1 + y + y²/2), the regularized lower incomplete gamma P(3, y). For y < 1 the
 * series e^{-y} Σ_{m≥3} y^m/m! avoids the cancellation of 1 - S.
 */
export function gamma3Cdf(y: number): number {
	if (y < 1) {
		let term = (y * y * y) / 6;
		let sum = term;
		for (let m = 4; m < 40; m++) {
			term *= y / m;
			sum += term;
			if (term < 1e-17 * sum) break;
		}
		return Math.exp(-y) * sum;
	}
	return 1 - Math.exp(-y) * (1 + y + 0.5 * y * y);
}

/** log S(y) = log(e^{-y}(1 + y + y²/2)), the log survival of Gamma(3, 1). */
export function gamma3LogSurvival(y: number): number {
	if (y > 1e150) return -y + 2 * Math.log(y) - LN2;
	return -y + Math.log1p(y + 0.5 * y * y);
}

/**
 * gamma3-shortest (Folyami): T_j ~ Gamma(3, θ_j), the smallest T wins. j is ahead of value x when T_j < x:
 * b_j = P(3, θ_j x), 1 - b_j = S(θ_j x). Density in s = log x: (θx)³ e^{-θx}/2.
 * Grid (θ_max = 1): every integrand is O(x³) near 0 (tail mass ≤ e^{3 s_lo}/6 = 9.5e-20 at s_lo = -14) and
 * carries the factor y³e^{-y}/2 ≤ 1e-21 beyond y = θ_min·x = 60.
 */
function gamma3Model(field: readonly Performance[]): FieldModel {
	const n = field.length;
	const { rate, logRate, min } = scaledRates(field);
	const grid = { lo: -14, hi: Math.log(60 / min) };
	return {
		kind: 'gamma3-shortest',
		n,
		// The smallest of n Gamma(3) keeps its width in log-time (h = 0.1 at every n); middle order statistics
		// narrow like 1/√n: h ≤ 0.5/√n for the full place matrix.
		step: (places) => (places > 3 ? Math.min(0.1, 0.5 / Math.sqrt(n)) : 0.1),
		grid: () => grid,
		fillWinTerms: (s, logWeight, shift, div) => {
			const x = Math.exp(s);
			let logAcc = 0;
			for (let j = 0; j < n; j++) {
				const y = rate[j]! * x;
				logWeight[j] = 3 * (logRate[j]! + s) - y - LN2;
				// log(1 - b_j) = log S(y) term by term: -Σy and log Π(1 + y + y²/2) would cancel.
				const ls = gamma3LogSurvival(y);
				shift[j] = -ls;
				div[j] = 1;
				logAcc += ls;
			}
			return logAcc;
		},
		fillBeat: (s, out) => {
			const x = Math.exp(s);
			for (let j = 0; j < n; j++) out[j] = gamma3Cdf(rate[j]! * x);
		},
		fillLogWeight: (s, out) => {
			const x = Math.exp(s);
			for (let j = 0; j < n; j++) out[j] = 3 * (logRate[j]! + s) - rate[j]! * x - LN2;
		},
	};
}

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
	// The largest two values of m - 9σ (the P(win) lower end is the second largest), without sorting.
	let low1 = -Infinity;
	let low2 = -Infinity;
	for (let j = 0; j < n; j++) {
		const p = field[j] as { mean: number; sd: number };
		off[j] = (c - p.mean) / p.sd;
		sc[j] = sdMin / p.sd;
		const low = (p.mean - NORMAL_Z * p.sd - c) / sdMin;
		lows[j] = low;
		if (low < lowMin) lowMin = low;
		if (low > low1) {
			low2 = low1;
			low1 = low;
		} else if (low > low2) low2 = low;
		hi = Math.max(hi, (p.mean + NORMAL_Z * p.sd - c) / sdMin);
	}
	if (hi - lowMin > 1e6) throw new OddsInputError('normal field too spread out: (range of means)/(smallest sd) > 1e6');
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
		// Widths in units of σ_min: the max of n normals ≈ 1/√(2 ln n), middle order statistics ≈ 1.25/√n.
		step: (places) => {
			const maxWidth = 1 / Math.sqrt(2 * Math.log(Math.max(n, 2)));
			if (places === 1) return Math.min(0.25, 0.5 * maxWidth);
			const top3 = Math.min(0.25, 0.35 * maxWidth);
			return places > 3 ? Math.min(top3, 0.8 / Math.sqrt(n)) : top3;
		},
		grid: (places) => {
			if (!sorted) {
				lows.sort(); // ascending
				sorted = true;
			}
			return { lo: places < n ? lows[n - 1 - places]! : lows[0]!, hi };
		},
		win: (h, p) => normalWin(off, sc, n, low2, h, p),
		fillWinTerms: (t, logWeight, shift, div) => {
			const logSc = logScale();
			let logAcc = 0;
			let prod = 1;
			for (let j = 0; j < n; j++) {
				const z = off[j]! + sc[j]! * t;
				logWeight[j] = logSc[j]! - 0.5 * z * z - LOG_SQRT_2PI;
				shift[j] = 0;
				if (z > NORMAL_Z) {
					// 1 - Φ(z) < Φ(-9) = 1.1e-19: taking Φ(z) = 1 changes L by < n·1.2e-19 (relative error < 6e-16
					// in every product at n = 5000).
					div[j] = 1;
					continue;
				}
				// Φ(z) = erfc(u)/2 with u = -z/√2 (CALERF intervals, special.ts).
				const u = -z * SQRT1_2;
				let c: number;
				if (u > THRESH) {
					// Φ(z) = e^{-u²}·erfcx(u)/2: the e^{-u²} goes to shift, erfcx(u)/2 ≥ 1e-7 for u ≤ 1e6 to div.
					c = 0.5 * erfcxLarge(u);
					shift[j] = u * u;
					logAcc -= u * u;
				} else if (u >= -THRESH) {
					c = 0.5 - 0.5 * erfSmall(u);
				} else {
					c = 1 - 0.5 * Math.exp(-u * u) * erfcxLarge(-u);
				}
				div[j] = c;
				prod *= c;
				if (prod < PROD_LO) {
					logAcc += Math.log(prod);
					prod = 1;
				}
			}
			return logAcc + Math.log(prod);
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

/** √(2/π): φ(z)/Φ(z) = √(2/π)/erfcx(u) with u = -z/√2. */
const SQRT_2_OVER_PI = 0.7978845608028654;
const INV_SQRT_2PI = 0.3989422804014327;
/** Σ_j P(X_j above the top node) ≤ this: the tail error (ΣT)² stays below 1e-16 (normalWin). */
const TOP_TAIL_SUM = 1e-8;
/** Upper-tail nodes of racer i run up to z_i = 8.6 (the mass beyond, Φ(-8.6) = 4e-18, is dropped). */
const TAIL_Z_END = 8.6;
/** The descent stops once the remaining nodes hold less than this (in total over all racers). */
const BOTTOM_TAIL = 1e-17;

/** Scratch array of the normal P(win) loop, reused across calls (grown as needed). */
let ratioScratch = new Float64Array(64);

/**
 * P(win) of the normal model at step h (t in units of σ_min, z_j = off_j + sc_j·t), p[i] before the ΣP = 1 check.
 * The P(win) integrand of racer i is f_i = sc_i·φ(z_i)·Π_{j≠i} Φ(z_j) = E·r_i with E = Π_j Φ(z_j) and
 * r_i = sc_i·φ(z_i)/Φ(z_i) (sc_i times the inverse Mills ratio), so a node costs one exp(L), L = log E, plus one
 * rational function per racer (and one exp for racers above their mean).
 * - Top: above t_top, every z_j ≥ z_top with n·Φ(-z_top) ≤ 1e-8, Π_{j≠i} Φ(z_j) = 1 - O(Σ_{j≠i} T_j) where
 *   T_j = Φ(-z_j(t_top)), so the nodes above t_top contribute h·Σ sc_i·φ(z_i) (only for racers with z_i < 8.6
 *   there) with a total error ≤ (Σ_j T_j)² ≤ 1e-16.
 * - Bottom: nodes are summed downward from t_top. Each f_i is log-concave (a product of log-concave factors), with
 *   d/dt log f_i = -sc_i·z_i + Σ_{j≠i} sc_j·λ(z_j) ≥ D := Σ_j sc_j·max(0, -z_j) - max_j sc_j·max(0, z_j), using
 *   the inverse Mills ratio λ(z) ≥ max(0, -z). When D > 0 the nodes below t hold at most
 *   h·Σ_i f_i(t)·q/(1 - q), q = e^{-D·h}; the descent stops once that is below 1e-17, and in any case at `lo`
 *   (the grid(1) lower end).
 */
function normalWin(off: Float64Array, sc: Float64Array, n: number, lo: number, h: number, p: Float64Array): void {
	if (ratioScratch.length < n) ratioScratch = new Float64Array(2 * n);
	const r = ratioScratch;
	// z_top with φ(z)/z ≤ φ(z) ≤ 1e-8/n (z ≥ 1), so Φ(-z_top) ≤ 1e-8/n.
	const zTop = Math.max(1, Math.sqrt(2 * Math.log((n * INV_SQRT_2PI) / TOP_TAIL_SUM)));
	let tTop = -Infinity;
	for (let j = 0; j < n; j++) tTop = Math.max(tTop, (zTop - off[j]!) / sc[j]!);
	p.fill(0, 0, n);
	// Upper tail: Π_{j≠i} Φ(z_j) = 1 to 1e-8, the integrand is racer i's density.
	for (let i = 0; i < n; i++) {
		const s = sc[i]!;
		const step = s * h;
		const z0 = off[i]! + s * tTop;
		let acc = 0;
		for (let k = 1, z = z0 + step; z < TAIL_Z_END; k++, z = z0 + k * step) acc += Math.exp(-0.5 * z * z);
		p[i] = s * INV_SQRT_2PI * acc;
	}
	for (let k = 0, t = tTop; t >= lo; k++, t = tTop - k * h) {
		let logAcc = 0;
		let prod = 1;
		let rsum = 0;
		let down = 0; // Σ sc_j·max(0, -z_j)
		let up = 0; // max sc_j·max(0, z_j)
		for (let j = 0; j < n; j++) {
			const s = sc[j]!;
			const z = off[j]! + s * t;
			if (z > NORMAL_Z) {
				// Φ(z) = 1 to 1.1e-19; r_j ≤ sc_j·φ(9) = 1e-18·sc_j, summing to < Φ(-9) over the nodes: dropped.
				r[j] = 0;
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
			rsum += rj;
			prod *= c;
			if (prod < PROD_LO) {
				logAcc += Math.log(prod);
				prod = 1;
			}
		}
		const E = Math.exp(logAcc) * prod;
		if (E > 0) for (let i = 0; i < n; i++) p[i] = p[i]! + E * r[i]!;
		const d = down - up;
		if (d > 0) {
			const q = Math.exp(-d * h);
			if (h * E * rsum * q < BOTTOM_TAIL * (1 - q)) break;
		}
	}
	for (let i = 0; i < n; i++) p[i] = p[i]! * h;
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
