import type { RatingHistoryChart } from '../../charts/chart-types.js';
import { filterStandings, hiddenBecause } from '../../league/leaderboard-filter.js';
import type { LeagueLog } from '../../league/race-log.js';
import { getSystem, isSystemId, systems } from '../../ratings/index.js';
import type { RatingSummary } from '../../ratings/types.js';
import { POINTS_PER_UNIT } from '../../formats/rating-scale.js';
import type { LeagueInfo, LeagueRepository, PendingChange } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import { refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { MAX_CHART_PLAYERS, ratingHistoryChart } from './chart-data.js';
import {
	createChangeCache,
	type ChangeCache,
	type LastChange,
	type PlayerChanges,
	type RaceResult,
	type Standouts,
} from '../caches/change-cache.js';
import { changeWhy, type ChangeWhy } from './change-why.js';
import { createHistoryCache, type HistoryCache } from '../caches/history-cache.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import { findPlayer } from '../players/players.js';
import { headToHead, type HeadToHead } from '../../league/head-to-head.js';
import { leagueOfPlayers } from '../players/league-of-players.js';
import { READ_WAIT_DURING_CHANGE_MS, READ_WAIT_MS } from '../caches/cache-wait.js';

/** `/rating`: one player's rating under one system, with rank, race count and the change of their last race. */

export type { LastChange, RaceResult, Standouts };

export interface PlayerRating {
	readonly league: LeagueInfo;
	readonly system: string;
	/** Why a rating of this system is provisional (provisionalRule). */
	readonly provisionalRule: string;
	readonly player: { readonly id: string; readonly name: string };
	/** The day the rating is as of: today in the league's time zone, or a later race date (league-day.ts). */
	readonly asOf: string;
	/** Undefined when the player has no rating under this system (never rated, or not since a reset). */
	readonly summary?: RatingSummary | undefined;
	/**
	 * Where the system rates cars (docs/cars.md): the player's latest car and its part C as of `asOf`, carried over to
	 * its year. The summary is the driver's part D; the odds read D + C.
	 */
	readonly car?: { readonly name: string; readonly part: number } | undefined;
	/** Idle time: the player's last race date, the days since, and the summary at that race before growth. */
	readonly idle?: { readonly lastDate: string; readonly days: number; readonly atLastRace: RatingSummary } | undefined;
	/** 1-based among the players the leaderboard shows (undefined when the league's filter hides this one). */
	readonly rank?: number | undefined;
	/** Players the leaderboard shows (leaderboard-filter.ts). */
	readonly rated: number;
	/** Why the league's leaderboard filter hides this player (leaderboard-filter.ts). */
	readonly hiddenBecause?: string | undefined;
	readonly lastChange?: LastChange | undefined;
	/** Why the last race moved the rating: place against expected, opponents, the change's parts. */
	readonly why?: ChangeWhy | undefined;
	/** Best and worst races by places gained on the expected place (at least two rated races). */
	readonly standouts?: Standouts | undefined;
	/** The rating-history chart's data, when asked for. */
	readonly chart?: RatingHistoryChart | undefined;
	/** Against each compared player: the races both were rated in, and who was ahead (head-to-head.ts). */
	readonly headToHead?: readonly { readonly opponent: { id: string; name: string }; readonly record: HeadToHead }[];
	/** Set when the rating is from before a stored change whose replay is still running (RatingsView.recomputing). */
	readonly recomputing?: PendingChange | undefined;
	/** Parts left out because their league's history is still being replayed for them (cache-wait.ts). */
	readonly preparing?: readonly ('last race' | 'chart')[] | undefined;
}

export interface RatingService {
	rating(
		actor: Actor,
		input: {
			player?: string | undefined;
			system?: string | undefined;
			league?: string | undefined;
			/** Also the rating-history chart's data. */
			chart?: boolean | undefined;
			/** Other players on the chart, comma separated (at most three). */
			compare?: string | undefined;
		},
	): Promise<PlayerRating>;
}

/**
 * The rule that makes a rating provisional under `system` with its league parameters, for people: each
 * system's own rule (each module's `summary`), not "too few races" for all.
 */
export function provisionalRule(system: string, params: unknown): string {
	const p = params as Record<string, number | boolean>;
	switch (system) {
		case 'glicko':
			return `its RD is above ${String(p['provisionalRd'])}: the rating is still uncertain (RD shrinks with races and grows while idle)`;
		case 'endure':
		case 'speed':
			return p['extended'] === true
				? `its uncertainty is above ±${(Math.sqrt(Number(p['provisionalFraction']) * Number(p['kInf'])) * POINTS_PER_UNIT).toFixed(1)} points (k above ${String(p['provisionalFraction'])} × ${String(p['kInf'])}): the rating is still uncertain (it shrinks with races and grows while idle)`
				: `it has fewer than ${String(p['provisionalRaces'])} rated races`;
		case 'folyami':
			return `it has fewer than ${String(p['provisionalRaces'])} rated races (until then it moves faster)`;
		case 'stk':
			return `it has fewer than ${String(p['basePointsRaces'])} races (until then each race also adds base points)`;
		default:
			return 'too few races for a settled rating';
	}
}

export function checkSystemOption(system: string | undefined, headline: string): string {
	const id = system?.trim() || headline;
	if (!isSystemId(id)) {
		throw refused('unknown-system', `Unknown rating system "${id}"; known: ${Object.keys(systems).join(', ')}.`);
	}
	return id;
}

export function createRatingService(
	repo: LeagueRepository,
	leagues: LeagueService,
	clock: () => Date = () => new Date(),
	changes: ChangeCache = createChangeCache(repo),
	histories: HistoryCache = createHistoryCache(repo),
): RatingService {
	return {
		async rating(actor, input) {
			const league = await leagueOfPlayers(repo, leagues, actor, input.league, [
				input.player,
				...refsOf(input.compare),
			]);
			const system = checkSystemOption(input.system, league.config.headline);
			const state = await repo.loadState(league.id);
			const player = findPlayer(state, input.player, actor, league.config.name);
			const asOf = leagueReadingDay(state, league.config.timezone, clock());
			const view = await repo.ratingsAt(league.id, system, asOf);
			const standing = view.standings.find((s) => s.player === player.id);
			const carName = standing?.car;
			const carPart = carName === undefined ? undefined : view.replay.carPart(carName, asOf);
			const { shown } = filterStandings(view.standings, league.config, asOf);
			const index = shown.findIndex((s) => s.player === player.id);
			const hidden = standing && hiddenBecause(standing, league.config, asOf);
			const others = compared(state, input.compare, actor, league, player.id);
			// A big league's caches may have its whole history to replay (a first read, a change that replays it): the
			// answer waits a moment for them, then goes without their parts (`preparing`) rather than for seconds.
			const waitMs = view.recomputing === undefined ? READ_WAIT_MS : READ_WAIT_DURING_CHANGE_MS;
			const [changed, chartReady] = await Promise.all([
				standing
					? changes.player(league, system, player.id, { waitMs })
					: Promise.resolve<PlayerChanges>({}),
				input.chart === true &&
					histories
						.historiesUnlessLong(league, system, [player.id, ...others.map((o) => o.id)], waitMs)
						.then(Boolean),
			]);
			const { last, explanation, standouts } = changed;
			const preparing = [
				...(changed.pending === true ? ['last race' as const] : []),
				...(input.chart === true && !chartReady ? ['chart' as const] : []),
			];
			const nameOf = (id: string) => state.resolve(id)?.name ?? id;
			const rated = others.length === 0 ? [] : state.ratedRaces().map((r) => r.race);
			const records = others.map((opponent) => ({
				opponent,
				record: headToHead(rated, player.id, opponent.id, league.config.retirements),
			}));
			const why =
				explanation &&
				last &&
				changeWhy(explanation, { id: last.race, date: last.date, name: state.race(last.race)?.name }, nameOf);
			return {
				league,
				system,
				player: { id: player.id, name: player.name },
				provisionalRule: provisionalRule(system, getSystem(system).params(league.config.params[system])),
				asOf,
				...(standing && {
					summary: {
						rating: standing.rating,
						uncertainty: standing.uncertainty,
						races: standing.races,
						provisional: standing.provisional,
					},
					...(hidden === undefined ? { rank: index + 1 } : { hiddenBecause: hidden }),
				}),
				...(carName !== undefined && carPart !== undefined && { car: { name: carName, part: carPart } }),
				...(standing?.lastDate !== undefined && {
					idle: { lastDate: standing.lastDate, days: standing.idleDays, atLastRace: standing.atLastRace },
				}),
				rated: shown.length,
				...(last && { lastChange: last }),
				...(why && { why }),
				...(standouts && { standouts }),
				...(records.length > 0 && { headToHead: records }),
				...(view.recomputing !== undefined && { recomputing: view.recomputing }),
				...(preparing.length > 0 && { preparing }),
				...(chartReady && {
					chart: await ratingHistoryChart(repo, league, system, [player, ...others], asOf, histories),
				}),
			};
		},
	};
}

/** The references of the `compare` option, comma separated. */
function refsOf(compare: string | undefined): string[] {
	return (compare ?? '')
		.split(',')
		.map((ref) => ref.trim())
		.filter((ref) => ref !== '');
}

/** The players of the `compare` option (comma separated), each once and not the player shown. */
function compared(
	state: LeagueLog,
	compare: string | undefined,
	actor: Actor,
	league: LeagueInfo,
	shown: string,
): { id: string; name: string }[] {
	const refs = refsOf(compare);
	const others = refs.map((ref) => findPlayer(state, ref, actor, league.config.name)).filter((p) => p.id !== shown);
	const unique = others.filter((p, i) => others.findIndex((o) => o.id === p.id) === i);
	if (unique.length > MAX_CHART_PLAYERS - 1) {
		throw refused('compare-too-many', `Compare at most ${MAX_CHART_PLAYERS - 1} other players on one chart.`);
	}
	return unique;
}

/**
 * Best and worst race: the most places finished above (below) the expected place, expectedRank − rank; equal gains
 * go to the larger (smaller) rating change, then to the later race. Places rather than rating points, because early
 * races move a rating most (provisional K factors, a newcomer's RD) whatever the result. Undefined below two races.
 * The change cache applies this race by race (change-cache.ts); its tests compare the two.
 */
export function standoutsOf(results: readonly RaceResult[]): Standouts | undefined {
	const placed = results.filter((r) => Number.isFinite(r.expectedRank));
	if (placed.length < 2) return undefined;
	const gain = (r: RaceResult) => r.expectedRank - r.rank;
	const better = (a: RaceResult, b: RaceResult) => gain(a) - gain(b) || a.after - a.before - (b.after - b.before);
	let best = placed[0]!;
	let worst = placed[0]!;
	for (const r of placed.slice(1)) {
		if (better(r, best) >= 0) best = r;
		if (better(r, worst) <= 0) worst = r;
	}
	return { best, worst };
}
