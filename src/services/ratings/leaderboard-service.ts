import type { Standing } from '../../league/replay.js';
import type { LeagueInfo, LeagueRepository, PendingChange } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import { refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import { checkSystemOption } from './rating-service.js';
import { plural } from '../../formats/plural.js';
import { filterStandings, filterText } from '../../league/leaderboard-filter.js';
import type { Season } from '../../league/seasons.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import type { DailyStandingsService } from './daily-standings.js';
import { seasonFor } from '../seasons/season-service.js';

/** `/leaderboard`: the standings of one system, a page at a time. */

export const LEADERBOARD_PAGE_SIZE = 15;

/** One page of a ranked table (1-based, 15 rows), each row with its rank; a page past the end is refused. */
export function pageOf<T>(all: readonly T[], asked: number | undefined, table: string) {
	const total = all.length;
	const pages = Math.max(1, Math.ceil(total / LEADERBOARD_PAGE_SIZE));
	const page = asked ?? 1;
	if (!Number.isInteger(page) || page < 1 || page > pages) {
		throw refused('bad-page', `${table} has ${plural(pages, 'page')}: choose a page from 1 to ${pages}.`);
	}
	const start = (page - 1) * LEADERBOARD_PAGE_SIZE;
	const rows = all.slice(start, start + LEADERBOARD_PAGE_SIZE).map((row, i) => ({ ...row, rank: start + i + 1 }));
	return { total, pages, page, rows };
}

export interface LeaderboardPage {
	readonly league: LeagueInfo;
	readonly system: string;
	/** The day the standings are grown to (league-day.ts). */
	readonly asOf: string;
	readonly page: number;
	readonly pages: number;
	/** Players shown (the league's filter applied, leaderboard-filter.ts). */
	readonly total: number;
	/** Rated players the league's filter hides. */
	readonly hidden: number;
	/** `players with at least 3 races, raced in the last 180 days` (undefined: the league hides no one). */
	readonly filter?: string | undefined;
	/** With `season:`, the season: the standings are as of its last day (`asOf`), or today while it runs. */
	readonly season?: Season | undefined;
	/** Rows of this page with their 1-based rank. */
	readonly rows: readonly (Standing & { readonly name: string; readonly rank: number })[];
	/** Set when the standings are from before a stored change whose replay is still running (RatingsView.recomputing). */
	readonly recomputing?: PendingChange | undefined;
}

export interface LeaderboardService {
	page(
		actor: Actor,
		input: {
			system?: string | undefined;
			league?: string | undefined;
			page?: number | undefined;
			/** A season's name (seasons.ts findSeason): the leaderboard as it stood at its end. */
			season?: string | undefined;
		},
	): Promise<LeaderboardPage>;
}

export function createLeaderboardService(
	repo: LeagueRepository,
	leagues: LeagueService,
	clock: () => Date = () => new Date(),
	daily?: DailyStandingsService,
): LeaderboardService {
	/**
	 * The standings a page shows: today's, or with a season the standings as of its end day when it is over (the
	 * daily standings of that day: the races dated up to it, grown to it, as `pitwall replay --as-of` gives them).
	 */
	const standingsOf = async (
		league: LeagueInfo,
		system: string,
		seasonRef: string | undefined,
	): Promise<{
		asOf: string;
		standings: readonly (Standing & { readonly name: string })[];
		season?: Season;
		recomputing?: PendingChange;
	}> => {
		const state = await repo.loadState(league.id);
		const today = leagueReadingDay(state, league.config.timezone, clock());
		const season = seasonRef === undefined ? undefined : seasonFor(state, league, seasonRef, today);
		if (season !== undefined && season.start > today) {
			throw refused(
				'season-upcoming',
				`The season **${escapeForDiscord(season.name)}** starts on ${season.start}: it has no leaderboard yet.`,
			);
		}
		const asOf = season?.end !== undefined && season.end < today ? season.end : today;
		if (asOf === today || daily === undefined) {
			const view = await repo.ratingsAt(league.id, system, asOf);
			return {
				asOf,
				standings: view.standings,
				...(season !== undefined && { season }),
				...(view.recomputing !== undefined && { recomputing: view.recomputing }),
			};
		}
		const record = (await daily.onDays(league, [asOf])).get(asOf);
		const rows = (record?.systems[system] ?? []).map((row) => ({
			...row,
			name: state.playerById(row.player)?.name ?? row.player,
		}));
		return { asOf, standings: rows, ...(season !== undefined && { season }) };
	};

	return {
		async page(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			const system = checkSystemOption(input.system, league.config.headline);
			const { asOf, standings, season, recomputing } = await standingsOf(league, system, input.season);
			const { shown, hidden } = filterStandings(standings, league.config, asOf);
			const filter = filterText(league.config);
			const { total, pages, page, rows } = pageOf(shown, input.page, 'The leaderboard');
			return {
				league,
				system,
				asOf,
				page,
				pages,
				total,
				hidden,
				...(filter !== undefined && { filter }),
				...(season !== undefined && { season }),
				rows,
				...(recomputing !== undefined && { recomputing }),
			};
		},
	};
}
