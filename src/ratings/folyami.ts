/**
 * Folyami: the race Elo of the ZakStunts rankings, exactly as the reference engine codes it
 * (github duplode/elo-zs @ 1246eb2, `EloOptions def`; specs/folyami.md). A race is a round robin of pairwise
 * matches at pre-race ratings, each weighted by how far apart the two racers finished, with a shape-3 gamma
 * expected score and smooth provisional K factors.
 */
import { ConvergenceError, FOLYAMI_C, gamma3WinProbability } from './folyami-c.js';
import { resolveParams, type ParamSpec } from './params.js';
import { ParamError, type FieldEntry, type ParamOverrides, type Performance, type RatingSystem } from './types.js';

export { computeFolyamiC, FOLYAMI_C, folyamiFitError, gamma3WinProbability } from './folyami-c.js';

export interface FolyamiState {
	readonly rating: number;
	/** Races the racer was actually rated in (a one-racer race does not count). */
	readonly entries: number;
}

export interface FolyamiParams {
	readonly k: number;
	readonly initialRating: number;
	readonly provisionalRaces: number;
	readonly provisionalAverage: number;
	readonly remotenessN: number;
	readonly c: number;
	/** Derived, not a parameter: the smooth provisional base b solving b(b^N − 1)/(b − 1) = N·average (step 6). */
	readonly b: number;
}

/** α = ln 10 / 400, the Elo logistic scale (spec step 5). */
export const ELO_ALPHA = Math.LN10 / 400;

export const folyamiParamSpecs: readonly ParamSpec[] = [
	{
		name: 'k',
		default: 18,
		min: 0,
		doc: 'Base modulation factor K: the largest change one match can make (spec step 7).',
	},
	{ name: 'initialRating', default: 1500, doc: 'Rating of a racer never seen before (spec step 3).' },
	{
		name: 'provisionalRaces',
		default: 12,
		min: 0,
		max: 1000,
		doc: 'Provisional graduation: a racer with fewer rated races than this is provisional (step 6). 0 disables it.',
	},
	{
		name: 'provisionalAverage',
		default: 1.5,
		min: 1,
		max: 10,
		doc: 'Average provisional factor over the provisional window; b is solved from it (step 6).',
	},
	{
		name: 'remotenessN',
		default: 22,
		min: 1e-9,
		doc: 'Remoteness modulation n: q = 1/((π/n)²·ΔP² + 1); the weights of an endless field sum to n − 1 (step 4).',
	},
	{
		name: 'c',
		default: FOLYAMI_C,
		min: 1e-9,
		doc: 'Gamma correction c of the expected score W = 1/(1 + exp(−c·α·ΔR)); default as the engine computes it (step 5).',
	},
];

/**
 * The smooth provisional base b: the root of Σ_{i=1..N} b^i = N·average, i.e. b(b^N − 1)/(b − 1) = N·average
 * (spec step 6; elo-zs `baseSmoothFactor`). The sum increases with b, and b = 1 and b = (N·average)^(1/N) bracket
 * the root; bisection runs to adjacent doubles (at most 200 steps).
 */
export function provisionalBase(graduation: number, average: number): number {
	if (graduation <= 0 || average === 1) return 1;
	const target = graduation * average;
	const sum = (b: number): number => {
		let total = 0;
		let power = 1;
		for (let i = 1; i <= graduation; i++) {
			power *= b;
			total += power;
		}
		return total;
	};
	let lo = 1;
	let hi = Math.pow(target, 1 / graduation);
	for (let i = 0; i < 200; i++) {
		const mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi) return sum(hi) - target <= target - sum(lo) ? hi : lo;
		if (sum(mid) < target) lo = mid;
		else hi = mid;
	}
	throw new ConvergenceError('folyami b: bisection did not converge in 200 steps');
}

/** Expected score of x against y (spec step 5): E = W³(6W² − 15W + 10), W = 1/(1 + exp(−c·α·(R_x − R_y))). */
export function folyamiExpected(gap: number, c: number = FOLYAMI_C): number {
	return gamma3WinProbability(1 / (1 + Math.exp(-c * ELO_ALPHA * gap)));
}

/** Remoteness weight (spec step 4): a witch of Agnesi in the tidy position distance, q = 1/((π/n)²·ΔP² + 1). */
export function remotenessWeight(distance: number, n = 22): number {
	const scaled = (Math.PI / n) * distance;
	return 1 / (scaled * scaled + 1);
}

/** Smooth provisional factor f(n_prev) = b^(N − n_prev) for a provisional racer (spec step 6). */
export function provisionalFactor(previousEntries: number, params: FolyamiParams): number {
	return Math.pow(params.b, params.provisionalRaces - previousEntries);
}

export function isProvisional(entries: number, params: FolyamiParams): boolean {
	return entries < params.provisionalRaces;
}

/**
 * K factors of a match (spec step 6; elo-zs `modulationFactors` with SmoothProvisional and
 * eloFullyProvisionalMatches = True). Provisional vs settled: the provisional racer's factor f multiplies its K
 * and divides the settled racer's. Both provisional: each uses its own f. Both settled: K each.
 */
export function kFactors(entriesX: number, entriesY: number, params: FolyamiParams): [number, number] {
	return [kFactor(entriesX, entriesY, params), kFactor(entriesY, entriesX, params)];
}

/** One side of kFactors: the K factor of a racer with `own` previous entries against one with `other`. */
function kFactor(own: number, other: number, params: FolyamiParams): number {
	const provOwn = isProvisional(own, params);
	const provOther = isProvisional(other, params);
	if (provOwn) return params.k * provisionalFactor(own, params);
	if (provOther) return params.k / provisionalFactor(other, params);
	return params.k;
}

export interface FolyamiPair {
	/** S_x: 1 if x finished ahead of y, 0.5 on a tie, 0 if behind. */
	readonly score: number;
	readonly expected: number;
	readonly remoteness: number;
	readonly kX: number;
	readonly kY: number;
	readonly deltaX: number;
	readonly deltaY: number;
}

/**
 * One match of the round robin (spec steps 2-7), both racers at their pre-race state. Ranks are tidy ranks
 * (rankRace). Δ_x = k_x·q·(S_x − E_x), Δ_y = −k_y·q·(S_x − E_x); the result does not depend on which racer is x.
 */
export function folyamiPair(
	x: FolyamiState,
	rankX: number,
	y: FolyamiState,
	rankY: number,
	params: FolyamiParams,
): FolyamiPair {
	const score = pairScore(rankX, rankY);
	const expected = folyamiExpected(x.rating - y.rating, params.c);
	const remoteness = remotenessWeight(Math.abs(rankX - rankY), params.remotenessN);
	const [kX, kY] = kFactors(x.entries, y.entries, params);
	const base = remoteness * (score - expected);
	return { score, expected, remoteness, kX, kY, deltaX: kX * base, deltaY: -kY * base };
}

/** S_x (spec step 3): 1 if x finished ahead of y, 0.5 on a tie, 0 if behind. */
const pairScore = (rankX: number, rankY: number): number => (rankX < rankY ? 1 : rankX === rankY ? 0.5 : 0);

function folyamiParams(overrides?: ParamOverrides): FolyamiParams {
	const resolved = resolveParams<Omit<FolyamiParams, 'b'>>('folyami', folyamiParamSpecs, overrides);
	if (!Number.isInteger(resolved.provisionalRaces)) {
		throw new ParamError(`folyami: parameter provisionalRaces must be an integer, got ${resolved.provisionalRaces}`);
	}
	return Object.freeze({ ...resolved, b: provisionalBase(resolved.provisionalRaces, resolved.provisionalAverage) });
}

/** Rate one race (spec steps 2-7): all pairs at pre-race states, deltas summed, entries + 1 for every racer. */
function rateRace(field: readonly FieldEntry<FolyamiState>[], params: FolyamiParams): FolyamiState[] {
	// Spec step 8: a race with one entrant changes nothing, not even entries.
	if (field.length < 2) return field.map((entry) => entry.state);
	const deltas = field.map(() => 0);
	// folyamiPair's arithmetic, operation for operation (the same bits), without its object and K array: a replay
	// plays 190 matches per race of 20, and those objects were most of what a replay of the league allocated.
	for (let i = 0; i < field.length; i++) {
		const x = field[i]!;
		for (let j = i + 1; j < field.length; j++) {
			const y = field[j]!;
			const expected = folyamiExpected(x.state.rating - y.state.rating, params.c);
			const remoteness = remotenessWeight(Math.abs(x.rank - y.rank), params.remotenessN);
			const base = remoteness * (pairScore(x.rank, y.rank) - expected);
			deltas[i]! += kFactor(x.state.entries, y.state.entries, params) * base;
			deltas[j]! += -kFactor(y.state.entries, x.state.entries, params) * base;
		}
	}
	return field.map((entry, i) => ({ rating: entry.state.rating + deltas[i]!, entries: entry.state.entries + 1 }));
}

export const folyami = {
	id: 'folyami',
	raceModel:
		'Round robin of pairwise matches at pre-race ratings, weighted by finishing distance, with a shape-3 gamma ' +
		'expected score and smooth provisional K factors (elo-zs reference engine).',
	params: folyamiParams,
	newcomer: (params: FolyamiParams): FolyamiState => ({ rating: params.initialRating, entries: 0 }),
	rateRace,
	// Spec step 8: no decay and no treatment of hiatus.
	elapse: (state: FolyamiState, _days: number, _params: FolyamiParams): FolyamiState => state,
	// A season's soft reset moves the Elo rating only: `entries` keeps the provisional K factors where they were.
	shrinkToward: (state: FolyamiState, mean: number, share: number): FolyamiState => ({
		...state,
		rating: state.rating + share * (mean - state.rating),
	}),
	summary: (state: FolyamiState, params: FolyamiParams) => ({
		rating: state.rating,
		uncertainty: undefined,
		races: state.entries,
		provisional: isProvisional(state.entries, params),
	}),
	// Seed document: performance ~ Gamma(shape 3, rate β), β = exp(c·α·(R − 1500)); lower is better.
	performance: (state: FolyamiState, params: FolyamiParams): Performance => ({
		kind: 'gamma3-shortest',
		rate: Math.exp(params.c * ELO_ALPHA * (state.rating - 1500)),
	}),
} satisfies RatingSystem<FolyamiState, FolyamiParams>;
