/**
 * The championship forecast chart: P(title) per contender as horizontal bars, favourite at the top, each
 * bar's percentage written at its end; the subtitle says how many seasons were simulated and under which points.
 */
import type { Chart, ChartConfiguration, Plugin } from 'chart.js';
import { axisStyle, backgroundPlugin, contextOf, font, subtitleOptions, titleOptions } from './chart-base.js';
import { niceStep } from './chart-scale.js';
import { clipName, formatPercent } from './chart-text.js';
import { chartColors, type ChartColors } from './chart-theme.js';
import type { ChartTheme, ForecastChart } from './chart-types.js';

/** More bars than this cannot be read at 800×400. */
export const MAX_FORECAST_BARS = 12;

type ForecastConfig = ChartConfiguration<'bar', number[]>;

export function forecastConfig(
	chart: ForecastChart,
	theme: ChartTheme,
	plugins: readonly Plugin[] = [],
): ForecastConfig {
	const colors = chartColors[theme];
	if (chart.rows.length === 0) throw new Error('A forecast chart needs at least one contender.');
	for (const row of chart.rows) {
		if (!(row.pTitle >= 0 && row.pTitle <= 1)) {
			throw new Error(`${row.name}'s P(title) must be in 0..1, not ${row.pTitle}.`);
		}
	}
	const rows = chart.rows.slice(0, MAX_FORECAST_BARS);
	const top = Math.max(...rows.map((row) => row.pTitle)) * 100;
	const step = niceStep(Math.max(top, 1) / 5);
	// Room right of the longest bar for its label.
	const xMax = Math.min(100, Math.ceil((Math.max(top, 1) * 1.15 + 1e-9) / step) * step);
	const left = chart.rows.length > rows.length ? ` · the ${rows.length} favourites of ${chart.rows.length}` : '';
	const axis = axisStyle(colors);
	return {
		type: 'bar',
		data: {
			labels: rows.map((row) => clipName(row.name, 20)),
			datasets: [
				{
					label: 'P(title)',
					data: rows.map((row) => row.pTitle * 100),
					backgroundColor: colors.palette[0],
					borderWidth: 0,
				},
			],
		},
		options: {
			indexAxis: 'y',
			responsive: false,
			animation: false,
			layout: { padding: { left: 6, right: 16, top: 6, bottom: 4 } },
			datasets: { bar: { barPercentage: 0.85, categoryPercentage: 0.9 } },
			scales: {
				x: { type: 'linear', min: 0, max: xMax, ...axis, ticks: { ...axis.ticks, callback: (value) => `${value}%` } },
				y: {
					type: 'category',
					...axis,
					grid: { display: false },
					ticks: { ...axis.ticks, color: colors.text, autoSkip: false },
				},
			},
			plugins: {
				title: titleOptions(chart, colors),
				subtitle: subtitleOptions(`P(title): ${chart.subtitle}${left}`, colors),
				legend: { display: false },
				tooltip: { enabled: false },
			},
		},
		plugins: [backgroundPlugin(colors.background), barEndLabels(colors), ...plugins],
	};
}

/** Each bar's percentage just right of its end. */
function barEndLabels(colors: ChartColors): Plugin<'bar'> {
	return {
		id: 'pitwallForecastLabels',
		afterDatasetsDraw(chart: Chart<'bar'>) {
			const ctx = contextOf(chart);
			ctx.save();
			ctx.fillStyle = colors.text;
			ctx.font = `11px "${font(11).family}"`;
			ctx.textAlign = 'left';
			ctx.textBaseline = 'middle';
			const data = chart.data.datasets[0]?.data ?? [];
			chart.getDatasetMeta(0).data.forEach((bar, i) => {
				const value = data[i];
				if (typeof value === 'number') ctx.fillText(formatPercent(value / 100), bar.x + 4, bar.y);
			});
			ctx.restore();
		},
	};
}
