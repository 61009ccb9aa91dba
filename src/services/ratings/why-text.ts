/**
 * Text of "why did my rating move?" for `/rating`, `/race show` and the league pages. Every number shown adds up: a
 * change is the difference of the two ratings shown, and its parts are rounded so that they add up to it
 * (rounded-parts.ts). No internal player id is shown. Names (players, races) go through the caller's `name`: Discord
 * markdown escaping for replies (commands/rating/why-text.ts), none for the pages, whose templates escape for HTML.
 */
import type { ChangeWhy, NamedOpponent } from './change-why.js';
import type { RatingScale } from '../../formats/rating-scale.js';
import { fmtDelta, fmtPosition, fmtRating } from '../../formats/number-text.js';
import { roundedParts } from '../../formats/rounded-parts.js';
import { plural } from '../../formats/plural.js';

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st … */
export function ordinal(n: number): string {
	const tens = n % 100;
	const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
	return `${n}${suffix}`;
}

/** A raw rating as shown on `scale`, rounded as on screen. */
export const shownRating = (scale: RatingScale, raw: number): string => fmtRating(scale.rating(raw));

/** The shown change between two raw ratings: the difference of their rounded shown values. */
export function shownChange(scale: RatingScale, before: number, after: number): number {
	return Number(shownRating(scale, after)) - Number(shownRating(scale, before));
}

/** `, expected 5.43` (nothing when the odds engine could not place the field). */
export const expectedText = (rank: number, lead = ', expected '): string =>
	Number.isFinite(rank) ? `${lead}${fmtPosition(rank)}` : '';

/** `1716.3 → 1728.0 (+11.7)`. */
export function beforeAfter(scale: RatingScale, before: number, after: number): string {
	return `${shownRating(scale, before)} → ${shownRating(scale, after)} (${fmtDelta(shownChange(scale, before, after))})`;
}

/** `3rd of 12`, `tied 3rd of 12`, `DNF (classified 12th of 12)`. */
export function placeText(w: Pick<ChangeWhy, 'status' | 'place' | 'rank' | 'fieldSize'>): string {
	const of = `of ${w.fieldSize}`;
	if (w.status === 'DNF') return `DNF (classified ${ordinal(Math.floor(w.place))} ${of})`;
	return `${w.place !== w.rank ? 'tied ' : ''}${ordinal(w.place)} ${of}`;
}

/**
 * The step and the expected count of rounds as shown, with as many digits as it takes (2 to 6) for the product
 * computed from the shown numbers to round to the change shown, so the line adds up on screen: `62.53 points ×
 * (0 survived − 0.0127 expected)` = −0.8. The step is k in points per round on the points scale, else k itself.
 */
function roundsFactors(scale: RatingScale, k: number, observed: number, expected: number, shown: number) {
	const points = scale.kind === 'points';
	const perRound = points ? scale.difference(k) : k;
	const addsUp = (digits: number) =>
		fmtDelta(Number(perRound.toFixed(digits)) * (observed - Number(expected.toFixed(digits)))) === fmtDelta(shown);
	// When no precision adds up (the change shown is a difference of rounded ratings), two digits.
	const digits = [2, 3, 4, 5, 6].find(addsUp) ?? 2;
	const step = perRound.toFixed(digits);
	return { step: points ? `${step} points` : `k ${step}`, expected: expected.toFixed(digits) };
}

/** The lines that name players or races, with their names written by `name`. */
export interface WhyText {
	/** `Beat 9 racers, the strongest Alice (1802.1); lost to 2, the strongest Bob (1850.0).` */
	readonly opponentsLine: (scale: RatingScale, w: ChangeWhy) => string;
	/**
	 * The change split into its main parts, per system: base points (stk) and the sums over the racers beaten, tied
	 * with and lost to (folyami, glicko, stk), or k × (observed − expected rounds) (endure, speed).
	 */
	readonly partsLine: (scale: RatingScale, w: ChangeWhy) => string | undefined;
	/** `/rating`: place and expected place, rating before → after, after the race's name; the opponents; the parts. */
	readonly whyLines: (scale: RatingScale, w: ChangeWhy) => string[];
	/** whyLines without the race named in front (a page listing races names it already). */
	readonly whyBody: (scale: RatingScale, w: ChangeWhy) => string[];
	/** `/race show`'s explanation of one racer: expected place, before → after, the strongest beaten and ahead. */
	readonly racerWhy: (scale: RatingScale, w: ChangeWhy) => string;
}

export function whyText(name: (text: string) => string): WhyText {
	const opponent = (scale: RatingScale, o: NamedOpponent) => `${name(o.name)} (${shownRating(scale, o.rating)})`;
	const text: WhyText = {
		opponentsLine: (scale, w) => {
			const beat = w.strongestBeaten
				? `Beat ${plural(w.beaten.count, 'racer')}, the strongest ${opponent(scale, w.strongestBeaten)}`
				: 'Beat nobody';
			const lost = w.strongestLostTo
				? `lost to ${w.lostTo.count}, the strongest ${opponent(scale, w.strongestLostTo)}`
				: 'lost to nobody';
			const tied = w.tied.count > 0 ? `; tied with ${w.tied.count}` : '';
			return `${beat}; ${lost}${tied}.`;
		},
		partsLine: (scale, w) => {
			const shown = shownChange(scale, w.before.rating, w.after.rating);
			const p = w.parts;
			if (p.kind === 'rounds') {
				const [done, rounds] = p.model === 'survived' ? ['survived', 'elimination'] : ['won', 'selection'];
				const { step, expected } = roundsFactors(scale, p.k, p.observed, p.expected, shown);
				return (
					`Change ${fmtDelta(shown)} = ${step} × (${p.observed} ${done} − ${expected} expected, ` +
					`over ${p.rounds} ${rounds} ${p.rounds === 1 ? 'round' : 'rounds'})`
				);
			}
			if (p.kind !== 'opponents') return undefined;
			const labelled: [string, number][] = [];
			if (p.base !== 0) labelled.push(['base points', p.base]);
			if (w.beaten.count > 0) labelled.push([`from the ${plural(w.beaten.count, 'racer')} beaten`, w.beaten.sum ?? 0]);
			if (w.tied.count > 0) labelled.push([`from the ${w.tied.count} tied`, w.tied.sum ?? 0]);
			if (w.lostTo.count > 0) labelled.push([`from the ${w.lostTo.count} ahead`, w.lostTo.sum ?? 0]);
			if (labelled.length === 0) return undefined;
			const rounded = roundedParts(
				labelled.map(([, value]) => scale.difference(value)),
				shown,
			);
			const terms = labelled.map(([label], i) => {
				const value = rounded[i]!;
				return `${i === 0 ? fmtDelta(value) : `${value >= 0 ? '+' : '−'} ${Math.abs(value).toFixed(1)}`} ${label}`;
			});
			const biggest = [
				w.biggestGain && `${fmtDelta(scale.difference(w.biggestGain.delta!))} vs ${name(w.biggestGain.name)}`,
				w.biggestLoss && `${fmtDelta(scale.difference(w.biggestLoss.delta!))} vs ${name(w.biggestLoss.name)}`,
			].filter(Boolean);
			return `Change ${fmtDelta(shown)} = ${terms.join(' ')}${biggest.length > 0 ? ` (largest: ${biggest.join(', ')})` : ''}`;
		},
		whyLines: (scale, w) => {
			const [first, ...rest] = text.whyBody(scale, w);
			const race = `${name(w.race)}${w.raceName !== undefined ? ` “${name(w.raceName)}”` : ''}`;
			return [`In ${race}${w.date ? ` (${w.date})` : ''}: ${first}`, ...rest];
		},
		whyBody: (scale, w) => {
			const lines = [
				`${placeText(w)}${expectedText(w.expectedRank)} · ${beforeAfter(scale, w.before.rating, w.after.rating)}`,
				text.opponentsLine(scale, w),
			];
			const parts = text.partsLine(scale, w);
			if (parts !== undefined) lines.push(parts);
			return lines;
		},
		racerWhy: (scale, w) => {
			const parts = [
				...(Number.isFinite(w.expectedRank) ? [`exp. ${fmtPosition(w.expectedRank)}`] : []),
				beforeAfter(scale, w.before.rating, w.after.rating),
			];
			const strongest = [
				w.strongestBeaten && `beat ${name(w.strongestBeaten.name)}`,
				w.strongestLostTo && `behind ${name(w.strongestLostTo.name)}`,
			].filter(Boolean);
			if (strongest.length > 0) parts.push(strongest.join(', '));
			return parts.join(' · ');
		},
	};
	return text;
}
