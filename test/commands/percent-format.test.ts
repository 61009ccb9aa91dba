import { describe, expect, it } from 'vitest';
import { fmtMcError } from '../../commands/forecast.js';
import { fmtPct } from '../../commands/shared.js';

/** Percentages in replies never round a possible outcome to impossible, or an uncertain one to certain. */
describe('fmtPct and fmtMcError', () => {
	it('show 0.1% steps, with <0.1% and >99.9% for what rounds to 0 or 100 but is not', () => {
		expect([0, 1e-9, 0.0004, 0.0005, 0.25, 0.9994, 0.99951, 1].map(fmtPct)).toEqual([
			'0.0%',
			'<0.1%',
			'<0.1%',
			'0.1%', // 0.05% rounds up: shown as it is
			'25.0%',
			'99.9%',
			'>99.9%',
			'100.0%',
		]);
	});

	it('shows a Monte Carlo error below 0.005% as <0.01%, and none as 0.00%', () => {
		expect([0, 1e-5, 0.0016].map(fmtMcError)).toEqual(['0.00%', '<0.01%', '0.16%']);
	});
});
