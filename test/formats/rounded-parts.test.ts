import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundedParts } from '../../src/formats/rounded-parts.js';

const tenths = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x, 0) * 10);

describe('roundedParts', () => {
	it('keeps parts that already add up, and moves the last tenth to the largest remainder', () => {
		expect(roundedParts([1.2, -0.5], 0.7)).toEqual([1.2, -0.5]);
		// 0.34 + 0.33 + 0.33 = 1.0: each rounds to 0.3, the missing tenth goes to 0.34.
		expect(roundedParts([0.34, 0.33, 0.33], 1)).toEqual([0.4, 0.3, 0.3]);
	});

	it('adds up to the shown total, each part within one unit of its value', () => {
		fc.assert(
			fc.property(
				fc.array(fc.double({ min: -500, max: 500, noNaN: true }), { minLength: 1, maxLength: 40 }),
				(parts) => {
					const sum = parts.reduce((s, x) => s + x, 0);
					const before = 1500.04;
					const shown = Number((before + sum).toFixed(1)) - Number(before.toFixed(1));
					const rounded = roundedParts(parts, shown);
					expect(tenths(rounded)).toBe(Math.round(shown * 10));
					rounded.forEach((r, i) => expect(Math.abs(r - parts[i]!)).toBeLessThan(0.2 + 1e-9));
				},
			),
		);
	});
});
