/**
 * The history chart's x axis: a linear axis over day numbers (days since 1970-01-01) with ticks on calendar
 * boundaries, labelled as dates. Chart.js's time axis needs a date adapter package; this needs none.
 */
import { dayNumber } from '../league/dates.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export { dayNumber };

/** The `{ year, month (1-12), day }` of a day number (H. Hinnant's `civil_from_days`, the inverse of dayNumber). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
	const z = days + 719468;
	const era = Math.floor(z / 146097);
	const doe = z - era * 146097;
	const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

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
