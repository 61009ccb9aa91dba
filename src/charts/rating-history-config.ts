/**
 * The rating history chart (issue 7 §4): one to four players' ratings by date, each with its uncertainty band (a
 * translucent fill between `low` and `high`), the provisional stretch dashed, a marker per race (hollow while
 * provisional) and the daily growth points without markers. The x axis is linear over day numbers (chart-days.ts).
 */
import type { ChartConfiguration, ChartDataset, LegendItem, Plugin, ScriptableLineSegmentContext } from 'chart.js';
import { axisStyle, backgroundPlugin, legendLabelStyle, titleOptions } from './chart-base.js';
import { dayNumber, dayTicks } from './chart-days.js';
import { clipName } from './chart-text.js';
import { chartColors, withAlpha } from './chart-theme.js';
import type { ChartTheme, RatingHistoryChart, RatingPoint } from './chart-types.js';

export const MAX_HISTORY_SERIES = 4;

/** Daily points closer than this share of the x range are thinned out: about 2.5 px at 800 px (see `thinPoints`). */
const THIN_FRACTION = 1 / 250;
const PROVISIONAL_DASH = [7, 4];
export const BAND_ALPHA: Record<ChartTheme, number> = { dark: 0.22, light: 0.16 };

type XY = { x: number; y: number | null };

export interface PlacedPoint {
	readonly point: RatingPoint;
	/** Day number, plus a fraction of a day for the second and later points of one day (two races on a day). */
	readonly x: number;
}

/** Each point at its day number; several points of one day spread over the first half of that day, in order. */
export function placePoints(points: readonly RatingPoint[]): PlacedPoint[] {
	const placed: PlacedPoint[] = [];
	for (let i = 0; i < points.length;) {
		const day = points[i]!.day;
		let end = i;
		while (end < points.length && points[end]!.day === day) end++;
		const base = dayNumber(day);
		for (let j = i; j < end; j++) placed.push({ point: points[j]!, x: base + (0.5 * (j - i)) / (end - i) });
		i = end;
	}
	return placed;
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

export function ratingHistoryConfig(
	chart: RatingHistoryChart,
	theme: ChartTheme,
	plugins: readonly Plugin[] = [],
): ChartConfiguration<'line', XY[]> {
	const colors = chartColors[theme];
	if (chart.series.length < 1 || chart.series.length > MAX_HISTORY_SERIES) {
		throw new Error(`A rating history chart shows 1 to ${MAX_HISTORY_SERIES} players, not ${chart.series.length}.`);
	}
	const placedSeries = chart.series.map((series) => placePoints(series.points));
	const allX = placedSeries.flat().map((point) => point.x);
	if (allX.length === 0) throw new Error('A rating history chart needs at least one point.');
	let minX = Math.min(...allX);
	let maxX = Math.max(...allX);
	// A little room at both ends so the first and last race markers are not cut by the chart area.
	const pad = Math.max((maxX - minX) * 0.015, 1);
	minX -= pad;
	maxX += pad;
	const ticks = dayTicks(minX, maxX);
	const tickLabels = new Map(ticks.map((tick) => [tick.value, tick.label]));

	const bands: ChartDataset<'line', XY[]>[] = [];
	const lines: ChartDataset<'line', XY[]>[] = [];
	const markers: ChartDataset<'line', XY[]>[] = [];
	let anyBand = false;
	let anyProvisional = false;
	let anyRace = false;
	placedSeries.forEach((placed, s) => {
		const color = colors.palette[s % colors.palette.length]!;
		const kept = thinPoints(placed, (maxX - minX) * THIN_FRACTION);
		const xs = kept.map((p) => p.x);
		const points = kept.map((p) => p.point);
		anyProvisional ||= points.some((p) => p.provisional);
		anyRace ||= points.some((p) => p.race !== undefined);
		if (points.some(hasBand)) {
			anyBand = true;
			const bandStyle = { borderWidth: 0, pointRadius: 0, spanGaps: false, order: 2 } as const;
			// The high edge fills down to the low edge, the dataset right after it ('+1'); no band → a gap.
			bands.push(
				{
					...bandStyle,
					label: `${series(chart, s)} band high`,
					data: points.map((p, i) => ({ x: xs[i]!, y: hasBand(p) ? p.high! : null })),
					backgroundColor: withAlpha(color, BAND_ALPHA[theme]),
					fill: '+1',
				},
				{
					...bandStyle,
					label: `${series(chart, s)} band low`,
					data: points.map((p, i) => ({ x: xs[i]!, y: hasBand(p) ? p.low! : null })),
					fill: false,
				},
			);
		}
		// The line has no points of its own (shared options keep Chart.js fast); race markers are a second dataset.
		lines.push({
			label: series(chart, s),
			data: points.map((p, i) => ({ x: xs[i]!, y: p.rating })),
			borderColor: color,
			backgroundColor: color,
			borderWidth: 2.5,
			fill: false,
			tension: 0,
			order: 1,
			pointRadius: 0,
			segment: {
				borderDash: (ctx: ScriptableLineSegmentContext) =>
					points[ctx.p1DataIndex]?.provisional ? PROVISIONAL_DASH : undefined,
			},
		});
		const races = kept.filter((p) => p.point.race !== undefined);
		if (races.length > 0) {
			markers.push({
				label: `${series(chart, s)} races`,
				data: races.map((p) => ({ x: p.x, y: p.point.rating })),
				showLine: false,
				order: 0,
				pointRadius: races.length > 120 ? 2.5 : 3.5,
				pointBorderWidth: 2,
				pointBorderColor: color,
				// Hollow while the race left the player provisional.
				pointBackgroundColor: races.map((p) => (p.point.provisional ? colors.background : color)),
			});
		}
	});

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
		data: { datasets: [...bands, ...lines, ...markers] },
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
				y: { type: 'linear', grace: '4%', ...axis, ticks: { ...axis.ticks, precision: 0 } },
			},
			plugins: {
				title: titleOptions(chart, colors),
				legend: {
					display: true,
					position: 'top',
					labels: { ...legendLabelStyle(colors), generateLabels: legendItems },
				},
				tooltip: { enabled: false },
			},
		},
		plugins: [backgroundPlugin(colors.background), ...plugins],
	};
}

function series(chart: RatingHistoryChart, index: number): string {
	return clipName(chart.series[index]!.player);
}
