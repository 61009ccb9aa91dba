/**
 * The Folyami correction factor c (specs/folyami.md step 5): the c for which the shape-3 gamma expected score
 * E3(W(w; c)) stays closest, in least squares over w in [0, 1], to the Elo expected score w.
 *
 * The reference engine (elo-zs `Orbital.eloGammaCorrection`) finds the root of the derivative of
 * ∫₀¹ (E3(W(w; c)) − w)² dw with a bracketed Ridders search. We do the same with an analytic derivative:
 * a golden-section search on the integral itself only locates a flat minimum to about √ε ≈ 1e-8, while the root
 * of the derivative is located to a few ulps, which is what the 1e-12 check against 0.5187786501420857 needs.
 */

/** c as the reference engine computes it at run time (specs/folyami.md step 5). */
export const FOLYAMI_C = 0.5187786501420857;

/** Shape-3 gamma victory probability as a polynomial in W (seed document: S = 6W⁵ − 15W⁴ + 10W³). */
export function gamma3WinProbability(w: number): number {
	return w * w * w * (w * (6 * w - 15) + 10);
}

function logistic(x: number): number {
	return 1 / (1 + Math.exp(-x));
}

/*
 * Quadrature. With w = σ(d) = 1/(1 + e^-d) the integral over w in [0, 1] becomes an integral over the whole line
 * with the weight dw = σ(d)(1 − σ(d)) dd, and W(w; c) = σ(c·d). The integrand is analytic in the strip |Im d| < π
 * and decays like e^-|d|, so the trapezoid rule on the line converges geometrically (error ~ exp(−2π²/h));
 * both integrands are even in d, so we integrate over [0, D_MAX] and double.
 */
const STEP = 1 / 16;
const D_MAX = 60;

function integrateEven(f: (d: number) => number): number {
	let sum = 0.5 * f(0);
	const steps = Math.round(D_MAX / STEP);
	for (let i = 1; i <= steps; i++) sum += f(i * STEP);
	return 2 * STEP * sum;
}

/** ∫₀¹ (E3(W(w; c)) − w)² dw: the squared distance between the Folyami and Elo expected scores. */
export function folyamiFitError(c: number): number {
	return integrateEven((d) => {
		const s = logistic(d);
		const diff = gamma3WinProbability(logistic(c * d)) - s;
		return diff * diff * s * (1 - s);
	});
}

/** d/dc of folyamiFitError, differentiated under the integral sign: dE3/dW = 30W²(1−W)², dW/dc = d·W(1−W). */
export function folyamiFitErrorDerivative(c: number): number {
	return integrateEven((d) => {
		const s = logistic(d);
		const w = logistic(c * d);
		const v = w * (1 - w);
		return 2 * (gamma3WinProbability(w) - s) * 30 * v * v * v * d * s * (1 - s);
	});
}

export class ConvergenceError extends Error {
	override readonly name = 'ConvergenceError';
}

/**
 * c computed numerically: the root of d/dc ∫₀¹ (E3 − w)² dw in the bracket [lo, hi] (a minimum of the integral:
 * the derivative goes from negative to positive). Bisection to adjacent doubles, at most 200 steps.
 */
export function computeFolyamiC(lo = 0.1, hi = 1): number {
	let fLo = folyamiFitErrorDerivative(lo);
	const fHi = folyamiFitErrorDerivative(hi);
	if (!(fLo < 0 && fHi > 0)) throw new ConvergenceError(`folyami c: minimum not bracketed by [${lo}, ${hi}]`);
	for (let i = 0; i < 200; i++) {
		const mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi) return Math.abs(fLo) <= Math.abs(fHi) ? lo : hi;
		const fMid = folyamiFitErrorDerivative(mid);
		if (fMid === 0) return mid;
		if (fMid < 0) {
			lo = mid;
			fLo = fMid;
		} else hi = mid;
	}
	throw new ConvergenceError('folyami c: bisection did not converge in 200 steps');
}
