/**
 * "Why did my rating move?" in replies: src/services/ratings/why-text.ts with names escaped for Discord, and `/rating`'s best
 * and worst races.
 */
import type { RatingScale } from '../../src/formats/rating-scale.js';
import type { RaceResult, Standouts } from '../../src/services/ratings/rating-service.js';
import { expectedText, ordinal, shownChange, whyText } from '../../src/services/ratings/why-text.js';
import { esc, fmtDelta } from '../shared.js';

export { beforeAfter, ordinal, placeText, shownChange, shownRating } from '../../src/services/ratings/why-text.js';

export const { opponentsLine, partsLine, whyLines, racerWhy } = whyText(esc);

/** Places gained on the expected place, signed: `+4.10 places`. */
const gained = (r: RaceResult) => {
	const g = r.expectedRank - r.rank;
	return `${g >= 0 ? '+' : '−'}${Math.abs(g).toFixed(2)} ${Math.abs(g) === 1 ? 'place' : 'places'}`;
};

const resultText = (scale: RatingScale, r: RaceResult) =>
	`${esc(r.race)}${r.date ? ` (${r.date})` : ''}, ${r.status === 'DNF' ? 'DNF' : `${r.place !== r.rank ? 'tied ' : ''}${ordinal(r.place)}`} of ${r.fieldSize}${expectedText(r.expectedRank)} (${gained(r)}), ${fmtDelta(shownChange(scale, r.before, r.after))}`;

/** /rating: the best and worst races, by places gained on the expected place. */
export function standoutLines(scale: RatingScale, s: Standouts): string[] {
	return [`Best race: ${resultText(scale, s.best)}`, `Worst race: ${resultText(scale, s.worst)}`];
}
