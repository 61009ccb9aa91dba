import { readCalendarDay } from '../../league/dates.js';
import type { LeagueConfig, LeagueEventInput } from '../../league/league-events.js';
import type { LeagueLog } from '../../league/race-log.js';
import { findSeason, racesOfSeason, seasonsOf, shareOfPercent, type Season } from '../../league/seasons.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { listWithMore } from '../../formats/clip-text.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refuse, refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { calendarDay, leagueReadingDay } from '../leagues/league-day.js';

/**
 * `/season start|end|list` (docs/seasons.md): named, dated seasons in the league's log. Starting and ending one is an
 * organizer's, checked here; the log checks the rest (season-fold.ts) and each is one event appended.
 */

export interface SeasonStartInput {
	readonly league?: string | undefined;
	readonly name: string;
	/** The first day, `YYYY-MM-DD` (absent: today in the league's time zone). */
	readonly date?: string | undefined;
	/** The number of races planned. */
	readonly races?: number | undefined;
}

export interface SeasonEndInput {
	readonly league?: string | undefined;
	/** The last day, `YYYY-MM-DD` (absent: today in the league's time zone). */
	readonly date?: string | undefined;
}

/** What ratings do at a season's first race (LeagueConfig.seasonReset; absent: carry). */
export interface CarryOver {
	readonly mode: 'carry' | 'restart' | 'soft';
	/** For `soft`: 0..1. */
	readonly share?: number | undefined;
	/** The league also restarts every rating at each calendar year (`reset: 'yearly'`). */
	readonly yearly: boolean;
}

export interface SeasonStarted {
	readonly league: LeagueInfo;
	readonly season: Season;
	/** The open season this start ended (the day before). */
	readonly closed?: Season | undefined;
	/** The league's first named season, in a league with dated races: its seasons were their calendar years. */
	readonly replacesYears: boolean;
	readonly carryOver: CarryOver;
	/**
	 * Races already stored dated on or after the start (they now belong to the new season and, unless ratings carry
	 * over, are rated again from the first of them).
	 */
	readonly racesInIt: number;
}

export interface SeasonEnded {
	readonly league: LeagueInfo;
	readonly season: Season;
	/** Races of the season, as ended. */
	readonly races: number;
	/** Races already stored dated after the new end: they now belong to no season. */
	readonly racesAfter: number;
}

export type SeasonStatus = 'upcoming' | 'open' | 'ended';

export interface SeasonLine {
	readonly season: Season;
	/** Confirmed races dated in it. */
	readonly races: number;
	readonly status: SeasonStatus;
}

export interface SeasonListing {
	readonly league: LeagueInfo;
	/** The league's reading day (league-day.ts). */
	readonly today: string;
	readonly seasons: readonly SeasonLine[];
	readonly carryOver: CarryOver;
}

export interface SeasonService {
	start(actor: Actor, input: SeasonStartInput): Promise<SeasonStarted>;
	end(actor: Actor, input: SeasonEndInput): Promise<SeasonEnded>;
	list(actor: Actor, input: { readonly league?: string | undefined }): Promise<SeasonListing>;
}

export function carryOverOf(config: LeagueConfig): CarryOver {
	const reset = config.seasonReset;
	return {
		mode: reset?.mode ?? 'carry',
		...(reset?.mode === 'soft' && { share: reset.share ?? 0 }),
		yearly: config.reset === 'yearly',
	};
}

export function seasonStatus(season: Season, today: string): SeasonStatus {
	if (season.start > today) return 'upcoming';
	return season.end !== undefined && season.end < today ? 'ended' : 'open';
}

/** A season's refusal when `ref` names none: the league's seasons, or how to start one. */
export function unknownSeason(state: LeagueLog, league: LeagueInfo, ref: string | undefined): Error {
	const seasons = seasonsOf(state);
	const name = `**${escapeForDiscord(league.config.name)}**`;
	if (seasons.length === 0) {
		return refused(
			'no-season',
			`${name} has no season yet: its seasons are the calendar years of its dated races, or the ones an organizer starts with /season start.`,
		);
	}
	const names = listWithMore(seasons.map((s) => `**${escapeForDiscord(s.name)}**`));
	return refused(
		'unknown-season',
		`${name} has no season "${escapeForDiscord(ref ?? '')}". Its seasons: ${names} (/season list).`,
	);
}

export function createSeasonService(
	repo: LeagueRepository,
	leagues: LeagueService,
	clock: () => Date = () => new Date(),
): SeasonService {
	/** A day an organizer gives, as /race submit date: takes it: `YYYY-MM-DD`; absent, today in the league's zone. */
	const dayOf = (given: string | undefined, league: LeagueInfo, what: string): string => {
		const today = calendarDay(league.config.timezone, clock());
		const text = given?.trim() ?? '';
		if (text === '') return today;
		const read = readCalendarDay(text, `The ${what}`, { quote: escapeForDiscord, example: today });
		if (!read.ok) throw refused('bad-date', `${read.problem} Nothing was stored.`);
		return read.date;
	};

	/** The organizer's league and its state, and the event checked against it (nothing stored yet). */
	const checked = async (actor: Actor, ref: string | undefined, body: (league: LeagueInfo) => LeagueEventInput) => {
		const league = await leagues.resolve(actor, ref);
		requireOrganizer(actor, league.config);
		const state = await repo.loadState(league.id);
		const event = body(league);
		await refuse('bad-season', () => state.check({ ...event, at: clock().toISOString() }));
		return { league, state, event };
	};

	return {
		async start(actor, input) {
			const {
				league,
				state: before,
				event,
			} = await checked(actor, input.league, (info) => ({
				type: 'season-started',
				name: input.name,
				start: dayOf(input.date, info, 'start date'),
				...(input.races !== undefined && { races: input.races }),
				by: actor.userId,
			}));
			const open = before.seasons().at(-1);
			const years = seasonsOf(before).some((s) => s.implicit);
			const closes = open !== undefined && open.end === undefined;
			await refuse('bad-season', () => repo.appendEvent(league.id, event));
			const state = await repo.loadState(league.id);
			const all = seasonsOf(state);
			const season = all.at(-1)!;
			const closed = closes ? all.at(-2) : undefined;
			return {
				league,
				season,
				...(closed !== undefined && { closed }),
				replacesYears: years,
				carryOver: carryOverOf(league.config),
				racesInIt: racesOfSeason(state, season).length,
			};
		},

		async end(actor, input) {
			const {
				league,
				state: before,
				event,
			} = await checked(actor, input.league, (info) => ({
				type: 'season-ended',
				end: dayOf(input.date, info, 'end date'),
				by: actor.userId,
			}));
			const open = seasonsOf(before).at(-1)!;
			const wasIn = racesOfSeason(before, open).length;
			await refuse('bad-season', () => repo.appendEvent(league.id, event));
			const state = await repo.loadState(league.id);
			const season = seasonsOf(state).at(-1)!;
			const races = racesOfSeason(state, season).length;
			return { league, season, races, racesAfter: wasIn - races };
		},

		async list(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			const state = await repo.loadState(league.id);
			const today = leagueReadingDay(state, league.config.timezone, clock());
			const seasons = seasonsOf(state).map((season) => ({
				season,
				races: racesOfSeason(state, season).length,
				status: seasonStatus(season, today),
			}));
			return { league, today, seasons, carryOver: carryOverOf(league.config) };
		},
	};
}

/** The season a reading means (`season:` given or the current one), or the refusal naming the league's seasons. */
export function seasonFor(state: LeagueLog, league: LeagueInfo, ref: string | undefined, today: string): Season {
	const season = findSeason(state, ref, today);
	if (season === undefined) throw unknownSeason(state, league, ref);
	return season;
}

/** `/league config season-reset: season-share:` (share in percent, as the organizer gives it). */
export interface SeasonResetInput {
	readonly seasonReset?: 'carry' | 'restart' | 'soft' | undefined;
	readonly seasonShare?: number | undefined;
}

/**
 * The league's carry-over after `/league config season-reset: season-share:`: `carry` is the default and is stored
 * as no setting; `soft` needs a share (given now, or kept from the soft reset set before); a share goes with `soft`.
 */
export function seasonResetSetting(
	config: LeagueConfig,
	input: SeasonResetInput,
): Pick<LeagueConfig, 'seasonReset'> | Record<string, never> {
	const { seasonReset: mode, seasonShare: percent } = input;
	if (mode === undefined && percent === undefined) return {};
	if (percent !== undefined && !(Number.isFinite(percent) && percent >= 0 && percent <= 100)) {
		throw refused('bad-config', `The season share is a percentage from 0 to 100, not ${percent}. Nothing was changed.`);
	}
	const next = mode ?? config.seasonReset?.mode ?? 'carry';
	if (next !== 'soft') {
		if (percent !== undefined) {
			throw refused(
				'bad-config',
				'The season share goes with season-reset:soft (each rating moves that share of the way toward the mean). Nothing was changed.',
			);
		}
		return { seasonReset: next === 'carry' ? undefined : { mode: next } };
	}
	const share = percent !== undefined ? shareOfPercent(percent) : config.seasonReset?.share;
	if (share === undefined) {
		throw refused(
			'bad-config',
			'A soft season reset needs season-share: how much of the way toward the mean each rating moves, e.g. 30 for 30 %. Nothing was changed.',
		);
	}
	return { seasonReset: { mode: 'soft', share } };
}
