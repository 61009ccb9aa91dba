/**
 * Calendar dates as `YYYY-MM-DD` strings, with pure proleptic-Gregorian arithmetic (no Date object: src/league
 * takes time as input).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
	const match = DATE.exec(text);
	if (!match) return false;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
	if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
	return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Days since 1970-01-01 of a valid `YYYY-MM-DD` date (H. Hinnant's `days_from_civil`). A replay asks for it for
 * every racer of every race (a player's rating grows with the days since their last race): its digits are read as
 * character codes, which costs less than parsing substrings or looking the date up in a Map. Anything else than ten
 * characters with digits where the digits go takes the general path, which reads it as before (`Number` of each part).
 */
export function dayNumber(date: string): number {
	if (date.length === 10) {
		const year = digitAt(date, 0) * 1000 + digitAt(date, 1) * 100 + digitAt(date, 2) * 10 + digitAt(date, 3);
		const month = digitAt(date, 5) * 10 + digitAt(date, 6);
		const day = digitAt(date, 8) * 10 + digitAt(date, 9);
		if (!Number.isNaN(year + month + day)) return daysFromCivil(year, month, day);
	}
	return daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
}

/** The digit at `at`, or NaN when that character is not an ASCII digit. */
function digitAt(text: string, at: number): number {
	const digit = text.charCodeAt(at) - 48;
	return digit >= 0 && digit <= 9 ? digit : Number.NaN;
}

function daysFromCivil(year: number, month: number, day: number): number {
	const y = month <= 2 ? year - 1 : year;
	const era = Math.floor(y / 400);
	const yoe = y - era * 400;
	const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
	const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
	return era * 146097 + doe - 719468;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
	return dayNumber(to) - dayNumber(from);
}

/** The calendar year of a `YYYY-MM-DD` date. */
export function yearOf(date: string): number {
	return Number(date.slice(0, 4));
}

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

/** The `YYYY-MM-DD` date of a day number (days since 1970-01-01). */
export function dateOfDayNumber(days: number): string {
	const { year, month, day } = civilFromDays(days);
	return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `date` moved by `days` calendar days (negative goes back). */
export function addDays(date: string, days: number): string {
	return dateOfDayNumber(dayNumber(date) + days);
}

const MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];

/** A day typed by someone: the date, or why it is refused in words that say how to write it. */
export type DayReading =
	{ readonly ok: true; readonly date: string } | { readonly ok: false; readonly problem: string };

const iso = (year: number, month: number, day: number): string | undefined => {
	const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
	return isCalendarDate(text) ? text : undefined;
};

/**
 * Reads a day typed by a user (every date option: `/race submit date:`, `/race edit date:`, `/season start|end date:`,
 * the CLI's `--as-of` and `--season-start`). Only `YYYY-MM-DD` is taken; anything else is refused with `problem`,
 * which says how to write it and, where the text can mean one day only, which: `2026-3-5` and `2026/03/05` (year
 * first), `03.12.2026` (dots are written day first) give "did you mean 2026-12-03?". `03/12/2026` could be either
 * order, so both are named and none is taken: a wrong guess would date the race silently. `subject` names the input
 * ("The date", "--as-of"); `quote` shows the typed text (the bot escapes it for Discord); `example` is the day the
 * message shows where the text suggests none (the bot gives today).
 */
export function readCalendarDay(
	text: string,
	subject: string,
	options: { readonly quote?: (typed: string) => string; readonly example?: string } = {},
): DayReading {
	const { quote = (typed: string) => typed, example = '2026-12-03' } = options;
	const typed = text.trim();
	if (isCalendarDate(typed)) return { ok: true, date: typed };
	const shown = `${subject} "${quote(typed)}"`;
	const form = 'Dates are written YYYY-MM-DD';
	const iso8601 = DATE.exec(typed);
	if (iso8601) {
		const [year, month] = [Number(iso8601[1]), Number(iso8601[2])];
		const why =
			month < 1 || month > 12
				? `there is no month ${month}`
				: `${MONTHS[month - 1]} ${year} has ${daysInMonth(year, month)} days`;
		return { ok: false, problem: `${shown} is not a day of the calendar: ${why}.` };
	}
	const yearFirst = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/u.exec(typed);
	const dayFirst = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/u.exec(typed);
	const either = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/u.exec(typed);
	const one = yearFirst
		? iso(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]))
		: dayFirst
			? iso(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]))
			: undefined;
	if (one !== undefined) return { ok: false, problem: `${shown}: did you mean ${one}? ${form}, like ${one}.` };
	if (yearFirst || dayFirst) {
		return {
			ok: false,
			problem: `${shown} is not a day of the calendar. ${form} (year, month, day), like ${example}.`,
		};
	}
	if (either) {
		const [a, b, year] = [Number(either[1]), Number(either[2]), Number(either[3])];
		const readings = [...new Set([iso(year, b, a), iso(year, a, b)].filter((d) => d !== undefined))];
		if (readings.length === 1) {
			return { ok: false, problem: `${shown}: did you mean ${readings[0]}? ${form}, like ${readings[0]}.` };
		}
		if (readings.length === 2) {
			return {
				ok: false,
				problem: `${shown} may be day first (${readings[0]}) or month first (${readings[1]}). ${form}, like ${readings[0]}.`,
			};
		}
	}
	return { ok: false, problem: `${shown} is not a date. ${form} (year, month, day), like ${example}.` };
}
