import type { ParamSpec } from './params.js';
import type { CarRating, FieldEntry, RatingSummary } from './types.js';

/**
 * The Elo machinery shared by endure-Elo and speed-Elo (specs/endure-elo.md; Powell, JQAS 19(3), section 2):
 * state, parameters, the base and extended k steps (eq. 4-6) and forgetting (eq. 7-8). The race model (which
 * rounds, which orientation) lives in endure.ts and speed.ts.
 */

export interface PlEloState {
	/** R on the natural-log scale: endure failure rate λ = e^-R, speed rate μ = e^R. */
	readonly rating: number;
	/** The k-factor: per-racer variance of R in the extended version, the global k in the base version. */
	readonly k: number;
	/** Races the player was rated in (fields of two or more). */
	readonly races: number;
	/**
	 * With `cars`: the part C of the car the racer drives in the race at hand (or drove last, for odds), which the
	 * replay adds from its cars' records (replay.ts) and takes back after the race. The race model reads R + C; the
	 * driver's own record never holds it. Absent: no car part (R alone, today's model).
	 */
	readonly car?: number;
}

export interface PlEloParams {
	readonly k: number;
	readonly extended: boolean;
	readonly kStep: 'posterior' | 'prior';
	readonly kInf: number;
	readonly phi: number;
	readonly provisionalFraction: number;
	readonly provisionalRaces: number;
	readonly cars: boolean;
	readonly kCar: number;
	readonly carCarry: number;
}

/** Score and information of every racer, in finishing order (index 0 = winner). */
export interface ScoreInfo {
	/** ∂ log L / ∂R_j: the sum of the round increments of eq. 4 (46, 49) without k. */
	readonly score: number[];
	/** −∂² log L / ∂R_j²: Σ_rounds P(1 − P), eq. 5. */
	readonly info: number[];
}

/** The one parameter table of both systems (each module re-exports it under its own name). */
export const plEloParamSpecs: readonly ParamSpec[] = [
	{
		name: 'k',
		default: 0.36,
		min: 1e-6,
		max: 10,
		doc: 'Base version: the fixed k-factor of every round (eq. 4). 0.36 is the value of the paper for F1 (section 4.2).',
	},
	{
		name: 'extended',
		default: false,
		doc: 'Extended version (eq. 5-6): per-racer k_i, shrunk by the race information, k_i <- 1/(1/k_i + info_i).',
	},
	{
		name: 'kStep',
		default: 'posterior',
		choices: ['posterior', 'prior'],
		doc: 'Extended version: step R_i by the updated k_i (posterior, a Newton/Laplace step like Glicko) or by the pre-race k_i (prior).',
	},
	{
		name: 'kInf',
		default: 1,
		min: 1e-6,
		max: 100,
		doc: 'Extended version: k of a newcomer and the asymptotic variance forgetting grows k towards (eq. 7). 1 = eq. 30 with q = 0.79.',
	},
	{
		name: 'phi',
		default: 1,
		min: 0.5,
		max: 1,
		doc: 'Forgetting factor per idle day (eq. 7-8): R <- phi^h R and k grows towards kInf. 1 turns forgetting off; half-life t days: phi = 2^(-1/t).',
	},
	{
		name: 'provisionalFraction',
		default: 0.5,
		min: 0,
		max: 1,
		doc: 'Extended version: a racer is provisional while k > provisionalFraction * kInf.',
	},
	{
		name: 'provisionalRaces',
		default: 5,
		min: 0,
		max: 1000,
		doc: 'Base version (k never shrinks): a racer is provisional while rated in fewer races than this.',
	},
	{
		name: 'cars',
		default: false,
		doc: 'Rate the car apart from the driver (docs/cars.md): a racer is R = D + C, driver part plus the part of the car the result names (its team where it names no car).',
	},
	{
		name: 'kCar',
		default: 0.3,
		min: 1e-6,
		max: 10,
		doc: "With cars: the step of a car part, k_c times the sum of its entries' scores in a race (the driver steps by k).",
	},
	{
		name: 'carCarry',
		default: 0.57,
		min: 0,
		max: 1,
		doc: 'With cars: the share of its part a car keeps at its first race of a new calendar year (ρ; cars change over a winter). 0.57 is the F1 fit.',
	},
];

export function plEloNewcomer(params: PlEloParams): PlEloState {
	return { rating: 0, k: params.extended ? params.kInf : params.k, races: 0 };
}

/**
 * Forgetting over h idle time units (eq. 7-8): k <- k + (1 - phi^2h)(kInf - k) in the extended version, and
 * R <- phi^h R in both (the base version keeps its global k). Composable: forget(h1) then forget(h2) = forget(h1+h2).
 * h <= 0 (or not a number) changes nothing.
 */
export function forget(state: PlEloState, h: number, params: PlEloParams): PlEloState {
	if (!(h > 0) || params.phi === 1) return state;
	const decay = Math.pow(params.phi, h);
	// DEVIATION: the paper forgets in the extended version only; the base version shrinks R alike and keeps its k.
	const k = params.extended ? state.k + (1 - decay * decay) * (params.kInf - state.k) : state.k;
	return { rating: decay * state.rating, k, races: state.races };
}

/**
 * A season's soft reset (endure and speed): R moves `share` of the way toward `mean`, like forgetting (which moves R
 * toward 0, eq. 7) but toward the league's mean and once; k is kept, so the extended version's per-racer
 * uncertainty is what the racer's races earned.
 */
export function plEloShrinkToward(state: PlEloState, mean: number, share: number): PlEloState {
	return { ...state, rating: state.rating + share * (mean - state.rating) };
}

/** The strength the race model reads: the driver's R, plus the car's part where the replay gave one. */
export function strengthOf(state: PlEloState): number {
	return state.car === undefined ? state.rating : state.rating + state.car;
}

/**
 * Rate a field with a race model `stats` (finishing-order strengths and ranks -> score, info). Base version (eq. 4,
 * all rounds at the pre-race R): R_i <- R_i + k·score_i. Extended (eq. 5-6): k_i <- 1/(1/k_i + info_i), then
 * R_i <- R_i + k_i·score_i with the updated (posterior) or the pre-race (prior) k_i.
 *
 * With cars (docs/cars.md): the strength is D + C, and the score is the gradient of the race's log-likelihood in it,
 * so it is the gradient in D and in C alike. The driver steps as above; each car steps by kCar times the sum of its
 * entries' scores (∂ log L / ∂C_c = Σ_{i in c} score_i). A car that is the whole field has a zero gradient (the
 * scores sum to zero, eq. 4): it is left as it was, exactly, rather than moved by the sum's rounding.
 */
export function rateField(
	field: readonly FieldEntry<PlEloState>[],
	params: PlEloParams,
	stats: (ratings: readonly number[], ranks: readonly number[]) => ScoreInfo,
): PlEloState[] {
	if (field.length < 2) return field.map((entry) => entry.state);
	// The field arrives in finishing order (rankRace); sorting by rank (stable) keeps any other order correct too.
	const order = field.map((_, i) => i).sort((a, b) => field[a]!.rank - field[b]!.rank);
	const { score, info } = stats(
		order.map((i) => strengthOf(field[i]!.state)),
		order.map((i) => field[i]!.rank),
	);
	// DEVIATION: the paper rates drivers only; the car part (docs/cars.md) is our extension, off by default.
	const carAfter = params.cars ? carSteps(field, order, score, params.kCar) : undefined;
	const next = new Array<PlEloState>(field.length);
	order.forEach((i, pos) => {
		const { rating, k, races, car } = field[i]!.state;
		const s = score[pos]!;
		const carPart = car === undefined ? {} : { car: carAfter?.get(field[i]!.car ?? '') ?? car };
		if (!params.extended) {
			next[i] = { rating: rating + params.k * s, k, races: races + 1, ...carPart };
			return;
		}
		const kPost = 1 / (1 / k + info[pos]!);
		next[i] = {
			rating: rating + (params.kStep === 'posterior' ? kPost : k) * s,
			k: kPost,
			races: races + 1,
			...carPart,
		};
	});
	return next;
}

/** Each car's part after the race: C + kCar·Σ score over its entries; a car that is the whole field keeps C. */
function carSteps(
	field: readonly FieldEntry<PlEloState>[],
	order: readonly number[],
	score: readonly number[],
	kCar: number,
): Map<string, number> {
	const sums = new Map<string, { before: number; sum: number; entries: number }>();
	order.forEach((i, pos) => {
		const { car: name, state } = field[i]!;
		if (name === undefined || state.car === undefined) return;
		const group = sums.get(name) ?? { before: state.car, sum: 0, entries: 0 };
		group.sum += score[pos]!;
		group.entries++;
		sums.set(name, group);
	});
	const after = new Map<string, number>();
	for (const [name, group] of sums) {
		after.set(name, group.entries === field.length ? group.before : group.before + kCar * group.sum);
	}
	return after;
}

/** DEVIATION: the paper has no provisional rule; ours is documented in docs/endure-speed.md. */
export function plEloSummary(state: PlEloState, params: PlEloParams): RatingSummary {
	const provisional = params.extended
		? state.k > params.provisionalFraction * params.kInf
		: state.races < params.provisionalRaces;
	return { rating: state.rating, uncertainty: state.k, races: state.races, provisional };
}

/**
 * The car part of endure and speed (docs/cars.md): the state carries the car's C while it is rated; a car keeps the
 * share carCarry (ρ) of its part at its first race of each new calendar year (ρ^w after w winters: cars are rebuilt
 * over a winter), and does not forget between races within a year.
 */
export const plEloCars: CarRating<PlEloState, PlEloParams> = {
	on: (params) => params.cars,
	inCar: (state, car) => ({ ...state, car }),
	carOf: (state) => state.car,
	driverOf: ({ car: _car, ...driver }) => driver,
	carriedOver: (car, winters, params) => (winters > 0 ? car * Math.pow(params.carCarry, winters) : car),
};
