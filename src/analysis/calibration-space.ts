/**
 * What `calibrate` searches for each rating system: the main parameters, their bounds and the scale of the search
 * (docs/calibrate.md). Pure: a function of the system id, its resolved parameters and what the history allows.
 */

/**
 * One searched quantity. `scale` says how it maps to the system's parameter:
 * - `log`: the parameter itself, searched on a log scale between `lo` and `hi`;
 * - `half-life`: a forgetting half-life t in days, searched on a log scale; the parameter is the per-day factor
 *   φ = 2^(−1/t) (pl-elo.ts, eq. 7-8). No forgetting (φ = 1) is t = ∞, clamped to `hi` as a starting point.
 */
export interface SearchDimension {
	/** The searched quantity as reported: the parameter name, or `halfLifeDays` for φ. */
	readonly name: string;
	/** The system parameter it sets. */
	readonly param: string;
	readonly scale: 'log' | 'half-life';
	/** Bounds of the searched quantity (parameter value, or half-life in days), lo < hi, both > 0. */
	readonly lo: number;
	readonly hi: number;
	readonly doc: string;
}

/** What the history and the replay options allow. */
export interface SpaceContext {
	/** Every race has a date: idle-time growth (Glicko c, endure/speed forgetting) applies. */
	readonly dated: boolean;
	readonly reset?: 'yearly' | undefined;
}

export interface SearchSpace {
	readonly dimensions: readonly SearchDimension[];
	/** Why a parameter one might expect is not searched (no dates, yearly reset, no continuous parameter). */
	readonly notes: readonly string[];
}

/** Forgetting half-life bounds, days: from a month to a century (a century is no forgetting for any league). */
export const HALF_LIFE_DAYS = { lo: 30, hi: 36_500 } as const;

/** The parameter value a searched quantity sets: itself, or φ = 2^(−1/t) for a half-life t. */
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
			return { dimensions: [...dimensions, ...halfLife(context, notes)], notes };
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
