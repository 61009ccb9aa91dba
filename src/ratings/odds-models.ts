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
 * - logBehind[j] = log(1 - b_j(t)), computed without cancellation (the P(win) fast path sums these);
 * - beat[j] = b_j(t), computed without cancellation (the position path);
 * - logWeight[j] = log of racer j's density in t (density in v times dv/dt).
 */
import type { Performance } from './types.js';
import { LN2, LOG_SQRT_2PI, erfc, logNormalCdf } from './special.js';

export type PerformanceKind = Performance['kind'];

export interface Grid {
	readonly lo: number;
	readonly hi: number;
}

export interface FieldModel {
	readonly kind: PerformanceKind;
	readonly n: number;
	/** The trapezoid step the accuracy studies validated; the engine halves it if the ΣP = 1 check fails. */
	readonly baseStep: number;
	/** Range that carries every P(win) integrand to within 1e-17. */
	readonly winGrid: Grid;
	/** Range that carries every place integrand (first to last) to within 1e-17. */
	readonly placeGrid: Grid;
	fillLogBehind(t: number, out: Float64Array): void;
	fillBeat(t: number, out: Float64Array): void;
	fillLogWeight(t: number, out: Float64Array): void;
}

/** The engine's error for an invalid field (mixed kinds, non-finite or non-positive parameters). */
export class OddsInputError extends Error {
	override readonly name = 'OddsInputError';
}

const SQRT1_2 = Math.SQRT1_2;

/** Rates scaled so that the largest is 1 (every probability is invariant under a common scale of the rates). */
function scaledRates(field: readonly Performance[]): { rate: Float64Array; logRate: Float64Array; min: number; sum: number } {
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
 * Win grid: the spec's s_lo = -40/n - 1, s_hi = ln(40/λ_min) + 0.5 (the P(win) integrand is O(x^n) near 0).
 * Place grid: the last-place integrand λ_i x e^{-Σλ x} only decays like e^s, so s_lo = -39 - ln Σλ
 * (tail mass ≤ λ_i e^{s_lo} ≤ 1.2e-17).
 */
function expModel(kind: 'exp-longest' | 'exp-shortest', field: readonly Performance[]): FieldModel {
	const n = field.length;
	const { rate, logRate, min, sum } = scaledRates(field);
	const hi = Math.log(40 / min) + 0.5;
	const longest = kind === 'exp-longest';
	return {
		kind,
		n,
		baseStep: 0.1,
		winGrid: longest ? { lo: -40 / n - 1, hi } : { lo: -39 - Math.log(sum), hi },
		placeGrid: { lo: -39 - Math.log(sum), hi },
		fillLogBehind: longest
			? (s, out) => {
					const x = Math.exp(s);
					for (let j = 0; j < n; j++) out[j] = Math.log(-Math.expm1(-rate[j]! * x));
				}
			: (s, out) => {
					const x = Math.exp(s);
					for (let j = 0; j < n; j++) out[j] = -rate[j]! * x;
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
		baseStep: 0.1,
		winGrid: grid,
		placeGrid: grid,
		fillLogBehind: (s, out) => {
			const x = Math.exp(s);
			for (let j = 0; j < n; j++) out[j] = gamma3LogSurvival(rate[j]! * x);
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
 * integrand of standard width σ_eff (in units of σ_min): the maximum of n normals has σ_eff ≈ 0.35 at n = 5000,
 * and h = 0.2 puts that bound near e^{-60}. Grid: [min(m - 9σ), max(m + 9σ)], where every density is < 1e-18.
 */
function normalModel(field: readonly Performance[]): FieldModel {
	const n = field.length;
	const off = new Float64Array(n);
	const sc = new Float64Array(n);
	const logSc = new Float64Array(n);
	let sdMin = Infinity;
	let meanSum = 0;
	for (let j = 0; j < n; j++) {
		const p = field[j]!;
		if (p.kind !== 'normal-highest') throw new OddsInputError('internal: rate performance in the normal model');
		if (!Number.isFinite(p.mean)) throw new OddsInputError(`racer ${j}: mean must be finite, got ${p.mean}`);
		if (!(Number.isFinite(p.sd) && p.sd > 0)) throw new OddsInputError(`racer ${j}: sd must be finite and > 0, got ${p.sd}`);
		if (p.sd < sdMin) sdMin = p.sd;
		meanSum += p.mean;
	}
	const c = meanSum / n;
	let lo = Infinity;
	let hi = -Infinity;
	for (let j = 0; j < n; j++) {
		const p = field[j] as { mean: number; sd: number };
		off[j] = (c - p.mean) / p.sd;
		sc[j] = sdMin / p.sd;
		logSc[j] = Math.log(sc[j]!);
		lo = Math.min(lo, (p.mean - NORMAL_Z * p.sd - c) / sdMin);
		hi = Math.max(hi, (p.mean + NORMAL_Z * p.sd - c) / sdMin);
	}
	if (hi - lo > 1e6) throw new OddsInputError('normal field too spread out: (range of means)/(smallest sd) > 1e6');
	const grid = { lo, hi };
	return {
		kind: 'normal-highest',
		n,
		baseStep: 0.2,
		winGrid: grid,
		placeGrid: grid,
		fillLogBehind: (t, out) => {
			for (let j = 0; j < n; j++) {
				const z = off[j]! + sc[j]! * t;
				// log Φ(z) = log1p(-Φ(-z)) is below 2.2e-323 in magnitude (zero in double) for z > 38.4.
				out[j] = z > 38.4 ? 0 : logNormalCdf(z);
			}
		},
		fillBeat: (t, out) => {
			for (let j = 0; j < n; j++) out[j] = 0.5 * erfc((off[j]! + sc[j]! * t) * SQRT1_2);
		},
		fillLogWeight: (t, out) => {
			for (let j = 0; j < n; j++) {
				const z = off[j]! + sc[j]! * t;
				out[j] = logSc[j]! - 0.5 * z * z - LOG_SQRT_2PI;
			}
		},
	};
}

/** Check that one field shares one kind and build its model. `field` must be non-empty. */
export function fieldModel(field: readonly Performance[]): FieldModel {
	const kind = field[0]!.kind;
	for (let j = 1; j < field.length; j++) {
		if (field[j]!.kind !== kind) {
			throw new OddsInputError(`all performances of a field must share one kind: racer 0 is ${kind}, racer ${j} is ${field[j]!.kind}`);
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
