import { resolveParams, type ParamSpec } from '../params.js';
import { ParamError, type ParamOverrides } from '../types.js';
import { Decimal, DecimalDivisionByZero } from './decimal.js';
import { ReferenceCrash, type Game } from './games.js';
import { goLog, goLog10, goRound } from './go-log.js';

/**
 * relrank, the relative ranking of best-of-X ladders (Zemke/relrank @16cd9f3, main.go), byte-identical to the Go
 * reference. Step numbers refer to specs/relrank.md ("The algorithm as coded").
 */

/** The parameters, with the reference's env var names and defaults. */
export const RELRANK_PARAMS: readonly ParamSpec[] = [
	{
		name: 'prec',
		default: 20,
		min: 0,
		max: 10_000,
		doc: 'RELRANK_PREC: fractional digits kept by every decimal division (rounded half away from zero).',
	},
	{
		name: 'relSteps',
		default: 20,
		doc: 'RELRANK_RELSTEPS: steps S = clamp(round(-1 + log10(maxRounds * 0.13) * relSteps), 1, 21).',
	},
	{
		name: 'relRel',
		default: '15.1',
		doc: 'RELRANK_RELREL (exact decimal): added to the three relativizers before averaging; larger damps each step.',
	},
	{
		name: 'scaleMax',
		default: '',
		doc: 'RELRANK_SCALE_MAX (exact decimal >= 0, empty = off): rescale so that the top rating is this (R * max / top).',
	},
	{
		name: 'round',
		default: '',
		doc: 'RELRANK_ROUND (integer, empty = off): round the ratings half away from zero to this many decimals.',
	},
];

export interface RelrankParams {
	readonly prec: number;
	readonly relSteps: number;
	readonly relRel: Decimal;
	readonly scaleMax: Decimal | undefined;
	readonly round: number | undefined;
}

interface RawParams {
	prec: number;
	relSteps: number;
	relRel: string;
	scaleMax: string;
	round: string;
}

/** Resolve the parameters (defaults from RELRANK_PARAMS); bad values throw ParamError. */
export function relrankParams(overrides: ParamOverrides = {}): RelrankParams {
	const raw = resolveParams<RawParams>('relrank', RELRANK_PARAMS, overrides);
	if (!Number.isInteger(raw.prec)) throw new ParamError(`relrank: parameter prec must be an integer, got ${raw.prec}`);
	const relRel = Decimal.parse(raw.relRel.trim());
	if (relRel === undefined)
		throw new ParamError(`relrank: parameter relRel must be a decimal number, got "${raw.relRel}"`);
	let scaleMax: Decimal | undefined;
	if (raw.scaleMax.trim() !== '') {
		scaleMax = Decimal.parse(raw.scaleMax.trim());
		if (scaleMax === undefined || scaleMax.sign() < 0) {
			throw new ParamError(`relrank: parameter scaleMax must be a decimal number >= 0, got "${raw.scaleMax}"`);
		}
	}
	let round: number | undefined;
	if (raw.round.trim() !== '') {
		round = Number(raw.round.trim());
		if (!Number.isSafeInteger(round) || round < 0) {
			throw new ParamError(`relrank: parameter round must be an integer >= 0, got "${raw.round}"`);
		}
	}
	return { prec: raw.prec, relSteps: raw.relSteps, relRel, scaleMax, round };
}

/** The reference's env var names, as `--compat` reads them. */
export interface ReferenceEnv {
	readonly RELRANK_PREC?: string | undefined;
	readonly RELRANK_RELSTEPS?: string | undefined;
	readonly RELRANK_RELREL?: string | undefined;
	readonly RELRANK_SCALE_MAX?: string | undefined;
	readonly RELRANK_ROUND?: string | undefined;
}

const GO_FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parameters as the reference reads its env vars (`strconv.Atoi`, `strconv.ParseFloat`, `decimal.NewFromString`),
 * with its `log.Fatal` on bad values (exit 1). Unset means the default. Negative `prec`/`round` are allowed, as in Go.
 * The fatal messages are the reference's wording as far as we know it (only the exit code is checked by oracles).
 */
export function referenceParams(env: ReferenceEnv): RelrankParams {
	const atoi = (text: string | undefined, fallback: number, message: string): number => {
		if (text === undefined) return fallback;
		const value = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
		if (!Number.isSafeInteger(value)) throw new ReferenceCrash('fatal', message);
		return value;
	};
	const prec = atoi(env.RELRANK_PREC, 20, 'Precision from RELRANK_PREC is invalid - should be int');
	let relSteps = 20;
	if (env.RELRANK_RELSTEPS !== undefined) {
		relSteps = GO_FLOAT_RE.test(env.RELRANK_RELSTEPS) ? Number(env.RELRANK_RELSTEPS) : NaN;
		// DEVIATION (compat): Go's ParseFloat also takes hex floats, "Inf" and "NaN"; we refuse them as invalid.
		if (!Number.isFinite(relSteps))
			throw new ReferenceCrash('fatal', `${env.RELRANK_RELSTEPS} is invalid for RELRANK_RELSTEPS`);
	}
	const relRel = Decimal.parse(env.RELRANK_RELREL ?? '15.1');
	if (relRel === undefined) throw new ReferenceCrash('fatal', 'RELRANK_RELREL is not a number');
	let scaleMax: Decimal | undefined;
	if (env.RELRANK_SCALE_MAX !== undefined) {
		scaleMax = Decimal.parse(env.RELRANK_SCALE_MAX);
		if (scaleMax === undefined) throw new ReferenceCrash('fatal', 'RELRANK_SCALE_MAX is not a number');
		if (scaleMax.sign() < 0) throw new ReferenceCrash('fatal', 'RELRANK_SCALE_MAX must be positive');
	}
	const round =
		env.RELRANK_ROUND === undefined ? undefined : atoi(env.RELRANK_ROUND, 0, 'RELRANK_ROUND must be an integer');
	return { prec, relSteps, relRel, scaleMax, round };
}

/** A clear error for input on which relrank is undefined (default mode; compat reproduces the crash instead). */
export class RelrankError extends Error {
	override readonly name = 'RelrankError';
	constructor(
		readonly code: 'no-games' | 'bad-game' | 'no-rounds' | 'no-repeat-wins' | 'scale-zero' | 'bad-steps',
		message: string,
	) {
		super(message);
	}
}

export interface RelrankRating {
	readonly user: number;
	readonly rating: Decimal;
}

/** One relativization step (step 5), as the reference's intermediates dump it. */
export interface RelrankStepTrace {
	readonly step: number;
	readonly positionAsc: ReadonlyMap<number, number>;
	readonly distinctCount: number;
	readonly quality: ReadonlyMap<number, Decimal>;
	readonly rel: ReadonlyMap<number, Decimal>;
	readonly ratingAfter: ReadonlyMap<number, Decimal>;
}

export interface RelrankTrace {
	readonly steps: number;
	readonly mxWonOpp: number;
	readonly tMin: number;
	readonly tMax: number;
	readonly totalRounds: ReadonlyMap<number, number>;
	readonly wonRounds: ReadonlyMap<number, number>;
	readonly farming: ReadonlyMap<number, Decimal>;
	readonly effort: ReadonlyMap<number, Decimal>;
	readonly perStep: readonly RelrankStepTrace[];
}

export interface RelrankResult {
	/** One rating per user id that appears in the games, sorted by user id. */
	readonly ratings: readonly RelrankRating[];
	readonly steps: number;
	/** Only with `{ trace: true }`. */
	readonly trace?: RelrankTrace;
}

export interface RelrankOptions {
	/**
	 * Reproduce the reference where it crashes (throws ReferenceCrash: `decimal division by 0`, user id 0) and
	 * accept what it accepts (negative rounds, self-games). Default false: such input throws RelrankError.
	 */
	readonly compat?: boolean;
	/** Record the intermediates (farming, effort, per-step positions, quality, rel, ratings). */
	readonly trace?: boolean;
}

const D99 = Decimal.fromInt(99);
const D100 = Decimal.fromInt(100);
const D4 = Decimal.fromInt(4);
const EFFORT_A = Decimal.ONE; // effort of 0 rounds
const EFFORT_B = Decimal.fromString('0.01'); // effort of the most rounds

/** Rate the players of `games`. Pure; deterministic (the reference's random output order is sorted by id). */
export function relrank(games: readonly Game[], params: RelrankParams, options: RelrankOptions = {}): RelrankResult {
	if (!options.compat) return compute(games, params, options);
	try {
		return compute(games, params, options);
	} catch (error) {
		if (error instanceof DecimalDivisionByZero) throw new ReferenceCrash('panic', error.message);
		// NewFromFloat(math.Log(0)) when a player's wins are negative (compat accepts negative rounds)
		if (error instanceof RangeError && error.message.startsWith('Cannot create a Decimal')) {
			throw new ReferenceCrash('panic', error.message);
		}
		throw error;
	}
}

function compute(games: readonly Game[], params: RelrankParams, options: RelrankOptions): RelrankResult {
	const compat = options.compat ?? false;
	const { prec } = params;
	if (!compat) validateGames(games);

	// Step 2: per-player aggregates. Players are indexed in ascending id order.
	const ids = [...new Set(games.flatMap((g) => [g.a, g.b]))].sort((x, y) => x - y);
	const n = ids.length;
	const indexOf = new Map(ids.map((id, index) => [id, index]));
	const r0 = new Array<number>(n).fill(0); // own rounds: the initial rating
	const won = new Array<number>(n).fill(0); // WT
	const total = new Array<number>(n).fill(0); // T
	const opp = ids.map(() => new Map<number, number>()); // OPP[u]: opponent index -> rounds u won against it
	for (const g of games) {
		const a = indexOf.get(g.a)!;
		const b = indexOf.get(g.b)!;
		r0[a]! += g.roundsA;
		r0[b]! += g.roundsB;
		// the reference's `if u == hi {...} else if u == ai {...}`: a self-game counts once, with hs only
		opp[a]!.set(b, (opp[a]!.get(b) ?? 0) + g.roundsA);
		won[a]! += g.roundsA;
		total[a]! += g.roundsA + g.roundsB;
		if (a !== b) {
			opp[b]!.set(a, (opp[b]!.get(a) ?? 0) + g.roundsB);
			won[b]! += g.roundsB;
			total[b]! += g.roundsA + g.roundsB;
		}
	}
	let mxWonOpp = 0;
	for (const o of opp) for (const w of o.values()) mxWonOpp = Math.max(mxWonOpp, w);
	const tMin = Math.min(0, ...total); // T.mn starts at 0: always 0 for non-negative rounds
	const tMax = Math.max(0, ...total);

	if (!compat) {
		if (tMax === 0) throw new RelrankError('no-rounds', 'no rounds were played: every game is 0-0');
		if (mxWonOpp === 1) {
			throw new RelrankError(
				'no-repeat-wins',
				'relrank needs a player who won more than one round against the same opponent, and here nobody did ' +
					'(the most rounds anyone won against any single opponent is 1). Its farming relativizer divides by ' +
					'ln(that maximum) = ln(1) = 0 (the reference crashes with "decimal division by 0"). Rate more games.',
			);
		}
	}

	// With no games (compat only: a header-only input) the reference prints nothing; its step count is NaN then.
	if (n === 0) return { ratings: [], steps: 0 };

	// Step 3: the number of relativization steps.
	const steps = stepCount(Math.max(...total), params.relSteps);

	// Step 4: the static relativizers.
	const farming = farmingRelativizer(opp, won, mxWonOpp, prec);
	const effortSpan = Decimal.fromInt(tMax - tMin);
	const effort = total.map((t) =>
		EFFORT_A.add(
			Decimal.fromInt(t - tMin)
				.mul(EFFORT_B.sub(EFFORT_A))
				.div(effortSpan, prec),
		),
	);
	// Div(OPP[u][o], WT[u]) of the quality relativizer does not change between steps.
	const shares = opp.map((o, u) => {
		const wt = won[u]!;
		if (wt === 0) return [];
		const wtD = Decimal.fromInt(wt);
		return [...o].map(([other, w]) => [other, Decimal.fromInt(w).div(wtD, prec)] as const);
	});
	// the sum of the three relativizers that don't change, plus relRel
	const staticPart = farming.map((f, u) => params.relRel.add(f).add(effort[u]!));

	if (compat && indexOf.has(0)) {
		// distinctPositionsAsc finds users by scanning for a non-zero id, so user 0 is never found (log.Fatalf)
		throw new ReferenceCrash('fatal', `user with rating ${r0[indexOf.get(0)!]!} not found`);
	}

	// Step 5: iterate.
	let ratings = r0.map((r) => Decimal.fromInt(r));
	const perStep: RelrankStepTrace[] = [];
	for (let step = 1; step <= steps; step++) {
		const { positions, distinct } = distinctPositionsAsc(ratings);
		const distinctD = Decimal.fromInt(distinct);
		const cubes: Decimal[] = [];
		for (let p = 0; p < distinct; p++) {
			const x = Decimal.fromInt(p + 1).div(distinctD, prec);
			cubes.push(x.mul(x).mul(x)); // Pow(3) is exactly x·x·x
		}
		const quality = shares.map((share) => {
			let sum = Decimal.ZERO;
			for (const [other, part] of share) sum = sum.add(cubes[positions[other]!]!.mul(part));
			return sum;
		});
		const rel = quality.map((q, u) => staticPart[u]!.add(q).div(D4, prec));
		const next = ratings.map((r, u) => r.mul(rel[u]!)); // simultaneous update
		if (options.trace) {
			perStep.push({
				step,
				positionAsc: byId(ids, positions),
				distinctCount: distinct,
				quality: byId(ids, quality),
				rel: byId(ids, rel),
				ratingAfter: byId(ids, next),
			});
		}
		ratings = next;
	}

	// Step 6: scale (proportional: R · max / top, not min-max).
	if (params.scaleMax !== undefined) {
		const top = ratings.reduce((m, r) => (r.cmp(m) > 0 ? r : m), Decimal.ZERO);
		if (!compat && top.isZero()) {
			throw new RelrankError('scale-zero', 'cannot scale the ratings: the top rating is 0');
		}
		const scaleMax = params.scaleMax;
		ratings = ratings.map((r) => Decimal.ZERO.add(r.sub(Decimal.ZERO).mul(scaleMax.sub(Decimal.ZERO)).div(top, prec)));
	}
	// Step 7: round.
	if (params.round !== undefined) {
		const places = params.round;
		ratings = ratings.map((r) => r.round(places));
	}

	const result: RelrankResult = { ratings: ids.map((user, u) => ({ user, rating: ratings[u]! })), steps };
	if (!options.trace) return result;
	return {
		...result,
		trace: {
			steps,
			mxWonOpp,
			tMin,
			tMax,
			totalRounds: byId(ids, total),
			wonRounds: byId(ids, won),
			farming: byId(ids, farming),
			effort: byId(ids, effort),
			perStep,
		},
	};
}

function validateGames(games: readonly Game[]): void {
	if (games.length === 0) throw new RelrankError('no-games', 'no games to rate');
	for (const g of games) {
		for (const v of [g.a, g.b, g.roundsA, g.roundsB]) {
			if (!Number.isSafeInteger(v))
				throw new RelrankError('bad-game', `not an integer: ${v} in game ${JSON.stringify(g)}`);
		}
		if (g.roundsA < 0 || g.roundsB < 0) {
			throw new RelrankError('bad-game', `negative round count in game ${JSON.stringify(g)}`);
		}
		if (g.a === g.b) throw new RelrankError('bad-game', `user ${g.a} plays against itself`);
	}
}

/**
 * Step 3: S = int(max(min(round(−1 + log10(mx·0.13)·relSteps), 21), 1)), with Go's Log10 and Round.
 * `maxRounds` is the max over players of their rounds played.
 */
export function stepCount(maxRounds: number, relSteps: number): number {
	const s = Math.max(Math.min(goRound(-1 + goLog10(maxRounds * 0.13) * relSteps), 21), 1);
	if (Number.isNaN(s)) {
		// DEVIATION: Go converts NaN to a garbage int here (no rounds played or non-finite relSteps); we refuse.
		throw new RelrankError(
			'bad-steps',
			`the number of steps is undefined (max rounds ${maxRounds}, relSteps ${relSteps})`,
		);
	}
	return s;
}

/**
 * Step 4, farming: 0 without wins; otherwise, with c = Div(99, 100·NFF(ln mxWonOpp)),
 * Div(Σ_o Σ_{i=1..OPP[u][o]} (1 − c·NFF(ln i)), WT[u]). The inner sum is summed as w − c·Σ_{i≤w} NFF(ln i), which
 * is the same exact value.
 */
function farmingRelativizer(
	opp: readonly ReadonlyMap<number, number>[],
	won: readonly number[],
	mxWonOpp: number,
	prec: number,
): Decimal[] {
	let c: Decimal | undefined;
	const lnSums: Decimal[] = [Decimal.ZERO]; // lnSums[w] = Σ_{i=1..w} NewFromFloat(math.Log(i))
	const lnSum = (w: number): Decimal => {
		for (let i = lnSums.length; i <= w; i++) lnSums.push(lnSums[i - 1]!.add(Decimal.fromFloat(goLog(i))));
		return lnSums[w]!;
	};
	return opp.map((o, u) => {
		const wt = won[u]!;
		if (wt === 0) return Decimal.ZERO;
		c ??= D99.div(D100.mul(Decimal.fromFloat(goLog(mxWonOpp))), prec);
		let sum = Decimal.ZERO;
		for (const w of o.values()) {
			if (w <= 0) continue;
			sum = sum.add(Decimal.fromInt(w).sub(c.mul(lnSum(w))));
		}
		return sum.div(Decimal.fromInt(wt), prec);
	});
}

/** Step 5: each rating's position among the distinct ratings, ascending (ties share a position). */
function distinctPositionsAsc(ratings: readonly Decimal[]): { positions: number[]; distinct: number } {
	const order = ratings.map((_, u) => u).sort((x, y) => ratings[x]!.cmp(ratings[y]!));
	const positions = new Array<number>(ratings.length).fill(0);
	let distinct = 0;
	order.forEach((u, i) => {
		if (i === 0 || ratings[order[i - 1]!]!.cmp(ratings[u]!) !== 0) distinct++;
		positions[u] = distinct - 1;
	});
	return { positions, distinct };
}

function byId<T>(ids: readonly number[], values: readonly T[]): Map<number, T> {
	return new Map(ids.map((id, u) => [id, values[u]!]));
}
