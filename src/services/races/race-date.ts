import { daysBetween, readCalendarDay } from '../../league/dates.js';
import { movedRacesText, raceRuns, ratingPosition } from '../../league/rating-order.js';
import type { LeagueLog, RaceRecord } from '../../league/race-log.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { refused } from '../errors.js';
import { calendarDay } from '../leagues/league-day.js';

/**
 * The date of a submitted race: the organizer's `date`, or today in the league's time zone. A date that
 * is not a calendar day is refused. Races are rated in date order (rating-order.ts): a race dated before races
 * already rated (a make-up race) is accepted with a notice in the preview naming the races whose ratings it
 * recomputes; one dated more than a day after today, with a warning of what it does to idle-time growth (Confirm is
 * the organizer's answer). One day ahead passes silently: the organizer may be in another time zone than the league.
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
	const dating = checkedDate(given, timezone, now);
	return { ...dating, warnings: [...madeUp(dating.date, state), ...dating.warnings] };
}

/** The date given (or today), refused when not a calendar day, with the warning of a date well after today. */
function checkedDate(given: string | undefined, timezone: string, now: Date): RaceDating {
	const today = calendarDay(timezone, now);
	const text = given?.trim() ?? '';
	if (text === '') return { date: today, today: true, warnings: [] };
	const read = readCalendarDay(text, 'The date', { quote: escapeForDiscord, example: today });
	if (!read.ok) throw refused('bad-date', `${read.problem} Nothing was stored.`);
	const warnings: string[] = [];
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

/** The notice of a race dated before races already rated: they are rated again after it. */
function madeUp(date: string, state: LeagueLog): string[] {
	const moved = state.ratedAfterDate(date).map((r) => r.race.id);
	return moved.length === 0 ? [] : [movedRacesText(date, moved)];
}

/**
 * The new date of a stored race (`/race edit date:`), under the submission's rules: a date that is not a calendar
 * day is refused, one more than a day after today is accepted with the same warning. A new date moves the race in
 * rating order (rating-order.ts): the notice names the races it moves before (an earlier date) or after (a later
 * one), whose ratings are recomputed.
 */
export function editedRaceDate(
	given: string,
	race: RaceRecord,
	state: LeagueLog,
	timezone: string,
	now: Date,
): { readonly date: string; readonly warnings: readonly string[] } {
	const { date, warnings } = checkedDate(given, timezone, now);
	const from = state.positionOf(race.id);
	if (from === undefined || date === race.date) return { date, warnings };
	// Its own place in confirmation order: race ids are R1, R2, … in that order.
	const to = ratingPosition(date, Number(race.id.slice(1)) - 1);
	const passed = state
		.ratedRaces()
		.filter(
			(r) =>
				r.race.id !== race.id &&
				(to < from ? r.position > to && r.position < from : r.position > from && r.position < to),
		)
		.map((r) => r.race.id);
	if (passed.length === 0) return { date, warnings };
	const notice =
		to < from
			? movedRacesText(date, passed)
			: `Dated ${date}, after ${raceRuns(passed)}, rated after ${passed.length === 1 ? 'it' : 'them'} until now: ` +
				`${passed.length === 1 ? 'its' : 'their'} ratings will be recomputed.`;
	return { date, warnings: [notice, ...warnings] };
}
