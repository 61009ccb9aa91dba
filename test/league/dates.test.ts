import { describe, expect, it } from 'vitest';
import { civilFromDays, dayNumber, daysBetween } from '../../src/league/dates.js';

const MS_PER_DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('dayNumber', () => {
	it("equals the days since 1970-01-01 of JavaScript's own calendar, every day from 1600 to 2400", () => {
		const from = Date.UTC(1600, 0, 1) / MS_PER_DAY;
		const to = Date.UTC(2400, 11, 31) / MS_PER_DAY;
		let wrong = 0;
		for (let day = from; day <= to; day++) {
			const date = iso(day * MS_PER_DAY);
			const { year, month, day: dayOfMonth } = civilFromDays(day);
			const back = `${year}-${String(month).padStart(2, '0')}-${String(dayOfMonth).padStart(2, '0')}`;
			if (dayNumber(date) !== day || back !== date) wrong++;
		}
		expect(wrong).toBe(0);
		expect(dayNumber('1970-01-01')).toBe(0);
		expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
	});

	it('reads a malformed date part by part with Number, as its general path always did: NaN where a part is not a number', () => {
		expect(dayNumber('2024-0x-01')).toBeNaN();
		expect(dayNumber('20a4-01-01')).toBeNaN();
		// The separators are not looked at, and a short part is read as the number it is.
		expect(dayNumber('2024/01/02')).toBe(dayNumber('2024-01-02'));
		expect(dayNumber('2024-01-2')).toBe(dayNumber('2024-01-02'));
	});
});
