/**
 * High-precision references for the odds engine's property test (odds-property.test.ts), independent of
 * src/ratings (no import from it except the Performance type):
 * - exactWinExpLongest / exactTop3ExpLongest: endure inclusion-exclusion in BigInt fixed point with 1400 fraction
 *   bits (every term λ_i/(λ_i + Λ) is an exact ratio of integers once the rates, dyadic doubles, share one binary
 *   exponent; the alternating sum of at most a few hundred terms loses nothing at that width).
 * - exactPlackettLuce: speed P(win) and P(top 3) by enumerating the first two places, BigInt fixed point.
 * - quadratureReference: every kind by adaptive Gauss-Kronrod (7/15) over log-scaled integrands, with its own
 *   erfc (Lentz continued fraction and the positive erf series) and Gamma(3) tails, to a relative tolerance of
 *   1e-13. A different variable (v itself for the normal model), rule and special functions from the engine.
 */
import type { Performance } from '../../src/ratings/types.js';

const FRACTION_BITS = 1400n;
const ONE = 1n << FRACTION_BITS;

/** Rates (positive doubles) as exact BigInt integers sharing one scale 2^-e (every probability is scale-free). */
function exactRates(rates: readonly number[]): bigint[] {
	const parts = rates.map((r) => {
		let e = 0;
		let m = r;
		while (!Number.isInteger(m)) {
			m *= 2;
			e++;
		}
		return { m: BigInt(m), e };
	});
	const maxE = Math.max(...parts.map((p) => p.e));
	return parts.map((p) => p.m << BigInt(maxE - p.e));
}

/** A fixed-point value (ONE = 1) as a double, keeping relative accuracy for tiny values. */
function fixedToNumber(x: bigint): number {
	if (x <= 0n) return 0;
	const bits = x.toString(2).length;
	const shift = bits - 60;
	const top = shift > 0 ? x >> BigInt(shift) : x << BigInt(-shift);
	return Number(top) * 2 ** (shift - Number(FRACTION_BITS));
}

function subsets(items: readonly number[], maxSize = Infinity): number[][] {
	const out: number[][] = [[]];
	for (const it of items) {
		const len = out.length;
		for (let k = 0; k < len; k++) if (out[k]!.length < maxSize) out.push([...out[k]!, it]);
	}
	return out;
}

/** endure P(i finishes with exactly the set A outliving it), summed over |A| ≤ maxAhead, by inclusion-exclusion. */
function expLongestAtMost(rates: readonly number[], maxAhead: number): number[] {
	const lam = exactRates(rates);
	const n = lam.length;
	return lam.map((li, i) => {
		const others = [...Array(n).keys()].filter((j) => j !== i);
		let acc = 0n;
		for (const A of subsets(others, maxAhead)) {
			const rest = others.filter((j) => !A.includes(j));
			const lamA = A.reduce((s, j) => s + lam[j]!, 0n);
			for (const B of subsets(rest)) {
				const lamB = B.reduce((s, j) => s + lam[j]!, 0n);
				const term = (li * ONE) / (li + lamA + lamB);
				acc += B.length % 2 === 0 ? term : -term;
			}
		}
		return fixedToNumber(acc);
	});
}

export const exactWinExpLongest = (rates: readonly number[]): number[] => expLongestAtMost(rates, 0);
export const exactTop3ExpLongest = (rates: readonly number[]): number[] => expLongestAtMost(rates, 2);

/** speed (Plackett-Luce) P(win) and P(top 3), every term a product of exact ratios, summed in fixed point. */
export function exactPlackettLuce(rates: readonly number[]): { win: number[]; top3: number[] } {
	const mu = exactRates(rates);
	const n = mu.length;
	const S = mu.reduce((a, b) => a + b, 0n);
	const win: number[] = [];
	const top3: number[] = [];
	for (let i = 0; i < n; i++) {
		const first = (mu[i]! * ONE) / S;
		let acc = first;
		for (let j = 0; j < n; j++) {
			if (j === i) continue;
			const Sj = S - mu[j]!;
			acc += (mu[j]! * mu[i]! * ONE) / (S * Sj);
			for (let k = 0; k < n; k++) {
				if (k === i || k === j) continue;
				const Sjk = Sj - mu[k]!;
				acc += (mu[j]! * mu[k]! * mu[i]! * ONE) / (S * Sj * Sjk);
			}
		}
		win.push(fixedToNumber(first));
		top3.push(n <= 3 ? 1 : fixedToNumber(acc));
	}
	return { win, top3 };
}

// ---------------------------------------------------------------------------------------------------------------
// Special functions, written for this reference only.

const SQRT_PI = Math.sqrt(Math.PI);

/** log erfc(x) for x ≥ 0: positive series of erf below 2.5, Lentz's continued fraction above. */
function logErfcPositive(x: number): number {
	if (x < 2.5) {
		// erf(x) = (2/√π)·e^{-x²}·Σ_k 2^k x^{2k+1}/(1·3···(2k+1)): positive terms.
		let term = x;
		let sum = x;
		for (let k = 1; k < 200; k++) {
			term *= (2 * x * x) / (2 * k + 1);
			sum += term;
			if (term < 1e-18 * sum) break;
		}
		const erf = (2 / SQRT_PI) * Math.exp(-x * x) * sum;
		return Math.log1p(-erf);
	}
	// erfc(x) = e^{-x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))).
	const tiny = 1e-300;
	let f = x;
	let C = x;
	let D = 0;
	for (let k = 1; k < 500; k++) {
		const a = k / 2;
		D = x + a * D;
		D = D === 0 ? tiny : 1 / D;
		C = x + a / C;
		if (C === 0) C = tiny;
		const delta = C * D;
		f *= delta;
		if (Math.abs(delta - 1) < 1e-17) break;
	}
	return -x * x - Math.log(SQRT_PI) - Math.log(f);
}

/** log Φ(z) and log Q(z) = log(1 - Φ(z)), each without cancellation. */
function logNormalTails(z: number): { logCdf: number; logSf: number } {
	const x = Math.abs(z) / Math.SQRT2;
	const small = logErfcPositive(x) - Math.LN2; // log of the smaller tail
	const large = Math.log1p(-Math.exp(small));
	return z < 0 ? { logCdf: small, logSf: large } : { logCdf: large, logSf: small };
}

/** log P(3, y) and log S(y) of Gamma(3, 1), each without cancellation. */
function logGamma3Tails(y: number): { logCdf: number; logSf: number } {
	// Past 1e100, y² would overflow: log(1 + y + y²/2) = 2 log y - log 2 to 1e-100.
	const logSf = y > 1e100 ? -y + 2 * Math.log(y) - Math.LN2 : -y + Math.log1p(y + 0.5 * y * y);
	if (y < 3) {
		let term = (y * y * y) / 6;
		let sum = term;
		for (let m = 4; m < 200; m++) {
			term *= y / m;
			sum += term;
			if (term < 1e-18 * sum) break;
		}
		return { logCdf: -y + Math.log(sum), logSf };
	}
	return { logCdf: Math.log1p(-Math.exp(logSf)), logSf };
}

/** For each racer at value v: log density, log P(ahead of v), log P(behind v). */
interface RacerAt {
	logDens: number;
	logAhead: number;
	logBehind: number;
}

function racerAt(p: Performance, v: number): RacerAt {
	switch (p.kind) {
		case 'normal-highest': {
			const z = (v - p.mean) / p.sd;
			const { logCdf, logSf } = logNormalTails(z);
			return {
				logDens: -0.5 * z * z - 0.5 * Math.log(2 * Math.PI) - Math.log(p.sd),
				logAhead: logSf,
				logBehind: logCdf,
			};
		}
		case 'exp-longest': {
			// v = log x; ahead = T > x: e^{-a}; behind = 1 - e^{-a}.
			const a = p.rate * Math.exp(v);
			return { logDens: Math.log(a) - a, logAhead: -a, logBehind: Math.log(-Math.expm1(-a)) };
		}
		case 'exp-shortest': {
			const a = p.rate * Math.exp(v);
			return { logDens: Math.log(a) - a, logAhead: Math.log(-Math.expm1(-a)), logBehind: -a };
		}
		case 'gamma3-shortest': {
			const y = p.rate * Math.exp(v);
			const { logCdf, logSf } = logGamma3Tails(y);
			return { logDens: 3 * Math.log(y) - y - Math.LN2, logAhead: logCdf, logBehind: logSf };
		}
	}
}

/**
 * log of racer i's integrand at v for P(win) (places = 1: the log-sum of the others' behind-probabilities) or
 * P(top 3) (places = 3: the Poisson-binomial of the others truncated at two ahead, renormalized by 1e200 whenever it
 * drops below 1e-200, the count kept as a log).
 */
function logIntegrand(field: readonly Performance[], i: number, v: number, places: 1 | 3): number {
	let logDens = 0;
	let logBehindSum = 0;
	let a0 = 1;
	let a1 = 0;
	let a2 = 0;
	let logScale = 0;
	for (let j = 0; j < field.length; j++) {
		const r = racerAt(field[j]!, v);
		if (j === i) {
			logDens = r.logDens;
			continue;
		}
		logBehindSum += r.logBehind;
		if (places === 3) {
			const p = Math.exp(r.logAhead);
			const q = Math.exp(r.logBehind);
			a2 = a2 * q + a1 * p;
			a1 = a1 * q + a0 * p;
			a0 = a0 * q;
			if (Math.max(a0, a1, a2) < 1e-200) {
				a0 *= 1e200;
				a1 *= 1e200;
				a2 *= 1e200;
				logScale -= Math.log(1e200);
			}
		}
	}
	return logDens + (places === 1 ? logBehindSum : Math.log(a0 + a1 + a2) + logScale);
}

// Gauss-Kronrod 7/15 nodes and weights on [-1, 1].
const XGK = [
	0.9914553711208126, 0.9491079123427585, 0.8648644233597691, 0.7415311855993945, 0.5860872354676911,
	0.4058451513773972, 0.20778495500789848, 0,
];
const WGK = [
	0.022935322010529224, 0.06309209262997856, 0.10479001032225019, 0.14065325971552592, 0.1690047266392679,
	0.19035057806478542, 0.20443294007529889, 0.20948214108472782,
];
const WG = [0.1294849661688697, 0.27970539148927664, 0.3818300505051189, 0.4179591836734694];

function gk(f: (v: number) => number, a: number, b: number): { value: number; error: number } {
	const c = 0.5 * (a + b);
	const half = 0.5 * (b - a);
	const fc = f(c);
	let k = fc * WGK[7]!;
	let g = fc * WG[3]!;
	for (let j = 0; j < 7; j++) {
		const x = half * XGK[j]!;
		const s = f(c - x) + f(c + x);
		k += WGK[j]! * s;
		if (j % 2 === 1) g += WG[(j - 1) / 2]! * s;
	}
	return { value: k * half, error: Math.abs((k - g) * half) };
}

/**
 * Bisect until the Gauss-Kronrod error estimate is below tol (absolute, the same for every piece: the pieces'
 * errors add up to at most tol times their count) or below 1e-15 of the piece itself (rounding).
 */
function adaptive(f: (v: number) => number, a: number, b: number, tol: number, depth: number): number {
	const whole = gk(f, a, b);
	if (depth >= 16 || whole.error <= Math.max(tol, 1e-15 * Math.abs(whole.value))) return whole.value;
	const m = 0.5 * (a + b);
	return adaptive(f, a, m, tol, depth + 1) + adaptive(f, m, b, tol, depth + 1);
}

/** The integration range in v (log-time for the time models) holding every integrand's representable mass. */
function range(field: readonly Performance[]): [number, number] {
	if (field[0]!.kind === 'normal-highest') {
		const lo = Math.min(...field.map((p) => (p as { mean: number }).mean - 40 * (p as { sd: number }).sd));
		const hi = Math.max(...field.map((p) => (p as { mean: number }).mean + 40 * (p as { sd: number }).sd));
		return [lo, hi];
	}
	const rates = field.map((p) => (p as { rate: number }).rate);
	// Below, every integrand is below its density, itself below (rate·x)^k ≤ e^{-750}; above, below e^{-740}.
	// In logs: 1e-250/rate underflows for a rate above 1e58 (a racer far ahead).
	return [Math.log(1e-250) - Math.log(Math.max(...rates)), Math.log(800) - Math.log(Math.min(...rates))];
}

/**
 * P(win) or P(top 3) of every racer by adaptive Gauss-Kronrod on exp(log integrand - shift), the shift being the
 * integrand's largest value on a fine scan (so that 1e-300 probabilities integrate like 1), relative tolerance
 * 1e-13 per racer.
 */
export function quadratureReference(field: readonly Performance[], places: 1 | 3): number[] {
	const [lo, hi] = range(field);
	const pieces = 100;
	const width = (hi - lo) / pieces;
	return field.map((_, i) => {
		const g = (v: number) => logIntegrand(field, i, v, places);
		// A fine scan for the shift and a rough total (Riemann sum), then each piece to 1e-15 of that total (1e-13 in all).
		const scan: number[] = [];
		for (let k = 0; k <= 4 * pieces; k++) scan.push(g(lo + (k * width) / 4));
		const shift = Math.max(...scan);
		const rough = scan.reduce((a, v) => a + Math.exp(v - shift), 0) * (width / 4);
		const f = (v: number) => Math.exp(g(v) - shift);
		let total = 0;
		for (let k = 0; k < pieces; k++) total += adaptive(f, lo + k * width, lo + (k + 1) * width, 1e-15 * rough, 0);
		return total * Math.exp(shift);
	});
}
