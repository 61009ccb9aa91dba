import type { KeyValueNamespace, LeagueRepository } from '../storage/ports.js';
import { createAutocompleteService, type AutocompleteService } from './autocomplete.js';
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
	readonly rankingPost: RankingPostService;
}

export interface ServicesOptions extends RaceServiceOptions {
	/** Composes the monthly ranking post (`/league preview-post`; the job gets the same one in src/jobs/index.ts). */
	readonly composer?: MonthlyPostComposer | undefined;
	/** The store's `jobs` namespace (whether this month's post went out). */
	readonly jobs?: KeyValueNamespace | undefined;
}

export function createServices(repo: LeagueRepository, options: ServicesOptions = {}): Services {
	const leagues = createLeagueService(repo, { clock: options.clock });
	return {
		leagues,
		races: createRaceService(repo, leagues, options),
		ratings: createRatingService(repo, leagues),
		odds: createOddsService(repo, leagues),
		leaderboard: createLeaderboardService(repo, leagues),
		players: createPlayerService(repo, leagues),
		autocomplete: createAutocompleteService(repo, leagues),
		rankingPost: createRankingPostService({
			leagues,
			composer: options.composer,
			jobs: options.jobs,
			clock: options.clock,
		}),
	};
}

export type { Actor } from './actor.js';
