/**
 * The history chart's x axis: a linear axis over day numbers (days since 1970-01-01) with ticks on calendar
 * boundaries, labelled as dates. Chart.js's time axis needs a date adapter package; this needs none.
 */
import { civilFromDays, dayNumber } from '../league/dates.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export { civilFromDays, dayNumber };

export interface DayTick {
	readonly value: number;
	readonly label: string;
}

/** Month steps a tick may take, and day steps for short ranges. */
const MONTH_STEPS = [1, 2, 3, 6, 12, 24, 60];
const DAY_STEPS = [1, 2, 7, 14];

/**
 * At most `maxTicks` ticks between day numbers `min` and `max`, on round calendar boundaries: every 1/2/7/14 days for
 * a short range (`Mar 5`), every 1/2/3/6 months (`Mar 2025`), or whole years (`2025`).
 */
export function dayTicks(min: number, max: number, maxTicks = 8): DayTick[] {
	const span = Math.max(max - min, 1);
	for (const step of DAY_STEPS) {
		if (span / step > maxTicks - 1) continue;
		const ticks: DayTick[] = [];
		// Weekly and fortnightly ticks fall on Mondays (day 4 since 1970-01-01 was a Monday).
		const anchor = step >= 7 ? 4 : 0;
		for (let d = Math.ceil((min - anchor) / step) * step + anchor; d <= max; d += step) {
			const { month, day } = civilFromDays(d);
			ticks.push({ value: d, label: `${MONTHS[month - 1]} ${day}` });
		}
		return ticks;
	}
	const start = civilFromDays(Math.ceil(min));
	const startMonth = start.year * 12 + (start.month - 1) + (start.day > 1 ? 1 : 0);
	for (const step of MONTH_STEPS) {
		const first = Math.ceil(startMonth / step) * step;
		const ticks: DayTick[] = [];
		for (let m = first; ; m += step) {
			const year = Math.floor(m / 12);
			const month = (m % 12) + 1;
			const value = dayNumber(`${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`);
			if (value > max) break;
			ticks.push({ value, label: step >= 12 ? String(year) : `${MONTHS[month - 1]} ${year}` });
		}
		if (ticks.length <= maxTicks) return ticks;
	}
	return [];
}
