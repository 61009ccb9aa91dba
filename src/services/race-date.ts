import { daysBetween, isCalendarDate, yearOf } from '../league/dates.js';
import type { LeagueLog, RaceRecord } from '../league/race-log.js';
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

/**
 * The new date of a stored race (`/race edit date:`), under the submission's rules: a date that is not a
 * calendar day is refused, one more than a day after today is accepted with the same warning. The race keeps its
 * place in rating order (races are rated in the order they were confirmed), so a date before a race rated before it,
 * or after a race rated after it, is accepted with a warning naming that race. Under the yearly reset, a date in an
 * earlier year than the races rated before it makes the race count in no rating: the preview says so from the replay.
 */
export function editedRaceDate(
	given: string,
	race: RaceRecord,
	state: LeagueLog,
	timezone: string,
	now: Date,
): { readonly date: string; readonly warnings: readonly string[] } {
	const { date, warnings: submitted } = raceDate(given, state, timezone, now);
	// The submission's back-dating warning compares with the league's latest race, which may be this one: dropped.
	const warnings = submitted.filter((w) => !w.includes("before the league's latest race"));
	const races = state.races().filter((r) => r.status === 'confirmed' && r.date !== undefined);
	const at = races.findIndex((r) => r.id === race.id);
	const before = at < 0 ? races : races.slice(0, at);
	const after = at < 0 ? [] : races.slice(at + 1);
	const previous = before.reduce<RaceRecord | undefined>(
		(a, r) => (a === undefined || r.date! > a.date! ? r : a),
		undefined,
	);
	const next = after.reduce<RaceRecord | undefined>(
		(a, r) => (a === undefined || r.date! < a.date! ? r : a),
		undefined,
	);
	const yearly = state.config()?.reset === 'yearly';
	if (previous !== undefined && date < previous.date! && !(yearly && yearOf(date) < yearOf(previous.date!))) {
		warnings.push(
			`This race would be dated ${date}, before ${previous.id} on ${previous.date}, which is rated before it (races ` +
				'are rated in the order they were confirmed): its racers get no idle-time growth for the days between. ' +
				'Confirm only if the date is right.',
		);
	}
	if (next !== undefined && date > next.date!) {
		warnings.push(
			`This race would be dated ${date}, after ${next.id} on ${next.date}, which is rated after it (races are rated ` +
				`in the order they were confirmed): ${next.id}'s racers get no idle-time growth for the days between` +
				(yearly && yearOf(date) > yearOf(next.date!)
					? `, and under the yearly reset ${next.id}, of an earlier year, would count in no rating`
					: '') +
				'. Confirm only if the date is right.',
		);
	}
	return { date, warnings };
}
