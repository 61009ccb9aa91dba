/** What every chart shares: the opaque background, the title, fonts and axis colours of a theme. */
import type { Chart, Plugin, TitleOptions } from 'chart.js';
import type { CanvasRenderingContext2D as CanvasContext } from 'canvas';
import { CHART_FONT_FAMILY } from './chart-font.js';
import type { ChartColors } from './chart-theme.js';
import { chartTitle } from './chart-text.js';
import type { ChartTitle } from './chart-types.js';

/** Font sizes chosen to stay readable when Discord shows the 800×400 PNG at its preview size. */
export const FONT_SIZE = { title: 16, subtitle: 12, legend: 12, tick: 12, small: 11 } as const;

/**
 * The chart's 2D context as canvas types it: Chart.js types it with the DOM's CanvasRenderingContext2D, which this
 * Node project's lib does not include; canvas draws it.
 */
export function contextOf(chart: Chart): CanvasContext {
	const ctx: unknown = chart.ctx;
	return ctx as CanvasContext;
}

export function font(size: number, weight: 'normal' | 'bold' = 'normal') {
	return { family: CHART_FONT_FAMILY, size, weight } as const;
}

/** Fills the whole canvas before anything is drawn: Discord would otherwise show a transparent PNG on its own colour. */
export function backgroundPlugin(color: string): Plugin {
	return {
		id: 'pitwallBackground',
		beforeDraw(chart) {
			const ctx = contextOf(chart);
			ctx.save();
			ctx.globalCompositeOperation = 'destination-over';
			ctx.fillStyle = color;
			ctx.fillRect(0, 0, chart.width, chart.height);
			ctx.restore();
		},
	};
}

export function titleOptions(title: ChartTitle, colors: ChartColors) {
	return {
		display: true,
		text: chartTitle(title),
		color: colors.text,
		font: font(FONT_SIZE.title, 'bold'),
		padding: { top: 4, bottom: 6 },
	} satisfies Partial<TitleOptions>;
}

export function subtitleOptions(text: string | undefined, colors: ChartColors) {
	return {
		display: text !== undefined,
		text: text ?? '',
		color: colors.mutedText,
		font: font(FONT_SIZE.subtitle),
		padding: { bottom: 6 },
	};
}

/** Tick, grid and border colours of one axis. */
export function axisStyle(colors: ChartColors) {
	return {
		ticks: { color: colors.mutedText, font: font(FONT_SIZE.tick) },
		grid: { color: colors.grid },
		border: { color: colors.grid },
	};
}

export function legendLabelStyle(colors: ChartColors) {
	return { color: colors.text, font: font(FONT_SIZE.legend), usePointStyle: true, boxHeight: 10, padding: 14 };
}
