import { describe, expect, it } from 'vitest';
import { civilFromDays, dayNumber, dayTicks } from '../../src/charts/chart-days.js';

const iso = ({ year, month, day }: { year: number; month: number; day: number }) =>
	`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

describe('chart days', () => {
	it('civilFromDays inverts dayNumber on every day from 1999 to 2101', () => {
		for (let d = dayNumber('1999-01-01'); d <= dayNumber('2101-12-31'); d++)
			expect(dayNumber(iso(civilFromDays(d)))).toBe(d);
		expect(civilFromDays(0)).toEqual({ year: 1970, month: 1, day: 1 });
		expect(iso(civilFromDays(dayNumber('2024-02-29')))).toBe('2024-02-29');
	});

	it('puts ticks on month starts for a three-year range, at most eight, labelled as dates', () => {
		const ticks = dayTicks(dayNumber('2024-01-08'), dayNumber('2026-11-24'));
		expect(ticks.length).toBeGreaterThan(3);
		expect(ticks.length).toBeLessThanOrEqual(8);
		for (const tick of ticks) expect(civilFromDays(tick.value).day).toBe(1);
		expect(ticks[0]).toEqual({ value: dayNumber('2024-07-01'), label: 'Jul 2024' });
		expect(ticks.map((tick) => tick.label)).toContain('Jan 2026');
	});

	it('uses years for a long range and days for a short one', () => {
		const years = dayTicks(dayNumber('2005-03-01'), dayNumber('2025-03-01'));
		expect(years.length).toBeLessThanOrEqual(8);
		for (const tick of years) expect(tick.label).toMatch(/^\d{4}$/);
		const days = dayTicks(dayNumber('2025-03-01'), dayNumber('2025-03-05'));
		expect(days.map((tick) => tick.label)).toEqual(['Mar 1', 'Mar 2', 'Mar 3', 'Mar 4', 'Mar 5']);
		// Weekly ticks fall on Mondays (2025-03-03 was one).
		const weeks = dayTicks(dayNumber('2025-03-01'), dayNumber('2025-04-10'));
		expect(weeks[0]).toEqual({ value: dayNumber('2025-03-03'), label: 'Mar 3' });
		expect(weeks[1]!.value - weeks[0]!.value).toBe(7);
	});
});
