import { describe, expect, it } from 'vitest';
import { erfc, erfcx, logNormalCdf, normalCdf, normalUpperTail } from '../../src/ratings/special.js';
import ref from '../fixtures/odds/special.json' with { type: 'json' };
import { accumulateWithout, poissonBinomial, truncatedPrefixSuffix } from '../../src/ratings/odds/poisson-binomial.js';

// Reference values: test/fixtures/odds/special.json, mpmath at 40 digits (generate_special.py in that folder).

function relErr(a: number, b: number): number {
	return b === 0 ? Math.abs(a) : Math.abs(a - b) / Math.abs(b);
}

describe('special functions against mpmath (40 digits)', () => {
	it('erfc (Cody CALERF) to 1e-15 relative on [-6, 26.5]', () => {
		for (const [x, v] of ref.erfc as [number, string][])
			expect(relErr(erfc(x), Number(v)), `erfc(${x})`).toBeLessThan(1e-15);
	});

	it('erfcx = exp(x²)·erfc(x) to 1e-15 relative', () => {
		for (const [x, v] of ref.erfcx as [number, string][])
			expect(relErr(erfcx(x), Number(v)), `erfcx(${x})`).toBeLessThan(1e-15);
	});

	it('log Φ to 1e-15 relative, finite far in the lower tail (z = -60)', () => {
		for (const [z, v] of ref.logNormalCdf as [number, string][]) {
			const expected = Number(v);
			const got = logNormalCdf(z);
			expect(Number.isFinite(got)).toBe(true);
			expect(Math.abs(got - expected), `logΦ(${z})`).toBeLessThanOrEqual(1e-15 * Math.max(Math.abs(expected), 1e-300));
		}
	});

	it('Φ to 2e-15 relative down to z = -38.5 (underflow), and the fast upper tail to 2.3e-16 absolute', () => {
		for (const [z, v] of ref.normalCdf as [number, string][]) {
			const phi = Number(v);
			if (phi > 0) expect(relErr(normalCdf(z), phi), `Φ(${z})`).toBeLessThan(2e-15);
			expect(Math.abs(normalCdf(z) - phi)).toBeLessThan(2.3e-16);
			expect(Math.abs(normalUpperTail(-z) - phi), `Q(${-z})`).toBeLessThan(2.3e-16);
		}
		expect(normalCdf(0)).toBe(0.5);
	});
});

describe('Poisson-binomial', () => {
	const b = Float64Array.from([0.1, 0.93, 0.5, 0.02, 0.77, 0.999, 0.3]);
	const n = b.length;

	/** Brute force over all 2^n outcomes. */
	function brute(probs: ArrayLike<number>): number[] {
		const m = probs.length;
		const out = new Array<number>(m + 1).fill(0);
		for (let mask = 0; mask < 1 << m; mask++) {
			let p = 1;
			let c = 0;
			for (let j = 0; j < m; j++) {
				if (mask & (1 << j)) {
					p *= probs[j]!;
					c++;
				} else p *= 1 - probs[j]!;
			}
			out[c] = out[c]! + p;
		}
		return out;
	}

	it('the full distribution equals the 2^n enumeration', () => {
		const full = new Float64Array(n + 1);
		poissonBinomial(b, n, full, new Int32Array(2));
		brute(b).forEach((v, c) => expect(Math.abs(full[c]! - v)).toBeLessThan(1e-15));
	});

	it('stable deconvolution (forward for p ≤ 1/2, backward for p > 1/2) removes each trial exactly', () => {
		const full = new Float64Array(n + 1);
		const support = new Int32Array(2);
		poissonBinomial(b, n, full, support);
		for (let i = 0; i < n; i++) {
			const row = new Float64Array(n);
			accumulateWithout(full, n, support[0]!, support[1]!, b[i]!, 2, row, 0);
			const expected = brute(Array.from(b).filter((_, j) => j !== i));
			expected.forEach((v, c) => expect(Math.abs(row[c]! / 2 - v), `remove ${i}, count ${c}`).toBeLessThan(1e-15));
		}
	});

	it('counts below 1e-300 are trimmed, and what is kept equals the untrimmed convolution', () => {
		// 120 trials that are all nearly certain (or nearly impossible): counts far from the bulk fall below 1e-300 and
		// are trimmed; every count must equal the plain O(n²) convolution (below) to 1e-290, the support must really
		// shrink, and removing a trial must give the others' own convolution.
		const convolution = (probs: readonly number[]): number[] => {
			let out = [1];
			for (const p of probs) out = [...out, 0].map((v, c) => v * (1 - p) + (c > 0 ? out[c - 1]! * p : 0));
			return out;
		};
		for (const [scale, far] of [
			[1e-12, false],
			[1e-12, true],
			[0.3, false],
		] as const) {
			const m = 120;
			const probs = new Float64Array(m);
			for (let j = 0; j < m; j++) {
				const small = scale * (1 + Math.sin(j));
				probs[j] = far ? 1 - small : small;
			}
			const trimmed = new Float64Array(m + 1);
			const support = new Int32Array(2);
			poissonBinomial(probs, m, trimmed, support);
			convolution(Array.from(probs)).forEach((v, c) =>
				expect(Math.abs(trimmed[c]! - v), `count ${c}`).toBeLessThan(1e-290),
			);
			if (scale < 0.01) expect(support[1]! - support[0]!).toBeLessThan(40);
			for (const i of [0, 7, m - 1]) {
				const row = new Float64Array(m);
				accumulateWithout(trimmed, m, support[0]!, support[1]!, probs[i]!, 1, row, 0);
				const others = convolution(Array.from(probs).filter((_, j) => j !== i));
				others.forEach((v, c) => expect(Math.abs(row[c]! - v), `without ${i}, count ${c}`).toBeLessThan(1e-15));
			}
		}
	});

	it('the trimmed deconvolution keeps the count just below the support (a certain trial removed)', () => {
		// Nine certain trials and one coin: counts 9 and 10, each 1/2. Without a certain trial: counts 8 and 9.
		const probs = new Float64Array([1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5]);
		const trimmed = new Float64Array(11);
		const support = new Int32Array(2);
		poissonBinomial(probs, 10, trimmed, support);
		expect(Array.from(support)).toEqual([9, 10]);
		const row = new Float64Array(10);
		accumulateWithout(trimmed, 10, support[0]!, support[1]!, 1, 1, row, 0);
		expect(Array.from(row)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.5]);
	});

	it('truncated prefix/suffix distributions give the first three counts without each trial', () => {
		const pre = new Float64Array(3 * n);
		const suf = new Float64Array(3 * n);
		truncatedPrefixSuffix(b, n, pre, suf);
		for (let i = 0; i < n; i++) {
			const expected = brute(Array.from(b).filter((_, j) => j !== i));
			const q0 = pre[3 * i]! * suf[3 * i]!;
			const q1 = pre[3 * i]! * suf[3 * i + 1]! + pre[3 * i + 1]! * suf[3 * i]!;
			const q2 = pre[3 * i]! * suf[3 * i + 2]! + pre[3 * i + 1]! * suf[3 * i + 1]! + pre[3 * i + 2]! * suf[3 * i]!;
			expect(Math.abs(q0 - expected[0]!)).toBeLessThan(1e-16);
			expect(Math.abs(q1 - expected[1]!)).toBeLessThan(1e-16);
			expect(Math.abs(q2 - expected[2]!)).toBeLessThan(1e-16);
		}
	});
});
