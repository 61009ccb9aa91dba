/**
 * The championship chart of a season's end (docs/championship.md): each leading driver's points as they added up, race
 * by race (x: the season's rounds; y: points so far, the dropped-results rule and deductions applied at the end, as
 * the table counts them), the champion first in the legend and drawn on top.
 */
import type { ChartConfiguration, Plugin } from 'chart.js';
import { axisStyle, backgroundPlugin, legendLabelStyle, subtitleOptions, titleOptions } from './chart-base.js';
import { clipName } from './chart-text.js';
import { chartColors } from './chart-theme.js';
import { MAX_CHAMPIONSHIP_LINES, type ChampionshipChart, type ChartTheme } from './chart-types.js';

type ChampionshipConfig = ChartConfiguration<'line', number[]>;

export function championshipConfig(
	chart: ChampionshipChart,
	theme: ChartTheme,
	plugins: readonly Plugin[] = [],
): ChampionshipConfig {
	const colors = chartColors[theme];
	if (chart.rounds.length === 0) throw new Error('A championship chart needs at least one race.');
	for (const series of chart.series) {
		if (series.points.length !== chart.rounds.length) {
			throw new Error(`${series.name} has ${series.points.length} totals for ${chart.rounds.length} races.`);
		}
	}
	const series = chart.series.slice(0, MAX_CHAMPIONSHIP_LINES);
	const axis = axisStyle(colors);
	return {
		type: 'line',
		data: {
			labels: chart.rounds.map((round) => clipName(round, 12)),
			datasets: series.map((s, i) => {
				const color = colors.palette[i % colors.palette.length]!;
				return {
					label: clipName(s.name, 20),
					data: [...s.points],
					borderColor: color,
					backgroundColor: color,
					borderWidth: i === 0 ? 3 : 2,
					borderDash: i >= colors.palette.length ? [6, 4] : [],
					pointRadius: chart.rounds.length > 30 ? 0 : 3,
					tension: 0,
					// The champion's line is drawn last, on top of the others.
					order: -i,
				};
			}),
		},
		options: {
			responsive: false,
			animation: false,
			layout: { padding: { left: 6, right: 16, top: 6, bottom: 4 } },
			scales: {
				x: { type: 'category', ...axis, ticks: { ...axis.ticks, autoSkip: true, maxRotation: 0 } },
				y: {
					type: 'linear',
					beginAtZero: true,
					...axis,
					title: { display: true, text: 'points', color: colors.mutedText },
				},
			},
			plugins: {
				title: titleOptions(chart, colors),
				subtitle: subtitleOptions(chart.subtitle, colors),
				// In the table's order (the drawing order puts the champion on top, last).
				legend: {
					display: true,
					position: 'bottom',
					labels: { ...legendLabelStyle(colors), sort: (a, b) => (a.datasetIndex ?? 0) - (b.datasetIndex ?? 0) },
				},
				tooltip: { enabled: false },
			},
		},
		plugins: [backgroundPlugin(colors.background), ...plugins],
	};
}
