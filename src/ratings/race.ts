import type { Race, RankedEntry } from './types.js';

/**
 * How retirements (DNF) are read (a choice `calibrate --choices` searches):
 * - `ordered` (the default, and every reference's reading): below every finisher, in the order given;
 * - `tied`: below every finisher, all tied with one another (the order of retiring says little);
 * - `excluded`: left out of the race, as DNS (a retirement says nothing of pace).
 */
export type RetirementReading = 'ordered' | 'tied' | 'excluded';

export const RETIREMENT_READINGS: readonly RetirementReading[] = ['ordered', 'tied', 'excluded'];

/**
 * The one reading of a race that every system shares.
 *
 * 1. DNS and DSQ entries are excluded (they are not rated).
 * 2. Finishers are ordered by position; equal positions are ties.
 * 3. DNF entries (retirements) are classified below every finisher, ordered among themselves by their position
 *    (the scoreboard parser numbers them in the order given); equal DNF positions tie as well. With `retirements`
 *    `tied` they all share one place below the finishers; with `excluded` they are left out as in step 1.
 * 4. Ranks are renumbered 1..n without gaps; a tie group covering places p..p+m-1 gets p + (m-1)/2 each
 *    (specs/folyami.md step 1, `tidyRanks`).
 *
 * Within a tie group entries are sorted by player name, so the result never depends on input order. Each ranked entry
 * keeps its car, or its team where the result names no car (the car part of endure and speed with `cars`).
 * Throws on a player entered twice: validation upstream reports it to the user with a line number.
 */
export function rankRace(race: Race, retirements: RetirementReading = 'ordered'): RankedEntry[] {
	const entries = race.entries;
	const twice = repeatedPlayer(entries);
	if (twice !== undefined) throw new Error(`race ${race.id}: ${twice} is entered twice`);
	const rated = entries
		.filter((entry) => entry.status === 'finished' || (entry.status === 'DNF' && retirements !== 'excluded'))
		// Tied retirements: one DNF position for all (the position only orders entries within their class).
		.map((entry) => (retirements === 'tied' && entry.status === 'DNF' ? { ...entry, position: 0 } : entry));
	const classOf = (status: string): number => (status === 'DNF' ? 1 : 0);
	rated.sort(
		(a, b) =>
			classOf(a.status) - classOf(b.status) ||
			a.position - b.position ||
			(a.player < b.player ? -1 : a.player > b.player ? 1 : 0),
	);
	const ranked: RankedEntry[] = [];
	for (let start = 0; start < rated.length;) {
		const head = rated[start]!;
		let end = start + 1;
		while (end < rated.length && rated[end]!.status === head.status && rated[end]!.position === head.position) end++;
		const tidyRank = start + 1 + (end - start - 1) / 2;
		for (let i = start; i < end; i++) {
			const entry = rated[i]!;
			const car = entry.car ?? entry.team;
			const { player, time } = entry;
			const status = entry.status === 'DNF' ? 'DNF' : 'finished';
			// Literals, not a spread of the car: a replay ranks every race once per system.
			ranked.push(
				car === undefined ? { player, rank: tidyRank, time, status } : { player, rank: tidyRank, time, status, car },
			);
		}
		start = end;
	}
	return ranked;
}

/**
 * The first player entered a second time, in entry order. A field of a few dozen is checked pair by pair, which
 * allocates nothing (a replay ranks every race once per system); a larger one through a set.
 */
function repeatedPlayer(entries: Race['entries']): string | undefined {
	if (entries.length > 64) {
		const seen = new Set<string>();
		for (const { player } of entries) {
			if (seen.has(player)) return player;
			seen.add(player);
		}
		return undefined;
	}
	for (let i = 1; i < entries.length; i++) {
		const player = entries[i]!.player;
		for (let j = 0; j < i; j++) if (entries[j]!.player === player) return player;
	}
	return undefined;
}
