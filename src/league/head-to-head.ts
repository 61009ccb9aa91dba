import type { RetirementReading } from '../ratings/race.js';
import { rankRace } from '../ratings/race.js';
import type { Race } from '../ratings/types.js';
import { racersOf } from './packed-entries.js';

/**
 * Two players' record against each other: in every race both were rated in, who was classified ahead. "Ahead" is the
 * order the ratings read (rankRace, with the league's reading of retirements), so a race one of them did not start,
 * or retired from where retirements are left out, does not count, and equal ranks are a tie.
 */
export interface HeadToHead {
	/** Races both were rated in. */
	readonly races: number;
	/** Races `player` was ahead. */
	readonly wins: number;
	/** Races the opponent was ahead. */
	readonly losses: number;
	readonly ties: number;
	/** The latest such race (rating order) and its outcome for `player`. */
	readonly last?: { readonly race: string; readonly date?: string | undefined; readonly outcome: Outcome } | undefined;
}

export type Outcome = 'won' | 'lost' | 'tied';

/** `races` in rating order, entries by player id. */
export function headToHead(
	races: readonly Race[],
	player: string,
	opponent: string,
	retirements?: RetirementReading,
): HeadToHead {
	let wins = 0;
	let losses = 0;
	let ties = 0;
	let last: HeadToHead['last'];
	for (const race of races) {
		// Most races have neither: look at the entries before ranking the race.
		const racers = racersOf(race);
		if (!racers.includes(player) || !racers.includes(opponent)) continue;
		const ranked = rankRace(race, retirements);
		const mine = ranked.find((e) => e.player === player)?.rank;
		const theirs = ranked.find((e) => e.player === opponent)?.rank;
		if (mine === undefined || theirs === undefined) continue;
		const outcome: Outcome = mine < theirs ? 'won' : mine > theirs ? 'lost' : 'tied';
		if (outcome === 'won') wins++;
		else if (outcome === 'lost') losses++;
		else ties++;
		last = { race: race.id, date: race.date, outcome };
	}
	return { races: wins + losses + ties, wins, losses, ties, ...(last !== undefined && { last }) };
}
