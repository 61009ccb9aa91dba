import { endureRounds } from '../ratings/endure.js';
import { folyamiPair, type FolyamiParams, type FolyamiState } from '../ratings/folyami.js';
import { ficsGame, glickoPeriodTerms, glickoScoreOf, type GlickoParams, type GlickoState } from '../ratings/glicko.js';
import { expectedPositions, OddsInputError } from '../ratings/odds/odds.js';
import type { PlEloParams, PlEloState } from '../ratings/pl-elo.js';
import { speedRounds } from '../ratings/speed.js';
import { stkExchange, type StkParams, type StkState } from '../ratings/stk.js';
import type { FieldEntry, RaceContext, RankedEntry, RatingSummary, RatingSystem } from '../ratings/types.js';

/**
 * Why did a rating move?. Pure: from the field a system rated (pre-race states after idle-time growth,
 * the replay's `prepare(race)`) and the post-race states, for every racer: the place finished against the place
 * expected before the race, the opponents beaten and lost to, and the change split into the parts the system adds up.
 *
 * The parts, per system (docs/explain.md):
 * - folyami: one term per opponent, the pair's k·q·(S − E) with its provisional K factor (specs/folyami.md step 7),
 *   summed in field order exactly as rateRace sums them.
 * - glicko `period`: one term per opponent, factor·g(RD_j)(s_j − E_j) with factor q/(1/RD² + 1/d²) (glicko.pdf
 *   step 2); `fics`: one term per opponent, the game's K_used·(w − E).
 * - stk: the base points of step 1 plus one term per opponent, importance·(result − expected) (specs/stk.md step 3).
 * - endure / speed: one Plackett-Luce step on the whole order has no per-opponent split. The change is
 *   k·(observed − expected) rounds: rounds survived in endure's elimination rounds, rounds won (picked as the best of
 *   those left) in speed's selection rounds (Powell eq. 4, 46, 49), with k the step the system used.
 */

/** An opponent as an explanation names it: pre-race rating, place, and (where the system has one) its term. */
export interface OpponentPart {
	readonly player: string;
	readonly rank: number;
	readonly status: RankedEntry['status'];
	/** The opponent's pre-race rating (after idle-time growth). */
	readonly rating: number;
	/** From the explained racer's side, by rank: ahead of the opponent, tied, or behind. */
	readonly outcome: 'beat' | 'tied' | 'lost';
	/** This opponent's contribution to the racer's change; undefined where the system has no per-opponent split. */
	readonly delta?: number | undefined;
}

export type ChangeParts =
	| {
			/** folyami, glicko, stk: the change is `base` (stk's base points, else 0) plus the opponents' deltas. */
			readonly kind: 'opponents';
			readonly base: number;
	  }
	| {
			/** endure (elimination rounds survived) and speed (selection rounds won): change = k·(observed − expected). */
			readonly kind: 'rounds';
			readonly model: 'survived' | 'won';
			/** Rounds the racer took part in. */
			readonly rounds: number;
			readonly observed: number;
			readonly expected: number;
			readonly k: number;
	  }
	| { readonly kind: 'total' };

export interface RacerExplanation {
	readonly player: string;
	/** rankRace's tidy rank: ties share the mean place, DNF entries rank below every finisher. */
	readonly rank: number;
	readonly status: RankedEntry['status'];
	/** Racers in the rated field. */
	readonly fieldSize: number;
	/** The odds engine's expected place before the race (fieldOdds' expectedPosition over the rated field). */
	readonly expectedRank: number;
	readonly before: RatingSummary;
	readonly after: RatingSummary;
	/** after.rating − before.rating. */
	readonly change: number;
	readonly parts: ChangeParts;
	/** Every other racer, by pre-race rating descending (ties by player id). */
	readonly opponents: readonly OpponentPart[];
}

/**
 * The expected place of every racer of a rated field, in field order (1 for a lone racer). NaN for every racer when
 * the odds engine refuses the field (OddsInputError: a rating so extreme its rate is not finite): an explanation
 * then leaves the expected place out rather than fail.
 */
export function expectedRanks<S, P>(system: RatingSystem<S, P>, params: P, field: readonly FieldEntry<S>[]): number[] {
	try {
		return expectedPositions(field.map((entry) => system.performance(entry.state, params)));
	} catch (error) {
		if (error instanceof OddsInputError) return field.map(() => NaN);
		throw error;
	}
}

/**
 * Explain every racer of one rated race. `after` is what `system.rateRace(field, params, context)` returned (the
 * replay's post-race states, in field order); `expected` may be passed when already computed (expectedRanks).
 */
export function explainRace<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	field: readonly FieldEntry<S>[],
	after: readonly S[],
	context: RaceContext = {},
	expected: readonly number[] = expectedRanks(system, params, field),
): RacerExplanation[] {
	const summaries = field.map((entry) => system.summary(entry.state, params));
	const split = splitChanges(system.id, params, field, after, context);
	const byRating = field
		.map((_, i) => i)
		.sort((a, b) => summaries[b]!.rating - summaries[a]!.rating || compareIds(field[a]!.player, field[b]!.player));
	return field.map((entry, i): RacerExplanation => {
		const before = summaries[i]!;
		const afterSummary = system.summary(after[i]!, params);
		const opponents = byRating
			.filter((j) => j !== i)
			.map((j): OpponentPart => {
				const other = field[j]!;
				const delta = split?.terms[i]![j];
				return {
					player: other.player,
					rank: other.rank,
					status: other.status,
					rating: summaries[j]!.rating,
					outcome: entry.rank < other.rank ? 'beat' : entry.rank === other.rank ? 'tied' : 'lost',
					...(delta !== undefined && { delta }),
				};
			});
		return {
			player: entry.player,
			rank: entry.rank,
			status: entry.status,
			fieldSize: field.length,
			expectedRank: expected[i]!,
			before,
			after: afterSummary,
			change: afterSummary.rating - before.rating,
			parts: split?.parts[i] ?? { kind: 'total' },
			opponents,
		};
	});
}

/** Parts of every racer's change plus per-opponent terms (terms[i][j], undefined for i = j), by system. */
interface Split {
	readonly parts: ChangeParts[];
	readonly terms: (number | undefined)[][];
}

function splitChanges(
	systemId: string,
	params: unknown,
	field: readonly FieldEntry<unknown>[],
	after: readonly unknown[],
	context: RaceContext,
): Split | undefined {
	// A one-racer field changes nothing (stk: base points only, which its exchange still reports).
	if (field.length < 2 && systemId !== 'stk') return undefined;
	switch (systemId) {
		case 'folyami':
			return folyamiSplit(field as readonly FieldEntry<FolyamiState>[], params as FolyamiParams);
		case 'glicko':
			return glickoSplit(field as readonly FieldEntry<GlickoState>[], params as GlickoParams);
		case 'stk': {
			const exchange = stkExchange(field as readonly FieldEntry<StkState>[], params as StkParams, context);
			return { parts: exchange.base.map((base) => ({ kind: 'opponents', base })), terms: exchange.terms };
		}
		case 'endure':
		case 'speed':
			return roundsSplit(
				systemId,
				field as readonly FieldEntry<PlEloState>[],
				after as readonly PlEloState[],
				params as PlEloParams,
			);
		default:
			return undefined;
	}
}

/** folyami.ts rateRace: pair (i, j), i < j in field order, gives deltaX to i and deltaY to j. */
function folyamiSplit(field: readonly FieldEntry<FolyamiState>[], params: FolyamiParams): Split {
	const terms = field.map(() => new Array<number | undefined>(field.length).fill(undefined));
	for (let i = 0; i < field.length; i++) {
		for (let j = i + 1; j < field.length; j++) {
			const pair = folyamiPair(field[i]!.state, field[i]!.rank, field[j]!.state, field[j]!.rank, params);
			terms[i]![j] = pair.deltaX;
			terms[j]![i] = pair.deltaY;
		}
	}
	return { parts: field.map(() => ({ kind: 'opponents', base: 0 })), terms };
}

/** glicko.ts rateRace: period form factor·g(s − E) per game; FICS form each game's own K_used·(w − E). */
function glickoSplit(field: readonly FieldEntry<GlickoState>[], params: GlickoParams): Split {
	const terms = field.map((entry, i) => {
		const others = field.map((_, j) => j).filter((j) => j !== i);
		const row = new Array<number | undefined>(field.length).fill(undefined);
		if (params.form === 'period') {
			const games = others.map((j) => ({
				rating: field[j]!.state.rating,
				rd: field[j]!.state.rd,
				score: glickoScoreOf(entry.rank, field[j]!.rank),
			}));
			const period = glickoPeriodTerms(entry.state.rating, entry.state.rd, games);
			others.forEach((j, g) => (row[j] = period.factor * period.terms[g]!));
		} else {
			for (const j of others) {
				row[j] = ficsGame(entry.state, field[j]!.state, glickoScoreOf(entry.rank, field[j]!.rank), params.kFloor).delta;
			}
		}
		return row;
	});
	return { parts: field.map(() => ({ kind: 'opponents', base: 0 })), terms };
}

/**
 * endure / speed: the rounds (O(m²), endureRounds / speedRounds) give each racer's rounds, observed picks and
 * expected picks d·p (Breslow: a tie group of d is picked together). endure's score is observed − expected rounds
 * survived; speed's is observed − expected rounds won. The step k is the one rateField used.
 */
function roundsSplit(
	systemId: 'endure' | 'speed',
	field: readonly FieldEntry<PlEloState>[],
	after: readonly PlEloState[],
	params: PlEloParams,
): Split {
	// rateField sorts by rank (stable); rankRace's field already is in that order, but follow it to be safe.
	const order = field.map((_, i) => i).sort((a, b) => field[a]!.rank - field[b]!.rank);
	const ratings = order.map((i) => field[i]!.state.rating);
	const ranks = order.map((i) => field[i]!.rank);
	const rounds = new Array<number>(field.length).fill(0);
	const picked = new Array<number>(field.length).fill(0);
	const expectedPicks = new Array<number>(field.length).fill(0);
	const tally = (alive: readonly number[], chosen: readonly number[], p: readonly number[]) => {
		alive.forEach((pos, a) => {
			rounds[pos]!++;
			expectedPicks[pos]! += chosen.length * p[a]!;
		});
		for (const pos of chosen) picked[pos]!++;
	};
	if (systemId === 'endure') for (const r of endureRounds(ratings, ranks)) tally(r.alive, r.eliminated, r.pElim);
	else for (const r of speedRounds(ratings, ranks)) tally(r.alive, r.selected, r.pSelect);
	const parts = new Array<ChangeParts>(field.length);
	order.forEach((i, pos) => {
		const state = field[i]!.state;
		// rateField: base k; extended, the pre-race k (prior) or the updated k, which is the post-race state's (posterior).
		const k = !params.extended ? params.k : params.kStep === 'prior' ? state.k : after[i]!.k;
		// endure: survived = rounds − eliminated; speed: won = picked.
		const observed = systemId === 'endure' ? rounds[pos]! - picked[pos]! : picked[pos]!;
		const expected = systemId === 'endure' ? rounds[pos]! - expectedPicks[pos]! : expectedPicks[pos]!;
		parts[i] = {
			kind: 'rounds',
			model: systemId === 'endure' ? 'survived' : 'won',
			rounds: rounds[pos]!,
			observed,
			expected,
			k,
		};
	});
	return { parts, terms: field.map(() => new Array<number | undefined>(field.length).fill(undefined)) };
}

function compareIds(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
