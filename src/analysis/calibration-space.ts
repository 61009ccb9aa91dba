/**
 * What `calibrate` searches for each rating system: the main parameters, their bounds and the scale of the search
 * (docs/calibrate.md). Pure: a function of the system id, its resolved parameters and what the history allows.
 */
import type { Race } from '../ratings/types.js';

/**
 * One searched quantity. `scale` says how it maps to the system's parameter:
 * - `log`: the parameter itself, searched on a log scale between `lo` and `hi`;
 * - `half-life`: a forgetting half-life t in days, searched on a log scale; the parameter is the per-day factor
 *   φ = 2^(−1/t) (pl-elo.ts, eq. 7-8). No forgetting (φ = 1) is t = ∞, clamped to `hi` as a starting point.
 * - `share`: a share ρ ∈ (0, 1) kept once a season (a car's carry-over at a new calendar year), the parameter itself,
 *   searched on a log scale of the half-life it makes in seasons, t = −1/log2 ρ: equal steps of the search are equal
 *   ratios of how long a car keeps half its part, so the search tells a slowly changing car from a steady one (0.9
 *   against 0.99: 7 and 69 seasons) where a log scale on ρ itself would lump every ρ near 1 together. ρ = 1 (the
 *   car never changes) is clamped to `hi`.
 */
export interface SearchDimension {
	/** The searched quantity as reported: the parameter name, or `halfLifeDays` for φ. */
	readonly name: string;
	/** The system parameter it sets. */
	readonly param: string;
	readonly scale: 'log' | 'half-life' | 'share';
	/** Bounds of the searched quantity (parameter value, or half-life in days), lo < hi, both > 0 (a share's < 1). */
	readonly lo: number;
	readonly hi: number;
	readonly doc: string;
}

/** What the history and the replay options allow. */
export interface SpaceContext {
	/** Every race has a date: idle-time growth (Glicko c, endure/speed forgetting) applies. */
	readonly dated: boolean;
	readonly reset?: 'yearly' | undefined;
	/** Some result names a car (or a team, the car's stand-in): the car part of endure and speed has something to rate. */
	readonly cars?: boolean | undefined;
}

export interface SearchSpace {
	readonly dimensions: readonly SearchDimension[];
	/** Why a parameter one might expect is not searched (no dates, yearly reset, no continuous parameter). */
	readonly notes: readonly string[];
}

/** Forgetting half-life bounds, days: from a month to a century (a century is no forgetting for any league). */
export const HALF_LIFE_DAYS = { lo: 30, hi: 36_500 } as const;

/**
 * A car's carry-over ρ, bounds of the search: from keeping 1 % at a new year (a fresh car every season: half-life 0.15
 * seasons) to keeping 99 % (69 seasons, a car that hardly changes).
 */
export const CAR_CARRY = { lo: 0.01, hi: 0.99 } as const;

/** Whether some result of a history names a car, or a team that stands in for it (rankRace). */
export function historyHasCars(races: readonly Race[]): boolean {
	return races.some((race) => race.entries.some((entry) => (entry.car ?? entry.team) !== undefined));
}

/** The half-life in seasons of a share ρ kept once a season: t = −1/log2 ρ (∞ for ρ = 1). */
function seasonsOfShare(share: number): number {
	return -1 / Math.log2(share);
}

/**
 * Where a quantity within its bounds lies on the search's unit interval: u = log(q/lo) / log(hi/lo), or for a share
 * the same of the half-life in seasons it makes. Increasing in the quantity.
 */
export function unitOf(dimension: SearchDimension, quantity: number): number {
	if (dimension.scale !== 'share') return Math.log(quantity / dimension.lo) / Math.log(dimension.hi / dimension.lo);
	const lo = seasonsOfShare(dimension.lo);
	return Math.log(seasonsOfShare(quantity) / lo) / Math.log(seasonsOfShare(dimension.hi) / lo);
}

/** The quantity at u ∈ [0, 1] (the inverse of unitOf). */
export function quantityAtUnit(dimension: SearchDimension, u: number): number {
	if (dimension.scale !== 'share') return dimension.lo * Math.pow(dimension.hi / dimension.lo, u);
	const lo = seasonsOfShare(dimension.lo);
	return Math.pow(2, -1 / (lo * Math.pow(seasonsOfShare(dimension.hi) / lo, u)));
}

/** The natural log of the ratio the whole range spans (of the quantity, or of a share's half-life in seasons). */
export function logSpan(dimension: SearchDimension): number {
	return dimension.scale === 'share'
		? Math.log(seasonsOfShare(dimension.hi) / seasonsOfShare(dimension.lo))
		: Math.log(dimension.hi / dimension.lo);
}

/** The parameter value a searched quantity sets: itself (a share too), or φ = 2^(−1/t) for a half-life t. */
export function paramValue(dimension: SearchDimension, quantity: number): number {
	return dimension.scale === 'half-life' ? Math.pow(2, -1 / quantity) : quantity;
}

/** The searched quantity of a parameter value: itself, or the half-life t = −1/log2 φ (∞ for φ = 1). */
export function quantityOf(dimension: SearchDimension, value: number): number {
	return dimension.scale === 'half-life' ? (value >= 1 ? Infinity : -1 / Math.log2(value)) : value;
}

function halfLife(context: SpaceContext, notes: string[]): SearchDimension[] {
	if (!context.dated) {
		notes.push('phi (forgetting) is not searched: it needs dated races and the history has none');
		return [];
	}
	if (context.reset === 'yearly') {
		notes.push('phi (forgetting) is not searched under --reset yearly: search it with ratings carried across seasons');
		return [];
	}
	return [
		{
			name: 'halfLifeDays',
			param: 'phi',
			scale: 'half-life',
			...HALF_LIFE_DAYS,
			doc: 'Forgetting half-life in idle days, φ = 2^(−1/t) (eq. 7-8).',
		},
	];
}

/**
 * endure and speed with `cars` (pl-elo.ts, docs/cars.md): the car's step kCar, searched as k is, wherever a result
 * names a car; its carry-over ρ at a new calendar year where the races are dated and ratings carried across seasons.
 * Nothing with cars off: a league turns the car part on itself (`--param cars=true`, or `--choices`).
 */
function carParts(
	params: Readonly<Record<string, unknown>>,
	context: SpaceContext,
	notes: string[],
): SearchDimension[] {
	if (params.cars !== true) return [];
	if (!context.cars) {
		notes.push('kCar and carCarry are not searched: no result names a car or a team, so the car part stays 0');
		return [];
	}
	const kCar: SearchDimension = {
		name: 'kCar',
		param: 'kCar',
		scale: 'log',
		lo: 0.005,
		hi: 5,
		doc: 'With cars: the car part’s step on the sum of its entries’ gradients.',
	};
	if (!context.dated) {
		notes.push('carCarry is not searched: a car carries its part over at a new calendar year, and no race is dated');
		return [kCar];
	}
	if (context.reset === 'yearly') {
		notes.push('carCarry is not searched under --reset yearly: every car restarts each year; search it carried');
		return [kCar];
	}
	return [
		kCar,
		{
			name: 'carCarry',
			param: 'carCarry',
			scale: 'share',
			...CAR_CARRY,
			doc: 'With cars: the share ρ of its part a car keeps at its first race of a new calendar year.',
		},
	];
}

/**
 * The search space of a system. `params` are the system's resolved parameters (with the user's fixed overrides):
 * endure and speed search k in the base version, k∞ in the extended one; Glicko's initialRd is bounded by maxRd.
 */
export function searchSpace(systemId: string, resolved: object, context: SpaceContext): SearchSpace {
	const params = resolved as Readonly<Record<string, unknown>>;
	const notes: string[] = [];
	switch (systemId) {
		case 'folyami':
			return {
				dimensions: [
					{ name: 'k', param: 'k', scale: 'log', lo: 1, hi: 200, doc: 'Base modulation factor K (step 7).' },
				],
				notes: ['folyami has no idle-time growth: only K is searched'],
			};
		case 'glicko': {
			const maxRd = typeof params.maxRd === 'number' ? params.maxRd : 350;
			const dimensions: SearchDimension[] = [
				{
					name: 'initialRd',
					param: 'initialRd',
					scale: 'log',
					lo: Math.min(20, maxRd / 2),
					hi: maxRd,
					doc: 'RD of a newcomer; bounded by maxRd (raise maxRd with --param to search higher).',
				},
			];
			if (context.dated) {
				dimensions.push({ name: 'c', param: 'c', scale: 'log', lo: 0.1, hi: 100, doc: 'RD growth per idle day.' });
			} else {
				notes.push('c (RD growth per idle day) is not searched: the history has no dates, so RD never grows');
			}
			return { dimensions, notes };
		}
		case 'endure':
		case 'speed': {
			const dimensions: SearchDimension[] = params.extended
				? [
						{
							name: 'kInf',
							param: 'kInf',
							scale: 'log',
							lo: 0.01,
							hi: 20,
							doc: 'Extended: newcomer k and k∞ (eq. 5-7).',
						},
					]
				: [{ name: 'k', param: 'k', scale: 'log', lo: 0.005, hi: 5, doc: 'Base: the global k-factor (eq. 4).' }];
			return { dimensions: [...dimensions, ...halfLife(context, notes), ...carParts(params, context, notes)], notes };
		}
		case 'stk':
			return {
				dimensions: [],
				notes: ['stk has no parameter to calibrate: its constants are the game server’s, and its options are discrete'],
			};
		default:
			return { dimensions: [], notes: [`${systemId}: no search space defined`] };
	}
}
