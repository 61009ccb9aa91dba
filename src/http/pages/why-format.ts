/**
 * The numbers and sentences of the league pages, as the bot writes them: the explanation of a rating change as
 * `/rating` and `/race show` give it (commands/rating/why-text.ts), the percentages of `/forecast` (commands/shared.ts
 * fmtPct). The same operations in the same order, so the same text; but plain text, not Discord markdown: names are
 * not escaped here, the templates' Eta escapes them for HTML (test/http/league-race-pages.test.ts compares every line
 * with why-text.ts's for names that need no escaping). `src/` does not import `commands/`, hence this copy.
 */
import type { ChangeWhy, NamedOpponent } from '../../services/change-why.js';
import type { RatingScale } from '../../formats/rating-scale.js';
import { roundedParts } from '../../formats/rounded-parts.js';
import { plural } from '../../formats/plural.js';

export const fmtRating = (x: number): string => x.toFixed(1);
export const fmtDelta = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
export const fmtPosition = (x: number): string => x.toFixed(2);
/** A probability to 0.1%, never rounded to a certainty it is not (commands/shared.ts fmtPct). */
export const fmtPct = (p: number): string => {
	if (p > 0 && p < 0.001) return '<0.1%';
	if (p > 0.999 && p < 1) return '>99.9%';
	return `${(p * 100).toFixed(1)}%`;
};
/** The Monte Carlo error of a probability (commands/forecast.ts fmtMcError). */
export const fmtMcError = (se: number): string => {
	const text = `${(se * 100).toFixed(2)}%`;
	return se > 0 && text === '0.00%' ? '<0.01%' : text;
};

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st … */
export function ordinal(n: number): string {
	const tens = n % 100;
	const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
	return `${n}${suffix}`;
}

/** A raw rating as shown on `scale`, rounded as on screen. */
export const shownRating = (scale: RatingScale, raw: number): string => fmtRating(scale.rating(raw));

/** The shown change between two raw ratings: the difference of their rounded shown values. */
export const shownChange = (scale: RatingScale, before: number, after: number): number =>
	Number(shownRating(scale, after)) - Number(shownRating(scale, before));

const expectedText = (rank: number, lead = ', expected ') =>
	Number.isFinite(rank) ? `${lead}${fmtPosition(rank)}` : '';

/** `1716.3 → 1728.0 (+11.7)`. */
export const beforeAfter = (scale: RatingScale, before: number, after: number): string =>
	`${shownRating(scale, before)} → ${shownRating(scale, after)} (${fmtDelta(shownChange(scale, before, after))})`;

/** `3rd of 12`, `tied 3rd of 12`, `DNF (classified 12th of 12)`. */
export function placeText(w: Pick<ChangeWhy, 'status' | 'place' | 'rank' | 'fieldSize'>): string {
	const of = `of ${w.fieldSize}`;
	if (w.status === 'DNF') return `DNF (classified ${ordinal(Math.floor(w.place))} ${of})`;
	return `${w.place !== w.rank ? 'tied ' : ''}${ordinal(w.place)} ${of}`;
}

const opponent = (scale: RatingScale, o: NamedOpponent) => `${o.name} (${shownRating(scale, o.rating)})`;

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

/** The change split into its parts, rounded so that they add up to the change shown (why-text.ts partsLine). */
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
		w.biggestGain && `${fmtDelta(scale.difference(w.biggestGain.delta!))} vs ${w.biggestGain.name}`,
		w.biggestLoss && `${fmtDelta(scale.difference(w.biggestLoss.delta!))} vs ${w.biggestLoss.name}`,
	].filter(Boolean);
	return `Change ${fmtDelta(shown)} = ${terms.join(' ')}${biggest.length > 0 ? ` (largest: ${biggest.join(', ')})` : ''}`;
}

/** why-text.ts roundsFactors: as many digits (2 to 6) as it takes for the shown product to round to the change. */
function roundsFactors(scale: RatingScale, k: number, observed: number, expected: number, shown: number) {
	const points = scale.kind === 'points';
	const perRound = points ? scale.difference(k) : k;
	const addsUp = (digits: number) =>
		fmtDelta(Number(perRound.toFixed(digits)) * (observed - Number(expected.toFixed(digits)))) === fmtDelta(shown);
	const digits = [2, 3, 4, 5, 6].find(addsUp) ?? 2;
	const step = perRound.toFixed(digits);
	return { step: points ? `${step} points` : `k ${step}`, expected: expected.toFixed(digits) };
}

/** `/rating`'s lines about a race: place and expected place, rating before → after; the opponents; the parts. */
export function whyLines(scale: RatingScale, w: ChangeWhy): string[] {
	const [first, ...rest] = whyBody(scale, w);
	return [
		`In ${w.race}${w.raceName !== undefined ? ` “${w.raceName}”` : ''}${w.date ? ` (${w.date})` : ''}: ${first}`,
		...rest,
	];
}

/** whyLines without the race named in front (a page listing races names it already). */
export function whyBody(scale: RatingScale, w: ChangeWhy): string[] {
	const lines = [
		`${placeText(w)}${expectedText(w.expectedRank)} · ${beforeAfter(scale, w.before.rating, w.after.rating)}`,
		opponentsLine(scale, w),
	];
	const parts = partsLine(scale, w);
	if (parts !== undefined) lines.push(parts);
	return lines;
}

/** `/race show`'s explanation of one racer: expected place, before → after, the strongest beaten and ahead. */
export function racerWhy(scale: RatingScale, w: ChangeWhy): string {
	const parts = [
		...(Number.isFinite(w.expectedRank) ? [`exp. ${fmtPosition(w.expectedRank)}`] : []),
		beforeAfter(scale, w.before.rating, w.after.rating),
	];
	const strongest = [
		w.strongestBeaten && `beat ${w.strongestBeaten.name}`,
		w.strongestLostTo && `behind ${w.strongestLostTo.name}`,
	].filter(Boolean);
	if (strongest.length > 0) parts.push(strongest.join(', '));
	return parts.join(' · ');
}
