/**
 * Text of "why did my rating move?" (issue 8 §4) for /rating and /race show. Every number shown adds up: a change
 * is the difference of the two ratings shown, and its parts are rounded so that they add up to it (rounded-parts.ts).
 * Names are escaped; no internal player id is shown.
 */
import { roundedParts } from '../../src/formats/rounded-parts.js';
import type { ChangeWhy, NamedOpponent } from '../../src/services/change-why.js';
import type { RatingScale } from '../../src/formats/rating-scale.js';
import type { RaceResult, Standouts } from '../../src/services/rating-service.js';
import { esc, fmtDelta, fmtPosition, fmtRating } from '../shared.js';
import { plural } from '../../src/formats/plural.js';

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
const expectedText = (rank: number, lead = ', expected ') =>
	Number.isFinite(rank) ? `${lead}${fmtPosition(rank)}` : '';

/** `1716.3 → 1728.0 (+11.7)`. */
export function beforeAfter(scale: RatingScale, before: number, after: number): string {
	return `${shownRating(scale, before)} → ${shownRating(scale, after)} (${fmtDelta(shownChange(scale, before, after))})`;
}

/** `3rd of 12`, `tied 3rd of 12`, `DNF (12th of 12)`. */
export function placeText(w: Pick<ChangeWhy, 'status' | 'place' | 'rank' | 'fieldSize'>): string {
	const of = `of ${w.fieldSize}`;
	if (w.status === 'DNF') return `DNF (classified ${ordinal(Math.floor(w.place))} ${of})`;
	return `${w.place !== w.rank ? 'tied ' : ''}${ordinal(w.place)} ${of}`;
}

const opponent = (scale: RatingScale, o: NamedOpponent) => `${esc(o.name)} (${shownRating(scale, o.rating)})`;

/** `Beat 9 racers, the strongest Alice (1802.1); lost to 2, the strongest Bob (1850.0).` */
export function opponentsLine(scale: RatingScale, w: ChangeWhy): string {
	const beat = w.strongestBeaten
		? `Beat ${plural(w.beaten.count, 'racer')}, the strongest ${opponent(scale, w.strongestBeaten)}`
		: 'Beat nobody';
	const lost = w.strongestLostTo
		? `lost to ${w.lostTo.count}, the strongest ${opponent(scale, w.strongestLostTo)}`
		: 'lost to nobody';
	const tied = w.tied.count > 0 ? `; tied with ${w.tied.count}` : '';
	return `${beat}; ${lost}${tied}.`;
}

/**
 * The change split into its main parts, per system: base points (stk) and the sums over the racers beaten, tied
 * with and lost to (folyami, glicko, stk), or k × (observed − expected rounds) (endure, speed).
 */
export function partsLine(scale: RatingScale, w: ChangeWhy): string | undefined {
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
		w.biggestGain && `${fmtDelta(scale.difference(w.biggestGain.delta!))} vs ${esc(w.biggestGain.name)}`,
		w.biggestLoss && `${fmtDelta(scale.difference(w.biggestLoss.delta!))} vs ${esc(w.biggestLoss.name)}`,
	].filter(Boolean);
	return `Change ${fmtDelta(shown)} = ${terms.join(' ')}${biggest.length > 0 ? ` (largest: ${biggest.join(', ')})` : ''}`;
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

/** /rating: the lines explaining the last race. */
export function whyLines(scale: RatingScale, w: ChangeWhy): string[] {
	const lines = [
		`In ${esc(w.race)}${w.raceName !== undefined ? ` “${esc(w.raceName)}”` : ''}${w.date ? ` (${w.date})` : ''}: ${placeText(w)}${expectedText(w.expectedRank)} · ${beforeAfter(scale, w.before.rating, w.after.rating)}`,
		opponentsLine(scale, w),
	];
	const parts = partsLine(scale, w);
	if (parts !== undefined) lines.push(parts);
	return lines;
}

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

/** /race show: the explanation part of a racer's line (after place, name and time). */
export function racerWhy(scale: RatingScale, w: ChangeWhy): string {
	const parts = [
		...(Number.isFinite(w.expectedRank) ? [`exp. ${fmtPosition(w.expectedRank)}`] : []),
		beforeAfter(scale, w.before.rating, w.after.rating),
	];
	const strongest = [
		w.strongestBeaten && `beat ${esc(w.strongestBeaten.name)}`,
		w.strongestLostTo && `behind ${esc(w.strongestLostTo.name)}`,
	].filter(Boolean);
	if (strongest.length > 0) parts.push(strongest.join(', '));
	return parts.join(' · ');
}
