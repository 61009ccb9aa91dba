import { resolveParams, type ParamSpec } from '../../src/ratings/params.js';
import { UnratableRaceError, type ParamOverrides, type RatingSystem } from '../../src/ratings/types.js';

/**
 * A tiny test-only rating system with hand-checkable numbers (not registered):
 * - the sole winner (rank 1) gains `step`, the sole last place loses `step`, everyone else keeps R;
 * - performance exp-shortest with rate e^R, so P(win) = e^R_i / Σ e^R (speed-Elo's closed form);
 * - elapse counts idle days in `idle` and multiplies R by `decay`^days;
 * - a race in which anyone has a finish time is unratable (to exercise UnratableRaceError).
 */
export interface ToyState {
	readonly rating: number;
	readonly idle: number;
}
export interface ToyParams {
	readonly step: number;
	readonly decay: number;
}
const specs: readonly ParamSpec[] = [
	{ name: 'step', default: Math.LN2, min: 0, doc: 'rating step' },
	{ name: 'decay', default: 1, min: 0, max: 1, doc: 'rating factor per idle day' },
];

export const toy = {
	id: 'speed',
	raceModel: 'test-only: winner +step, last -step',
	params: (overrides?: ParamOverrides) => resolveParams<ToyParams>('toy', specs, overrides),
	newcomer: () => ({ rating: 0, idle: 0 }),
	rateRace(field, params) {
		if (field.some((entry) => entry.time !== undefined)) throw new UnratableRaceError('toy cannot rate timed races');
		const n = field.length;
		return field.map(({ state, rank }) => {
			if (n < 2) return state;
			const delta = rank === 1 ? params.step : rank === n ? -params.step : 0;
			return { ...state, rating: state.rating + delta };
		});
	},
	elapse: (state, days, params) => ({ rating: state.rating * params.decay ** days, idle: state.idle + days }),
	summary: (state) => ({ rating: state.rating, uncertainty: undefined, races: -1, provisional: false }),
	performance: (state) => ({ kind: 'exp-shortest', rate: Math.exp(state.rating) }),
} as const satisfies RatingSystem<ToyState, ToyParams>;
