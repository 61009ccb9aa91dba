/**
 * SuperTuxKart player rankings, generation G1: the points exchange of STK's ranked servers as coded in
 * stk-code `server_lobby.cpp` @ e2d5e350 (2019-01-06), `computeNewRankings` and helpers (specs/stk.md), with the
 * team's summary (supertuxkart.net/About_player_rankings, our seed document) as the default reading wherever the
 * two disagree. The preset `stk-2019` reproduces the code exactly.
 *
 * A race is a set of ordered pairs: each racer exchanges points with every other one, by finish time (a 2.5 %
 * linear window around a tie) against an Elo-like expected result, weighted by race length, mode and the two
 * racers' ranking factors. New players also receive base points over their first races.
 */
import { resolveParams, type ParamSpec } from './params.js';
import {
	UnratableRaceError,
	type FieldEntry,
	type ParamOverrides,
	type Performance,
	type RaceContext,
	type RaceMode,
	type RatingSystem,
	type RatingSummary,
} from './types.js';

export interface StkState {
	/** Ranking points (a double, never rounded: the seed's appendix). */
	readonly score: number;
	/** Highest score ever stored, updated after each race (initially the starting score). */
	readonly maxScore: number;
	/** Ranked races done. */
	readonly races: number;
}

export type StkPreset = 'seed' | 'stk-2019';
export type StkFactorCombination = 'multiply' | 'max';

export interface StkParams {
	readonly preset: StkPreset;
	readonly factorCombination: StkFactorCombination;
	readonly itemsSpread: number;
	readonly itemsFactor: number;
	readonly basePointsRaces: number;
	readonly float32Times: boolean;
}

/** BASE_RANKING_POINTS (server_lobby.hpp): expected-result scale BASE·spread/2; factor thresholds are multiples. */
export const STK_BASE_POINTS = 4000;
/** MAX_SCALING_TIME: race length (s) beyond which importance stops growing; also the length charged to a quit. */
export const STK_MAX_SCALING_TIME = 500;
/** MAX_POINTS_PER_SECOND. */
export const STK_MAX_POINTS_PER_SECOND = 0.125;
/** Score and max score of a player never seen before (server default; stk-addons `getInitialRanking`). */
export const STK_INITIAL_SCORE = 2000;

export const stkParamSpecs: readonly ParamSpec[] = [
	{
		name: 'preset',
		default: 'seed',
		choices: ['seed', 'stk-2019'],
		doc:
			'Where the other defaults come from: `seed` follows the team summary (supertuxkart.net/About_player_rankings); ' +
			'`stk-2019` reproduces the G1 code exactly. Explicit parameters override the preset.',
	},
	{
		name: 'factorCombination',
		default: 'multiply',
		choices: ['multiply', 'max'],
		doc:
			"How the two racers' ranking factors combine into the pair's factor: the seed multiplies them, the code " +
			'takes the larger (spec step 3, `std::max(player1_factor, player2_factor)`).',
	},
	{
		name: 'itemsSpread',
		default: 1,
		min: 0.01,
		max: 100,
		doc:
			'Spread of races with items: the expected result uses 10^(diff/(4000·spread/2)). The seed uses 2000 in every ' +
			'mode (spread 1); the code uses 1.4 (2800) for items (`getModeSpread`). Time trial is always 1.',
	},
	{
		name: 'itemsFactor',
		default: 0.4,
		min: 0,
		max: 10,
		doc: 'Mode factor of races with items in the ranking importance (seed note 6, `getModeFactor`). Time trial is 1.',
	},
	{
		name: 'basePointsRaces',
		default: 45,
		min: 0,
		max: 1000,
		doc:
			'A racer is paid base points 2·max(45 − n, 4) in a race started with n < basePointsRaces races done. The seed ' +
			'says "the 45 first races" (45: 2082 points in all); the code tests n ≤ 45 (46: 2090 points in all).',
	},
	{
		name: 'float32Times',
		default: false,
		doc:
			"Round finish times to float32 before use, as STK's `getKartRaceTime` returns a float. The seed is silent; " +
			'times are otherwise used as given.',
	},
];

/** Overrides of the defaults that make a named preset. Explicit parameters still win. */
export const stkPresets: Readonly<Record<StkPreset, ParamOverrides>> = {
	seed: {},
	'stk-2019': { factorCombination: 'max', itemsSpread: 1.4, basePointsRaces: 46, float32Times: true },
};

function isPreset(value: unknown): value is StkPreset {
	return typeof value === 'string' && Object.hasOwn(stkPresets, value);
}

function params(overrides: ParamOverrides = {}): StkParams {
	// An unknown preset name is left to resolveParams, which rejects it with the list of choices.
	const preset = isPreset(overrides.preset) ? stkPresets[overrides.preset] : {};
	const specs = stkParamSpecs.map((spec) => {
		const presetDefault = preset[spec.name];
		return presetDefault === undefined ? spec : { ...spec, default: presetDefault };
	});
	return resolveParams<StkParams>('stk', specs, overrides);
}

function newcomer(): StkState {
	return { score: STK_INITIAL_SCORE, maxScore: STK_INITIAL_SCORE, races: 0 };
}

/** Base points paid to a racer starting a race with `races` races done (spec step 1, `distributeBasePoints`). */
export function stkBasePoints(races: number, params: Pick<StkParams, 'basePointsRaces'>): number {
	return races < params.basePointsRaces ? (STK_BASE_POINTS / 2000) * Math.max(45 - races, 4) : 0;
}

/**
 * Ranking factor of a racer (spec step 3, `computeRankingFactor`): from its stored max score and its race count
 * after this race's increment; race-count thresholds are strict (> 50), score thresholds are not (≥ 4000).
 */
export function stkRankingFactor(maxScore: number, races: number): number {
	if (maxScore >= STK_BASE_POINTS * 2.0) return 0.4;
	if (maxScore >= STK_BASE_POINTS * 1.75 || races > 500) return 0.5;
	if (maxScore >= STK_BASE_POINTS * 1.5 || races > 250) return 0.6;
	if (maxScore >= STK_BASE_POINTS * 1.25 || races > 100) return 0.7;
	if (maxScore >= STK_BASE_POINTS || races > 50) return 0.8;
	return 1.0;
}

/** Expected result of effective score `own` against `other` (spec step 3): 1/(1 + 10^((s_j − s_i)/(BASE·spread/2))). */
export function stkExpected(own: number, other: number, spread: number): number {
	return 1.0 / (1.0 + Math.pow(10.0, (other - own) / ((STK_BASE_POINTS * spread) / 2.0)));
}

/** Time scaling of the importance (spec step 3, `scalingValueForTime`), in the code's operation order. */
export function stkTimeScaling(seconds: number): number {
	// DEVIATION (from the seed's T·√T/√120·0.125, same value): the code's order, for bit-exactness.
	return seconds * Math.sqrt(seconds / 120.0) * STK_MAX_POINTS_PER_SECOND;
}

/** Actual result of a finisher with time `own` against a finisher with time `other` (spec step 3). */
export function stkResult(own: number, other: number): number {
	if (own <= other) return Math.min(1.0, 0.5 + (other - own) / (own / 20.0));
	return Math.max(0.0, 0.5 - (own - other) / (other / 20.0));
}

/** Steps 1-3 of one race, per racer: the base points paid and the points exchanged with each other racer. */
export interface StkExchange {
	/** Base points of step 1, per racer (0 once they are no longer due). */
	readonly base: number[];
	/** Scores after step 1 (the scores every expected result of step 3 uses). */
	readonly scores: number[];
	/** Race counts after the increment of step 2. */
	readonly races: number[];
	/**
	 * terms[i][j]: racer i's change from the pair (i, j) of step 3, importance·(result − expected); undefined for
	 * i = j and for two quitters, who exchange nothing. The change of i is the sum over j in field order.
	 */
	readonly terms: (number | undefined)[][];
}

/**
 * Steps 1-3 (spec; `computeNewRankings`) without the final sum: what rateRace adds up, and what an explanation of a
 * change shows. `field` order is the summation order of each racer's pair changes; STK sums in kart
 * order, rankRace gives finishing order, and the two differ only by floating-point rounding (the result of a pair
 * depends on times and quits alone). A DNF entry is a quit. Positions are not read: finish times decide.
 */
export function stkExchange(
	field: readonly FieldEntry<StkState>[],
	params: StkParams,
	context?: RaceContext,
): StkExchange {
	const { base, scores, races, exchange, term } = stkPairs(field, params, context);
	return {
		base,
		scores,
		races,
		terms: field.map((_, i) => field.map((__, j) => (exchange(i, j) ? term(i, j) : undefined))),
	};
}

/** Steps 1-2 of one race, and step 3's change of racer i from the pair (i, j) (StkExchange.terms[i][j]). */
function stkPairs(
	field: readonly FieldEntry<StkState>[],
	params: StkParams,
	context?: RaceContext,
): Omit<StkExchange, 'terms'> & {
	/** Whether i and j exchange points: not a racer with itself, nor two quitters. */
	readonly exchange: (i: number, j: number) => boolean;
	readonly term: (i: number, j: number) => number;
} {
	const untimed = field.filter(
		(entry) =>
			entry.status === 'finished' && !(typeof entry.time === 'number' && entry.time > 0 && Number.isFinite(entry.time)),
	);
	if (untimed.length > 0) {
		const names = untimed.map((entry) => entry.player).join(', ');
		throw new UnratableRaceError(`stk needs a positive finish time for every finisher; missing for ${names}`);
	}
	const mode: RaceMode = context?.mode ?? 'tt';
	const spread = mode === 'tt' ? 1.0 : params.itemsSpread;
	const modeFactor = mode === 'tt' ? 1.0 : params.itemsFactor;

	const quit = field.map((entry) => entry.status === 'DNF');
	const times = field.map((entry) => {
		const time = entry.time ?? 0; // A quitter's time is never used.
		return params.float32Times ? Math.fround(time) : time;
	});
	// Step 1: base points on the race count read before the increment.
	const base = field.map((entry) => stkBasePoints(entry.state.races, params));
	const scores = field.map((entry, i) => entry.state.score + base[i]!);
	// Step 2 then the factors of step 3: stored max score, incremented race count.
	const races = field.map((entry) => entry.state.races + 1);
	const factors = field.map((entry, i) => stkRankingFactor(entry.state.maxScore, races[i]!));
	const quitScaling = stkTimeScaling(STK_MAX_SCALING_TIME);

	// Step 3: one ordered pair, at the scores of step 1.
	const exchange = (i: number, j: number): boolean => i !== j && !(quit[i] && quit[j]);
	const term = (i: number, j: number): number => {
		const expected = stkExpected(scores[i]!, scores[j]!, spread);
		const pairFactor =
			params.factorCombination === 'max' ? Math.max(factors[i]!, factors[j]!) : factors[i]! * factors[j]!;
		let result: number;
		let scaling: number;
		if (quit[i]) {
			result = 0.0;
			scaling = quitScaling;
		} else if (quit[j]) {
			result = 1.0;
			scaling = quitScaling;
		} else {
			result = stkResult(times[i]!, times[j]!);
			scaling = stkTimeScaling(Math.min(Math.max(times[i]!, times[j]!), STK_MAX_SCALING_TIME));
		}
		const importance = modeFactor * scaling * pairFactor;
		return importance * (result - expected);
	};
	return { base, scores, races, exchange, term };
}

/**
 * Rate one race (spec steps 1-4): stkExchange, then every racer's pair changes summed in field order. A lone racer
 * gets its base points and race count and exchanges nothing, as in the code.
 */
function rateRace(field: readonly FieldEntry<StkState>[], params: StkParams, context?: RaceContext): StkState[] {
	// The terms are summed as they come, not kept in StkExchange's matrix: 400 boxed numbers per race of 20 were
	// most of what a replay of the league allocated.
	const { scores, races, exchange, term } = stkPairs(field, params, context);

	// Step 4: all at once.
	return field.map((entry, i) => {
		let change = 0.0;
		for (let j = 0; j < field.length; j++) if (exchange(i, j)) change += term(i, j);
		const score = scores[i]! + change;
		return { score, maxScore: score > entry.state.maxScore ? score : entry.state.maxScore, races: races[i]! };
	});
}

/**
 * Provisional while base points are still due: until then the score sits below its settled level by design (the
 * seed's second purpose of the progressive distribution), so it is not comparable with settled players yet.
 */
function summary(state: StkState, params: StkParams): RatingSummary {
	return {
		rating: state.score,
		uncertainty: undefined,
		races: state.races,
		provisional: state.races < params.basePointsRaces,
	};
}

/**
 * Standard deviation of each racer's normal performance whose difference has the variance of STK's logistic
 * expected result in time trial: a logistic of scale b = (BASE/2)/ln 10 has variance π²b²/3, shared by two racers.
 */
export const STK_PERFORMANCE_SD = (Math.PI * (STK_BASE_POINTS / 2)) / (Math.LN10 * Math.sqrt(6));

/**
 * DEVIATION (odds only): STK has no performance model; its expected result is logistic in the score difference.
 * We give a normal performance with the same variance of the difference (time-trial scale 2000), centred on the
 * score the next race's expected result would use (score plus the base points it would pay).
 */
function performance(state: StkState, params: StkParams): Performance {
	return { kind: 'normal-highest', mean: state.score + stkBasePoints(state.races, params), sd: STK_PERFORMANCE_SD };
}

export const stk: RatingSystem<StkState, StkParams> = {
	id: 'stk',
	raceModel:
		'Points exchange over every ordered pair of racers by finish time (2.5 % linear window), against an Elo-like ' +
		'expected result, weighted by race length, mode and ranking factors; base points for new players.',
	params,
	newcomer,
	rateRace,
	elapse: (state) => state,
	// A season's soft reset moves the ranking points only: maxScore stays the highest score ever stored (the
	// reference's record, which sets the ranking factor) and the race count keeps the base points where they were.
	shrinkToward: (state, mean, share) => ({ ...state, score: state.score + share * (mean - state.score) }),
	summary,
	performance,
};
