import { describe, expect, it } from 'vitest';
import { fmtMcError } from '../../commands/forecast.js';
import { fmtPct } from '../../commands/shared.js';
import { formatPercent } from '../../src/charts/chart-text.js';

/** Percentages in replies never round a possible outcome to impossible, or an uncertain one to certain. */
describe('fmtPct and fmtMcError', () => {
	it('show 0.1% steps, with <0.1% and >99.9% for what lies strictly between 0 and 0.1% or 99.9% and 1', () => {
		expect([0, 1e-9, 0.0004, 0.00062, 0.001, 0.25, 0.999, 0.9994, 0.99951, 1].map(fmtPct)).toEqual([
			'0.0%',
			'<0.1%',
			'<0.1%',
			'<0.1%', // 0.062% would round to 0.1%: shown as the chart shows it
			'0.1%',
			'25.0%',
			'99.9%',
			'>99.9%',
			'>99.9%',
			'100.0%',
		]);
	});

	it("agree with the charts' labels at the small and large ends", () => {
		for (const p of [0, 1e-9, 0.00062, 0.00099, 0.001, 0.999, 0.99901, 0.9999, 1]) {
			const chart = formatPercent(p);
			if (chart.startsWith('<') || chart.startsWith('>')) expect(fmtPct(p), `p = ${p}`).toBe(chart);
			else expect(fmtPct(p).startsWith('<') || fmtPct(p).startsWith('>'), `p = ${p}`).toBe(false);
		}
	});

	it('shows a Monte Carlo error below 0.005% as <0.01%, and none as 0.00%', () => {
		expect([0, 1e-5, 0.0016].map(fmtMcError)).toEqual(['0.00%', '<0.01%', '0.16%']);
	});
});
