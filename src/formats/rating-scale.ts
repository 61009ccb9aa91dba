/**
 * The scale a rating is shown on. Folyami, Glicko and stk are shown as they are computed. endure-Elo and
 * speed-Elo compute R in natural-log units around 0 (endure-Elo paper, eq. 1-3): a racer's performance is
 * exponential with rate e^-R (endure) or e^R (speed), so for two racers P(A ahead of B) = 1 / (1 + e^-(R_A - R_B)).
 * Elo's P(A beats B) = 1 / (1 + 10^-(E_A - E_B)/400) is the same curve with E = 400/ln 10 · R, so they are shown as
 *
 *     points = 1500 + R · 400/ln 10      (≈ 1500 + 173.72 R)
 *
 * where, as in Elo, a 400-point gap means 10 : 1 head to head and 1500 is a newcomer. In the extended form the
 * per-racer k is the variance of R (eq. 5-6), so √k · 400/ln 10 is one standard deviation in points: shown as the
 * uncertainty "±", read like Glicko's RD. The base form's k is one number for everyone, no player's uncertainty, and
 * is not shown. The raw values stay what the store, the CLI and the oracles use (`pitwall replay --scale shown`
 * prints the shown ones).
 */

/** Elo points per natural-log unit of R: 400 / ln 10. */
export const POINTS_PER_UNIT = 400 / Math.LN10;
/** The shown rating of R = 0, a newcomer. */
export const POINTS_CENTRE = 1500;

export interface RatingScale {
	/** `points` for endure and speed (converted), `native` for the systems shown as computed. */
	readonly kind: 'points' | 'native';
	/** A rating as shown. */
	rating(raw: number): number;
	/** A difference or change of ratings as shown (no offset). */
	difference(raw: number): number;
	/** The player's uncertainty as one standard deviation on the shown scale; undefined where there is none. */
	uncertainty(raw: number | undefined): number | undefined;
	/** What the uncertainty is called on screen (`RD`, `±`); undefined where the system shows none. */
	readonly uncertaintyName: string | undefined;
}

const identity = (x: number) => x;

const NATIVE_WITHOUT_UNCERTAINTY: RatingScale = {
	kind: 'native',
	rating: identity,
	difference: identity,
	uncertainty: () => undefined,
	uncertaintyName: undefined,
};

const GLICKO: RatingScale = {
	kind: 'native',
	rating: identity,
	difference: identity,
	uncertainty: (rd) => rd,
	uncertaintyName: 'RD',
};

function pointsScale(extended: boolean): RatingScale {
	return {
		kind: 'points',
		rating: (r) => POINTS_CENTRE + r * POINTS_PER_UNIT,
		difference: (d) => d * POINTS_PER_UNIT,
		// k is the variance of R in the extended form (eq. 5-6); the base form's k is the same for every racer.
		uncertainty: (k) => (extended && k !== undefined ? Math.sqrt(k) * POINTS_PER_UNIT : undefined),
		uncertaintyName: extended ? '±' : undefined,
	};
}

/** The shown scale of `system` with its league parameters (`extended` for endure and speed). */
export function ratingScale(system: string, params: unknown): RatingScale {
	if (system === 'glicko') return GLICKO;
	if (system === 'endure' || system === 'speed') {
		return pointsScale((params as { extended?: unknown } | undefined)?.extended === true);
	}
	return NATIVE_WITHOUT_UNCERTAINTY;
}

/** A summary's numbers as shown. */
export function shownSummary<S extends { rating: number; uncertainty: number | undefined }>(
	scale: RatingScale,
	s: S,
): S {
	return { ...s, rating: scale.rating(s.rating), uncertainty: scale.uncertainty(s.uncertainty) };
}

/** The uncertainty's name on screen: `RD` (Glicko), `Uncertainty` (endure and speed, extended form). */
export const uncertaintyLabel = (scale: RatingScale): string =>
	scale.uncertaintyName === '±' ? 'Uncertainty' : (scale.uncertaintyName ?? 'Uncertainty');

/** An uncertainty as shown, rounded as ratings are: `50.0` for an RD, `±104.2` on the points scale. */
export const uncertaintyText = (scale: RatingScale, shown: number): string =>
	`${scale.uncertaintyName === '±' ? '±' : ''}${shown.toFixed(1)}`;
