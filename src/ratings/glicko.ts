/**
 * Glicko-1 (Glickman, "The Glicko system", glicko.pdf) and its FICS single-game form (FICS help "glicko",
 * shared/seeds/fics-glicko.txt); specs/glicko.md. A race is reduced to pairwise games (1 win / 0.5 tie / 0 loss by
 * rank), every game at the pre-race rating and RD of both players.
 */
import { resolveParams, type ParamSpec } from './params.js';
import { ParamError, type FieldEntry, type ParamOverrides, type Performance, type RatingSystem } from './types.js';

export interface GlickoState {
	readonly rating: number;
	/** Rating deviation, in (0, maxRd]. */
	readonly rd: number;
	/** Races the player was actually rated in (a one-racer race does not count). */
	readonly races: number;
}

export type GlickoForm = 'period' | 'fics';

export interface GlickoParams {
	readonly form: GlickoForm;
	readonly initialRating: number;
	readonly initialRd: number;
	readonly maxRd: number;
	/** RD growth per idle day (glicko.pdf step 1 with one rating period per day): RD' = min(√(RD² + c²t), maxRd). */
	readonly c: number;
	readonly kFloor: number;
	readonly provisionalRd: number;
}

/** q = ln 10 / 400 (glicko.pdf; FICS help step 4). */
export const GLICKO_Q = Math.LN10 / 400;
/** p = 3q²/π² (FICS help step 2; glicko.pdf g function). */
export const GLICKO_P = (3 * GLICKO_Q * GLICKO_Q) / (Math.PI * Math.PI);
/** Per-player performance sd of the logistic model behind g: β² = π²/(6q²), so two players differ by π²/(3q²). */
export const GLICKO_BETA = Math.PI / (GLICKO_Q * Math.sqrt(6));

/** c such that a typical RD grows back to maxRd after `periods` idle periods: c = √((maxRd² − RD_typ²)/T). */
export function cForReturnToMax(rdTypical: number, periods: number, maxRd = 350): number {
	return Math.sqrt((maxRd * maxRd - rdTypical * rdTypical) / periods);
}

/** Default c per day: RD 50 grows back to 350 after 730 idle days (about two years); ≈ 12.82. */
export const GLICKO_C_PER_DAY = cForReturnToMax(50, 730);

export const glickoParamSpecs: readonly ParamSpec[] = [
	{
		name: 'form',
		default: 'period',
		choices: ['period', 'fics'],
		doc:
			"Race model. 'period': the race is one Glicko-1 rating period of games against every other racer " +
			"(glicko.pdf step 2). 'fics': each game by the FICS single-game formula with the K floor, deltas summed.",
	},
	{ name: 'initialRating', default: 1500, doc: 'Rating of a player never seen before (glicko.pdf; FICS uses 1720).' },
	{ name: 'initialRd', default: 350, min: 1, doc: 'RD of a player never seen before (glicko.pdf, FICS).' },
	{ name: 'maxRd', default: 350, min: 1, doc: 'Cap on RD after growth (glicko.pdf step 1, FICS server).' },
	{
		name: 'c',
		default: GLICKO_C_PER_DAY,
		min: 0,
		doc: "RD growth per idle day: RD' = min(√(RD² + c²·days), maxRd). Default: RD 50 returns to 350 after 730 days.",
	},
	{
		name: 'kFloor',
		default: 16,
		min: 0,
		doc: "Form 'fics' only: K_used = max(K_raw, kFloor) per game (FICS change of 1997-04-28). RD is never floored.",
	},
	{
		name: 'provisionalRd',
		default: 110,
		min: 0,
		doc: 'A rating is provisional while RD is above this (lichess convention; ±2·RD is then wider than ±220).',
	},
];

/** g(RD) = 1/√(1 + 3q²RD²/π²) (glicko.pdf step 2); FICS's f(RD) is the same function. */
export function glickoG(rd: number): number {
	return 1 / Math.sqrt(1 + GLICKO_P * rd * rd);
}

/** E = 1/(1 + 10^(−g(RD_opp)(r − r_opp)/400)) (glicko.pdf step 2; FICS help step 3). */
export function glickoExpected(rating: number, oppRating: number, oppRd: number): number {
	return 1 / (1 + Math.pow(10, (-glickoG(oppRd) * (rating - oppRating)) / 400));
}

/** P(true r1 > true r2) = 1/(1 + 10^(−(r1 − r2)·f(√(s1² + s2²))/400)) (Glickman, quoted in FICS help "glicko"). */
export function pTrueRatingGreater(r1: number, rd1: number, r2: number, rd2: number): number {
	return 1 / (1 + Math.pow(10, (-(r1 - r2) * glickoG(Math.sqrt(rd1 * rd1 + rd2 * rd2))) / 400));
}

/** One game of a rating period: the opponent's pre-period rating and RD, and the score s (1 / 0.5 / 0). */
export interface GlickoGame {
	readonly rating: number;
	readonly rd: number;
	readonly score: number;
}

export interface GlickoPeriodResult {
	readonly rating: number;
	readonly rd: number;
	/** d² = 1/(q² Σ g² E(1 − E)); Infinity for an empty period. */
	readonly d2: number;
}

/**
 * glicko.pdf step 2 for one player over one rating period; `rd` is already past step 1 (no inflation here).
 * r' = r + q/(1/RD² + 1/d²) Σ g_j (s_j − E_j), RD' = √(1/(1/RD² + 1/d²)). An empty period changes nothing.
 */
export function glickoPeriod(rating: number, rd: number, games: readonly GlickoGame[]): GlickoPeriodResult {
	if (games.length === 0) return { rating, rd, d2: Infinity };
	const { factor, terms, precision, d2 } = glickoPeriodTerms(rating, rd, games);
	let surprise = 0;
	for (const term of terms) surprise += term;
	return { rating: periodRating(rating, factor, surprise), rd: periodRd(precision), d2 };
}

/** Step 2's sums over a period's games: information Σ g²E(1 − E), and surprise Σ g(s − E), in the games' order. */
interface PeriodSums {
	information: number;
	surprise: number;
}

/** Adds one game (glicko.pdf step 2) to `sums`; returns its summand g(s − E). */
function addGame(sums: PeriodSums, rating: number, game: GlickoGame): number {
	const g = glickoG(game.rd);
	const e = glickoExpected(rating, game.rating, game.rd);
	sums.information += g * g * e * (1 - e);
	const term = g * (game.score - e);
	sums.surprise += term;
	return term;
}

/** d² = 1/(q² Σ g²E(1 − E)). */
const periodD2 = (information: number): number => 1 / (GLICKO_Q * GLICKO_Q * information);
/** 1/RD² + 1/d². */
const periodPrecision = (rd: number, d2: number): number => 1 / (rd * rd) + 1 / d2;
/** r' = r + q/(1/RD² + 1/d²) Σ g(s − E). */
const periodRating = (rating: number, factor: number, surprise: number): number => rating + factor * surprise;
/** RD' = √(1/(1/RD² + 1/d²)). */
const periodRd = (precision: number): number => Math.sqrt(1 / precision);

/** The pieces of one player's rating period (glicko.pdf step 2), for explanations. */
export interface GlickoPeriodTerms {
	/** q/(1/RD² + 1/d²): the change is this factor times the sum of `terms`. */
	readonly factor: number;
	/** g(RD_j)(s_j − E_j) per game, in the order of the games. */
	readonly terms: number[];
	/** 1/RD² + 1/d². */
	readonly precision: number;
	readonly d2: number;
}

/** The factor and the per-game summands of glicko.pdf step 2, exactly as glickoPeriod sums them. */
export function glickoPeriodTerms(rating: number, rd: number, games: readonly GlickoGame[]): GlickoPeriodTerms {
	const sums: PeriodSums = { information: 0, surprise: 0 };
	const terms = games.map((game) => addGame(sums, rating, game));
	const d2 = periodD2(sums.information);
	const precision = periodPrecision(rd, d2);
	return { factor: GLICKO_Q / precision, terms, precision, d2 };
}

export interface FicsGameResult {
	/** f(RD_opp). */
	readonly f: number;
	readonly expected: number;
	readonly kRaw: number;
	readonly kUsed: number;
	readonly kFloorApplied: boolean;
	/** K_used·(w − E). */
	readonly delta: number;
	/** K_raw·(w − E): the lasker server, which has no floor. */
	readonly deltaNoFloor: number;
	readonly rating: number;
	readonly rd: number;
	/** q²f²E(1 − E): the game's information, which the RD update adds to 1/RD². */
	readonly information: number;
}

/**
 * One FICS game from one player's side (FICS help "glicko" steps 2-6), both players at pre-game values:
 * K_raw = q f/(1/RD² + q² f² E(1 − E)), K_used = max(K_raw, kFloor), r' = r + K_used (w − E),
 * RD' = 1/√(1/RD² + q² f² E(1 − E)) — the K floor never touches RD.
 */
export function ficsGame(
	player: { readonly rating: number; readonly rd: number },
	opponent: { readonly rating: number; readonly rd: number },
	score: number,
	kFloor = 16,
): FicsGameResult {
	const f = glickoG(opponent.rd);
	const expected = glickoExpected(player.rating, opponent.rating, opponent.rd);
	const information = GLICKO_Q * GLICKO_Q * f * f * expected * (1 - expected);
	const precision = 1 / (player.rd * player.rd) + information;
	const kRaw = (GLICKO_Q * f) / precision;
	const kUsed = Math.max(kRaw, kFloor);
	const delta = kUsed * (score - expected);
	return {
		f,
		expected,
		kRaw,
		kUsed,
		kFloorApplied: kRaw < kFloor,
		delta,
		deltaNoFloor: kRaw * (score - expected),
		rating: player.rating + delta,
		rd: 1 / Math.sqrt(precision),
		information,
	};
}

/** The lasker server's `Round()`: half away from zero (FICS stores integer ratings). */
export function roundHalfAwayFromZero(x: number): number {
	const magnitude = Math.round(Math.abs(x));
	return x < 0 && magnitude !== 0 ? -magnitude : magnitude;
}

/** glicko.pdf step 1: RD_t = min(√(RD² + c²t), maxRd), t in rating periods (days for this bot). */
export function rdGrowth(rd: number, c: number, t: number, maxRd = 350): number {
	return Math.min(Math.sqrt(rd * rd + c * c * t), maxRd);
}

/** FICS help, linear form: RD' = min(√(RD² + v·t), maxRd), where v is a variance per time unit (Glickman's c²). */
export function rdGrowthVariance(rd: number, variancePerUnit: number, t: number, maxRd = 350): number {
	return Math.min(Math.sqrt(rd * rd + variancePerUnit * t), maxRd);
}

/** lasker/capablanca FICS server constant Gd (src/ratings.c `current_sterr`). */
export const FICS_SERVER_GD = 1.483;

/** The lasker/capablanca FICS server: RD' = min(√(RD² + Gd²·ln(1 + t/60)), 350), t in seconds. */
export function ficsServerRdGrowth(rd: number, seconds: number, maxRd = 350): number {
	return Math.min(Math.sqrt(rd * rd + FICS_SERVER_GD * FICS_SERVER_GD * Math.log1p(seconds / 60)), maxRd);
}

function glickoParams(overrides?: ParamOverrides): GlickoParams {
	const params = resolveParams<GlickoParams>('glicko', glickoParamSpecs, overrides);
	if (params.initialRd > params.maxRd) {
		throw new ParamError(`glicko: initialRd (${params.initialRd}) must not exceed maxRd (${params.maxRd})`);
	}
	return params;
}

/** Score of the game between ranks a and b from a's side: 1 ahead, 0.5 tied, 0 behind. */
export function glickoScoreOf(rank: number, oppRank: number): number {
	return rank < oppRank ? 1 : rank === oppRank ? 0.5 : 0;
}

function rateRace(field: readonly FieldEntry<GlickoState>[], params: GlickoParams): GlickoState[] {
	if (field.length < 2) return field.map((entry) => entry.state);
	const game = { rating: 0, rd: 0, score: 0 };
	const sums: PeriodSums = { information: 0, surprise: 0 };
	return field.map((entry) => {
		const me = entry.state;
		let rating: number;
		let rd: number;
		if (params.form === 'period') {
			// glicko.pdf step 2: the race is one rating period; every opponent at pre-race r and RD. glickoPeriod's
			// sums, operation for operation, without an object per game (most of what a replay allocated).
			sums.information = 0;
			sums.surprise = 0;
			for (const other of field) {
				if (other === entry) continue;
				game.rating = other.state.rating;
				game.rd = other.state.rd;
				game.score = glickoScoreOf(entry.rank, other.rank);
				addGame(sums, me.rating, game);
			}
			const precision = periodPrecision(me.rd, periodD2(sums.information));
			rating = periodRating(me.rating, GLICKO_Q / precision, sums.surprise);
			rd = periodRd(precision);
		} else {
			// DEVIATION (race reading of FICS): FICS rates one game at a time. Here every pairwise game is a FICS
			// single game at pre-race values; the rating deltas (each with its own floored K) are summed, and the
			// RD takes the combined information 1/RD'² = 1/RD² + Σ q²f²E(1 − E). Two racers: exactly the FICS game.
			let delta = 0;
			let information = 0;
			for (const other of field) {
				if (other === entry) continue;
				const game = ficsGame(me, other.state, glickoScoreOf(entry.rank, other.rank), params.kFloor);
				delta += game.delta;
				information += game.information;
			}
			rating = me.rating + delta;
			rd = 1 / Math.sqrt(1 / (me.rd * me.rd) + information);
		}
		// A game only adds information, so RD' ≤ RD; the min guards the last ulp when the information is tiny.
		return { rating, rd: Math.min(rd, me.rd, params.maxRd), races: me.races + 1 };
	});
}

export const glicko = {
	id: 'glicko',
	raceModel:
		'Pairwise games against every other racer (1 / 0.5 / 0 by rank) at pre-race ratings and RDs: one Glicko-1 ' +
		"rating period per race (form 'period'), or summed FICS single games with the K floor (form 'fics').",
	params: glickoParams,
	newcomer: (params: GlickoParams): GlickoState => ({ rating: params.initialRating, rd: params.initialRd, races: 0 }),
	rateRace,
	elapse: (state: GlickoState, days: number, params: GlickoParams): GlickoState => {
		if (!(days >= 0)) throw new RangeError(`glicko: elapsed days must be >= 0, got ${days}`);
		return { ...state, rd: rdGrowth(state.rd, params.c, days, params.maxRd) };
	},
	// A season's soft reset moves r only: RD is left to its own growth over the idle days (elapse), as between races.
	shrinkToward: (state: GlickoState, mean: number, share: number): GlickoState => ({
		...state,
		rating: state.rating + share * (mean - state.rating),
	}),
	summary: (state: GlickoState, params: GlickoParams) => ({
		rating: state.rating,
		uncertainty: state.rd,
		races: state.races,
		provisional: state.rd > params.provisionalRd,
	}),
	// X ~ N(r, β² + RD²): the logistic performance behind g, approximated by a normal, plus the rating uncertainty.
	performance: (state: GlickoState, _params: GlickoParams): Performance => ({
		kind: 'normal-highest',
		mean: state.rating,
		sd: Math.sqrt(GLICKO_BETA * GLICKO_BETA + state.rd * state.rd),
	}),
} satisfies RatingSystem<GlickoState, GlickoParams>;
