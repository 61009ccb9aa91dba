/**
 * The rating history chart: one to four players' ratings by date, each with its uncertainty band (a
 * translucent fill between `low` and `high`), the provisional stretch dashed, a marker per race (hollow while
 * provisional) and the daily growth points without markers. The x axis is linear over day numbers (chart-days.ts).
 */
import type { Chart, ChartConfiguration, ChartDataset, LegendItem, Plugin } from 'chart.js';
import { axisStyle, backgroundPlugin, contextOf, legendLabelStyle, titleOptions } from './chart-base.js';
import { niceRange } from './chart-scale.js';
import { isCalendarDate } from '../league/dates.js';
import { dayNumber, dayTicks } from './chart-days.js';
import { niceStep } from './chart-scale.js';
import { clipName } from './chart-text.js';
import { chartColors, withAlpha } from './chart-theme.js';
import type { ChartTheme, RatingHistoryChart, RatingPoint } from './chart-types.js';

export const MAX_HISTORY_SERIES = 4;

/** Daily points closer than this share of the x range are thinned out: about 3 px at 800 px (see `thinPoints`). */
const THIN_FRACTION = 1 / 250;
const PROVISIONAL_DASH = [7, 4];
const BAND_ALPHA: Record<ChartTheme, number> = { dark: 0.22, light: 0.16 };

/** The band's opacity: lighter when several players' bands overlap, so the overlap stays readable. */
export function bandAlpha(theme: ChartTheme, players: number): number {
	return players > 1 ? BAND_ALPHA[theme] * 0.65 : BAND_ALPHA[theme];
}

type XY = { x: number; y: number | null };

export interface PlacedPoint {
	readonly point: RatingPoint;
	/** Day number, plus a fraction of a day for the second and later points of one day (two races on a day). */
	readonly x: number;
}

/**
 * Each point at its day number; several points of one day spread over the first half of that day, in order. Points
 * must be calendar days in order, with finite numbers: the chart names the first that is not.
 */
export function placePoints(
	points: readonly RatingPoint[],
	player = 'the player',
	axis: 'date' | 'race' = 'date',
): PlacedPoint[] {
	if (axis === 'race') return placeByRace(points, player);
	const placed: PlacedPoint[] = [];
	for (let i = 0; i < points.length;) {
		const day = points[i]!.day;
		if (!isCalendarDate(day)) throw new Error(`${player}'s history: "${day}" is not a YYYY-MM-DD calendar day.`);
		if (i > 0 && day < points[i - 1]!.day) {
			throw new Error(`${player}'s history is not in date order: ${day} comes after ${points[i - 1]!.day}.`);
		}
		let end = i;
		while (end < points.length && points[end]!.day === day) end++;
		const base = dayNumber(day);
		for (let j = i; j < end; j++) {
			const point = points[j]!;
			if (![point.rating, point.low ?? 0, point.high ?? 0].every(Number.isFinite)) {
				throw new Error(`${player}'s history: the point of ${day} has a rating or band that is not a finite number.`);
			}
			placed.push({ point, x: base + (0.5 * (j - i)) / (end - i) });
		}
		i = end;
	}
	return placed;
}

/** Undated races: each point at its race ordinal (`index`), which must increase. */
function placeByRace(points: readonly RatingPoint[], player: string): PlacedPoint[] {
	return points.map((point, i) => {
		const x = point.index;
		if (x === undefined || !Number.isFinite(x)) throw new Error(`${player}'s history: a point has no race number.`);
		if (i > 0 && x <= points[i - 1]!.index!) throw new Error(`${player}'s history is not in race order at race ${x}.`);
		if (![point.rating, point.low ?? 0, point.high ?? 0].every(Number.isFinite)) {
			throw new Error(`${player}'s history: the point of race ${x} has a rating or band that is not a finite number.`);
		}
		return { point, x };
	});
}

/** Ticks of a race-number axis: about eight round race numbers, labelled `race N`. */
function raceTicks(min: number, max: number): { value: number; label: string }[] {
	const step = Math.max(1, niceStep((max - min) / 8));
	const ticks: { value: number; label: string }[] = [];
	for (let value = Math.ceil(min / step) * step; value <= max; value += step)
		ticks.push({ value, label: `race ${value}` });
	return ticks;
}

function hasBand(point: RatingPoint): boolean {
	return point.low !== undefined && point.high !== undefined;
}

/** Whether the line's style changes between two neighbouring points: provisional status or the band's presence. */
function styleChanges(a: RatingPoint, b: RatingPoint | undefined): boolean {
	return b !== undefined && (a.provisional !== b.provisional || hasBand(a) !== hasBand(b));
}

/**
 * Drops daily points that would land within `minGap` days of the previous kept point: a three-year history has a
 * thousand daily points per player, more than the 800 px can show. Kept always: every race point, the first and last
 * points, the point just before a race (the grown state the race started from), and both sides of a change of
 * provisional status or of band presence.
 */
export function thinPoints(placed: readonly PlacedPoint[], minGap: number): PlacedPoint[] {
	const kept: PlacedPoint[] = [];
	let lastX = -Infinity;
	for (let i = 0; i < placed.length; i++) {
		const { point, x } = placed[i]!;
		const next = placed[i + 1]?.point;
		const keep =
			point.race !== undefined ||
			i === 0 ||
			next === undefined ||
			next.race !== undefined ||
			styleChanges(point, placed[i - 1]?.point) ||
			styleChanges(point, next) ||
			x - lastX >= minGap;
		if (keep) {
			kept.push(placed[i]!);
			lastX = x;
		}
	}
	return kept;
}

/**
 * The line's segments split by style: the segment into a provisional point is dashed, any other solid. Each list
 * holds its runs of segments, separated by a point without a value (a gap), placed halfway so x stays increasing.
 */
export function splitByStatus(kept: readonly PlacedPoint[]): { solid: XY[]; dashed: XY[] } {
	const solid: XY[] = [];
	const dashed: XY[] = [];
	for (let i = 1; i < kept.length; i++) {
		const from = kept[i - 1]!;
		const to = kept[i]!;
		if (to.point.restart === true) continue; // a yearly reset: nothing joins the old rating to the new one
		const target = to.point.provisional ? dashed : solid;
		const last = target.at(-1);
		if (last?.x !== from.x) {
			if (last !== undefined) target.push({ x: (last.x + from.x) / 2, y: null });
			target.push({ x: from.x, y: from.point.rating });
		}
		target.push({ x: to.x, y: to.point.rating });
	}
	return { solid, dashed };
}

interface DrawnSeries {
	readonly color: string;
	readonly kept: readonly PlacedPoint[];
}

/** The chart area as a clip, so bands and markers never spill onto the axes. */
function clipToArea(chart: Chart, ctx: ReturnType<typeof contextOf>): void {
	const { left, top, right, bottom } = chart.chartArea;
	ctx.beginPath();
	ctx.rect(left, top, right - left, bottom - top);
	ctx.clip();
}

/**
 * Each series' uncertainty band, under the lines: a translucent polygon along `high` and back along `low`, one per
 * run of points that have a band (a point without one breaks the band, and so does a restart).
 */
function bandsPlugin(drawn: readonly DrawnSeries[], alpha: number): Plugin<'line'> {
	return {
		id: 'pitwallBands',
		beforeDatasetsDraw(chart: Chart<'line'>) {
			const ctx = contextOf(chart);
			const x = chart.scales.x!;
			const y = chart.scales.y!;
			ctx.save();
			clipToArea(chart, ctx);
			for (const { color, kept } of drawn) {
				ctx.fillStyle = withAlpha(color, alpha);
				ctx.beginPath();
				for (let start = 0; start < kept.length;) {
					if (!hasBand(kept[start]!.point)) {
						start++;
						continue;
					}
					let end = start + 1;
					while (end < kept.length && hasBand(kept[end]!.point) && kept[end]!.point.restart !== true) end++;
					for (let i = start; i < end; i++) {
						const px = x.getPixelForValue(kept[i]!.x);
						const py = y.getPixelForValue(kept[i]!.point.high!);
						if (i === start) ctx.moveTo(px, py);
						else ctx.lineTo(px, py);
					}
					for (let i = end - 1; i >= start; i--)
						ctx.lineTo(x.getPixelForValue(kept[i]!.x), y.getPixelForValue(kept[i]!.point.low!));
					ctx.closePath();
					start = end;
				}
				ctx.fill();
			}
			ctx.restore();
		},
	};
}

/** A marker per race over the lines: filled, or a ring around the background colour while provisional. */
function markersPlugin(drawn: readonly DrawnSeries[], background: string): Plugin<'line'> {
	return {
		id: 'pitwallRaceMarkers',
		afterDatasetsDraw(chart: Chart<'line'>) {
			const ctx = contextOf(chart);
			const x = chart.scales.x!;
			const y = chart.scales.y!;
			ctx.save();
			clipToArea(chart, ctx);
			ctx.lineWidth = 2;
			for (const { color, kept } of drawn) {
				const races = kept.filter((p) => p.point.race !== undefined);
				const radius = races.length > 120 ? 2.5 : 3.5;
				// Established: one filled path. Provisional: rings, the background colour inside.
				ctx.beginPath();
				for (const p of races) {
					if (p.point.provisional) continue;
					const px = x.getPixelForValue(p.x);
					const py = y.getPixelForValue(p.point.rating);
					ctx.moveTo(px + radius + 1, py);
					ctx.arc(px, py, radius + 1, 0, 2 * Math.PI);
				}
				ctx.fillStyle = color;
				ctx.fill();
				ctx.beginPath();
				for (const p of races) {
					if (!p.point.provisional) continue;
					const px = x.getPixelForValue(p.x);
					const py = y.getPixelForValue(p.point.rating);
					ctx.moveTo(px + radius, py);
					ctx.arc(px, py, radius, 0, 2 * Math.PI);
				}
				ctx.fillStyle = background;
				ctx.strokeStyle = color;
				ctx.fill();
				ctx.stroke();
			}
			ctx.restore();
		},
	};
}

export function ratingHistoryConfig(
	chart: RatingHistoryChart,
	theme: ChartTheme,
	plugins: readonly Plugin[] = [],
): ChartConfiguration<'line', XY[]> {
	const colors = chartColors[theme];
	if (chart.series.length < 1 || chart.series.length > MAX_HISTORY_SERIES) {
		throw new Error(`A rating history chart shows 1 to ${MAX_HISTORY_SERIES} players, not ${chart.series.length}.`);
	}
	const axisKind = chart.axis ?? 'date';
	const placedSeries = chart.series.map((series) => placePoints(series.points, clipName(series.player), axisKind));
	const allX = placedSeries.flat().map((point) => point.x);
	if (allX.length === 0) throw new Error('A rating history chart needs at least one point.');
	let minX = Math.min(...allX);
	let maxX = Math.max(...allX);
	// A little room at both ends so the first and last race markers are not cut by the chart area.
	const pad = Math.max((maxX - minX) * 0.015, 1);
	minX -= pad;
	maxX += pad;
	const ticks = axisKind === 'race' ? raceTicks(minX, maxX) : dayTicks(minX, maxX);
	const tickLabels = new Map(ticks.map((tick) => [tick.value, tick.label]));

	// Bands and race markers are drawn by plugins from these lists (one path each), not as Chart.js datasets: a
	// dataset makes an element per point, and a three-year, four-player chart has thousands (bench/charts.ts).
	const drawn: DrawnSeries[] = [];
	const lines: ChartDataset<'line', XY[]>[] = [];
	placedSeries.forEach((placed, s) => {
		const color = colors.palette[s % colors.palette.length]!;
		const kept = thinPoints(placed, (maxX - minX) * THIN_FRACTION);
		drawn.push({ color, kept });
		// Two datasets per player, solid and dashed, broken by gaps: the same picture as Chart.js's per-segment
		// styling, at a fraction of its cost (bench/charts.ts).
		const { solid, dashed } = splitByStatus(kept);
		const line = {
			borderColor: color,
			backgroundColor: color,
			borderWidth: 2.5,
			fill: false,
			tension: 0,
			pointRadius: 0,
			spanGaps: false,
		} as const;
		lines.push({ ...line, label: series(chart, s), data: solid });
		if (dashed.length > 0)
			lines.push({ ...line, label: `${series(chart, s)} provisional`, data: dashed, borderDash: PROVISIONAL_DASH });
	});
	const everyPoint = drawn.flatMap((d) => d.kept.map((p) => p.point));
	const anyBand = everyPoint.some(hasBand);
	const anyProvisional = everyPoint.some((p) => p.provisional);
	const anyRace = everyPoint.some((p) => p.race !== undefined);
	const yValues = everyPoint.flatMap((p) => (hasBand(p) ? [p.low!, p.high!, p.rating] : [p.rating]));
	const yRange = niceRange(Math.min(...yValues), Math.max(...yValues), 0.03, 0.03);

	const legendItems = (): LegendItem[] => {
		const items: LegendItem[] = chart.series.map((_, s) => {
			const color = colors.palette[s % colors.palette.length]!;
			return {
				text: series(chart, s),
				strokeStyle: color,
				fillStyle: color,
				lineWidth: 3,
				pointStyle: 'line',
				hidden: false,
				fontColor: colors.text,
			};
		});
		if (anyBand && chart.bandLabel !== undefined) {
			const band = withAlpha(colors.mutedText, 0.45);
			items.push({
				text: chart.bandLabel,
				fillStyle: band,
				strokeStyle: band,
				lineWidth: 0,
				pointStyle: 'rect',
				hidden: false,
				fontColor: colors.mutedText,
			});
		}
		if (anyProvisional) {
			items.push({
				text: 'provisional',
				strokeStyle: colors.mutedText,
				lineWidth: 2,
				lineDash: [4, 3],
				pointStyle: 'line',
				hidden: false,
				fontColor: colors.mutedText,
			});
		}
		if (anyRace) {
			items.push({
				text: 'race',
				fillStyle: colors.mutedText,
				strokeStyle: colors.mutedText,
				lineWidth: 1,
				pointStyle: 'circle',
				hidden: false,
				fontColor: colors.mutedText,
			});
		}
		return items;
	};

	const axis = axisStyle(colors);
	return {
		type: 'line',
		data: { datasets: lines },
		options: {
			responsive: false,
			animation: false,
			// The data is already {x, y}, sorted by x with unique x: Chart.js may skip parsing and sorting.
			parsing: false,
			normalized: true,
			layout: { padding: { left: 6, right: 16, top: 6, bottom: 4 } },
			scales: {
				x: {
					type: 'linear',
					min: minX,
					max: maxX,
					...axis,
					afterBuildTicks: (scale) => {
						scale.ticks = ticks.map((tick) => ({ value: tick.value }));
					},
					ticks: { ...axis.ticks, maxRotation: 0, callback: (value) => tickLabels.get(Number(value)) ?? '' },
				},
				y: { type: 'linear', min: yRange.min, max: yRange.max, ...axis, ticks: { ...axis.ticks, precision: 0 } },
			},
			plugins: {
				title: titleOptions(chart, colors),
				legend: {
					display: true,
					position: 'top',
					labels: { ...legendLabelStyle(colors), boxHeight: 8, generateLabels: legendItems },
				},
				tooltip: { enabled: false },
			},
		},
		plugins: [
			backgroundPlugin(colors.background),
			bandsPlugin(drawn, bandAlpha(theme, chart.series.length)),
			markersPlugin(drawn, colors.background),
			...plugins,
		],
	};
}

function series(chart: RatingHistoryChart, index: number): string {
	return clipName(chart.series[index]!.player);
}
