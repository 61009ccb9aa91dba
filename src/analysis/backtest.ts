import { createReplay, type PreparedRace, type ReplayOptions } from '../league/replay.js';
import { rankRace } from '../ratings/race.js';
import { winProbabilities } from '../ratings/odds/odds.js';
import type { FieldEntry, Race, RatingSystem } from '../ratings/types.js';

/**
 * Backtest: replay a history and, before each race, score the system's prediction of the winner.
 *
 * The prediction is winProbabilities (odds.ts) over the race's rated field (rankRace: finishers and DNF), each
 * racer's performance taken from the pre-race state after idle-time growth (newcomers at the newcomer state).
 * Every rated race counts, including races whose winner has never raced before.
 *
 * The actual winner is the first tie group of rankRace: normally one racer. With a tie for first, the tied racers
 * are one outcome: P(actual winner) is the sum of their probabilities, and the Brier score treats them as one
 * class. A race the system cannot rate (UnratableRaceError) is not scored; it is counted in `skipped`.
 *
 * With `scoreFrom` (a day, YYYY-MM-DD) the ratings still replay from the first race, but only the races from that day
 * on are scored: an out-of-sample check of a setting tuned on the earlier races. Scoring begins at the first race
 * dated on or after the day; from there, a race dated before the day (a late result of an earlier season) is not
 * scored, an undated one is (it comes after the scored races in the log). Undated races before the first scored one
 * are not scored.
 */

export interface BacktestOptions extends ReplayOptions {
	/** Score only the races from this day on (YYYY-MM-DD); the earlier ones still rate. Default: every race. */
	readonly scoreFrom?: string | undefined;
}

export interface BacktestResult {
	/** Races scored. */
	readonly races: number;
	/** Races the system could not rate and did not score. */
	readonly skipped: number;
	/** Σ over races of ln P(actual winner). */
	readonly winner_log_likelihood: number;
	/** Quartiles (25%, 50%, 75%) of P(actual winner) over the races, linearly interpolated; null with no race. */
	readonly p_winner_quartiles: readonly [number, number, number] | null;
	/** Mean over races of the multi-class Brier score Σ_i (p_i - o_i)², o_i = 1 for the winner (group), else 0. */
	readonly brier_winner: number | null;
	/** With `scoreFrom`: the day, the first scored race (null when none was) and the races replayed before it. */
	readonly score_from?: string;
	readonly first_scored?: { readonly race: string; readonly date: string | null } | null;
	/** With `scoreFrom`: races applied to the ratings before scoring began (not scored, not counted in `skipped`). */
	readonly replayed_before?: number;
}

/** What a backtest scores for one race. */
export interface RacePrediction {
	readonly race: string;
	/** P(actual winner): the summed probability of the first tie group. */
	readonly pWinner: number;
	/** Σ_i (p_i - o_i)² over the field, the tied winners merged into one class. */
	readonly brier: number;
	/** P(win) of each racer of the rated field, in the field's order (rank order). */
	readonly p: readonly number[];
	/** Whether each racer of the field is in the first tie group (the actual winner). */
	readonly won: readonly boolean[];
}

/**
 * A backtest one race at a time, so that a caller can yield between races (the `/league stats` service);
 * `backtest` below is this over a whole history: the same operations in the same order, so the same bits.
 */
export interface IncrementalBacktest {
	/** Replay one race, scoring it first; returns its prediction, or undefined when it was not scored. */
	score(race: Race): RacePrediction | undefined;
	result(): BacktestResult;
}

export function createBacktest<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	options: BacktestOptions = {},
): IncrementalBacktest {
	const { scoreFrom, ...replayOptions } = options;
	const replay = createReplay(system, params, replayOptions);
	/** The retirements of a race left out of its rating, with their states as the race found them. */
	const retired = (race: Race, prepared: PreparedRace<S>): FieldEntry<S>[] =>
		rankRace(race)
			.filter((entry) => entry.status === 'DNF')
			.map((entry) => ({
				...entry,
				state: replay.stateIn(prepared, entry),
			}));
	/** Whether scoring has begun (always, without scoreFrom), and what came before it. */
	let scoring = scoreFrom === undefined;
	let replayedBefore = 0;
	let firstScored: { race: string; date: string | null } | null = null;
	const inWindow = (race: Race): boolean => {
		if (scoreFrom === undefined) return true;
		if (!scoring && race.date !== undefined && race.date >= scoreFrom) scoring = true;
		return scoring && (race.date === undefined || race.date >= scoreFrom);
	};
	const pWinners: number[] = [];
	let logLikelihood = 0;
	let brierSum = 0;
	let skipped = 0;
	return {
		score(race) {
			if (!inWindow(race)) {
				// Rated as in any replay (prepare then commit: the same bits as the scored path), never scored.
				replay.commit(replay.prepare(race));
				if (!scoring) replayedBefore++;
				return undefined;
			}
			const prepared = replay.prepare(race);
			// Before the race nobody knows who will retire: the prediction is over every starter, whatever reading of
			// retirements rates the race (leaving them out of the field would make the winner easier to
			// pick and favour that reading in calibrate --choices).
			const field =
				options.retirements === 'excluded' ? [...prepared.field, ...retired(race, prepared)] : prepared.field;
			const outcome = replay.commit(prepared);
			if (outcome.skipped !== undefined) {
				skipped++;
				return undefined;
			}
			if (prepared.field.length === 0) return undefined; // nobody rated (all DNS/DSQ, or all retired and left out)
			const p = winProbabilities(field.map((entry) => system.performance(entry.state, params)));
			const winningRank = field[0]!.rank;
			const won = field.map((entry) => entry.rank === winningRank);
			let pWinner = 0;
			let brierLosers = 0;
			field.forEach((_, i) => {
				if (won[i]) pWinner += p[i]!;
				else brierLosers += p[i]! ** 2;
			});
			const brier = (pWinner - 1) ** 2 + brierLosers;
			pWinners.push(pWinner);
			firstScored ??= { race: race.id, date: race.date ?? null };
			logLikelihood += Math.log(pWinner);
			brierSum += brier;
			return { race: race.id, pWinner, brier, p, won };
		},
		result() {
			const n = pWinners.length;
			const sorted = [...pWinners].sort((a, b) => a - b);
			return {
				races: n,
				skipped,
				winner_log_likelihood: logLikelihood,
				p_winner_quartiles: n === 0 ? null : [quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75)],
				brier_winner: n === 0 ? null : brierSum / n,
				...(scoreFrom !== undefined && {
					score_from: scoreFrom,
					first_scored: firstScored,
					replayed_before: replayedBefore,
				}),
			};
		},
	};
}

export function backtest<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	races: readonly Race[],
	options: BacktestOptions = {},
	onRace?: (prediction: RacePrediction) => void,
): BacktestResult {
	const run = createBacktest(system, params, options);
	for (const race of races) {
		const prediction = run.score(race);
		if (prediction !== undefined) onRace?.(prediction);
	}
	return run.result();
}

/** Quantile of sorted values by linear interpolation between order statistics (R type 7, numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
	const h = (sorted.length - 1) * q;
	const lo = Math.floor(h);
	const a = sorted[lo]!;
	const b = sorted[Math.min(lo + 1, sorted.length - 1)]!;
	return a + (h - lo) * (b - a);
}
