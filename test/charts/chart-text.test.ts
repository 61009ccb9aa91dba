import { describe, expect, it } from 'vitest';
import { chartTitle, clipName, formatPercent } from '../../src/charts/chart-text.js';
import { niceRange, niceStep } from '../../src/charts/chart-scale.js';
import { textColorOn } from '../../src/charts/chart-theme.js';

describe('chart text', () => {
	it('clips names over 24 characters with an ellipsis, by code point, and nothing else', () => {
		expect(clipName('Alice')).toBe('Alice');
		expect(clipName('x'.repeat(24))).toBe('x'.repeat(24));
		expect(clipName('Maximilian Alexander von Hohenzollern')).toBe('Maximilian Alexander von…');
		// An emoji is one character, never cut in half.
		expect(clipName('🏎️'.repeat(30), 3)).toBe(`${Array.from('🏎️'.repeat(30)).slice(0, 3).join('')}…`);
		// A picture: markdown and mentions stay as typed.
		expect(clipName('**@everyone**')).toBe('**@everyone**');
	});

	it('writes probabilities with the precision they deserve', () => {
		expect(formatPercent(0.5)).toBe('50%');
		expect(formatPercent(0.047)).toBe('4.7%');
		expect(formatPercent(0.0004)).toBe('<0.1%');
		expect(formatPercent(0.99995)).toBe('>99.9%');
		expect(formatPercent(0)).toBe('0.0%');
		expect(formatPercent(1)).toBe('100%');
	});

	it('titles a chart "<league> · <system> · <asOf>"', () => {
		expect(chartTitle({ league: 'Stunts', system: 'glicko', asOf: '2026-11-24' })).toBe('Stunts · glicko · 2026-11-24');
	});
});

describe('chart scales and colours', () => {
	it('picks round steps and a range that holds the data', () => {
		expect([0.3, 1, 1.5, 3, 7, 24, 260].map(niceStep)).toEqual([0.5, 1, 2, 5, 10, 25, 500]);
		const range = niceRange(1213, 2187, 0.05, 0.1);
		expect(range.min).toBeLessThanOrEqual(1213 - 0.05 * 974);
		expect(range.max).toBeGreaterThanOrEqual(2187 + 0.1 * 974);
		expect(range.min % niceStep(974 / 8)).toBe(0);
	});

	it('writes black on light fills and white on dark ones', () => {
		expect(textColorOn('#ffffff')).toBe('#000000');
		expect(textColorOn('#e69f00')).toBe('#000000');
		expect(textColorOn('#0072b2')).toBe('#ffffff');
		expect(textColorOn('#313338')).toBe('#ffffff');
	});
});
