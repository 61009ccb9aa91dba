/**
 * The reliability chart of `/league stats`: for each system, the mean predicted P(win) of each decile
 * of its predictions (x) against how often those racers won (y), on the same percent scale on both axes so that the
 * dashed diagonal is perfect calibration. A point's area grows with the predictions in its decile; a bar of ±1
 * standard error shows how far from the diagonal chance alone would put it. Points below the diagonal: the system
 * was over-confident there.
 */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import {
	axisStyle,
	backgroundPlugin,
	contextOf,
	legendLabelStyle,
	subtitleOptions,
	titleOptions,
} from './chart-base.js';
import { chartColors, type ChartColors } from './chart-theme.js';
import type { ChartTheme, ReliabilityChart } from './chart-types.js';

/** More series than this cannot be told apart on one chart. */
export const MAX_RELIABILITY_SERIES = 4;
/** Radius of the point of the fullest bin, and of an almost empty one (px). */
const MAX_RADIUS = 11;
const MIN_RADIUS = 3;

type ReliabilityConfig = ChartConfiguration<'scatter', { x: number; y: number }[]>;

/** The top of both axes, in percent: the next 10% above every point and error bar, at most 100%. */
export function reliabilityAxisMax(chart: ReliabilityChart): number {
	let top = 0;
	for (const s of chart.series) {
		for (const p of s.points) top = Math.max(top, p.predicted, p.observed + (p.standardError ?? 0));
	}
	return Math.min(100, Math.max(10, Math.ceil(top * 10 - 1e-9) * 10));
}

export function reliabilityConfig(
	chart: ReliabilityChart,
	theme: ChartTheme,
	plugins: readonly Plugin[] = [],
): ReliabilityConfig {
	const colors = chartColors[theme];
	if (chart.series.length < 1 || chart.series.length > MAX_RELIABILITY_SERIES) {
		throw new Error(`A reliability chart shows 1 to ${MAX_RELIABILITY_SERIES} systems, not ${chart.series.length}.`);
	}
	for (const s of chart.series) {
		for (const p of s.points) {
			for (const v of [p.predicted, p.observed]) {
				if (!(v >= 0 && v <= 1)) throw new Error(`${s.system}: a probability must be in 0..1, not ${v}.`);
			}
			if (!(p.count > 0)) throw new Error(`${s.system}: a point needs a positive count, not ${p.count}.`);
		}
	}
	const max = reliabilityAxisMax(chart);
	const most = Math.max(1, ...chart.series.flatMap((s) => s.points.map((p) => p.count)));
	// Area ∝ count: radius ∝ √count.
	const radius = (count: number) => MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * Math.sqrt(count / most);
	const datasets: ReliabilityConfig['data']['datasets'] = [
		{
			label: 'calibrated',
			data: [
				{ x: 0, y: 0 },
				{ x: max, y: max },
			],
			showLine: true,
			borderColor: colors.mutedText,
			borderDash: [6, 5],
			borderWidth: 1.5,
			pointRadius: 0,
			pointStyle: 'line',
			order: MAX_RELIABILITY_SERIES, // under every series
		},
		...chart.series.map((s, i) => {
			const color = colors.palette[i]!;
			return {
				label: s.system,
				data: s.points.map((p) => ({ x: p.predicted * 100, y: p.observed * 100 })),
				showLine: true,
				borderColor: color,
				borderWidth: 2,
				backgroundColor: color,
				pointBackgroundColor: color,
				pointBorderColor: colors.background,
				pointBorderWidth: 1,
				pointRadius: s.points.map((p) => radius(p.count)),
				// A point at 0% or 100% is drawn whole, over the axis, not cut in half by it.
				clip: false as const,
				order: i, // the best system (first) drawn on top
			};
		}),
	];
	const axis = axisStyle(colors);
	const percentAxis = (title: string) => ({
		type: 'linear' as const,
		min: 0,
		max,
		...axis,
		title: { display: true, text: title, color: colors.mutedText, font: axis.ticks.font },
		ticks: { ...axis.ticks, stepSize: max > 50 ? 10 : 5, callback: (value: number | string) => `${value}%` },
	});
	return {
		type: 'scatter',
		data: { datasets },
		options: {
			responsive: false,
			animation: false,
			layout: { padding: { left: 6, right: 16, top: 6, bottom: 4 } },
			scales: { x: percentAxis('predicted P(win)'), y: percentAxis('observed win rate') },
			plugins: {
				title: titleOptions(chart, colors),
				subtitle: subtitleOptions('by decile of predicted P(win) · point area: predictions · bars: ±1 SE', colors),
				legend: {
					display: true,
					position: 'top',
					labels: { ...legendLabelStyle(colors), boxWidth: 10 },
				},
				tooltip: { enabled: false },
			},
		},
		plugins: [backgroundPlugin(colors.background), errorBarsPlugin(chart, colors), ...plugins],
	};
}

/** ±1 SE as a vertical bar with caps through each point, in its series' colour, under the points. */
function errorBarsPlugin(chart: ReliabilityChart, colors: ChartColors): Plugin<'scatter'> {
	return {
		id: 'pitwallErrorBars',
		beforeDatasetsDraw(drawn: Chart<'scatter'>) {
			const ctx = contextOf(drawn);
			const x = drawn.scales.x!;
			const y = drawn.scales.y!;
			const { top, bottom } = drawn.chartArea;
			ctx.save();
			ctx.lineWidth = 1.5;
			chart.series.forEach((s, i) => {
				ctx.strokeStyle = colors.palette[i]!;
				for (const p of s.points) {
					if (p.standardError === undefined || p.standardError <= 0) continue;
					const px = x.getPixelForValue(p.predicted * 100);
					const high = y.getPixelForValue((p.observed + p.standardError) * 100);
					const low = y.getPixelForValue((p.observed - p.standardError) * 100);
					ctx.beginPath();
					ctx.moveTo(px, Math.max(top, high));
					ctx.lineTo(px, Math.min(bottom, low));
					// A cap marks a bar's end; a bar cut by the chart's edge has none there.
					for (const end of [high, low].filter((at) => at >= top && at <= bottom)) {
						ctx.moveTo(px - 4, end);
						ctx.lineTo(px + 4, end);
					}
					ctx.stroke();
				}
			});
			ctx.restore();
		},
	};
}
