import { describe, expect, it } from 'vitest';
import type { ChampionshipChart } from '../../src/charts/chart-types.js';
import { championshipConfig } from '../../src/charts/championship-config.js';
import { drawChart } from '../../src/charts/draw-chart.js';
import { decodePng } from '../support/png-pixels.js';

/** The season-end post's points chart: one line per leading driver, its totals race by race. */
const chart: ChampionshipChart = {
	league: 'Kart',
	system: 'points',
	asOf: '2026-12-31',
	heading: '2026 season',
	rounds: ['R2', 'R3', 'R4'],
	series: [
		{ name: 'Ann', points: [10, 16, 26] },
		{ name: 'Bob', points: [6, 16, 20] },
	],
	subtitle: 'points 10,6,4,3',
};

describe.each(['dark', 'light'] as const)('championship chart, %s theme', (theme) => {
	it('draws 800×400 with the rounds on x and points from 0 on y', async () => {
		const { png, geometry } = await drawChart({ kind: 'championship', chart, theme });
		const pixels = await decodePng(png);
		expect([pixels.width, pixels.height]).toEqual([800, 400]);
		expect(geometry.scales.x!.labels).toEqual(['R2', 'R3', 'R4']);
		expect(geometry.scales.y!.min).toBe(0);
		expect(geometry.scales.y!.max).toBeGreaterThanOrEqual(26);
	});
});

describe('championshipConfig', () => {
	it('refuses a series without one total per race, and a season without races', () => {
		expect(() => championshipConfig({ ...chart, series: [{ name: 'Ann', points: [1] }] }, 'dark')).toThrow(
			'Ann has 1 totals for 3 races.',
		);
		expect(() => championshipConfig({ ...chart, rounds: [], series: [] }, 'dark')).toThrow('at least one race');
	});
});
