/**
 * The odds chart. A field of three or more: P(win) and P(top 3) per player as grouped vertical bars in
 * percent, best first, each bar labelled while the labels fit. A field of two: the head-to-head as one split bar,
 * each side as long as its player's chance, with the name and percentage written on it.
 */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import {
	axisStyle,
	backgroundPlugin,
	contextOf,
	font,
	FONT_SIZE,
	legendLabelStyle,
	subtitleOptions,
	titleOptions,
} from './chart-base.js';
import { niceStep } from './chart-scale.js';
import { clipName, formatPercent } from './chart-text.js';
import { chartColors, textColorOn, type ChartColors } from './chart-theme.js';
import type { ChartTheme, OddsChart } from './chart-types.js';

/** More bars than this cannot be read at 800 px: the chart shows the favourites and says how many it left out. */
export const MAX_ODDS_BARS = 20;
/** Up to this many players each bar carries its percentage. */
const LABELLED_PLAYERS = 12;

type OddsConfig = ChartConfiguration<'bar', number[]>;

export function oddsConfig(chart: OddsChart, theme: ChartTheme, plugins: readonly Plugin[] = []): OddsConfig {
	const colors = chartColors[theme];
	if (chart.headToHead !== undefined) return headToHeadConfig(chart, chart.headToHead, colors, plugins);
	if (chart.rows.length < 2)
		throw new Error(`An odds chart needs a field of at least 2 players, not ${chart.rows.length}.`);
	for (const row of chart.rows) {
		for (const p of [row.pWin, row.pTop3 ?? 0]) {
			if (!(p >= 0 && p <= 1)) throw new Error(`${row.name}'s probability must be in 0..1, not ${p}.`);
		}
	}
	const rows = chart.rows.slice(0, MAX_ODDS_BARS);
	const hasTop3 = rows.some((row) => row.pTop3 !== undefined);
	const top = Math.max(...rows.map((row) => Math.max(row.pWin, row.pTop3 ?? 0))) * 100;
	const step = niceStep(top / 5);
	// Headroom above the tallest bar for its label.
	const yMax = Math.min(100, Math.ceil((top * 1.1 + 1e-9) / step) * step);
	const nameChars = rows.length > 8 ? 14 : 24;
	const subtitle =
		chart.rows.length > rows.length ? `the ${rows.length} favourites of a field of ${chart.rows.length}` : undefined;

	const datasets: OddsConfig['data']['datasets'] = [
		{ label: 'P(win)', data: rows.map((row) => row.pWin * 100), backgroundColor: colors.palette[0], borderWidth: 0 },
	];
	if (hasTop3) {
		datasets.push({
			label: 'P(top 3)',
			data: rows.map((row) => (row.pTop3 ?? 0) * 100),
			backgroundColor: colors.palette[1],
			borderWidth: 0,
		});
	}
	const axis = axisStyle(colors);
	return {
		type: 'bar',
		data: { labels: rows.map((row) => clipName(row.name, nameChars)), datasets },
		options: {
			responsive: false,
			animation: false,
			layout: { padding: { left: 6, right: 16, top: 6, bottom: 4 } },
			datasets: { bar: { barPercentage: 0.9, categoryPercentage: 0.8 } },
			scales: {
				x: {
					type: 'category',
					...axis,
					grid: { display: false },
					ticks: { ...axis.ticks, color: colors.text, autoSkip: false, maxRotation: 45 },
				},
				y: { type: 'linear', min: 0, max: yMax, ...axis, ticks: { ...axis.ticks, callback: (value) => `${value}%` } },
			},
			plugins: {
				title: titleOptions(chart, colors),
				subtitle: subtitleOptions(subtitle, colors),
				legend: {
					display: true,
					position: 'top',
					labels: { ...legendLabelStyle(colors), usePointStyle: false, boxWidth: 14 },
				},
				tooltip: { enabled: false },
			},
		},
		plugins: [
			backgroundPlugin(colors.background),
			...(rows.length <= LABELLED_PLAYERS ? [barLabelsPlugin(colors)] : []),
			...plugins,
		],
	};
}

/** A bar label: its centre x, its baseline y (the text sits above it) and its text width, in pixels. */
export interface BarLabel {
	readonly x: number;
	readonly y: number;
	readonly width: number;
}

/** The height of a 10 px label line, with a pixel between stacked labels. */
export const BAR_LABEL_HEIGHT = 12;

/**
 * The baseline of a player's P(top 3) label: above its bar, or, when it would overlap the player's P(win) label
 * (two short bars side by side, as `<0.1%` next to `2.6%` in a field of 12), one line above that label.
 */
export function top3LabelBaseline(win: BarLabel, top3: BarLabel): number {
	const apart = Math.abs(top3.x - win.x) >= (win.width + top3.width) / 2 + 2;
	if (apart || Math.abs(top3.y - win.y) >= BAR_LABEL_HEIGHT) return top3.y;
	return Math.min(top3.y, win.y - BAR_LABEL_HEIGHT);
}

/** Each bar's percentage just above it; a P(top 3) label that would overlap its P(win) label goes one line up. */
function barLabelsPlugin(colors: ChartColors): Plugin<'bar'> {
	return {
		id: 'pitwallBarLabels',
		afterDatasetsDraw(chart: Chart<'bar'>) {
			const ctx = contextOf(chart);
			ctx.save();
			ctx.fillStyle = colors.text;
			ctx.font = `10px "${font(10).family}"`;
			ctx.textAlign = 'center';
			ctx.textBaseline = 'bottom';
			const labelsOf = (d: number): (BarLabel & { text: string })[] =>
				chart.getDatasetMeta(d).data.map((bar, i) => {
					const value = chart.data.datasets[d]?.data[i];
					const text = typeof value === 'number' ? formatPercent(value / 100) : '';
					return { x: bar.x, y: bar.y - 2, width: ctx.measureText(text).width, text };
				});
			const win = labelsOf(0);
			const top3 = labelsOf(1);
			for (const label of win) ctx.fillText(label.text, label.x, label.y);
			top3.forEach((label, i) => {
				const below = win[i];
				ctx.fillText(label.text, label.x, below ? top3LabelBaseline(below, label) : label.y);
			});
			ctx.restore();
		},
	};
}

function headToHeadConfig(
	chart: OddsChart,
	h2h: NonNullable<OddsChart['headToHead']>,
	colors: ChartColors,
	plugins: readonly Plugin[],
): OddsConfig {
	if (!(h2h.pFirst >= 0 && h2h.pFirst <= 1))
		throw new Error(`A head-to-head probability must be in 0..1, not ${h2h.pFirst}.`);
	const sides = [
		{ name: clipName(h2h.first), p: h2h.pFirst, color: colors.palette[0]! },
		{ name: clipName(h2h.second), p: 1 - h2h.pFirst, color: colors.palette[1]! },
	];
	const axis = axisStyle(colors);
	return {
		type: 'bar',
		data: {
			labels: [''],
			datasets: sides.map((side) => ({
				label: side.name,
				data: [side.p * 100],
				backgroundColor: side.color,
				borderWidth: 0,
			})),
		},
		options: {
			indexAxis: 'y',
			responsive: false,
			animation: false,
			layout: { padding: { left: 16, right: 24, top: 6, bottom: 4 } },
			datasets: { bar: { barPercentage: 1, categoryPercentage: 0.55 } },
			scales: {
				x: {
					type: 'linear',
					stacked: true,
					min: 0,
					max: 100,
					...axis,
					ticks: { ...axis.ticks, stepSize: 25, callback: (value) => `${value}%` },
				},
				y: { type: 'category', stacked: true, ...axis, grid: { display: false }, ticks: { display: false } },
			},
			plugins: {
				title: titleOptions(chart, colors),
				subtitle: subtitleOptions(`head-to-head: the chance that each finishes ahead of the other`, colors),
				legend: {
					display: true,
					position: 'top',
					labels: { ...legendLabelStyle(colors), usePointStyle: false, boxWidth: 14 },
				},
				tooltip: { enabled: false },
			},
		},
		plugins: [backgroundPlugin(colors.background), splitLabelsPlugin(sides, colors), ...plugins],
	};
}

/** Name and percentage centred on each side of the split bar; beside it, in the text colour, when a side is too thin. */
function splitLabelsPlugin(
	sides: readonly { name: string; p: number; color: string }[],
	colors: ChartColors,
): Plugin<'bar'> {
	return {
		id: 'pitwallSplitLabels',
		afterDatasetsDraw(chart: Chart<'bar'>) {
			const ctx = contextOf(chart);
			ctx.save();
			ctx.textAlign = 'center';
			ctx.textBaseline = 'middle';
			sides.forEach((side, d) => {
				const bar = chart.getDatasetMeta(d).data[0] as unknown as { x: number; y: number; base: number } | undefined;
				if (bar === undefined) return;
				const left = Math.min(bar.base, bar.x);
				const right = Math.max(bar.base, bar.x);
				const percent = formatPercent(side.p);
				ctx.font = `bold ${FONT_SIZE.title + 6}px "${font(FONT_SIZE.title).family}"`;
				const wide = ctx.measureText(percent).width + 16 < right - left;
				const nameFont = `${FONT_SIZE.title}px "${font(FONT_SIZE.title).family}"`;
				if (wide) {
					ctx.fillStyle = textColorOn(side.color);
					ctx.fillText(percent, (left + right) / 2, bar.y - 12);
					ctx.font = nameFont;
					ctx.fillText(side.name, (left + right) / 2, bar.y + 14, right - left - 8);
				} else {
					// Too thin to hold its text: write it above the bar, at that side's end.
					ctx.fillStyle = colors.text;
					ctx.font = nameFont;
					ctx.textAlign = d === 0 ? 'left' : 'right';
					const at = d === 0 ? left : right;
					ctx.fillText(`${side.name} ${percent}`, at, chart.chartArea.top + 10);
					ctx.textAlign = 'center';
				}
			});
			ctx.restore();
		},
	};
}
