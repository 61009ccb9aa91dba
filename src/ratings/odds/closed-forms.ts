/**
 * Exact odds without quadrature ("closed forms for the exponential models' pairwise and small-field
 * cases"). Every formula below is a sum of products of positive numbers, so each probability keeps its relative
 * accuracy (a few ulps) down to the underflow threshold; the one exception, Folyami's P(top 3), subtracts only
 * terms no larger than its result (see gamma3Top3ClosedForm).
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
 * - gamma3-shortest (Folyami): P(win) is a positive polynomial sum, O(n²) for the field (gamma3WinClosedForm, up to
 *   GAMMA3_CLOSED_MAX racers), and P(top 3) follows from the P(win) of the field without one or two racers
 *   (gamma3Top3ClosedForm, up to GAMMA3_TOP3_CLOSED_MAX racers).
 */
import type { Performance } from '../types.js';

/** Largest endure field solved by the elimination recursion (2^10 subsets: about as fast as the quadrature). */
export const ELIMINATION_MAX = 10;

/**
 * Rates scaled by their largest (every probability is invariant under a common scale of the rates), into `out` (its
 * first n entries; a scratch array of the caller's) or a new array.
 */
function scaledRates(field: readonly Performance[], out = new Float64Array(field.length)): Float64Array {
	const n = field.length;
	let max = 0;
	for (let j = 0; j < n; j++) {
		const r = (field[j] as { rate: number }).rate;
		out[j] = r;
		if (r > max) max = r;
	}
	for (let j = 0; j < n; j++) out[j] = out[j]! / max;
	return out;
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

/**
 * Largest Folyami field whose P(win) uses the polynomial closed form: every sum below is at most e^{1.5}·(2n)!
 * (see gamma3WinClosedForm), a finite double up to 2n = 170.
 */
export const GAMMA3_CLOSED_MAX = 85;

let prefixPolys = new Float64Array(0);
let hankel = new Float64Array(0);
let shares = new Float64Array(0);
let fieldRates = new Float64Array(0);

/**
 * Folyami P(win), exact: T_j ~ Gamma(3, θ_j), the smallest wins. With Θ = Σθ, r_j = θ_j/Θ and u = Θx, each survival
 * S(θ_j x) = e^{-r_j u}·p_j(u), p_j(u) = 1 + r_j u + r_j²u²/2, so
 *   P(win)_i = ∫ (r_i³u²/2)·e^{-u}·Π_{j≠i} p_j(u) du = (r_i³/2)·Σ_k c_k·(k+2)!,
 * c_k the coefficients of Π_{j≠i} p_j (positive: every term of the sum is positive, so the result keeps its
 * relative accuracy). Π_{j≠i} p_j is a prefix polynomial (racers before i) times a suffix polynomial (racers after
 * i), and the sum is Σ_a pre_a·v_a with v_a = Σ_b suf_b·(a+b+2)!, the suffix seen through the Hankel weights.
 * Multiplying the suffix by p_j maps v to v_a + r_j·v_{a+1} + (r_j²/2)·v_{a+2} (a sum of positive terms), so each
 * racer costs O(n) and the field O(n²) (it was O(n²) per racer: 14 → 3 µs at 20 racers).
 * No overflow: the coefficients of a product of p_j sum to Π(1 + r_j + r_j²/2) ≤ e^{1.5} (Σr = 1), and a + b + 2
 * never exceeds 2n, so every v_a and every sum is at most e^{1.5}·(2n)!.
 */
export function gamma3WinClosedForm(field: readonly Performance[]): Float64Array {
	const n = field.length;
	if (fieldRates.length < n) fieldRates = new Float64Array(2 * n);
	const win = new Float64Array(n);
	gamma3WinOfRates(scaledRates(field, fieldRates), n, win);
	return win;
}

/** gamma3WinClosedForm on the first n of `rate` (positive, any common scale; the largest about 1) into `win`. */
function gamma3WinOfRates(rate: Float64Array, n: number, win: Float64Array): void {
	if (shares.length < n) shares = new Float64Array(2 * n);
	const r = shares;
	let total = 0;
	for (let j = 0; j < n; j++) total += rate[j]!;
	for (let j = 0; j < n; j++) r[j] = rate[j]! / total;
	const deg = 2 * n + 1;
	// prefix polynomial k (degree 2k, racers 0..k-1) at offset k·deg.
	if (prefixPolys.length < n * deg) {
		prefixPolys = new Float64Array(n * deg);
		hankel = new Float64Array(deg);
	}
	const pre = prefixPolys;
	pre[0] = 1;
	for (let k = 1; k < n; k++) {
		const src = (k - 1) * deg;
		const dst = k * deg;
		const a = r[k - 1]!;
		const b = 0.5 * a * a;
		const top = 2 * (k - 1);
		for (let m = 0; m <= top + 2; m++) {
			const c0 = m <= top ? pre[src + m]! : 0;
			const c1 = m >= 1 && m - 1 <= top ? pre[src + m - 1]! : 0;
			const c2 = m >= 2 && m - 2 <= top ? pre[src + m - 2]! : 0;
			pre[dst + m] = c0 + a * c1 + b * c2;
		}
	}
	// v for the empty suffix: v_a = (a+2)!, a = 0..2(n-1).
	const v = hankel;
	let top = 2 * (n - 1);
	v[0] = 2;
	for (let a = 1; a <= top; a++) v[a] = v[a - 1]! * (a + 2);
	for (let k = n - 1; k >= 0; k--) {
		const off = k * deg;
		let sum = 0;
		for (let a = 0; a <= 2 * k; a++) sum += pre[off + a]! * v[a]!;
		const rk = r[k]!;
		win[k] = 0.5 * rk * (rk * (rk * sum)); // sum ≥ 2: no intermediate below the result (no early underflow)
		// suffix ← suffix·p_k, seen through the Hankel weights (two entries fewer stay valid).
		const b2 = 0.5 * rk * rk;
		top -= 2;
		for (let a = 0; a <= top; a++) v[a] = v[a]! + rk * v[a + 1]! + b2 * v[a + 2]!;
	}
}

/** Largest Folyami field whose P(top 3) comes from the P(win) of its subfields (gamma3Top3ClosedForm). */
export const GAMMA3_TOP3_CLOSED_MAX = 10;

/**
 * Folyami P(win) and P(top 3), exact, for small fields. W_i(T) = P(i ahead of every racer outside T) is racer i's
 * P(win) in the field without T (independent racers), a closed form. Racer i is in the top 3 when exactly a set S
 * of at most two others is ahead of it, and by inclusion-exclusion over the subsets of S:
 *   P(exactly {k} ahead) = W_i({k}) - W_i(∅),
 *   P(exactly {k, l} ahead) = W_i({k, l}) - W_i({k}) - W_i({l}) + W_i(∅),
 *   P(top 3)_i = W_i(∅) + Σ_k P(exactly {k} ahead) + Σ_{k<l} P(exactly {k, l} ahead).
 * Every W_i(T) with |T| ≤ 2 is at most P(top 3)_i (it is the probability that the racers ahead of i lie in T), so
 * each difference is exact to a few ulps of P(top 3)_i, and the sum of its C(n-1, 2) + n terms keeps its relative
 * accuracy (about n² ulps; a hopeless racer's P(top 3) keeps its digits). 1 + n + C(n, 2) closed forms, O(n⁴) in
 * all: faster than the walk up to GAMMA3_TOP3_CLOSED_MAX racers.
 */
export function gamma3Top3ClosedForm(field: readonly Performance[]): { win: Float64Array; top3: Float64Array } {
	const n = field.length;
	const rate = scaledRates(field);
	const win = new Float64Array(n);
	gamma3WinOfRates(rate, n, win);
	const top3 = Float64Array.from(win);
	// without[k·n + i] = W_i({k}); sub and subWin hold a subfield's rates and P(win), `index` its racers' places.
	const without = new Float64Array(n * n);
	const sub = new Float64Array(n);
	const subWin = new Float64Array(n);
	const index = new Int32Array(n);
	for (let k = 0; k < n; k++) {
		const m = winWithout(rate, n, k, -1, sub, index, subWin);
		for (let q = 0; q < m; q++) {
			const i = index[q]!;
			without[k * n + i] = subWin[q]!;
			top3[i] = top3[i]! + (subWin[q]! - win[i]!);
		}
	}
	for (let k = 0; k < n; k++) {
		for (let l = k + 1; l < n; l++) {
			const m = winWithout(rate, n, k, l, sub, index, subWin);
			for (let q = 0; q < m; q++) {
				const i = index[q]!;
				const exactly = subWin[q]! - without[k * n + i]! - (without[l * n + i]! - win[i]!);
				top3[i] = top3[i]! + exactly;
			}
		}
	}
	return { win, top3 };
}

/**
 * P(win) in the field without racers k and l (l = -1: only k) into `win`: the subfield's rates go to `sub` and their
 * places in the field to `index`. Returns the subfield's size.
 */
function winWithout(
	rate: Float64Array,
	n: number,
	k: number,
	l: number,
	sub: Float64Array,
	index: Int32Array,
	win: Float64Array,
): number {
	let m = 0;
	for (let j = 0; j < n; j++) if (j !== k && j !== l) sub[m] = rate[(index[m++] = j)]!;
	gamma3WinOfRates(sub, m, win);
	return m;
}
