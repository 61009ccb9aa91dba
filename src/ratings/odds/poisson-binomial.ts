/**
 * Poisson-binomial distributions: the number of successes among independent Bernoulli(b_j) trials. The odds
 * engine uses them at each quadrature node, with b_j = P(racer j finishes ahead of a racer whose performance is
 * the node value).
 */

/** Counts whose probability falls below this are set to 0 and left out of the loops (poissonBinomial). */
export const NEGLIGIBLE_COUNT = 1e-300;

/**
 * Distribution of the count among b[0..n-1]: out[c] = P(count = c) for c in [support[0], support[1]], every other
 * entry of out[0..n] exactly 0. `out` needs length ≥ n + 1. Each step is a convex combination (no cancellation).
 * An entry below NEGLIGIBLE_COUNT at either end of the support is set to 0 and the support shrinks past it, so a
 * node where the racers are all likely behind (or all likely ahead) costs O(n·width), not O(n²) (the place matrix's
 * nodes far in the tails; its 50 ms target at 100 racers). Each dropped entry is below 1e-300, and an entry once
 * below it only feeds its neighbours through factors ≤ 1 afterwards.
 */
export function poissonBinomial(b: Float64Array, n: number, out: Float64Array, support: Int32Array): void {
	out.fill(0, 0, n + 1);
	out[0] = 1;
	let lo = 0;
	let hi = 0;
	for (let j = 0; j < n; j++) {
		const p = b[j]!;
		const q = 1 - p;
		out[hi + 1] = out[hi]! * p;
		for (let c = hi; c > lo; c--) out[c] = out[c]! * q + out[c - 1]! * p;
		out[lo] = out[lo]! * q;
		hi++;
		while (hi > lo && out[hi]! < NEGLIGIBLE_COUNT) out[hi--] = 0;
		while (lo < hi && out[lo]! < NEGLIGIBLE_COUNT) out[lo++] = 0;
	}
	support[0] = lo;
	support[1] = hi;
}

/**
 * Remove trial i (success probability p) from the distribution `full` of poissonBinomial (support [lo, hi]) and
 * accumulate `w · P(count among the others = c)` into row[offset + c], c = 0..n-1. O(width).
 *
 * Stable deconvolution: full = other ⊛ (1-p, p). Forward division Q[c] = (F[c] - p·Q[c-1])/(1-p) multiplies
 * errors by p/(1-p) ≤ 1 when p ≤ 1/2; backward division Q[c-1] = (F[c] - (1-p)·Q[c])/p multiplies them by
 * (1-p)/p < 1 when p > 1/2. Either way rounding errors do not grow geometrically. Tiny negative values from
 * rounding (|.| ~ 1e-17) are kept; the caller clamps final probabilities.
 *
 * The others' counts are taken on [lo - 1, hi] (removing one trial lowers a count by at most 1). Outside it each is
 * at most 2·NEGLIGIBLE_COUNT: F[c] = q·Q[c] + p·Q[c-1] gives Q[c] ≤ F[c]/q ≤ 2F[c] when p ≤ 1/2 and
 * Q[c-1] ≤ F[c]/p ≤ 2F[c] when p > 1/2, and F is below NEGLIGIBLE_COUNT outside [lo, hi]. They are left out, far
 * below the place matrix's 1e-12.
 */
export function accumulateWithout(
	full: Float64Array,
	n: number,
	lo: number,
	hi: number,
	p: number,
	w: number,
	row: Float64Array,
	offset: number,
): void {
	const m = n - 1; // number of other trials; the result has m + 1 = n entries
	const q = 1 - p;
	const first = Math.max(0, lo - 1);
	const last = Math.min(m, hi);
	if (p <= 0.5) {
		// Q[c] = (F[c] - p·Q[c-1])/q from Q[first - 1] = 0 (F = 0 below lo).
		const inv = 1 / q;
		let prev = 0;
		for (let c = first; c <= last; c++) {
			prev = (full[c]! - p * prev) * inv;
			row[offset + c] = row[offset + c]! + w * prev;
		}
	} else {
		// Q[c - 1] = (F[c] - q·Q[c])/p from Q[last + 1] = 0 (F = 0 above hi).
		const inv = 1 / p;
		let next = 0;
		for (let c = last + 1; c > first; c--) {
			next = (full[c]! - q * next) * inv;
			row[offset + c - 1] = row[offset + c - 1]! + w * next;
		}
	}
}

/**
 * Prefix and suffix distributions truncated to counts 0, 1, 2 (exact: entries 0..2 of a convolution only depend
 * on entries 0..2 of its factors). pre[3j + c] = P(c successes among b[0..j-1]); suf[3j + c] = P(c among
 * b[j+1..n-1]). Arrays need length ≥ 3n. O(n), sums of products of non-negative numbers only.
 */
export function truncatedPrefixSuffix(b: Float64Array, n: number, pre: Float64Array, suf: Float64Array): void {
	let a0 = 1;
	let a1 = 0;
	let a2 = 0;
	for (let j = 0; j < n; j++) {
		pre[3 * j] = a0;
		pre[3 * j + 1] = a1;
		pre[3 * j + 2] = a2;
		const p = b[j]!;
		const q = 1 - p;
		a2 = a2 * q + a1 * p;
		a1 = a1 * q + a0 * p;
		a0 = a0 * q;
	}
	a0 = 1;
	a1 = 0;
	a2 = 0;
	for (let j = n - 1; j >= 0; j--) {
		suf[3 * j] = a0;
		suf[3 * j + 1] = a1;
		suf[3 * j + 2] = a2;
		const p = b[j]!;
		const q = 1 - p;
		a2 = a2 * q + a1 * p;
		a1 = a1 * q + a0 * p;
		a0 = a0 * q;
	}
}
