/**
 * Wall-clock arithmetic in an IANA time zone with Intl (no library): the local date and time of an instant, and the
 * instant of a local date and time. Used by the monthly post's schedule (ranking-post-schedule.ts).
 */

export interface LocalTime {
	readonly year: number;
	/** 1-12. */
	readonly month: number;
	readonly day: number;
	readonly hour: number;
	readonly minute: number;
	readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let f = formatters.get(timeZone);
	if (f === undefined) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(timeZone, f);
	}
	return f;
}

/** The wall-clock reading of `instant` in `timeZone`. */
export function localTime(instant: Date, timeZone: string): LocalTime {
	const parts: Record<string, number> = {};
	for (const part of formatter(timeZone).formatToParts(instant)) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	return {
		year: parts['year'] ?? NaN,
		month: parts['month'] ?? NaN,
		day: parts['day'] ?? NaN,
		hour: parts['hour'] ?? NaN,
		minute: parts['minute'] ?? NaN,
		second: parts['second'] ?? NaN,
	};
}

/** A wall-clock reading as if it were UTC, in ms: comparable across zones and offsets. */
const wallMs = (t: LocalTime): number => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** The zone's offset from UTC at `instant`, in ms (whole seconds: Intl reads no finer). */
function offsetAt(ms: number, timeZone: string): number {
	const whole = Math.floor(ms / 1000) * 1000;
	return wallMs(localTime(new Date(whole), timeZone)) - whole;
}

/**
 * The instant the wall clock of `timeZone` reads `local`, with the disambiguation JavaScript's `Date` and Temporal
 * (`'compatible'`) use on DST days:
 * - a reading that occurs twice (the clocks go back) is its FIRST occurrence;
 * - a reading that does not exist (the clocks jump forward over it) is moved forward by the length of the jump,
 *   i.e. read with the offset in force before the change (02:00 on a day the clocks go 02:00 → 03:00 is the instant
 *   they show 03:00).
 * Assumes at most one offset change within a day of `local` (true of every zone in the tz database).
 */
export function zonedInstant(local: Omit<LocalTime, 'second' | 'minute'> & Partial<LocalTime>, timeZone: string): Date {
	const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute ?? 0, local.second ?? 0);
	const day = 86_400_000;
	const before = offsetAt(wall - day, timeZone);
	const after = offsetAt(wall + day, timeZone);
	const candidates = [...new Set([before, after])]
		.map((offset) => wall - offset)
		.filter((instant) => wallMs(localTime(new Date(instant), timeZone)) === wall);
	if (candidates.length > 0) return new Date(Math.min(...candidates));
	return new Date(wall - before); // in the gap: the offset before the jump moves it forward by the jump
}

/** `2026-12-01 12:00` (the wall clock of `timeZone`, 24-hour). */
export function formatLocal(instant: Date, timeZone: string): string {
	const t = localTime(instant, timeZone);
	const two = (n: number) => String(n).padStart(2, '0');
	return `${t.year}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}`;
}
