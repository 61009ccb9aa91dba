import { daysBetween, isCalendarDate, yearOf } from '../league/dates.js';
import type { LeagueLog } from '../league/race-log.js';
import { escapeForDiscord } from '../formats/discord-escape.js';
import { refused } from './errors.js';
import { calendarDay, latestDatedRace } from './league-day.js';

/**
 * The date of a submitted race (issue 7 §1): the organizer's `date`, or today in the league's time zone. A date that
 * is not a calendar day is refused; a date before the league's latest race, or more than a day after today, is
 * accepted with a warning in the preview that says what it does to idle-time growth (Confirm is the organizer's
 * answer). One day ahead passes silently: the organizer may be in another time zone than the league.
 */

export interface RaceDating {
	readonly date: string;
	/** No date was given: the race is dated today. */
	readonly today: boolean;
	readonly warnings: readonly string[];
}

/** Days after today a race may be dated without a warning. */
export const FUTURE_GRACE_DAYS = 1;

export function raceDate(given: string | undefined, state: LeagueLog, timezone: string, now: Date): RaceDating {
	const today = calendarDay(timezone, now);
	const text = given?.trim() ?? '';
	if (text === '') return { date: today, today: true, warnings: backDated(today, state) };
	if (!isCalendarDate(text)) {
		throw refused(
			'bad-date',
			`The date "${escapeForDiscord(text)}" is not a calendar day: write it as YYYY-MM-DD, e.g. ${today}. Nothing was stored.`,
		);
	}
	const warnings = [...backDated(text, state)];
	const ahead = daysBetween(today, text);
	if (ahead > FUTURE_GRACE_DAYS) {
		warnings.push(
			`This race is dated ${text}, ${ahead} days after today (${today}, ${timezone}). Until that day every rating of ` +
				`the league is shown as of ${text}: idle players' uncertainty grows ${ahead} days ahead of time. ` +
				'Confirm only if the date is right.',
		);
	}
	return { date: text, today: false, warnings };
}

/**
 * A warning when `date` is before the league's latest confirmed race. Under the yearly reset, a date in an earlier
 * year than that race gets none here: the race counts in no rating, and the preview says so from the replay
 * (`PreparedRace.outOfSeason`).
 */
function backDated(date: string, state: LeagueLog): string[] {
	const latest = latestDatedRace(state);
	if (latest === undefined || date >= latest.date) return [];
	if (state.config()?.reset === 'yearly' && yearOf(date) < yearOf(latest.date)) return [];
	return [
		`This race is dated ${date}, before the league's latest race (${latest.id} on ${latest.date}). It is rated after ` +
			'every race already stored (races are rated in the order they are confirmed), and its racers get no ' +
			'idle-time growth for the days between: their uncertainty keeps counting from their latest race. ' +
			'Confirm only if the date is right.',
	];
}
