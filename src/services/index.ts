import type { KeyValueNamespace, LeagueRepository } from '../storage/ports.js';
import { createAutocompleteService, type AutocompleteService } from './autocomplete.js';
import { createDailyStandingsService, type DailyStandingsService } from './daily-standings.js';
import { createLeaderboardService, type LeaderboardService } from './leaderboard-service.js';
import { createLeagueService, type LeagueService } from './league-service.js';
import { createOddsService, type OddsService } from './odds-service.js';
import { createPlayerService, type PlayerService } from './player-service.js';
import { createRaceService, type RaceService, type RaceServiceOptions } from './race-service.js';
import type { MonthlyPostComposer } from './monthly-post-port.js';
import { createRankingPostService, type RankingPostService } from './ranking-post-service.js';
import { createRatingService, type RatingService } from './rating-service.js';

/** Every service over one repository: what the router hands each command in its context. */
export interface Services {
	readonly leagues: LeagueService;
	readonly races: RaceService;
	readonly ratings: RatingService;
	readonly odds: OddsService;
	readonly leaderboard: LeaderboardService;
	readonly players: PlayerService;
	readonly autocomplete: AutocompleteService;
	readonly daily: DailyStandingsService;
	readonly rankingPost: RankingPostService;
}

/** `clock` is the one clock of every service: "today" in a league's time zone comes from it (league-day.ts). */
export interface ServicesOptions extends RaceServiceOptions {
	/** Composes the monthly ranking post (`/league preview-post`; the job gets the same one in src/jobs/index.ts). */
	readonly composer?: MonthlyPostComposer | undefined;
	/** The store's `jobs` namespace (whether this month's post went out). */
	readonly jobs?: KeyValueNamespace | undefined;
}

export function createServices(repo: LeagueRepository, options: ServicesOptions = {}): Services {
	const { clock = () => new Date() } = options;
	const leagues = createLeagueService(repo, { clock });
	return {
		leagues,
		races: createRaceService(repo, leagues, { ...options, clock }),
		ratings: createRatingService(repo, leagues, clock),
		odds: createOddsService(repo, leagues, clock),
		leaderboard: createLeaderboardService(repo, leagues, clock),
		players: createPlayerService(repo, leagues),
		autocomplete: createAutocompleteService(repo, leagues),
		daily: createDailyStandingsService(repo),
		rankingPost: createRankingPostService({ leagues, composer: options.composer, jobs: options.jobs, clock }),
	};
}

export type { Actor } from './actor.js';
