/**
 * Exact odds without quadrature, for the two exponential models (issue 10 §1: "closed forms for the exponential
 * models' pairwise and small-field cases"). Every formula below is a sum of products of positive numbers: no
 * alternating sums, so each probability keeps its relative accuracy (a few ulps) down to the underflow threshold.
 *
 * - exp-shortest (speed-Elo) is Plackett-Luce in the rates μ (the smallest of independent exponentials is racer j
 *   with probability μ_j/Σμ, and the race restarts by memorylessness):
 *   P(1st) = μ_i/S, P(2nd) = Σ_{j≠i} (μ_j/S)·μ_i/S_{-j}, P(3rd) = μ_i·Σ_{j<k; j,k≠i} h(j, k) with
 *   h(j, k) = μ_jμ_k/(S·R_{jk})·(1/S_{-j} + 1/S_{-k}), where S = Σμ, S_{-j} = S - μ_j, R_{jk} = S - μ_j - μ_k
 *   (the two orders j, k and k, j of the first two places). O(n²) in all.
 * - exp-longest (endure-Elo) is Plackett-Luce from the back: the first racer out is j with probability λ_j/Λ_R
 *   among the racers R still in, and again the rest restarts. The probability of every surviving set R is a
 *   forward recursion over the 2^n subsets (n·2^(n-1) steps): P(win) = P({i}), P(top 3) = Σ_{|R| = 3, R ∋ i} P(R).
 *   Used up to ELIMINATION_MAX racers, where it is faster than the quadrature.
 */
import type { Performance } from './types.js';

/** Largest endure field solved by the elimination recursion (2^10 subsets: about as fast as the quadrature). */
export const ELIMINATION_MAX = 10;

/** Rates scaled by their largest (every probability is invariant under a common scale of the rates). */
function scaledRates(field: readonly Performance[]): Float64Array {
	const n = field.length;
	const rate = new Float64Array(n);
	let max = 0;
	for (let j = 0; j < n; j++) {
		const r = (field[j] as { rate: number }).rate;
		rate[j] = r;
		if (r > max) max = r;
	}
	for (let j = 0; j < n; j++) rate[j] = rate[j]! / max;
	return rate;
}

let subsetProb = new Float64Array(0);
let subsetRate = new Float64Array(0);

/** endure P(win) (and P(top 3) when asked) by the elimination recursion over subsets; n ≤ ELIMINATION_MAX. */
export function endureElimination(
	field: readonly Performance[],
	withTop3: boolean,
): { win: Float64Array; top3: Float64Array } {
	const n = field.length;
	const rate = scaledRates(field);
	const size = 1 << n;
	if (subsetProb.length < size) {
		subsetProb = new Float64Array(size);
		subsetRate = new Float64Array(size);
	}
	const prob = subsetProb;
	const total = subsetRate;
	total[0] = 0;
	for (let mask = 1; mask < size; mask++) {
		const low = mask & -mask;
		total[mask] = total[mask ^ low]! + rate[31 - Math.clz32(low)]!;
	}
	prob.fill(0, 0, size);
	const full = size - 1;
	prob[full] = 1;
	// Supersets come before their subsets in decreasing numeric order.
	for (let mask = full; mask > 1; mask--) {
		const pm = prob[mask]!;
		if (pm === 0 || (mask & (mask - 1)) === 0) continue;
		const scale = pm / total[mask]!;
		for (let rest = mask; rest !== 0; rest &= rest - 1) {
			const low = rest & -rest;
			const j = 31 - Math.clz32(low);
			prob[mask ^ low] = prob[mask ^ low]! + scale * rate[j]!;
		}
	}
	const win = new Float64Array(n);
	for (let i = 0; i < n; i++) win[i] = prob[1 << i]!;
	const top3 = new Float64Array(n);
	if (withTop3) {
		if (n <= 3) top3.fill(1);
		else {
			for (let mask = 7; mask < size; mask++) {
				const pm = prob[mask]!;
				if (pm === 0) continue;
				let bits = mask;
				const a = bits & -bits;
				bits ^= a;
				const b = bits & -bits;
				bits ^= b;
				const c = bits & -bits;
				if (c === 0 || bits !== c) continue; // exactly three racers left
				const ia = 31 - Math.clz32(a);
				const ib = 31 - Math.clz32(b);
				const ic = 31 - Math.clz32(c);
				top3[ia] = top3[ia]! + pm;
				top3[ib] = top3[ib]! + pm;
				top3[ic] = top3[ic]! + pm;
			}
		}
	}
	return { win, top3 };
}

/**
 * Sums of all rates but one or two, without the cancellation of S - μ_j when racer j holds most of S: the sum
 * of everyone outside the two largest is summed directly, and the two largest are added back as needed.
 */
class RestSums {
	private readonly top1: number;
	private readonly top2: number;
	private readonly restOfTop: number;
	constructor(private readonly rate: Float64Array) {
		let top1 = -1;
		let top2 = -1;
		for (let j = 0; j < rate.length; j++) {
			if (top1 < 0 || rate[j]! > rate[top1]!) {
				top2 = top1;
				top1 = j;
			} else if (top2 < 0 || rate[j]! > rate[top2]!) top2 = j;
		}
		let rest = 0;
		for (let j = 0; j < rate.length; j++) if (j !== top1 && j !== top2) rest += rate[j]!;
		this.top1 = top1;
		this.top2 = top2;
		this.restOfTop = rest;
	}

	/** Σ_{l ∉ {j, k}} μ_l (k = -1 for one exclusion). Relative error a few ulps. */
	without(j: number, k: number): number {
		const { top1, top2, rate } = this;
		let s = this.restOfTop;
		if (j !== top1 && j !== top2) s -= rate[j]!;
		if (k >= 0 && k !== top1 && k !== top2) s -= rate[k]!;
		if (top1 !== j && top1 !== k) s += rate[top1]!;
		if (top2 >= 0 && top2 !== j && top2 !== k) s += rate[top2]!;
		return s;
	}
}

/** speed-Elo (Plackett-Luce) P(win), P(top 3) and expected position, exact, O(n²). */
export function speedFieldOdds(field: readonly Performance[]): {
	pWin: number[];
	pTop3: number[];
	expectedPosition: number[];
} {
	const n = field.length;
	const mu = scaledRates(field);
	const rest = new RestSums(mu);
	let S = 0;
	for (let j = 0; j < n; j++) S += mu[j]!;
	const invOthers = new Float64Array(n); // 1/S_{-j}
	for (let j = 0; j < n; j++) invOthers[j] = n > 1 ? 1 / rest.without(j, -1) : 0;
	const pWin = new Array<number>(n);
	const pTop3 = new Array<number>(n);
	const expectedPosition = new Array<number>(n);
	for (let i = 0; i < n; i++) pWin[i] = mu[i]! / S;
	if (n <= 3) {
		for (let i = 0; i < n; i++) pTop3[i] = 1;
	} else {
		// Second place: A = Σ_j μ_j/S_{-j}; racer i needs A - μ_i/S_{-i}, summed directly when i holds over half of A.
		let A = 0;
		for (let j = 0; j < n; j++) A += mu[j]! * invOthers[j]!;
		// Third place: T = Σ_{j<k} h(j, k), row[i] = Σ_{k≠i} h(i, k); racer i needs T - row[i], summed directly over
		// the pairs without i when row[i] > T/2 (at most three racers, as Σ row = 2T).
		const row = new Float64Array(n);
		let T = 0;
		for (let j = 0; j < n; j++) {
			const mj = mu[j]!;
			const ij = invOthers[j]!;
			let rj = 0;
			for (let k = j + 1; k < n; k++) {
				const hjk = ((mj * mu[k]!) / rest.without(j, k)) * (ij + invOthers[k]!);
				rj += hjk;
				row[k] = row[k]! + hjk;
			}
			row[j] = row[j]! + rj;
			T += rj;
		}
		for (let i = 0; i < n; i++) {
			const mi = mu[i]!;
			const own = mi * invOthers[i]!;
			let second = A - own;
			if (own > 0.5 * A) {
				second = 0;
				for (let j = 0; j < n; j++) if (j !== i) second += mu[j]! * invOthers[j]!;
			}
			let third = T - row[i]!;
			if (row[i]! > 0.5 * T) {
				third = 0;
				for (let j = 0; j < n; j++) {
					if (j === i) continue;
					for (let k = j + 1; k < n; k++) {
						if (k === i) continue;
						third += ((mu[j]! * mu[k]!) / rest.without(j, k)) * (invOthers[j]! + invOthers[k]!);
					}
				}
			}
			const p = (mi / S) * (1 + second + third);
			pTop3[i] = p > 1 ? 1 : p;
		}
	}
	for (let i = 0; i < n; i++) {
		const mi = mu[i]!;
		let e = 1;
		for (let j = 0; j < n; j++) if (j !== i) e += mu[j]! / (mi + mu[j]!);
		expectedPosition[i] = e;
	}
	return { pWin, pTop3, expectedPosition };
}

/** Largest Folyami field whose P(win) uses the polynomial closed form (O(n³) with a small constant; (2n+2)! fits). */
export const GAMMA3_CLOSED_MAX = 24;

let prefixPolys = new Float64Array(0);
let suffixPoly = new Float64Array(0);
let suffixNext = new Float64Array(0);

/**
 * Folyami P(win), exact: T_j ~ Gamma(3, θ_j), the smallest wins. With Θ = Σθ, r_j = θ_j/Θ and u = Θx, each survival
 * S(θ_j x) = e^{-r_j u}·p_j(u), p_j(u) = 1 + r_j u + r_j²u²/2, so
 *   P(win)_i = ∫ (r_i³u²/2)·e^{-u}·Π_{j≠i} p_j(u) du = (r_i³/2)·Σ_k c_k·(k+2)!,
 * c_k the coefficients of Π_{j≠i} p_j (positive: every term of the sum is positive, so the result keeps its
 * relative accuracy). Π_{j≠i} p_j is the product of a prefix and a suffix polynomial, and the sum is the bilinear
 * form Σ_{a,b} pre_a·suf_b·(a+b+2)!: O(n²) per racer. n ≤ GAMMA3_CLOSED_MAX.
 */
export function gamma3WinClosedForm(field: readonly Performance[]): Float64Array {
	const n = field.length;
	const r = scaledRates(field); // largest 1: no overflow in the sum
	let total = 0;
	for (let j = 0; j < n; j++) total += r[j]!;
	for (let j = 0; j < n; j++) r[j] = r[j]! / total;
	const deg = 2 * n + 1;
	// prefix polynomial i (degree 2i) at offset i·deg; factorial weights (k+2)!.
	if (prefixPolys.length < n * deg) {
		prefixPolys = new Float64Array(n * deg);
		suffixPoly = new Float64Array(deg);
		suffixNext = new Float64Array(deg);
	}
	const pre = prefixPolys;
	pre[0] = 1;
	for (let i = 1; i < n; i++) {
		const src = (i - 1) * deg;
		const dst = i * deg;
		const a = r[i - 1]!;
		const b = 0.5 * a * a;
		const top = 2 * (i - 1);
		for (let k = 0; k <= top + 2; k++) {
			const c0 = k <= top ? pre[src + k]! : 0;
			const c1 = k >= 1 && k - 1 <= top ? pre[src + k - 1]! : 0;
			const c2 = k >= 2 && k - 2 <= top ? pre[src + k - 2]! : 0;
			pre[dst + k] = c0 + a * c1 + b * c2;
		}
	}
	const fact = new Float64Array(deg + 2);
	fact[0] = 1;
	for (let k = 1; k < fact.length; k++) fact[k] = fact[k - 1]! * k;
	const win = new Float64Array(n);
	let suf = suffixPoly;
	let next = suffixNext;
	suf[0] = 1;
	let sufDeg = 0;
	for (let i = n - 1; i >= 0; i--) {
		const off = i * deg;
		const preDeg = 2 * i;
		let sum = 0;
		for (let a = 0; a <= preDeg; a++) {
			const pa = pre[off + a]!;
			let inner = 0;
			for (let b = 0; b <= sufDeg; b++) inner += suf[b]! * fact[a + b + 2]!;
			sum += pa * inner;
		}
		const ri = r[i]!;
		win[i] = 0.5 * ri * ri * ri * sum;
		// suffix ← suffix·p_i
		const b1 = ri;
		const b2 = 0.5 * ri * ri;
		for (let k = 0; k <= sufDeg + 2; k++) {
			const c0 = k <= sufDeg ? suf[k]! : 0;
			const c1 = k >= 1 && k - 1 <= sufDeg ? suf[k - 1]! : 0;
			const c2 = k >= 2 && k - 2 <= sufDeg ? suf[k - 2]! : 0;
			next[k] = c0 + b1 * c1 + b2 * c2;
		}
		const tmp = suf;
		suf = next;
		next = tmp;
		sufDeg += 2;
	}
	return win;
}
