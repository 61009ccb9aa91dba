import { expect } from 'vitest';

/**
 * Tolerance checks shared by the oracle tests. Each spec states its tolerance (1e-9 relative unless stated); the
 * absolute floor only matters for expected values at or near zero.
 */

/** |actual − expected| ≤ tol·|expected| + 1e-12. */
export function expectRel(actual: number, expected: number, tol = 1e-9): void {
	expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol * Math.abs(expected) + 1e-12);
}

/** A finite `actual` with |actual − expected| ≤ rel·|expected| + 1e-15, the failure naming `label`. */
export function expectClose(actual: number | undefined, expected: number, rel = 1e-9, label = ''): void {
	if (actual === undefined || !Number.isFinite(actual))
		throw new Error(`${label}: got ${actual}, expected ${expected}`);
	const err = Math.abs(actual - expected);
	if (err > rel * Math.abs(expected) + 1e-15) {
		throw new Error(`${label}: got ${actual}, expected ${expected} (rel err ${err / Math.abs(expected)})`);
	}
}

/** expectClose element by element, with equal lengths. */
export function expectAllClose(actual: readonly number[], expected: readonly number[], rel = 1e-9, label = ''): void {
	expect(actual).toHaveLength(expected.length);
	expected.forEach((e, i) => expectClose(actual[i], e, rel, `${label}[${i}]`));
}
