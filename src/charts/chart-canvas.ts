/**
 * The ChartJSNodeCanvas instances: one per size, made on first use and kept for the life of the thread. Making one
 * per chart leaks memory (chartjs-node-canvas issue #138: each instance loads a fresh copy of Chart.js).
 */
import { ChartJSNodeCanvas } from 'chartjs-node-canvas';
import { CHART_FONT_FAMILY, registerChartFont } from './chart-font.js';

const canvases = new Map<string, ChartJSNodeCanvas>();

export function chartCanvas(width: number, height: number): ChartJSNodeCanvas {
	const key = `${width}x${height}`;
	let canvas = canvases.get(key);
	if (canvas === undefined) {
		registerChartFont();
		canvas = new ChartJSNodeCanvas({
			width,
			height,
			chartCallback: (chartJs) => {
				chartJs.defaults.font.family = CHART_FONT_FAMILY;
				chartJs.defaults.font.size = 12;
			},
		});
		canvases.set(key, canvas);
	}
	return canvas;
}

/** How many instances exist (tests check that rendering reuses them). */
export function chartCanvasCount(): number {
	return canvases.size;
}
