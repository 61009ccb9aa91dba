import type { ChangeParts, OpponentPart, RacerExplanation } from '../../league/explain-race.js';
import type { RatingSummary } from '../../ratings/types.js';

/**
 * One racer's explained change as the replies show it: data only, the text lives in commands/. Built
 * from the pure explanation (league/explain-race.ts) with player ids turned into display names.
 */

export interface NamedOpponent extends OpponentPart {
	readonly name: string;
}

/** The opponents of one outcome and the sum of their terms (undefined where the system has no per-opponent terms). */
export interface OutcomeGroup {
	readonly count: number;
	readonly sum?: number | undefined;
}

export interface ChangeWhy {
	readonly race: string;
	/** The organizer's name for the race (`/race submit name:`, an imported history's race column), if any. */
	readonly raceName?: string | undefined;
	readonly date?: string | undefined;
	readonly player: string;
	readonly name: string;
	readonly rank: number;
	readonly status: 'finished' | 'DNF';
	readonly fieldSize: number;
	/** The place tied racers share starts here (rank is the tie group's mean place). */
	readonly place: number;
	readonly expectedRank: number;
	readonly before: RatingSummary;
	readonly after: RatingSummary;
	readonly change: number;
	readonly parts: ChangeParts;
	/**
	 * The main parts of an opponent-by-opponent change: base points (stk) plus the sums over the racers beaten, tied
	 * with and lost to; together they are the change.
	 */
	readonly beaten: OutcomeGroup;
	readonly tied: OutcomeGroup;
	readonly lostTo: OutcomeGroup;
	/** The strongest opponent beaten and lost to, by pre-race rating. */
	readonly strongestBeaten?: NamedOpponent | undefined;
	readonly strongestLostTo?: NamedOpponent | undefined;
	/** The single largest gain and loss among the opponents' terms. */
	readonly biggestGain?: NamedOpponent | undefined;
	readonly biggestLoss?: NamedOpponent | undefined;
}

export function changeWhy(
	e: RacerExplanation,
	race: { readonly id: string; readonly date?: string | undefined; readonly name?: string | undefined },
	nameOf: (id: string) => string,
): ChangeWhy {
	const named = (o: OpponentPart): NamedOpponent => ({ ...o, name: nameOf(o.player) });
	const group = (outcome: OpponentPart['outcome']): OutcomeGroup => {
		const members = e.opponents.filter((o) => o.outcome === outcome);
		const split = e.parts.kind === 'opponents';
		return { count: members.length, ...(split && { sum: members.reduce((s, o) => s + (o.delta ?? 0), 0) }) };
	};
	const withTerms = e.opponents.filter((o) => o.delta !== undefined);
	const gain = withTerms.reduce<OpponentPart | undefined>(
		(best, o) => (o.delta! > (best?.delta ?? 0) ? o : best),
		undefined,
	);
	const loss = withTerms.reduce<OpponentPart | undefined>(
		(worst, o) => (o.delta! < (worst?.delta ?? 0) ? o : worst),
		undefined,
	);
	// Opponents come by pre-race rating, strongest first.
	const beaten = e.opponents.find((o) => o.outcome === 'beat');
	const lostTo = e.opponents.find((o) => o.outcome === 'lost');
	const tied = e.opponents.filter((o) => o.outcome === 'tied').length;
	return {
		race: race.id,
		...(race.name !== undefined && { raceName: race.name }),
		date: race.date,
		player: e.player,
		name: nameOf(e.player),
		rank: e.rank,
		status: e.status,
		fieldSize: e.fieldSize,
		place: e.rank - tied / 2,
		expectedRank: e.expectedRank,
		before: e.before,
		after: e.after,
		change: e.change,
		parts: e.parts,
		beaten: group('beat'),
		tied: group('tied'),
		lostTo: group('lost'),
		strongestBeaten: beaten && named(beaten),
		strongestLostTo: lostTo && named(lostTo),
		biggestGain: gain && named(gain),
		biggestLoss: loss && named(loss),
	};
}
