/**
 * Draws one chart to a PNG on the current thread: builds the Chart.js configuration for its kind and theme, renders
 * it on the shared ChartJSNodeCanvas of its size, and records where the data went (chart-geometry.ts). The worker
 * (render-worker.ts) and the in-thread renderer both call this.
 */
import type { ChartConfiguration, Plugin } from 'chart.js';
import { chartCanvas } from './chart-canvas.js';
import { geometryRecorder, type ChartGeometry } from './chart-geometry.js';
import type { ChartTheme, LeaderboardChart, OddsChart, RatingHistoryChart } from './chart-types.js';
import { leaderboardConfig } from './leaderboard-config.js';
import { oddsConfig } from './odds-config.js';
import { ratingHistoryConfig } from './rating-history-config.js';

export type ChartRequest =
	| { readonly kind: 'ratingHistory'; readonly chart: RatingHistoryChart; readonly theme: ChartTheme }
	| { readonly kind: 'leaderboard'; readonly chart: LeaderboardChart; readonly theme: ChartTheme }
	| { readonly kind: 'odds'; readonly chart: OddsChart; readonly theme: ChartTheme };

export interface ChartSize {
	readonly width: number;
	readonly height: number;
}

export interface DrawnChart {
	readonly png: Buffer;
	readonly geometry: ChartGeometry;
}

/** Discord shows an embedded image at about 800×400 (issue 7 §4). */
export const DEFAULT_CHART_SIZE: ChartSize = { width: 800, height: 400 };

function configFor(request: ChartRequest, plugins: readonly Plugin[]): ChartConfiguration {
	switch (request.kind) {
		case 'ratingHistory':
			return ratingHistoryConfig(request.chart, request.theme, plugins);
		case 'leaderboard':
			return leaderboardConfig(request.chart, request.theme, plugins);
		case 'odds':
			return oddsConfig(request.chart, request.theme, plugins);
	}
}

export async function drawChart(request: ChartRequest, size: ChartSize = DEFAULT_CHART_SIZE): Promise<DrawnChart> {
	let geometry: ChartGeometry | undefined;
	const config = configFor(request, [geometryRecorder((recorded) => (geometry = recorded))]);
	const png = await chartCanvas(size.width, size.height).renderToBuffer(config, 'image/png');
	if (geometry === undefined) throw new Error(`The ${request.kind} chart was not laid out.`);
	return { png, geometry };
}
