import { createBacktest, type BacktestResult, type IncrementalBacktest } from '../../analysis/backtest.js';
import {
	createPredictionStats,
	type PredictionStats,
	type PredictionStatsAccumulator,
} from '../../analysis/prediction-stats.js';
import { createSlicer } from '../../event-loop.js';
import { getSystem, raceSystems } from '../../ratings/index.js';
import { CAR_SYSTEMS, carParamsOf } from '../leagues/car-settings.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import { refused, type UserFacingError } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { replayOptionsOf } from '../../league/replay-options.js';

/**
 * `/league stats`: how well each race system predicted this league's own winners. Every confirmed race
 * of the log, in the log's order, is backtested as `pitwall backtest` does a history CSV (src/analysis/backtest.ts):
 * before each race each system gives P(win) for the rated field from pre-race ratings grown to the race, with the
 * parameters and the yearly reset the league configured. The same code scores both, so the numbers are the CLI's.
 *
 * A 10,000-race league takes seconds of work: the races are scored in slices that yield to the event loop
 * (event-loop.ts), and the answer is kept per league until its log moves on (its seq).
 */

/** Leagues whose answer is kept; the least recently asked is dropped past this. */
const KEPT_LEAGUES = 64;

/** Fewer scored races than this: the numbers say little, and /league stats (and /league calibrate) say so instead. */
export const MIN_STATS_RACES = 5;

/** The refusal of a league with fewer than MIN_STATS_RACES rated races; `needs`: `the prediction stats need`. */
export function tooFewRaces(code: string, rated: number, needs: string): UserFacingError {
	const have = rated === 0 ? 'No race has' : `Only ${rated} race${rated === 1 ? ' has' : 's have'}`;
	return refused(code, `${have} been rated in this league yet: ${needs} at least ${MIN_STATS_RACES}.`);
}

export interface SystemStats {
	readonly system: string;
	readonly backtest: BacktestResult;
	readonly stats: PredictionStats;
}

export interface BestPredictor {
	readonly system: string;
	/** The runner-up among the systems that scored as many races; undefined when it is alone. */
	readonly next?: { readonly system: string; readonly margin: number } | undefined;
}

export interface LeagueStats {
	readonly league: LeagueInfo;
	/** The log's seq the stats are of. */
	readonly seq: number;
	/** Confirmed races in the log. */
	readonly races: number;
	/** The latest date among them (`YYYY-MM-DD`); undefined when none is dated. */
	readonly lastDate?: string | undefined;
	/** In registry order (ratings/index.ts). */
	readonly systems: readonly SystemStats[];
	/**
	 * Highest winner log-likelihood among the systems that scored the most races (a system that could not rate some
	 * races was scored on fewer, and its sum is not comparable); undefined when no race was scored.
	 */
	readonly best?: BestPredictor | undefined;
	/**
	 * Where the league's results name cars (or teams, which stand in for them): endure and speed backtested with cars
	 * rated apart from drivers and without, the league's other parameters as they are (docs/cars.md).
	 */
	readonly cars?: readonly CarsComparison[] | undefined;
}

/** One system's winner prediction with and without the car part, on the league's own history. */
export interface CarsComparison {
	readonly system: string;
	/** Whether the league rates cars under this system now (`with` is then the table's row). */
	readonly on: boolean;
	readonly with: BacktestResult;
	readonly without: BacktestResult;
}

export interface LeagueStatsService {
	stats(actor: Actor, input: { league?: string | undefined }): Promise<LeagueStats>;
}

interface Scoring {
	readonly system: string;
	readonly run: IncrementalBacktest;
	readonly stats: PredictionStatsAccumulator;
}

/**
 * Best first: the systems that scored the most races by winner log-likelihood, then those that scored fewer (a
 * system that cannot rate some races, e.g. stk without finish times, sums fewer terms: its total is not comparable),
 * and so on; systems that scored no race last.
 */
export function rankSystems(systems: readonly SystemStats[]): SystemStats[] {
	return [...systems].sort(
		(a, b) =>
			b.backtest.races - a.backtest.races || b.backtest.winner_log_likelihood - a.backtest.winner_log_likelihood,
	);
}

/** The best predictor of scored systems, as LeagueStats.best documents. */
export function bestPredictor(systems: readonly SystemStats[]): BestPredictor | undefined {
	const [first, second] = rankSystems(systems);
	if (first === undefined || first.backtest.races === 0) return undefined;
	const ll = (s: SystemStats) => s.backtest.winner_log_likelihood;
	return {
		system: first.system,
		next:
			second !== undefined && second.backtest.races === first.backtest.races
				? { system: second.system, margin: ll(first) - ll(second) }
				: undefined,
	};
}

export function createLeagueStatsService(repo: LeagueRepository, leagues: LeagueService): LeagueStatsService {
	/** One answer per league, of its log at `seq`; a computation in progress is shared by the calls that want it. */
	const cache = new Map<string, { readonly seq: number; readonly answer: Promise<Omit<LeagueStats, 'league'>> }>();

	const compute = async (league: LeagueInfo): Promise<Omit<LeagueStats, 'league'>> => {
		const state = await repo.loadState(league.id);
		// The live state moves on while the slices yield: its seq is taken with the races read.
		const seq = state.seq();
		const config = state.config() ?? league.config;
		const scorings: Scoring[] = raceSystems.map((system) => ({
			system: system.id,
			run: createBacktest(system, system.params(config.params[system.id]), replayOptionsOf(config, state.seasons())),
			stats: createPredictionStats(),
		}));
		const rated = state.ratedRaces();
		// The other reading of cars for endure and speed, where some result names a car (rankRace: its car, else its team).
		const namesCars = rated.some(({ race }) => race.entries.some((e) => (e.car ?? e.team) !== undefined));
		const flipped = (namesCars ? CAR_SYSTEMS : []).map((id) => {
			const system = getSystem(id);
			const on = carParamsOf(config, id)?.cars === true;
			const params: unknown = system.params({ ...config.params[id], cars: !on });
			return {
				system: id,
				run: createBacktest(system, params, replayOptionsOf(config, state.seasons())),
			};
		});
		const slicer = createSlicer();
		let lastDate: string | undefined;
		for (const { race } of rated) {
			if (race.date !== undefined && (lastDate === undefined || race.date > lastDate)) lastDate = race.date;
			for (const scoring of scorings) {
				const prediction = scoring.run.score(race);
				if (prediction !== undefined) scoring.stats.add(prediction);
			}
			for (const scoring of flipped) scoring.run.score(race);
			if (slicer.due()) await slicer.pause();
		}
		const systems = scorings.map((s): SystemStats => ({
			system: s.system,
			backtest: s.run.result(),
			stats: s.stats.result(),
		}));
		const cars = flipped.map((other): CarsComparison => {
			const on = carParamsOf(config, other.system)?.cars === true;
			const current = systems.find((s) => s.system === other.system)!.backtest;
			const flip = other.run.result();
			return { system: other.system, on, with: on ? current : flip, without: on ? flip : current };
		});
		return {
			seq,
			races: rated.length,
			lastDate,
			systems,
			best: bestPredictor(systems),
			...(cars.length > 0 && { cars }),
		};
	};

	return {
		async stats(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			let kept = cache.get(league.id);
			cache.delete(league.id); // set again below: the map's order is the order of use, least recent first
			if (kept === undefined || kept.seq !== league.seq) {
				const answer = compute(league);
				kept = { seq: league.seq, answer };
				answer.catch(() => {
					if (cache.get(league.id) === kept) cache.delete(league.id); // a failure is not kept: the next call tries again
				});
			}
			cache.set(league.id, kept);
			for (const idle of [...cache.keys()].slice(0, Math.max(0, cache.size - KEPT_LEAGUES))) cache.delete(idle);
			const result = { league, ...(await kept.answer) };
			const scored = Math.max(0, ...result.systems.map((s) => s.backtest.races));
			if (scored < MIN_STATS_RACES) throw tooFewRaces('stats-few-races', scored, 'the prediction stats need');
			return result;
		},
	};
}
