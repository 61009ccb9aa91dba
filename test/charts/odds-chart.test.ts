import { describe, expect, it } from 'vitest';
import { chartColors } from '../../src/charts/chart-theme.js';
import type { OddsChart } from '../../src/charts/chart-types.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { BAR_LABEL_HEIGHT, top3LabelBaseline } from '../../src/charts/odds-config.js';
import { sampleOdds } from '../support/chart-samples.js';
import { decodePng, distinctColors, hexRgb, isColor, pixelOf, type Pixels, type Rgb } from '../support/png-pixels.js';

const title = { league: 'Test League', system: 'endure', asOf: '2026-11-01' };
const field: OddsChart = {
	...title,
	rows: [
		{ name: 'Alice', pWin: 0.5, pTop3: 0.95 },
		{ name: 'Bob', pWin: 0.25, pTop3: 0.8 },
		{ name: 'Carol', pWin: 0.15, pTop3: 0.7 },
		{ name: 'Dan', pWin: 0.1, pTop3: 0.55 },
	],
};

/** Runs of `color` along row y, left to right, as [first, last] columns. */
function runs(pixels: Pixels, y: number, color: Rgb, from: number, to: number): [number, number][] {
	const found: [number, number][] = [];
	for (let x = Math.ceil(from); x < to; x++) {
		if (!isColor(pixels.at(x, y), color, 6)) continue;
		const last = found.at(-1);
		if (last !== undefined && last[1] === x - 1) last[1] = x;
		else found.push([x, x]);
	}
	return found;
}

describe.each(['dark', 'light'] as const)('odds chart, %s theme', (theme) => {
	const colors = chartColors[theme];

	it('draws P(win) and P(top 3) bars as tall as the probabilities, in field order', async () => {
		const { png, geometry } = await drawChart({ kind: 'odds', chart: field, theme });
		const pixels = await decodePng(png);
		expect([pixels.width, pixels.height]).toEqual([800, 400]);
		expect(isColor(pixels.at(1, 1), hexRgb(colors.background), 0)).toBe(true);
		expect(distinctColors(pixels)).toBeGreaterThan(40);
		expect(geometry.scales.x!.labels).toEqual(['Alice', 'Bob', 'Carol', 'Dan']);
		const { chartArea: area } = geometry;
		const y = geometry.scales.y!;
		for (const [key, color] of [
			['pWin', hexRgb(colors.palette[0]!)],
			['pTop3', hexRgb(colors.palette[1]!)],
		] as const) {
			// One bar per player, found just above the axis, left to right in the field's order.
			const bars = runs(pixels, area.bottom - 2, color, area.left, area.right);
			expect(bars).toHaveLength(4);
			bars.forEach(([first, last], i) => {
				const x = (first + last) / 2;
				let top = area.bottom - 2;
				while (isColor(pixels.at(x, top - 1), color, 6)) top--;
				const p = field.rows[i]![key]!;
				expect(Math.abs(top - pixelOf(y, p * 100)), `${key} ${field.rows[i]!.name}`).toBeLessThanOrEqual(1.5);
			});
			if (key === 'pWin') {
				// P(top 3) bars sit to the right of each P(win) bar, within the same player's group.
				const top3 = runs(pixels, area.bottom - 2, hexRgb(colors.palette[1]!), area.left, area.right);
				bars.forEach(([, last], i) => expect(top3[i]![0]).toBeGreaterThan(last));
			}
		}
	});

	it('shows the head-to-head as one bar split where P(first ahead) says', async () => {
		for (const pFirst of [0.62, 0.085]) {
			const chart: OddsChart = {
				...title,
				rows: [
					{ name: 'Alice', pWin: pFirst },
					{ name: 'Bob', pWin: 1 - pFirst },
				],
				headToHead: { first: 'Alice', second: 'Bob', pFirst },
			};
			const { png, geometry } = await drawChart({ kind: 'odds', chart, theme });
			const pixels = await decodePng(png);
			const area = geometry.chartArea;
			const x = geometry.scales.x!;
			expect([x.min, x.max]).toEqual([0, 100]);
			// Well below the written names, inside the bar.
			const rowY = (area.top + area.bottom) / 2 + 40;
			const first = runs(pixels, rowY, hexRgb(colors.palette[0]!), area.left, area.right);
			const second = runs(pixels, rowY, hexRgb(colors.palette[1]!), area.left, area.right);
			expect(first).toHaveLength(1);
			expect(second).toHaveLength(1);
			expect(Math.abs(first[0]![0] - area.left)).toBeLessThanOrEqual(1.5);
			expect(Math.abs(first[0]![1] + 1 - pixelOf(x, pFirst * 100))).toBeLessThanOrEqual(1.5);
			expect(Math.abs(second[0]![0] - pixelOf(x, pFirst * 100))).toBeLessThanOrEqual(1.5);
			expect(Math.abs(second[0]![1] + 1 - area.right)).toBeLessThanOrEqual(1.5);
		}
	});
});

describe('odds chart input', () => {
	it('shows the 20 favourites of a larger field', async () => {
		const { geometry } = await drawChart({ kind: 'odds', chart: sampleOdds(25), theme: 'dark' });
		expect(geometry.scales.x!.labels).toHaveLength(20);
	});

	it('refuses a field of one and a probability outside 0..1', async () => {
		await expect(
			drawChart({ kind: 'odds', chart: { ...title, rows: [{ name: 'A', pWin: 1 }] }, theme: 'dark' }),
		).rejects.toThrow('at least 2 players, not 1');
		const rows = [
			{ name: 'A', pWin: 0.5, pTop3: 1 },
			{ name: 'B', pWin: Number.NaN, pTop3: 1 },
		];
		await expect(drawChart({ kind: 'odds', chart: { ...title, rows }, theme: 'dark' })).rejects.toThrow(
			"B's probability must be in 0..1, not NaN.",
		);
		const headToHead = { first: 'A', second: 'B', pFirst: 1.2 };
		await expect(drawChart({ kind: 'odds', chart: { ...title, rows: [], headToHead }, theme: 'dark' })).rejects.toThrow(
			'in 0..1, not 1.2',
		);
	});
});

describe('bar labels of small bars side by side', () => {
	it('raise a P(top 3) label one line above the P(win) label it would overlap, and leave the others alone', () => {
		// `<0.1%` (28 px) and `2.6%` (22 px) on bars 24 px apart, both just above the axis: they would overlap.
		const win = { x: 100, y: 330, width: 28 };
		expect(top3LabelBaseline(win, { x: 124, y: 326, width: 22 })).toBe(330 - BAR_LABEL_HEIGHT);
		// Far enough apart sideways (wide bars), or the top-3 bar already a line taller: unchanged.
		expect(top3LabelBaseline(win, { x: 140, y: 326, width: 22 })).toBe(326);
		expect(top3LabelBaseline(win, { x: 124, y: 300, width: 22 })).toBe(300);
	});
});
