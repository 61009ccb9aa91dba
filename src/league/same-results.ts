/**
 * A stored race with the same results as a submitted one: the double submission a race preview warns about (two
 * organizers posting the same scoreboard, or one posting it again). Pure: reads the league's log only.
 */
import type { RaceInput } from './league-events.js';
import type { LeagueLog, RaceRecord } from './race-log.js';
import { racersOf } from './packed-entries.js';

/**
 * The newest confirmed race with exactly the submitted results: the same players (by name or alias, so an alias
 * counts as its player), each in the same place with the same status and time. Identical times to the millisecond
 * are a double submission whatever the dates; results without a time on every finisher (a small league's order
 * can repeat) count only on the same date. A race with a new player matches nothing.
 */
export function sameResultsAs(
	state: LeagueLog,
	race: RaceInput,
): { readonly race: RaceRecord; readonly timed: boolean } | undefined {
	const ids: string[] = [];
	for (const entry of race.entries) {
		const player = state.resolve(entry.player);
		if (player === undefined) return undefined;
		ids.push(player.id);
	}
	const entries = race.entries.map((entry, i) => ({ ...entry, player: ids[i]! }));
	const key = resultsKey(entries);
	const first = entries[0]!;
	const finishers = race.entries.filter((entry) => entry.status === 'finished');
	const timed = finishers.length > 0 && finishers.every((entry) => entry.time !== undefined);
	const stored = state.races();
	for (let i = stored.length - 1; i >= 0; i--) {
		const candidate = stored[i]!;
		// The racers' ids first: a stored race keeps its entries by column, and reading `entries` builds every entry
		// (at 10,000 races, each submission's check built some 280,000 objects: bench:load's profile).
		const racers = racersOf(candidate);
		if (candidate.status !== 'confirmed' || racers.length !== race.entries.length) continue;
		if (!timed && candidate.date !== race.date) continue;
		if (!racers.includes(first.player)) continue;
		// Then the first entry whole: most races do not have its player's place, status and time (15,000 races of
		// 20: 7 to 10 ms, against 135 ms building every key).
		const candidateEntries = candidate.entries;
		if (!candidateEntries.some((entry) => sameEntry(entry, first))) continue;
		if (resultsKey(candidateEntries) === key) return { race: candidate, timed };
	}
	return undefined;
}

function sameEntry(a: RaceInput['entries'][number], b: RaceInput['entries'][number]): boolean {
	return a.player === b.player && a.position === b.position && a.status === b.status && a.time === b.time;
}

/** One string per set of results, independent of line order: player id, place, status and time of every entry. */
function resultsKey(entries: readonly RaceInput['entries'][number][]): string {
	return entries
		.map((entry) => `${entry.player}\u0000${entry.position}\u0000${entry.status}\u0000${entry.time ?? ''}`)
		.sort()
		.join('\u0001');
}
