/**
 * The leaderboard chart: the top N as horizontal bars from the axis start to the rating, best at the top,
 * uncertainty whiskers from `low` to `high` with caps, the rating written at the bar's end, and provisional players
 * hatched and lighter (with a legend entry), so the picture says which ranks are still uncertain. Rows may say how
 * far each player moved since an earlier ranking (▲2, ▼1, new): the monthly post shows who moved.
 */
import type { Chart, ChartConfiguration, LegendItem, Plugin } from 'chart.js';
import { createCanvas } from 'canvas';
import {
	axisStyle,
	backgroundPlugin,
	contextOf,
	font,
	FONT_SIZE,
	legendLabelStyle,
	titleOptions,
} from './chart-base.js';
import { niceRange } from './chart-scale.js';
import { clipName, movedText } from './chart-text.js';
import { chartColors, textColorOn, withAlpha, type ChartColors } from './chart-theme.js';
import type { ChartTheme, LeaderboardChart, LeaderboardChartRow } from './chart-types.js';

export const MAX_LEADERBOARD_ROWS = 25;

/** Diagonal stripes of `color` on a lighter wash of it: the provisional bars. */
/**
 * Typed `string` because Chart.js takes a CanvasPattern wherever it takes a colour, but types it with the DOM's
 * CanvasPattern, which this Node project's lib does not include.
 */
function hatchPattern(color: string, colors: ChartColors): string {
	const size = 8;
	const tile = createCanvas(size, size);
	const ctx = tile.getContext('2d');
	ctx.fillStyle = colors.background;
	ctx.fillRect(0, 0, size, size);
	ctx.fillStyle = withAlpha(color, 0.3);
	ctx.fillRect(0, 0, size, size);
	ctx.strokeStyle = color;
	ctx.lineWidth = 2;
	ctx.beginPath();
	// One stripe corner to corner plus the two halves that continue it across the tile edges.
	for (const offset of [-size, 0, size]) {
		ctx.moveTo(offset, size);
		ctx.lineTo(offset + size, 0);
	}
	ctx.stroke();
	const pattern = ctx.createPattern(tile, 'repeat');
	if (pattern === null) throw new Error('canvas could not make the provisional hatch pattern.');
	return pattern as unknown as string;
}

/**
 * Whiskers with caps over each bar, and the rating just right of the bar or whisker, whichever ends later. The part of
 * a whisker that crosses a solid bar is drawn in the colour that reads on the bar, the rest in the text colour.
 */
function whiskersPlugin(rows: readonly LeaderboardChartRow[], colors: ChartColors): Plugin<'bar'> {
	const onBar = textColorOn(colors.palette[0]!);
	return {
		id: 'pitwallWhiskers',
		afterDatasetsDraw(chart: Chart<'bar'>) {
			const ctx = contextOf(chart);
			const x = chart.scales.x!;
			const bars = chart.getDatasetMeta(0).data;
			ctx.save();
			// 2 px: whole pixels stay fully inked wherever the ends fall (sharper at the preview size).
			ctx.lineWidth = 2;
			ctx.fillStyle = colors.mutedText;
			ctx.font = `${FONT_SIZE.small}px "${font(FONT_SIZE.small).family}"`;
			ctx.textBaseline = 'middle';
			rows.forEach((row, i) => {
				const bar = bars[i] as unknown as { y: number; height: number } | undefined;
				if (bar === undefined) return;
				const barEnd = x.getPixelForValue(row.rating);
				let end = barEnd;
				if (row.low !== undefined && row.high !== undefined) {
					const left = x.getPixelForValue(row.low);
					const right = x.getPixelForValue(row.high);
					const cap = Math.min(bar.height * 0.7, 10) / 2;
					const split = row.provisional ? left : Math.min(Math.max(barEnd, left), right);
					const stroke = (color: string, from: number, to: number, caps: number[]) => {
						ctx.strokeStyle = color;
						ctx.beginPath();
						if (to > from) {
							ctx.moveTo(from, bar.y);
							ctx.lineTo(to, bar.y);
						}
						for (const at of caps) {
							ctx.moveTo(at, bar.y - cap);
							ctx.lineTo(at, bar.y + cap);
						}
						ctx.stroke();
					};
					stroke(onBar, left, split, left < split ? [left] : []);
					stroke(colors.text, split, right, left < split ? [right] : [left, right]);
					end = Math.max(end, right);
				}
				ctx.fillText(String(Math.round(row.rating)), end + 5, bar.y);
			});
			ctx.restore();
		},
	};
}

export function leaderboardConfig(
	chart: LeaderboardChart,
	theme: ChartTheme,
	plugins: readonly Plugin[] = [],
): ChartConfiguration<'bar', [number, number][]> {
	const colors = chartColors[theme];
	const rows = chart.rows;
	if (rows.length < 1 || rows.length > MAX_LEADERBOARD_ROWS) {
		throw new Error(`A leaderboard chart shows 1 to ${MAX_LEADERBOARD_ROWS} players, not ${rows.length}.`);
	}
	const values = rows.flatMap((row) => {
		const own = [row.rating, row.low ?? row.rating, row.high ?? row.rating];
		if (!own.every(Number.isFinite)) throw new Error(`${row.name}'s rating or whisker is not a finite number.`);
		return own;
	});
	// Room on the right for the rating written after each bar.
	const { min, max } = niceRange(Math.min(...values), Math.max(...values), 0.08, 0.08);
	const color = colors.palette[0]!;
	const hatch = hatchPattern(color, colors);
	const anyProvisional = rows.some((row) => row.provisional);
	const anyWhisker = rows.some((row) => row.low !== undefined && row.high !== undefined);

	const legendItems = (): LegendItem[] => {
		const items: LegendItem[] = [
			{
				text: 'rating',
				fillStyle: color,
				strokeStyle: color,
				lineWidth: 0,
				pointStyle: 'rect',
				hidden: false,
				fontColor: colors.text,
			},
		];
		if (anyProvisional) {
			items.push({
				text: 'provisional',
				fillStyle: hatch,
				strokeStyle: color,
				lineWidth: 1,
				pointStyle: 'rect',
				hidden: false,
				fontColor: colors.text,
			});
		}
		if (anyWhisker) {
			items.push({
				text: chart.whiskerLabel ?? 'uncertainty',
				strokeStyle: colors.text,
				lineWidth: 2,
				pointStyle: 'line',
				hidden: false,
				fontColor: colors.text,
			});
		}
		return items;
	};

	const axis = axisStyle(colors);
	// Rows get tighter as N grows; labels shrink a step past 15 rows so they never overlap.
	const labelSize = rows.length > 15 ? FONT_SIZE.small : FONT_SIZE.tick;
	return {
		type: 'bar',
		data: {
			labels: rows.map((row) => `${row.rank}. ${clipName(row.name)}${movedText(row.moved)}`),
			datasets: [
				{
					label: 'rating',
					data: rows.map((row) => [min, row.rating]),
					backgroundColor: rows.map((row) => (row.provisional ? hatch : color)),
					borderColor: rows.map((row) => (row.provisional ? color : 'transparent')),
					borderWidth: rows.map((row) => (row.provisional ? 1 : 0)),
					borderSkipped: false,
					barPercentage: 0.78,
					categoryPercentage: 1,
				},
			],
		},
		options: {
			indexAxis: 'y',
			responsive: false,
			animation: false,
			layout: { padding: { left: 6, right: 16, top: 6, bottom: 4 } },
			scales: {
				x: { type: 'linear', min, max, ...axis, ticks: { ...axis.ticks, precision: 0 } },
				y: {
					type: 'category',
					...axis,
					grid: { display: false },
					ticks: { ...axis.ticks, color: colors.text, autoSkip: false, font: font(labelSize) },
				},
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
		plugins: [backgroundPlugin(colors.background), whiskersPlugin(rows, colors), ...plugins],
	};
}
