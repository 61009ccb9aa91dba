/**
 * Poisson-binomial distributions: the number of successes among independent Bernoulli(b_j) trials. The odds
 * engine uses them at each quadrature node, with b_j = P(racer j finishes ahead of a racer whose performance is
 * the node value).
 */

/**
 * Full distribution of the count among b[0..n-1]: out[c] = P(count = c), c = 0..n. O(n²), each step a convex
 * combination (no cancellation). `out` needs length ≥ n + 1.
 */
export function poissonBinomial(b: Float64Array, n: number, out: Float64Array): void {
	out[0] = 1;
	for (let j = 0; j < n; j++) {
		const p = b[j]!;
		const q = 1 - p;
		out[j + 1] = out[j]! * p;
		for (let c = j; c > 0; c--) out[c] = out[c]! * q + out[c - 1]! * p;
		out[0] = out[0] * q;
	}
}

/**
 * Remove trial i (success probability p) from the full distribution `full` (length n + 1) and accumulate
 * `w · P(count among the others = c)` into row[offset + c], c = 0..n-1. O(n).
 *
 * Stable deconvolution: full = other ⊛ (1-p, p). Forward division Q[c] = (F[c] - p·Q[c-1])/(1-p) multiplies
 * errors by p/(1-p) ≤ 1 when p ≤ 1/2; backward division Q[c-1] = (F[c] - (1-p)·Q[c])/p multiplies them by
 * (1-p)/p < 1 when p > 1/2. Either way rounding errors do not grow geometrically. Tiny negative values from
 * rounding (|.| ~ 1e-17) are kept; the caller clamps final probabilities.
 */
export function accumulateWithout(
	full: Float64Array,
	n: number,
	p: number,
	w: number,
	row: Float64Array,
	offset: number,
): void {
	const m = n - 1; // number of other trials; the result has m + 1 = n entries
	const q = 1 - p;
	if (p <= 0.5) {
		const inv = 1 / q;
		let prev = full[0]! * inv;
		row[offset] = row[offset]! + w * prev;
		for (let c = 1; c <= m; c++) {
			prev = (full[c]! - p * prev) * inv;
			row[offset + c] = row[offset + c]! + w * prev;
		}
	} else {
		const inv = 1 / p;
		let next = full[n]! * inv;
		row[offset + m] = row[offset + m]! + w * next;
		for (let c = m; c > 0; c--) {
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
