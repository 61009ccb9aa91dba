import { describe, expect, it } from 'vitest';
import { chartColors, textColorOn } from '../../src/charts/chart-theme.js';
import type { LeaderboardChart, LeaderboardChartRow } from '../../src/charts/chart-types.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { sampleLeaderboard } from '../support/chart-samples.js';
import { blend, decodePng, distinctColors, hexRgb, isColor, pixelOf, type Rgb } from '../support/png-pixels.js';

const chart: LeaderboardChart = {
	league: 'Test League',
	system: 'glicko',
	asOf: '2026-11-01',
	rows: [
		{ rank: 1, name: 'Alice', rating: 1900, low: 1800, high: 2000, provisional: false },
		{ rank: 2, name: 'Bob', rating: 1800, low: 1760, high: 1840, provisional: false },
		{ rank: 3, name: 'Carol', rating: 1700, low: 1300, high: 2100, provisional: true },
		{ rank: 4, name: 'Dan', rating: 1600, provisional: false },
		{ rank: 5, name: 'Eve', rating: 1500, low: 1450, high: 1550, provisional: false },
		{ rank: 6, name: 'Fay', rating: 1400, low: 1150, high: 1650, provisional: true },
	],
	whiskerLabel: '±2 RD',
};

describe.each(['dark', 'light'] as const)('leaderboard chart, %s theme', (theme) => {
	const colors = chartColors[theme];
	const bar = hexRgb(colors.palette[0]!);
	const wash = blend(colors.palette[0]!, colors.background, 0.3);

	async function render() {
		const { png, geometry } = await drawChart({ kind: 'leaderboard', chart, theme });
		const pixels = await decodePng(png);
		const area = geometry.chartArea;
		const rowHeight = (area.bottom - area.top) / chart.rows.length;
		// Category rows, best at the top; the whisker runs along the middle, so bars are read a little below it.
		const rowY = (i: number) => area.top + (i + 0.5) * rowHeight;
		return { pixels, geometry, area, rowHeight, rowY, px: (rating: number) => pixelOf(geometry.scales.x!, rating) };
	}

	it('is an 800×400 PNG on the theme background, labelled best first', async () => {
		const { pixels, geometry } = await render();
		expect([pixels.width, pixels.height]).toEqual([800, 400]);
		expect(isColor(pixels.at(1, 1), hexRgb(colors.background), 0)).toBe(true);
		expect(distinctColors(pixels)).toBeGreaterThan(40);
		expect(geometry.scales.y!.labels).toEqual(['1. Alice', '2. Bob', '3. Carol', '4. Dan', '5. Eve', '6. Fay']);
		// Every whisker end lies inside the axis.
		expect(geometry.scales.x!.min).toBeLessThanOrEqual(1150);
		expect(geometry.scales.x!.max).toBeGreaterThanOrEqual(2100);
	});

	it('ends each established bar at its rating, so the lengths follow the ranking', async () => {
		const { pixels, area, rowHeight, rowY, px } = await render();
		const ends: number[] = [];
		for (const [i, row] of chart.rows.entries()) {
			if (row.provisional) continue;
			const y = rowY(i) + rowHeight * 0.2;
			let end = area.left;
			for (let x = Math.ceil(area.left) + 1; x < area.right; x++) if (isColor(pixels.at(x, y), bar, 6)) end = x;
			expect(Math.abs(end + 1 - px(row.rating)), row.name).toBeLessThanOrEqual(2);
			ends.push(end);
		}
		expect(ends).toEqual([...ends].sort((a, b) => b - a));
		expect(new Set(ends).size).toBe(ends.length);
	});

	it('hatches the provisional bars: stripes of the bar colour on a lighter wash', async () => {
		const { pixels, area, rowHeight, rowY, px } = await render();
		for (const [i, row] of chart.rows.entries()) {
			const y = rowY(i) + rowHeight * 0.2;
			let stripe = 0;
			let washed = 0;
			const from = Math.ceil(area.left) + 2;
			const to = Math.floor(px(row.rating)) - 2;
			for (let x = from; x < to; x++) {
				if (isColor(pixels.at(x, y), bar, 40)) stripe++;
				if (isColor(pixels.at(x, y), wash, 12)) washed++;
			}
			const length = to - from;
			if (row.provisional) {
				expect(stripe / length, row.name).toBeGreaterThan(0.1);
				expect(washed / length, row.name).toBeGreaterThan(0.2);
			} else {
				expect(washed, row.name).toBe(0);
			}
		}
	});

	it('draws whiskers from low to high with caps: in the text colour, and readable where they cross a bar', async () => {
		const { pixels, rowY, px } = await render();
		const text = hexRgb(colors.text);
		const onBar = hexRgb(textColorOn(colors.palette[0]!));
		const ink = (x: number, y: number, color: Rgb) => [-1, 0, 1].some((dx) => isColor(pixels.at(x + dx, y), color, 40));
		// Over a solid bar (left of the rating) the whisker takes the colour that reads on the bar.
		const inkAt = (row: LeaderboardChartRow, value: number) => (!row.provisional && value < row.rating ? onBar : text);
		for (const [i, row] of chart.rows.entries()) {
			const y = rowY(i);
			if (row.low === undefined || row.high === undefined) {
				// No whisker: the middle of the row just left of the bar's end is the bar, not a line.
				expect(ink(px(row.rating) - 10, y, onBar), row.name).toBe(false);
				continue;
			}
			for (const end of [row.low, row.high]) {
				// The cap stands 3 px above and below the whisker's line.
				expect(ink(px(end), y - 3, inkAt(row, end)), `${row.name} cap at ${end}`).toBe(true);
				expect(ink(px(end), y + 3, inkAt(row, end)), `${row.name} cap at ${end}`).toBe(true);
			}
			const middle = (row.low + row.high) / 2 + 1;
			expect(ink(px(middle), y, inkAt(row, middle)), `${row.name} whisker`).toBe(true);
			// Beyond the high end, above the whisker's line, nothing is inked (the rating label starts 5 px after it).
			expect(ink(px(row.high) + 3, y - 3, text), `${row.name} past the cap`).toBe(false);
		}
	});
});

describe('leaderboard chart input', () => {
	it('draws 25 rows, the most it takes, and refuses 26, none, and a rating that is not a number', async () => {
		const { geometry } = await drawChart({ kind: 'leaderboard', chart: sampleLeaderboard(25), theme: 'dark' });
		expect(geometry.scales.y!.labels).toHaveLength(25);
		// The 24-character clip keeps the absurdly long name readable.
		expect(geometry.scales.y!.labels).toContain('10. Maximilian Alexander von…');
		const rows = [...sampleLeaderboard(25).rows, { rank: 26, name: 'Zed', rating: 1000, provisional: false }];
		await expect(drawChart({ kind: 'leaderboard', chart: { ...chart, rows }, theme: 'dark' })).rejects.toThrow(
			'1 to 25 players, not 26',
		);
		await expect(drawChart({ kind: 'leaderboard', chart: { ...chart, rows: [] }, theme: 'dark' })).rejects.toThrow(
			'not 0',
		);
	});
});
