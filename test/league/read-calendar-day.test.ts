/**
 * Every date a user types is read by one function (readCalendarDay) with one message: it says how dates are written,
 * names the day where the text can mean one day only, and names both where it could be day first or month first.
 */
import { describe, expect, it } from 'vitest';
import { readCalendarDay } from '../../src/league/dates.js';

const problem = (text: string) => {
	const read = readCalendarDay(text, 'The date');
	return read.ok ? `ok ${read.date}` : read.problem;
};

describe('readCalendarDay', () => {
	it('takes YYYY-MM-DD, trimmed', () => {
		expect(readCalendarDay(' 2024-02-29 ', 'The date')).toEqual({ ok: true, date: '2024-02-29' });
	});

	it('names the day of a text that can mean one day only, without taking it', () => {
		// Dots are written day first (03.12.2026 is 3 December); year first is year-month-day whatever the separator.
		expect(problem('03.12.2026')).toBe(
			'The date "03.12.2026": did you mean 2026-12-03? Dates are written YYYY-MM-DD, like 2026-12-03.',
		);
		expect(problem('3.2.2026')).toContain('did you mean 2026-02-03?');
		expect(problem('2026/12/03')).toContain('did you mean 2026-12-03?');
		expect(problem('2026-3-5')).toContain('did you mean 2026-03-05?');
		// 25 cannot be a month: day first is the only reading.
		expect(problem('25/12/2026')).toContain('did you mean 2026-12-25?');
		expect(problem('12/25/2026')).toContain('did you mean 2026-12-25?');
	});

	it('does not choose between day first and month first', () => {
		expect(problem('03/12/2026')).toBe(
			'The date "03/12/2026" may be day first (2026-12-03) or month first (2026-03-12). Dates are written ' +
				'YYYY-MM-DD, like 2026-12-03.',
		);
		// The same day either way is one reading.
		expect(problem('05/05/2026')).toContain('did you mean 2026-05-05?');
	});

	it('says why a day shaped YYYY-MM-DD is not on the calendar', () => {
		expect(problem('2026-02-29')).toBe(
			'The date "2026-02-29" is not a day of the calendar: February 2026 has 28 days.',
		);
		expect(problem('2024-04-31')).toBe('The date "2024-04-31" is not a day of the calendar: April 2024 has 30 days.');
		expect(problem('2026-13-01')).toBe('The date "2026-13-01" is not a day of the calendar: there is no month 13.');
		expect(problem('31.02.2026')).toBe(
			'The date "31.02.2026" is not a day of the calendar. Dates are written YYYY-MM-DD (year, month, day), like 2026-12-03.',
		);
	});

	it('shows the form and the example for anything else, with the text shown as the caller quotes it', () => {
		const read = readCalendarDay('next *friday*', '--as-of', {
			quote: (t) => t.replaceAll('*', '\\*'),
			example: '2026-11-27',
		});
		expect(read).toEqual({
			ok: false,
			problem:
				'--as-of "next \\*friday\\*" is not a date. Dates are written YYYY-MM-DD (year, month, day), like 2026-11-27.',
		});
	});
});
