/** Axis ranges on round numbers. */

/** The smallest of 1, 2, 2.5, 5 × 10^k that is at least `rough`. */
export function niceStep(rough: number): number {
	if (!(rough > 0) || !Number.isFinite(rough)) return 1;
	const power = 10 ** Math.floor(Math.log10(rough));
	for (const factor of [1, 2, 2.5, 5, 10]) if (factor * power >= rough) return factor * power;
	return 10 * power;
}

/**
 * A range on multiples of a round step that holds `low..high`, widened by `padLow` and `padHigh` (shares of the data
 * span) so that markers and labels at the ends stay inside.
 */
export function niceRange(low: number, high: number, padLow: number, padHigh: number): { min: number; max: number } {
	const span = high - low > 0 ? high - low : Math.max(Math.abs(high), 1) * 0.1;
	const step = niceStep(span / 8);
	return {
		min: Math.floor((low - span * padLow) / step) * step,
		max: Math.ceil((high + span * padHigh) / step) * step,
	};
}
