/**
 * The app's chart renderer: one per process, made at start-up and closed at shutdown. By default it draws
 * on a worker thread: a history chart blocks the thread that draws it for tens of milliseconds, more than 50 ms under
 * load, and a burst of renders on the main thread stalls every other interaction (numbers: docs/charts.md).
 */
import type { ChartRenderer, ChartTheme } from './chart-types.js';
import { DEFAULT_CHART_SIZE, type ChartSize } from './chart-size.js';
import type { ChartRequest, DrawnChart } from './draw-chart.js';
import { WorkerChartRenderer } from './worker-chart-renderer.js';

export interface ChartRendererOptions {
	/** PNG size in pixels; default 800×400, Discord's embed preview size. */
	readonly size?: ChartSize;
	/** Theme when a call gives none; default `dark`. */
	readonly theme?: ChartTheme;
	/** Draw on a worker thread (default) or on the calling thread (the benchmark's comparison). */
	readonly worker?: boolean;
}

/** A renderer that also returns where the data went (tests, benchmark). */
export interface MeasuredChartRenderer extends ChartRenderer {
	draw(request: ChartRequest): Promise<DrawnChart>;
}

export function createChartRenderer(options: ChartRendererOptions = {}): MeasuredChartRenderer {
	const size = options.size ?? DEFAULT_CHART_SIZE;
	const defaultTheme = options.theme ?? 'dark';
	let closed = false;
	const worker = options.worker === false ? undefined : new WorkerChartRenderer(size);
	const draw = (request: ChartRequest): Promise<DrawnChart> => {
		if (worker !== undefined) return worker.draw(request);
		if (closed) return Promise.reject(new Error('The chart renderer is closed.'));
		// Chart.js is loaded by the thread that draws: here only when drawing in-thread (the bot never does).
		return import('./draw-chart.js').then(({ drawChart }) => drawChart(request, size));
	};
	const png = async (request: ChartRequest) => (await draw(request)).png;
	return {
		draw,
		ratingHistory: (chart, theme = defaultTheme) => png({ kind: 'ratingHistory', chart, theme }),
		leaderboard: (chart, theme = defaultTheme) => png({ kind: 'leaderboard', chart, theme }),
		odds: (chart, theme = defaultTheme) => png({ kind: 'odds', chart, theme }),
		reliability: (chart, theme = defaultTheme) => png({ kind: 'reliability', chart, theme }),
		forecast: (chart, theme = defaultTheme) => png({ kind: 'forecast', chart, theme }),
		championship: (chart, theme = defaultTheme) => png({ kind: 'championship', chart, theme }),
		close: async () => {
			closed = true;
			await worker?.close();
		},
	};
}
