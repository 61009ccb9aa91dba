/**
 * A chart's size in pixels. In a module of its own (draw-chart.ts re-exports it), so that the bot's thread can know
 * the default size without loading Chart.js, which only the chart worker needs (create-chart-renderer.ts).
 */
export interface ChartSize {
	readonly width: number;
	readonly height: number;
}

/** Discord shows an embedded image at about 800×400. */
export const DEFAULT_CHART_SIZE: ChartSize = { width: 800, height: 400 };
