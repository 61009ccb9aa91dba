import { describe, expect, it } from 'vitest';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import { chartColors } from '../../src/charts/chart-theme.js';
import type { ReliabilityChart } from '../../src/charts/chart-types.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { reliabilityAxisMax } from '../../src/charts/reliability-config.js';
import { decodePng, hexRgb, isColor, pixelOf, type Pixels, type Rgb } from '../support/png-pixels.js';

/** the reliability chart of /league stats. */

const title = { league: 'Test League', system: 'calibration', asOf: '2026-11-01' };
// endure over-confident at the top (below the diagonal), glicko under-confident (above it), far from each other.
const chart: ReliabilityChart = {
	...title,
	series: [
		{
			system: 'endure',
			points: [
				{ predicted: 0.05, observed: 0.04, count: 400, standardError: 0.01 },
				{ predicted: 0.55, observed: 0.3, count: 400, standardError: 0.08 },
			],
		},
		{
			system: 'glicko',
			points: [{ predicted: 0.25, observed: 0.55, count: 400, standardError: 0.06 }],
		},
	],
};

/** Whether `color` is within `reach` px of (x, y). */
function near(pixels: Pixels, x: number, y: number, color: Rgb, reach = 1): boolean {
	for (let dx = -reach; dx <= reach; dx++) {
		for (let dy = -reach; dy <= reach; dy++) if (isColor(pixels.at(x + dx, y + dy), color, 24)) return true;
	}
	return false;
}

describe.each(['dark', 'light'] as const)('reliability chart, %s theme', (theme) => {
	const colors = chartColors[theme];

	it('puts each decile at (predicted, observed) in its system’s colour, the diagonal and ±1 SE bars', async () => {
		const { png, geometry } = await drawChart({ kind: 'reliability', chart, theme });
		const pixels = await decodePng(png);
		expect([pixels.width, pixels.height]).toEqual([800, 400]);
		expect(isColor(pixels.at(1, 1), hexRgb(colors.background), 0)).toBe(true);
		const x = geometry.scales.x!;
		const y = geometry.scales.y!;
		// both axes in percent, 0 to the next 10% above every point and bar (0.55 + 0.06 → 70%)
		expect([x.min, x.max, y.min, y.max]).toEqual([0, 70, 0, 70]);
		chart.series.forEach((s, i) => {
			const color = hexRgb(colors.palette[i]!);
			for (const p of s.points) {
				const px = pixelOf(x, p.predicted * 100);
				const py = pixelOf(y, p.observed * 100);
				expect(isColor(pixels.at(px, py), color, 6), `${s.system} at ${p.predicted}`).toBe(true);
				// the error bar's end: 1 SE above the point, beyond the point's radius (11 px)
				const barEnd = pixelOf(y, (p.observed + p.standardError!) * 100);
				if (py - barEnd > 14) expect(near(pixels, px, barEnd + 1, color), `${s.system} bar`).toBe(true);
			}
		});
		// the diagonal through (60%, 60%), where no series is
		const d = [pixelOf(x, 60), pixelOf(y, 60)] as const;
		expect(near(pixels, d[0], d[1], hexRgb(colors.mutedText), 2)).toBe(true);
		// nothing of endure's colour at the calibrated spot above its over-confident point
		expect(near(pixels, pixelOf(x, 55), pixelOf(y, 55), hexRgb(colors.palette[0]!), 2)).toBe(false);
	});
});

describe('reliability chart input', () => {
	it('scales both axes to the next 10% above the data, at least 10%, at most 100%', () => {
		const one = (predicted: number, observed: number, standardError?: number): ReliabilityChart => ({
			...title,
			series: [{ system: 'endure', points: [{ predicted, observed, count: 1, standardError }] }],
		});
		expect(reliabilityAxisMax(one(0.42, 0.3))).toBe(50);
		expect(reliabilityAxisMax(one(0.2, 0.35, 0.1))).toBe(50);
		expect(reliabilityAxisMax(one(0.5, 0.5))).toBe(50);
		expect(reliabilityAxisMax(one(0.01, 0.0))).toBe(10);
		expect(reliabilityAxisMax(one(0.9, 1, 0.2))).toBe(100);
	});

	it('refuses a chart of no system, of too many, or a probability outside 0..1', async () => {
		await expect(drawChart({ kind: 'reliability', chart: { ...title, series: [] }, theme: 'dark' })).rejects.toThrow(
			'1 to 4 systems, not 0',
		);
		const bad = { ...title, series: [{ system: 'endure', points: [{ predicted: 1.2, observed: 0, count: 3 }] }] };
		await expect(drawChart({ kind: 'reliability', chart: bad, theme: 'dark' })).rejects.toThrow(
			'endure: a probability must be in 0..1, not 1.2',
		);
	});
});

describe('reliability chart on the worker', () => {
	it('the app’s renderer draws it on its worker thread exactly as the calling thread does', async () => {
		const renderer = createChartRenderer();
		try {
			const [viaWorker, here] = await Promise.all([
				renderer.reliability(chart, 'light'),
				drawChart({ kind: 'reliability', chart, theme: 'light' }),
			]);
			expect(viaWorker.equals(here.png)).toBe(true);
		} finally {
			await renderer.close();
		}
	});
});
