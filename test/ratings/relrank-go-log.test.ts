import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goLog, goLog10, goRound } from '../../src/ratings/relrank/go-log.js';

/** Distance in ulps between two finite positive doubles. */
function ulps(a: number, b: number): number {
	const view = new DataView(new ArrayBuffer(16));
	view.setFloat64(0, a);
	view.setFloat64(8, b);
	const diff = view.getBigInt64(0) - view.getBigInt64(8);
	return Number(diff < 0n ? -diff : diff);
}

describe('goLog: Go math.Log bit for bit', () => {
	it('agrees with the spec: V8 Math.log differs in the last ulp for 1444 of the integers 1..2e6, the first 14', () => {
		let differing = 0;
		let first = 0;
		let maxUlps = 0;
		for (let i = 1; i <= 2_000_000; i++) {
			const go = goLog(i);
			const v8 = Math.log(i);
			if (go !== v8) {
				differing++;
				if (first === 0) first = i;
				maxUlps = Math.max(maxUlps, ulps(go, v8));
			}
		}
		expect(differing).toBe(1444);
		expect(first).toBe(14);
		expect(maxUlps).toBe(1);
	});

	it('returns Go constants where Go tests exact values: Log(10) == Ln10, Log(2) == Ln2, Log(1) == 0', () => {
		expect(goLog(10)).toBe(Math.LN10);
		expect(goLog(2)).toBe(Math.LN2);
		expect(goLog(1)).toBe(0);
		expect(goLog(Math.E)).toBe(1);
	});

	it('handles the special cases as Go does', () => {
		expect(goLog(0)).toBe(-Infinity);
		expect(goLog(-1)).toBeNaN();
		expect(goLog(NaN)).toBeNaN();
		expect(goLog(Infinity)).toBe(Infinity);
		expect(goLog(5e-324)).toBeCloseTo(-744.4400719213812, 12); // subnormals go through Frexp's normalisation
	});

	it('property: within one ulp of V8 Math.log for any positive double (both are faithful)', () => {
		fc.assert(
			fc.property(fc.double({ min: 2.2250738585072014e-308, max: 1.7976931348623157e308, noNaN: true }), (x) => {
				expect(ulps(goLog(x), Math.log(x))).toBeLessThanOrEqual(1);
			}),
			{ numRuns: 200 },
		);
	});

	it('log10 is Log(x)·(1/Ln10) with Go constant folding (= Math.LOG10E)', () => {
		expect(goLog10(1000)).toBe(goLog(1000) * Math.LOG10E);
		expect(goLog10(10)).toBe(1);
	});
});

describe('goRound: Go math.Round (half away from zero)', () => {
	it('rounds halves away from zero, unlike Math.round', () => {
		expect(goRound(2.5)).toBe(3);
		expect(goRound(-2.5)).toBe(-3);
		expect(goRound(-0.5)).toBe(-1);
		expect(goRound(0.49999999999999994)).toBe(0);
		expect(goRound(-2.4)).toBe(-2);
		expect(goRound(1e300)).toBe(1e300);
		expect(goRound(NaN)).toBeNaN();
	});
});
