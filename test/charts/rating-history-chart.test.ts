import { describe, expect, it } from 'vitest';
import { civilFromDays, dayNumber } from '../../src/charts/chart-days.js';
import { chartColors } from '../../src/charts/chart-theme.js';
import type { ChartTheme, RatingHistoryChart, RatingPoint } from '../../src/charts/chart-types.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { bandAlpha } from '../../src/charts/rating-history-config.js';
import { sampleRatingHistory } from '../support/chart-samples.js';
import { blend, decodePng, distinctColors, hexRgb, isColor, pixelOf, type Pixels } from '../support/png-pixels.js';

const START = dayNumber('2025-01-01');
const iso = (days: number) => {
	const { year, month, day } = civilFromDays(days);
	return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
};

/** 60 days, rating 1500 + 2 per day, band ±100, a race every 10 days, provisional for the first 12 days. */
const rating = (d: number) => 1500 + 2 * d;
const points: RatingPoint[] = Array.from({ length: 60 }, (_, d) => ({
	day: iso(START + d),
	rating: rating(d),
	low: rating(d) - 100,
	high: rating(d) + 100,
	provisional: d < 12,
	race: d % 10 === 0 ? `R${d / 10 + 1}` : undefined,
}));
const chart: RatingHistoryChart = {
	league: 'Test League',
	system: 'glicko',
	asOf: '2025-03-01',
	series: [{ player: 'Alice', points }],
	bandLabel: '±2 RD',
};

async function render(theme: ChartTheme) {
	const { png, geometry } = await drawChart({ kind: 'ratingHistory', chart, theme });
	const pixels = await decodePng(png);
	const x = geometry.scales.x!;
	const y = geometry.scales.y!;
	return { pixels, geometry, px: (d: number) => pixelOf(x, START + d), py: (value: number) => pixelOf(y, value) };
}

/** Whether `color` is within `reach` pixels above or below (x, y). */
function colorNear(
	pixels: Pixels,
	x: number,
	y: number,
	color: readonly [number, number, number],
	reach: number,
	tolerance = 10,
): boolean {
	for (let dy = -reach; dy <= reach; dy++) if (isColor(pixels.at(x, y + dy), color, tolerance)) return true;
	return false;
}

describe.each(['dark', 'light'] as const)('rating history chart, %s theme', (theme) => {
	const colors = chartColors[theme];
	const line = hexRgb(colors.palette[0]!);
	const band = blend(colors.palette[0]!, colors.background, bandAlpha(theme, 1));

	it('is an 800×400 PNG on the theme background with real content', async () => {
		const { pixels, geometry } = await render(theme);
		expect([pixels.width, pixels.height]).toEqual([800, 400]);
		expect(isColor(pixels.at(1, 1), hexRgb(colors.background), 0)).toBe(true);
		expect(distinctColors(pixels)).toBeGreaterThan(40);
		// The data's range lies inside the y scale, and the chart area inside the picture.
		expect(geometry.scales.y!.min).toBeLessThanOrEqual(1400);
		expect(geometry.scales.y!.max).toBeGreaterThanOrEqual(rating(59) + 100);
		expect(geometry.chartArea.left).toBeGreaterThan(0);
		expect(geometry.chartArea.right).toBeLessThan(800);
	});

	it('draws the line where the data is, and only there in that column', async () => {
		const { pixels, geometry, px, py } = await render(theme);
		for (const d of [25, 35, 47]) {
			const x = Math.round(px(d));
			expect(colorNear(pixels, x, py(rating(d)), line, 2), `day ${d}`).toBe(true);
			// Nowhere else in the chart area of that column, away from the line, is the line's colour.
			for (let y = Math.ceil(geometry.chartArea.top); y < geometry.chartArea.bottom; y++) {
				if (Math.abs(y - py(rating(d))) > 6) expect(isColor(pixels.at(x, y), line, 10), `day ${d}, y ${y}`).toBe(false);
			}
		}
	});

	it('fills the band between low and high with the translucent series colour, and not beyond', async () => {
		const { pixels, geometry, px, py } = await render(theme);
		const d = 35;
		const x = Math.round(px(d));
		const [top, bottom] = [py(rating(d) + 100), py(rating(d) - 100)];
		let inside = 0;
		let insideBand = 0;
		let outsideBand = 0;
		for (let y = Math.ceil(geometry.chartArea.top) + 1; y < geometry.chartArea.bottom - 1; y++) {
			const isBand = isColor(pixels.at(x, y), band, 6);
			if (y > top + 2 && y < bottom - 2 && Math.abs(y - py(rating(d))) > 6) {
				inside++;
				if (isBand) insideBand++;
			} else if (y < top - 2 || y > bottom + 2) {
				if (isBand) outsideBand++;
			}
		}
		// Grid lines cross the band, so not every pixel inside is the plain band colour.
		expect(inside).toBeGreaterThan(40);
		expect(insideBand / inside).toBeGreaterThan(0.9);
		expect(outsideBand).toBe(0);
	});

	it('dashes the provisional stretch and draws the established one solid', async () => {
		const { pixels, px, py } = await render(theme);
		const coverage = (fromDay: number, toDay: number) => {
			let on = 0;
			let columns = 0;
			for (let x = Math.ceil(px(fromDay)); x <= Math.floor(px(toDay)); x++) {
				const d = (x - px(0)) / (px(1) - px(0));
				columns++;
				if (colorNear(pixels, x, py(rating(d)), line, 1)) on++;
			}
			return on / columns;
		};
		// Between races (markers at days 0, 10, 20, 30), provisional until day 12.
		expect(coverage(1.5, 8.5)).toBeLessThan(0.85);
		expect(coverage(1.5, 8.5)).toBeGreaterThan(0.3);
		expect(coverage(21.5, 28.5)).toBe(1);
	});

	it('marks races, hollow while provisional, and leaves daily points unmarked', async () => {
		const { pixels, px, py } = await render(theme);
		const above = (d: number) => pixels.at(px(d), py(rating(d)) - 3);
		// A filled marker at an established race reaches 3 px above the line; a daily point does not.
		expect(isColor(above(20), line, 10)).toBe(true);
		expect(isColor(above(30), line, 10)).toBe(true);
		expect(isColor(above(25), line, 10)).toBe(false);
		// The race at day 10 left the player provisional: its marker is a ring (antialiased: a looser match) around
		// the background colour.
		expect(isColor(pixels.at(px(10), py(rating(10))), hexRgb(colors.background), 10)).toBe(true);
		expect(colorNear(pixels, px(10), py(rating(10)) - 4, line, 1, 30)).toBe(true);
	});

	it('draws four players, each in its palette colour', async () => {
		const { png } = await drawChart({ kind: 'ratingHistory', chart: sampleRatingHistory(4), theme });
		const pixels = await decodePng(png);
		const counts = colors.palette.slice(0, 4).map((hex) => {
			let count = 0;
			for (let y = 80; y < 370; y++)
				for (let x = 60; x < 790; x += 2) if (isColor(pixels.at(x, y), hexRgb(hex), 4)) count++;
			return count;
		});
		for (const count of counts) expect(count).toBeGreaterThan(100);
	});
});

describe('rating history chart input', () => {
	it('refuses no player and more than four', async () => {
		await expect(drawChart({ kind: 'ratingHistory', chart: { ...chart, series: [] }, theme: 'dark' })).rejects.toThrow(
			'1 to 4 players, not 0',
		);
		const five = Array.from({ length: 5 }, (_, i) => ({ player: `P${i}`, points }));
		await expect(
			drawChart({ kind: 'ratingHistory', chart: { ...chart, series: five }, theme: 'dark' }),
		).rejects.toThrow('not 5');
	});

	it('names a day that is not a calendar day, points out of order and a number that is not finite', async () => {
		const draw = (bad: RatingPoint[]) =>
			drawChart({
				kind: 'ratingHistory',
				chart: { ...chart, series: [{ player: 'Alice', points: bad }] },
				theme: 'dark',
			});
		await expect(draw([{ ...points[0]!, day: '2026-02-30' }])).rejects.toThrow(
			`Alice's history: "2026-02-30" is not a YYYY-MM-DD calendar day.`,
		);
		await expect(draw([points[1]!, points[0]!])).rejects.toThrow(
			"Alice's history is not in date order: 2025-01-01 comes after 2025-01-02.",
		);
		await expect(draw([{ ...points[0]!, high: Number.NaN }])).rejects.toThrow('not a finite number');
	});

	it('draws a player with a single point, and a system without a band', async () => {
		const single = {
			...chart,
			series: [{ player: 'Solo', points: [{ day: '2025-01-01', rating: 1500, provisional: true, race: 'R1' }] }],
			bandLabel: undefined,
		};
		const { png, geometry } = await drawChart({ kind: 'ratingHistory', chart: single, theme: 'light' });
		const pixels = await decodePng(png);
		const x = pixelOf(geometry.scales.x!, START);
		const y = pixelOf(geometry.scales.y!, 1500);
		// The hollow provisional marker: a ring of the series colour around the background.
		expect(isColor(pixels.at(x, y), hexRgb(chartColors.light.background), 10)).toBe(true);
		expect(colorNear(pixels, x, y - 4, hexRgb(chartColors.light.palette[0]!), 1, 30)).toBe(true);
	});
});
