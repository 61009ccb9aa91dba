import { addDays, isCalendarDate } from './dates.js';
import type { LeagueConfig } from './league-events.js';
import { LeagueError, nameKey, validName } from './race-log-checks.js';

/**
 * The part of the log's fold (race-log.ts) that keeps the named seasons: `season-started` and `season-ended` checked
 * and planned here, committed there. Seasons follow one another without overlapping: each starts after the one
 * before it (which, still open, ends the day before), and only the latest can be open.
 */

export interface SeasonRecord {
	readonly name: string;
	/** The season's first day, `YYYY-MM-DD`. */
	readonly start: string;
	/** The season's last day, once ended (`/season end`, or the next season's start). Absent: open. */
	readonly end?: string | undefined;
	/** The number of races planned, when the organizer gave one. */
	readonly plannedRaces?: number | undefined;
	/** Log position of the season-started event. */
	readonly seq: number;
}

/** The most races a season may plan: a bound that catches a typo (a daily league runs a year in 366). */
export const MAX_PLANNED_RACES = 1000;

interface RaceDates {
	readonly seq: number;
	readonly date?: string | undefined;
	readonly status: 'confirmed' | 'voided';
}

/** The seasons after the event, and the first race whose rating it changes (the log's retro mechanism). */
export interface SeasonPlan {
	readonly seasons: readonly SeasonRecord[];
	readonly retroFrom?: number | undefined;
}

export function planSeasonStart(
	event: { readonly name: string; readonly start: string; readonly races?: number | undefined },
	at: number,
	seasons: readonly SeasonRecord[],
	races: readonly RaceDates[],
	config: LeagueConfig | undefined,
): SeasonPlan {
	const name = validName(event.name, 'season name');
	const start = validDay(event.start, 'the season start');
	const taken = seasons.find((s) => nameKey(s.name) === nameKey(name));
	if (taken !== undefined) throw new LeagueError(`this league already has a season named "${taken.name}"`);
	const planned = event.races;
	if (planned !== undefined && !(Number.isInteger(planned) && planned >= 1 && planned <= MAX_PLANNED_RACES)) {
		throw new LeagueError(`the planned races must be a whole number from 1 to ${MAX_PLANNED_RACES}`);
	}
	const previous = seasons.at(-1);
	if (previous !== undefined && start <= previous.start) {
		throw new LeagueError(`a new season starts after ${previous.name}, which started on ${previous.start}`);
	}
	if (previous?.end !== undefined && start <= previous.end) {
		throw new LeagueError(`${previous.name} ran until ${previous.end}: a new season starts after that day`);
	}
	const closed = previous === undefined || previous.end !== undefined ? [] : [{ ...previous, end: addDays(start, -1) }];
	const record: SeasonRecord = {
		name,
		start,
		...(planned !== undefined && { plannedRaces: planned }),
		seq: at,
	};
	return {
		seasons: [...seasons.slice(0, seasons.length - closed.length), ...closed, record],
		retroFrom: movedFrom(start, at, seasons.length === 0, races, config),
	};
}

export function planSeasonEnd(event: { readonly end: string }, seasons: readonly SeasonRecord[]): SeasonPlan {
	const open = seasons.at(-1);
	if (open === undefined || open.end !== undefined) {
		throw new LeagueError('no season is open: /season start begins one');
	}
	const end = validDay(event.end, 'the season end');
	if (end < open.start) throw new LeagueError(`${open.name} started on ${open.start}: it cannot end before that day`);
	// An end moves no rating: a season's carry-over happens at the next season's first race (replay.ts), and races
	// between two seasons simply belong to neither.
	return { seasons: [...seasons.slice(0, -1), { ...open, end }] };
}

/**
 * The first race (in rating order) whose rating a new season starting on `start` changes. Under `carry` (absent) a
 * season moves no rating. The league's first named season replaces the implicit calendar-year seasons, whose
 * boundaries may have moved ratings since the first race: ratings replay from it. A later season begins at the first
 * race dated on or after its start. With no such race yet, the event itself: every replay kept from before it was
 * made without the new season's start, so the caches that keep one (history-cache.ts, web-race-history.ts) start
 * again, while the ratings of the races so far stay valid (rating-keeper.ts).
 */
function movedFrom(
	start: string,
	at: number,
	first: boolean,
	races: readonly RaceDates[],
	config: LeagueConfig | undefined,
): number | undefined {
	if ((config?.seasonReset?.mode ?? 'carry') === 'carry') return undefined;
	const rated = races.filter((r) => r.status === 'confirmed');
	return (first ? rated[0] : rated.find((r) => r.date !== undefined && r.date >= start))?.seq ?? at;
}

function validDay(day: unknown, what: string): string {
	if (typeof day !== 'string' || !isCalendarDate(day)) {
		throw new LeagueError(`${what} "${String(day).slice(0, 20)}" is not a calendar day written YYYY-MM-DD`);
	}
	return day;
}
