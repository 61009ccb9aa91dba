/**
 * The player page's rating-history chart as an inline SVG's geometry: the series `/rating`'s chart draws
 * (services/chart-data.ts ratingHistoryChart: a point after each race, the idle growth between, today), with the
 * uncertainty band (rating ± 2 × the shown uncertainty) where the system has one. Numbers only; the template
 * (templates.ts) writes the elements and the page's CSS colours them for light and dark, so no script and no image
 * request. A yearly reset (a point marked `restart`) breaks the line and the band; a provisional stretch is dashed,
 * as the bot's chart draws it.
 */
import type { RatingHistoryChart, RatingPoint } from '../../charts/chart-types.js';

/** The drawing's own units (the SVG scales to the page's width; text is sized in these). */
export const CHART_WIDTH = 480;
export const CHART_HEIGHT = 220;
const MARGIN = { left: 44, right: 10, top: 10, bottom: 24 };

export interface ChartSvg {
	readonly width: number;
	readonly height: number;
	/** Polygons of the band, one per stretch between resets (SVG `points`). */
	readonly bands: readonly string[];
	/** Path data of the line, solid and dashed (provisional) stretches. */
	readonly lines: readonly { readonly d: string; readonly provisional: boolean }[];
	/** A dot after each race, with its hover title (`R12 · 2026-02-01 · 1623.4`). */
	readonly markers: readonly { readonly x: number; readonly y: number; readonly title: string }[];
	readonly yTicks: readonly { readonly y: number; readonly label: string }[];
	readonly xTicks: readonly {
		readonly x: number;
		readonly label: string;
		readonly anchor: 'start' | 'middle' | 'end';
	}[];
	/** The plot area, for the axes. */
	readonly plot: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
	/** A sentence for screen readers: the first and last rating and the range. */
	readonly summary: string;
	readonly bandLabel?: string | undefined;
}

const dayNumber = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;

/** A step of 1, 2, 2.5 or 5 × 10^k giving about `count` ticks over [low, high]. */
function niceStep(low: number, high: number, count: number): number {
	const raw = Math.max((high - low) / count, 1e-9);
	const power = 10 ** Math.floor(Math.log10(raw));
	return ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}

const round = (x: number) => Math.round(x * 10) / 10;

/** The chart of the first series (a player page shows one player), or undefined when it has no point. */
export function ratingChartSvg(chart: RatingHistoryChart): ChartSvg | undefined {
	const points = chart.series[0]?.points ?? [];
	if (points.length === 0) return undefined;
	const byRace = chart.axis === 'race';
	// Undated points (race axis) sit at their race's ordinal; growth points carry none there and are not drawn.
	const drawn = byRace ? points.filter((p) => p.index !== undefined) : points;
	// Each point's x once (a day's number costs a date's parsing; a series has a couple of thousand points).
	const xAt = new Map<RatingPoint, number>(drawn.map((p) => [p, byRace ? p.index! : dayNumber(p.day)]));
	const xOf = (p: RatingPoint) => xAt.get(p)!;
	let [x0, x1, low, high] = [Infinity, -Infinity, Infinity, -Infinity];
	for (const p of drawn) {
		const x = xOf(p);
		if (x < x0) x0 = x;
		if (x > x1) x1 = x;
		low = Math.min(low, p.rating, p.low ?? p.rating);
		high = Math.max(high, p.rating, p.high ?? p.rating);
	}
	if (x0 === x1) [x0, x1] = [x0 - 1, x1 + 1];
	const step = niceStep(low, high, 4);
	let y0 = Math.floor(low / step) * step;
	let y1 = Math.ceil(high / step) * step;
	if (y0 === y1) [y0, y1] = [y0 - step, y1 + step];
	const plot = {
		left: MARGIN.left,
		right: CHART_WIDTH - MARGIN.right,
		top: MARGIN.top,
		bottom: CHART_HEIGHT - MARGIN.bottom,
	};
	const sx = (x: number) => round(plot.left + ((x - x0) / (x1 - x0)) * (plot.right - plot.left));
	const sy = (y: number) => round(plot.bottom - ((y - y0) / (y1 - y0)) * (plot.bottom - plot.top));

	// Stretches between resets, over the points a drawing shows: every race's point, every reset, the ends, and of the
	// idle-growth points between races one per unit of width (the series has one every few days: 1,900 points for a
	// player of 36 years in 426 units, five to a unit, which drew the same picture at five times the cost and size).
	// The axes above are of every point.
	const shown = thin(drawn, (p) => Math.floor(sx(xOf(p))));
	const stretches: RatingPoint[][] = [];
	for (const p of shown) {
		if (stretches.length === 0 || p.restart === true) stretches.push([]);
		stretches.at(-1)!.push(p);
	}
	const bands = stretches
		.map((s) => s.filter((p) => p.low !== undefined && p.high !== undefined))
		.filter((s) => s.length > 0)
		.map((s) =>
			[
				...s.map((p) => `${sx(xOf(p))},${sy(p.high!)}`),
				...[...s].reverse().map((p) => `${sx(xOf(p))},${sy(p.low!)}`),
			].join(' '),
		);
	// A segment is dashed when the rating it ends at is provisional (the bot's chart: segment by its end point).
	const lines: { d: string; provisional: boolean }[] = [];
	for (const s of stretches) {
		if (s.length === 1) {
			lines.push({ d: `M${sx(xOf(s[0]!))},${sy(s[0]!.rating)}h0.01`, provisional: s[0]!.provisional });
			continue;
		}
		for (let i = 1; i < s.length; i++) {
			const [a, b] = [s[i - 1]!, s[i]!];
			const last = lines.at(-1);
			const seg = `L${sx(xOf(b))},${sy(b.rating)}`;
			if (i > 1 && last !== undefined && last.provisional === b.provisional) last.d += seg;
			else lines.push({ d: `M${sx(xOf(a))},${sy(a.rating)}${seg}`, provisional: b.provisional });
		}
	}
	const markers = drawn
		.filter((p) => p.race !== undefined)
		.map((p) => ({
			x: sx(xOf(p)),
			y: sy(p.rating),
			title: [p.race, p.day || undefined, p.rating.toFixed(1)].filter(Boolean).join(' · '),
		}));
	const yTicks: { y: number; label: string }[] = [];
	for (let v = y0; v <= y1 + step / 2; v += step) {
		yTicks.push({ y: sy(v), label: Number(v.toFixed(6)).toString() });
	}
	const xTicks = byRace
		? [
				{ x: sx(x0), label: `race ${x0}`, anchor: 'start' as const },
				{ x: sx(x1), label: `race ${x1}`, anchor: 'end' as const },
			]
		: dateTicks(drawn[0]!.day, drawn.at(-1)!.day, x0, x1).map((t) => ({ ...t, x: sx(t.at) }));
	const first = drawn[0]!;
	const last = drawn.at(-1)!;
	return {
		width: CHART_WIDTH,
		height: CHART_HEIGHT,
		bands,
		lines,
		markers,
		yTicks,
		xTicks,
		plot,
		summary:
			`Rating history in ${chart.system}: ${first.rating.toFixed(1)} ${byRace ? 'after the first race' : `on ${first.day}`}, ` +
			`${last.rating.toFixed(1)} ${byRace ? 'after the last' : `on ${last.day}`}; between ${Math.min(...drawn.map((p) => p.rating)).toFixed(1)} and ${Math.max(...drawn.map((p) => p.rating)).toFixed(1)}.`,
		bandLabel: chart.bandLabel,
	};
}

/**
 * The points of a series worth drawing at a column (`column`: its x in whole units): a race's point, a reset, the
 * first and the last, a growth point just before a race's (where the line turns), else the first point of each column.
 */
function thin(points: readonly RatingPoint[], column: (p: RatingPoint) => number): RatingPoint[] {
	const out: RatingPoint[] = [];
	let last = -Infinity;
	points.forEach((p, i) => {
		const next = points[i + 1];
		const at = column(p);
		const keep =
			p.race !== undefined ||
			p.restart === true ||
			next === undefined ||
			next.race !== undefined ||
			next.restart === true ||
			i === 0 ||
			at !== last;
		if (keep) {
			out.push(p);
			last = at;
		}
	});
	return out;
}

/** The first and last day at the ends, and in between the first of each year (or, within two years, of a quarter). */
function dateTicks(first: string, last: string, x0: number, x1: number) {
	const ticks: { at: number; label: string; anchor: 'start' | 'middle' | 'end' }[] = [
		{ at: x0, label: first, anchor: 'start' },
	];
	const years = +last.slice(0, 4) - +first.slice(0, 4);
	const months = years > 2 ? [1] : [1, 4, 7, 10];
	const every = Math.max(1, Math.ceil(years / 4));
	const inner: { at: number; label: string }[] = [];
	for (let y = +first.slice(0, 4); y <= +last.slice(0, 4); y++) {
		if ((y - +first.slice(0, 4)) % every !== 0 && years > 2) continue;
		for (const m of months) {
			const day = `${y}-${String(m).padStart(2, '0')}-01`;
			const at = dayNumber(day);
			// Clear of the ends' labels (a full date is about a fifth of the axis wide).
			if (at - x0 > (x1 - x0) / 4 && x1 - at > (x1 - x0) / 4)
				inner.push({ at, label: day.slice(0, m === 1 && years > 2 ? 4 : 7) });
		}
	}
	// At most two inner labels, evenly picked, so that none overlaps another on a phone.
	const pick = inner.length <= 2 ? inner : [inner[0]!, inner.at(-1)!];
	for (const t of pick) ticks.push({ ...t, anchor: 'middle' });
	ticks.push({ at: x1, label: last, anchor: 'end' });
	return ticks;
}
