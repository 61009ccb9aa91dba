import type { LeagueLog } from '../../league/race-log.js';
import { readingDay } from '../../league/standings.js';

/**
 * Days as a league sees them: calendar dates in the league's time zone, from the injected clock. The pure
 * domain takes days as `YYYY-MM-DD` strings; this is where an instant becomes one.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of `instant` in `timezone` (an IANA name), as `YYYY-MM-DD`. */
export function calendarDay(timezone: string, instant: Date): string {
	let format = formatters.get(timezone);
	if (format === undefined) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: timezone,
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
		});
		formatters.set(timezone, format);
	}
	const parts = format.formatToParts(instant);
	const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
	return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
}

/**
 * Makes the first calendar formatter now. The first Intl.DateTimeFormat with a time zone in a process starts ICU's
 * calendar and zone data: 25–43 ms in one go, measured here; later ones take 0.2 ms, any zone. The bot calls this
 * before it connects, so that the first /rating does not hold the event loop for it (bench/real-bot.ts, cold /rating).
 */
export function warmUpCalendar(): void {
	calendarDay('UTC', new Date(0));
}

type Latest = { readonly id: string; readonly date: string } | undefined;

/** Per league state, the answers at its seq: every read asks, and walking 10,000 races each time showed in bench:load. */
const datesAt = new WeakMap<LeagueLog, { readonly seq: number; readonly latest: Latest; readonly allDated: boolean }>();

const datesOf = (state: LeagueLog) => {
	const known = datesAt.get(state);
	if (known !== undefined && known.seq === state.seq()) return known;
	let latest: { id: string; date: string } | undefined;
	let allDated = true;
	for (const race of state.races()) {
		if (race.status !== 'confirmed') continue;
		if (race.date === undefined) allDated = false;
		else if (latest === undefined || race.date > latest.date) latest = { id: race.id, date: race.date };
	}
	const dates = { seq: state.seq(), latest, allDated };
	datesAt.set(state, dates);
	return dates;
};

/** The league's confirmed race with the latest date (undefined when none is dated). */
export const latestDatedRace = (state: LeagueLog): Latest => datesOf(state).latest;

/** Whether every confirmed race has a date (else a chart runs by race number). */
export const everyRaceDated = (state: LeagueLog): boolean => datesOf(state).allDated;

/** The day every read of this league shows now: today in its time zone, or a later race date (standings.ts). */
export function leagueReadingDay(state: LeagueLog, timezone: string, now: Date): string {
	return readingDay(calendarDay(timezone, now), latestDatedRace(state)?.date);
}
