import type { ChartTitle } from './chart-types.js';

/** Text helpers for the charts. A chart is a picture: nothing is escaped, but absurdly long names are clipped. */

export const MAX_NAME_CHARS = 24;

/** `name` cut to `max` characters (whole code points, so no half emoji), with `…` when it was longer. */
export function clipName(name: string, max = MAX_NAME_CHARS): string {
	const chars = Array.from(name.trim());
	return chars.length <= max ? chars.join('') : `${chars.slice(0, max).join('').trimEnd()}…`;
}

/** A probability as a percentage with the precision it deserves: `62%`, `4.7%`, `<0.1%`. */
export function formatPercent(p: number): string {
	const percent = p * 100;
	if (percent > 0 && percent < 0.1) return '<0.1%';
	if (percent > 99.9 && percent < 100) return '>99.9%';
	return percent >= 10 ? `${percent.toFixed(0)}%` : `${percent.toFixed(1)}%`;
}

/** The title of every chart: "<league> · <system> · <asOf>". */
export function chartTitle(title: ChartTitle): string {
	const base = `${clipName(title.league, 40)} · ${title.system} · ${title.asOf}`;
	return title.heading === undefined ? base : `${title.heading} · ${base}`;
}

/** ` ▲2`, ` ▼1`, ` new` or nothing: how a leaderboard row moved since an earlier ranking. */
export function movedText(moved: number | 'new' | undefined): string {
	if (moved === undefined || moved === 0) return '';
	if (moved === 'new') return ' new';
	return moved > 0 ? ` ▲${moved}` : ` ▼${-moved}`;
}
