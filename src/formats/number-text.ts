/**
 * Numbers as every reply and page writes them (one place, so the bot, the pages and the tests format alike): ratings
 * to 0.1, signed changes with a typographic minus (U+2212), expected places to 0.01, probabilities to 0.1%.
 */

export const fmtRating = (x: number): string => x.toFixed(1);
/** A number's text with a typographic minus (U+2212) for its sign, as every signed number in replies shows. */
export const minus = (text: string): string => text.replace('-', '−');
export const fmtDelta = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
/**
 * A probability to 0.1%, never rounded to a certainty it is not: `<0.1%` above 0 and below 0.1%, `>99.9%` above 99.9%
 * and below 1, the same thresholds as the charts' labels (formatPercent), so a reply and its chart agree.
 */
export const fmtPct = (p: number): string => {
	if (p > 0 && p < 0.001) return '<0.1%';
	if (p > 0.999 && p < 1) return '>99.9%';
	return `${(p * 100).toFixed(1)}%`;
};
export const fmtPosition = (x: number): string => x.toFixed(2);
/** The Monte Carlo error, one digit finer than the probability it qualifies (100,000 seasons: at most ± 0.16%). */
export const fmtMcError = (se: number): string => {
	const text = `${(se * 100).toFixed(2)}%`;
	return se > 0 && text === '0.00%' ? '<0.01%' : text;
};
