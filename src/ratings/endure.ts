import { resolveParams, type ParamSpec } from './params.js';
import {
	forget,
	plEloCars,
	plEloShrinkToward,
	plEloNewcomer,
	plEloParamSpecs,
	plEloSummary,
	rateField,
	strengthOf,
	type PlEloParams,
	type PlEloState,
	type ScoreInfo,
} from './pl-elo.js';
import { choiceRounds, sequentialChoice } from './plackett-luce.js';
import type { ParamOverrides, Performance, RatingSystem } from './types.js';

/**
 * endure-Elo (Powell, JQAS 19(3), section 2 and eq. 46-47; specs/endure-elo.md). A race of m racers is m-1
 * elimination rounds: round r eliminates the worst remaining finisher, racer j with probability
 * λ_j / Σ_{alive} λ, λ = e^-R (eq. 3). Every racer alive in a round gets k·[1(survives) − P(survives)] (eq. 4),
 * all rounds at the pre-race R: one gradient step on the Plackett-Luce likelihood of the reversed order.
 */

export type EndureState = PlEloState;
export type EndureParams = PlEloParams;

/** The parameter table (shared with speed-Elo; see pl-elo.ts). */
export const endureParamSpecs: readonly ParamSpec[] = plEloParamSpecs;

/**
 * Score and information of every racer (finishing order, index 0 = winner; equal ranks tie). With c_t the sum of λ
 * over the t+1 best finishers, score_j = λ_j Σ_{t≥max(j,1)} 1/c_t − 1(j≥1) and info_j = Σ_rounds P(1−P).
 * The elimination rounds pick the finishing order backwards, so they are sequential choices on the reversed order
 * with weights λ; the residual (expected − observed eliminations) is the score of survival.
 */
export function endureScoreInfo(ratings: readonly number[], ranks?: readonly number[]): ScoreInfo {
	const stats = sequentialChoice(
		ratings.map((r) => -r).reverse(),
		ranks === undefined ? undefined : [...ranks].reverse(),
	);
	return { score: stats.residual.reverse(), info: stats.info.reverse() };
}

export interface EliminationRound {
	/** Racers still in the race, ascending finishing-order index. */
	readonly alive: number[];
	/** The racer (a tie group: several) eliminated this round, finishing-order indices. */
	readonly eliminated: number[];
	/** P(eliminated this round) per alive racer, in `alive` order (eq. 3). */
	readonly pElim: number[];
}

/** The elimination rounds one by one, last place first (O(m²), for tests and explanations). */
export function endureRounds(ratings: readonly number[], ranks?: readonly number[]): EliminationRound[] {
	const last = ratings.length - 1;
	return choiceRounds(ratings.map((r) => -r).reverse(), ranks === undefined ? undefined : [...ranks].reverse()).map(
		(round) => ({
			alive: round.alive.map((j) => last - j).reverse(),
			eliminated: round.picked.map((j) => last - j).reverse(),
			pElim: [...round.p].reverse(),
		}),
	);
}

export const endure = {
	id: 'endure',
	raceModel:
		'Plackett-Luce over elimination rounds: the worst remaining finisher drops out with probability proportional to e^-R; one Elo step on the whole order (tie groups eliminated together, Breslow).',
	params: (overrides?: ParamOverrides): EndureParams =>
		resolveParams<EndureParams>('endure', endureParamSpecs, overrides),
	newcomer: plEloNewcomer,
	rateRace: (field, params) => rateField(field, params, endureScoreInfo),
	elapse: forget,
	shrinkToward: plEloShrinkToward,
	cars: plEloCars,
	summary: plEloSummary,
	performance: (state: EndureState, _params?: EndureParams): Performance => ({
		kind: 'exp-longest',
		rate: Math.exp(-strengthOf(state)),
	}),
} as const satisfies RatingSystem<EndureState, EndureParams>;
