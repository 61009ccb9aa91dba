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
 * speed-Elo (Powell, JQAS 19(3), eq. 49-51; specs/endure-elo.md), the mirror of endure-Elo. A race of m racers is
 * m-1 selection rounds: round r selects the best remaining finisher, racer j with probability μ_j / Σ_{alive} μ,
 * μ = e^R (eq. 50). Every racer in a round gets k·[1(selected) − P(selected)] (eq. 49), all rounds at the pre-race
 * R; last place is never selected. speed(R, order) = −endure(−R, reversed order).
 */

export type SpeedState = PlEloState;
export type SpeedParams = PlEloParams;

/** The parameter table (shared with endure-Elo; see pl-elo.ts). */
export const speedParamSpecs: readonly ParamSpec[] = plEloParamSpecs;

/**
 * Score and information of every racer (finishing order, index 0 = winner; equal ranks tie): selection rounds
 * picking the finishing order forwards with weights μ = e^R; the score is observed − expected selections.
 */
export function speedScoreInfo(ratings: readonly number[], ranks?: readonly number[]): ScoreInfo {
	const stats = sequentialChoice(ratings, ranks);
	return { score: stats.residual.map((e) => -e), info: stats.info };
}

export interface SelectionRound {
	/** Racers not yet selected, ascending finishing-order index. */
	readonly alive: number[];
	/** The racer (a tie group: several) selected this round, finishing-order indices. */
	readonly selected: number[];
	/** P(selected this round) per alive racer, in `alive` order (eq. 50). */
	readonly pSelect: number[];
}

/** The selection rounds one by one, winner first (O(m²), for tests and explanations). */
export function speedRounds(ratings: readonly number[], ranks?: readonly number[]): SelectionRound[] {
	return choiceRounds(ratings, ranks).map((round) => ({
		alive: round.alive,
		selected: round.picked,
		pSelect: round.p,
	}));
}

export const speed = {
	id: 'speed',
	raceModel:
		'Plackett-Luce over selection rounds: the best remaining finisher is chosen with probability proportional to e^R; one Elo step on the whole order (tie groups selected together, Breslow).',
	params: (overrides?: ParamOverrides): SpeedParams => resolveParams<SpeedParams>('speed', speedParamSpecs, overrides),
	newcomer: plEloNewcomer,
	rateRace: (field, params) => rateField(field, params, speedScoreInfo),
	elapse: forget,
	shrinkToward: plEloShrinkToward,
	cars: plEloCars,
	summary: plEloSummary,
	performance: (state: SpeedState, _params?: SpeedParams): Performance => ({
		kind: 'exp-shortest',
		rate: Math.exp(strengthOf(state)),
	}),
} as const satisfies RatingSystem<SpeedState, SpeedParams>;
