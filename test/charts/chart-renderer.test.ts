import { afterAll, describe, expect, it } from 'vitest';
import { chartCanvas, chartCanvasCount } from '../../src/charts/chart-canvas.js';
import { chartColors } from '../../src/charts/chart-theme.js';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { sampleLeaderboard, sampleOdds, sampleRatingHistory } from '../support/chart-samples.js';
import { decodePng, distinctColors, hexRgb, isColor } from '../support/png-pixels.js';

// The app's renderer: charts drawn on its worker thread.
const renderer = createChartRenderer();
afterAll(() => renderer.close());

describe('the chart renderer (worker thread)', () => {
	const charts = [
		['rating history', (theme: 'dark' | 'light') => renderer.ratingHistory(sampleRatingHistory(2), theme)],
		['leaderboard', (theme: 'dark' | 'light') => renderer.leaderboard(sampleLeaderboard(20), theme)],
		['odds', (theme: 'dark' | 'light') => renderer.odds(sampleOdds(12), theme)],
		['head-to-head', (theme: 'dark' | 'light') => renderer.odds(sampleOdds(2), theme)],
	] as const;

	for (const [name, render] of charts) {
		it.each(['dark', 'light'] as const)(
			`draws the ${name} chart in the %s theme: 800×400, opaque, not blank`,
			async (theme) => {
				const png = await render(theme);
				expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
				const pixels = await decodePng(png);
				expect([pixels.width, pixels.height]).toEqual([800, 400]);
				for (const [x, y] of [
					[0, 0],
					[799, 0],
					[0, 399],
					[799, 399],
				] as const) {
					expect(isColor(pixels.at(x, y), hexRgb(chartColors[theme].background), 0)).toBe(true);
				}
				expect(distinctColors(pixels)).toBeGreaterThan(40);
				expect(png.length).toBeLessThan(150_000);
			},
		);
	}

	it('draws on the worker exactly what the calling thread draws', async () => {
		const request = { kind: 'leaderboard', chart: sampleLeaderboard(12), theme: 'light' } as const;
		const [viaWorker, here] = await Promise.all([renderer.draw(request), drawChart(request)]);
		expect(viaWorker.geometry).toEqual(here.geometry);
		expect(viaWorker.png.equals(here.png)).toBe(true);
	});

	it('answers a burst of concurrent requests, each with its own chart', async () => {
		const pngs = await Promise.all(
			Array.from({ length: 12 }, (_, n) => renderer.odds(sampleOdds(n + 2), n % 2 ? 'light' : 'dark')),
		);
		expect(new Set(pngs.map((png) => png.toString('base64'))).size).toBe(12);
	});

	it('rejects bad input with the renderer’s message and keeps working', async () => {
		await expect(renderer.ratingHistory({ ...sampleRatingHistory(1), series: [] })).rejects.toThrow(
			'1 to 4 players, not 0',
		);
		const png = await renderer.leaderboard(sampleLeaderboard(3));
		expect((await decodePng(png)).width).toBe(800);
	});

	it('uses the dark theme when none is given', async () => {
		const pixels = await decodePng(await renderer.odds(sampleOdds(3)));
		expect(isColor(pixels.at(0, 0), hexRgb(chartColors.dark.background), 0)).toBe(true);
	});
});

describe('renderer lifetime', () => {
	it('finds the renderChart step of chartjs-node-canvas that its own PNG settings rely on', () => {
		// Without it draw-chart.ts falls back to renderToBuffer: still correct, but slower and larger PNGs.
		expect(typeof (chartCanvas(800, 400) as unknown as { renderChart?: unknown }).renderChart).toBe('function');
	});

	it('reuses one ChartJSNodeCanvas per size on the calling thread', async () => {
		const here = createChartRenderer({ worker: false });
		await here.odds(sampleOdds(3));
		const count = chartCanvasCount();
		for (let i = 0; i < 5; i++) await here.leaderboard(sampleLeaderboard(5), i % 2 ? 'dark' : 'light');
		expect(chartCanvasCount()).toBe(count);
		const small = createChartRenderer({ worker: false, size: { width: 400, height: 200 } });
		expect((await decodePng(await small.odds(sampleOdds(3)))).width).toBe(400);
		expect(chartCanvasCount()).toBe(count + 1);
		await Promise.all([here.close(), small.close()]);
		await expect(here.odds(sampleOdds(3))).rejects.toThrow('closed');
	});

	it('close() ends the worker: pending charts fail with a clear message, later ones are refused', async () => {
		const own = createChartRenderer();
		await own.odds(sampleOdds(3));
		const pending = expect(own.ratingHistory(sampleRatingHistory(4))).rejects.toThrow(
			'closed before the chart was drawn',
		);
		await own.close();
		await pending;
		await expect(own.leaderboard(sampleLeaderboard(3))).rejects.toThrow('closed');
	});
});
