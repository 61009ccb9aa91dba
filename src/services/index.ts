import type { ChartRenderer } from '../charts/chart-types.js';
import { newPreviewId } from './races/previews.js';
import type { KeyValueNamespace, LeagueRepository } from '../storage/ports.js';
import { createChangeCache } from './caches/change-cache.js';
import { createAutocompleteService, type AutocompleteService } from './players/autocomplete.js';
import { createDailyStandingsService, type DailyStandingsService } from './ratings/daily-standings.js';
import { createRankingComposer } from './posts/ranking-composer.js';
import { createLeaderboardService, type LeaderboardService } from './ratings/leaderboard-service.js';
import { createLeagueService, type LeagueService } from './leagues/league-service.js';
import { createLeagueCalibrateService, type LeagueCalibrateService } from './calibration/league-calibrate-service.js';
import { createLeagueStatsService, type LeagueStatsService } from './calibration/league-stats-service.js';
import { createLeagueTransferService, type LeagueTransferService } from './transfer/league-transfer-service.js';
import { createLeagueDeleteService, type LeagueDeleteService } from './leagues/league-delete-service.js';
import { createForecastService, type ForecastService } from './ratings/forecast-service.js';
import { createOddsService, type OddsService } from './ratings/odds-service.js';
import { createPlayerService, type PlayerService } from './players/player-service.js';
import { createRaceService, type RaceService, type RaceServiceOptions } from './races/race-service.js';
import type { MonthlyPostComposer } from './posts/monthly-post-port.js';
import { createRankingPostService, type RankingPostService } from './posts/ranking-post-service.js';
import { createRatingService, type RatingService } from './ratings/rating-service.js';
import { createCarService, type CarService } from './ratings/car-service.js';
import { createInboxService, type InboxService } from './inbox/inbox-service.js';
import { createStandingsService, type StandingsService } from './seasons/standings-service.js';
import { createMemoryStore } from '../storage/memory-store.js';
import type { Logger } from '../logger.js';
import { createRoleSyncService, type RoleSyncService } from './roles/role-sync-service.js';
import { createRankRolesService, type RankRolesService } from './roles/rank-roles-service.js';
import { createSeasonService, type SeasonService } from './seasons/season-service.js';
import { countWrite } from './write-witness.js';
import { observeWrites } from './observed-writes.js';

/** Every service over one repository: what the router hands each command in its context. */
export interface Services {
	readonly leagues: LeagueService;
	/** Rank roles kept in step with the leaderboard (the bot connects Discord to it; the daily job and writes start it). */
	readonly roleSync: RoleSyncService;
	/** `/league roles`: the tiers, the provisional role, on (previewed) and off. */
	readonly rankRoles: RankRolesService;
	/** `/league import` and `/league export`. */
	readonly transfer: LeagueTransferService;
	/** `/league delete` (previewed, with the export) and `/league undelete`. */
	readonly deletion: LeagueDeleteService;
	/** `/league stats`: each system's predictions backtested on the league's own history. */
	readonly stats: LeagueStatsService;
	/** `/league calibrate`: one system calibrated on the league's history, applied on Confirm. */
	readonly calibrate: LeagueCalibrateService;
	readonly races: RaceService;
	readonly ratings: RatingService;
	readonly odds: OddsService;
	/** `/forecast`. */
	readonly forecast: ForecastService;
	readonly leaderboard: LeaderboardService;
	/** `/leaderboard cars:true` and `/rating car:`: the cars of a league that rates them (docs/cars.md). */
	readonly cars: CarService;
	readonly players: PlayerService;
	readonly autocomplete: AutocompleteService;
	readonly daily: DailyStandingsService;
	readonly rankingPost: RankingPostService;
	/** The monthly ranking post's content (the job posts it; `/league preview-post` shows it). */
	readonly composer: MonthlyPostComposer;
	/** The results inbox: `/league inbox`, the files sent to the HTTP server, their previews' buttons. */
	readonly inbox: InboxService;
	/** The bot's public web address, if set (ServicesOptions.webUrl): for links to leagues' pages (leaguePageUrl). */
	readonly webUrl: () => string | undefined;
	/** The championship: `/standings`, `/race penalty`, `/player team`, the season-end post (standings-service.ts). */
	readonly standings: StandingsService;
	/** `/season start|end|list`: the league's named seasons (season-service.ts). */
	readonly seasons: SeasonService;
}

/** `clock` is the one clock of every service: "today" in a league's time zone comes from it (league-day.ts). */
export interface ServicesOptions extends RaceServiceOptions {
	/**
	 * Composes the monthly ranking post (`/league preview-post`, and the job through `Services.composer`); default:
	 * the ranking composer over these services (ranking-composer.ts).
	 */
	readonly composer?: MonthlyPostComposer | undefined;
	/** The store's `jobs` namespace (whether this month's post went out). */
	readonly jobs?: KeyValueNamespace | undefined;
	/** The chart renderer for the monthly post's chart (commands get theirs from the command context). */
	readonly charts?: ChartRenderer | undefined;
	/**
	 * The store's `inbox` namespace (tokens, received files). Default: one in this process's memory, for tests that
	 * do not use the inbox; the bot and the console pass the store's, which every process shares.
	 */
	readonly inboxStore?: KeyValueNamespace | undefined;
	/** The address inbox files are sent to, as `/league inbox` shows it (undefined: the HTTP server is off). */
	readonly inboxUrl?: (() => string | undefined) | undefined;
	/** The bot's public web address (HTTP_PUBLIC_URL, when its HTTP server runs): embeds link to public leagues' pages. */
	readonly webUrl?: (() => string | undefined) | undefined;
	/** For warnings that change no answer (an inbox record not updated after its race was stored). */
	readonly log?: Logger | undefined;
	/** Where inbox previews go for a league that names no channel (the console: its one channel). */
	readonly inboxChannel?: string | undefined;
}

export function createServices(unwatched: LeagueRepository, options: ServicesOptions = {}): Services {
	const { clock = () => new Date() } = options;
	// Rank roles follow every write of every service (commands, buttons, the results inbox): the appends are watched.
	const roleSync = createRoleSyncService(unwatched, {
		store: options.jobs ?? createMemoryStore().namespace('jobs'),
		clock,
		log: options.log,
	});
	// Writes are also counted per interaction (write-witness.ts): a fallback for an answer Discord refused says
	// whether anything was stored.
	const repo = observeWrites(unwatched, [
		countWrite,
		(write) => {
			if (write.kind === 'event-appended') roleSync.leagueChanged(write.leagueId);
		},
	]);
	const leagues = createLeagueService(repo, { clock });
	const daily = createDailyStandingsService(repo);
	// One rated history per (league, system) for /rating and /race show.
	const changes = createChangeCache(repo);
	const composer = options.composer ?? createRankingComposer({ repo, daily, charts: options.charts });
	const races = createRaceService(repo, leagues, { ...options, clock, changes });
	const transfer = createLeagueTransferService(repo, leagues, clock);
	return {
		leagues,
		roleSync,
		rankRoles: createRankRolesService({ repo, leagues, sync: roleSync, clock, newId: options.newId }),
		transfer,
		deletion: createLeagueDeleteService(repo, leagues, transfer, { clock, newId: options.newId }),
		stats: createLeagueStatsService(repo, leagues),
		calibrate: createLeagueCalibrateService(repo, leagues, { clock }),
		races,
		ratings: createRatingService(repo, leagues, clock, changes),
		odds: createOddsService(repo, leagues, clock),
		forecast: createForecastService(repo, leagues, clock),
		leaderboard: createLeaderboardService(repo, leagues, clock, daily),
		cars: createCarService(repo, leagues, changes, clock),
		players: createPlayerService(repo, leagues, { clock, newId: options.newId ?? newPreviewId }),
		autocomplete: createAutocompleteService(repo, leagues),
		daily,
		composer,
		rankingPost: createRankingPostService({ leagues, composer, jobs: options.jobs, clock }),
		webUrl: options.webUrl ?? (() => undefined),
		seasons: createSeasonService(repo, leagues, clock),
		standings: createStandingsService(repo, leagues, {
			clock,
			newId: options.newId ?? newPreviewId,
			daily,
			charts: options.charts,
		}),
		inbox: createInboxService(repo, leagues, races, {
			store: options.inboxStore ?? createMemoryStore().namespace('inbox'),
			clock,
			url: options.inboxUrl,
			log: options.log,
			channel: options.inboxChannel,
		}),
	};
}

export type { Actor } from './actor.js';
