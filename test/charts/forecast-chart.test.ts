import { describe, expect, it } from 'vitest';
import { chartColors } from '../../src/charts/chart-theme.js';
import type { ForecastChart } from '../../src/charts/chart-types.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { MAX_FORECAST_BARS } from '../../src/charts/forecast-config.js';
import { decodePng, hexRgb, isColor, pixelOf } from '../support/png-pixels.js';

/** P(title) as horizontal bars, favourite at the top, each as long as its probability. */
const chart: ForecastChart = {
	league: 'Test League',
	system: 'endure',
	asOf: '2026-11-01',
	subtitle: '100,000 seasons · 5 races left · f1 points',
	rows: [
		{ name: 'Alice', pTitle: 0.6 },
		{ name: 'Bob', pTitle: 0.3 },
		{ name: 'Carol', pTitle: 0.08 },
		{ name: 'Dan', pTitle: 0.02 },
	],
};

describe.each(['dark', 'light'] as const)('forecast chart, %s theme', (theme) => {
	it('draws one bar per contender, top to bottom, as long as P(title)', async () => {
		const { png, geometry } = await drawChart({ kind: 'forecast', chart, theme });
		const pixels = await decodePng(png);
		expect([pixels.width, pixels.height]).toEqual([800, 400]);
		expect(geometry.scales.y!.labels).toEqual(['Alice', 'Bob', 'Carol', 'Dan']);
		const x = geometry.scales.x!;
		const bar = hexRgb(chartColors[theme].palette[0]!);
		const rows = geometry.scales.y!;
		chart.rows.forEach((row, i) => {
			// The category centre of row i, then walk right along the bar to its end.
			const y = Math.round(rows.top + ((i + 0.5) * (rows.bottom - rows.top)) / chart.rows.length);
			let end = Math.ceil(geometry.chartArea.left) + 1;
			expect(isColor(pixels.at(end, y), bar, 6), row.name).toBe(true);
			while (isColor(pixels.at(end + 1, y), bar, 6)) end++;
			// The bar covers pixels up to its end value: the last one drawn in full is just left of it.
			expect(Math.abs(end + 0.5 - pixelOf(x, row.pTitle * 100)), row.name).toBeLessThanOrEqual(1.5);
		});
	});
});

describe('forecast chart limits', () => {
	it('shows at most MAX_FORECAST_BARS bars and refuses probabilities outside 0..1', async () => {
		const many: ForecastChart = {
			...chart,
			rows: Array.from({ length: 30 }, (_, i) => ({ name: `P${i}`, pTitle: 1 / 30 })),
		};
		const { geometry } = await drawChart({ kind: 'forecast', chart: many, theme: 'dark' });
		expect(geometry.scales.y!.labels).toHaveLength(MAX_FORECAST_BARS);
		await expect(
			drawChart({ kind: 'forecast', chart: { ...chart, rows: [{ name: 'A', pTitle: 1.2 }] }, theme: 'dark' }),
		).rejects.toThrow("A's P(title) must be in 0..1, not 1.2.");
	});
});
