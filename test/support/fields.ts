import type { FieldEntry, Race, RaceEntry } from '../../src/ratings/types.js';

/** A race of finishers from [player, position] rows. */
export function raceOf(id: string, rows: readonly (readonly [string, number])[]): Race {
	return { id, entries: rows.map(([player, position]): RaceEntry => ({ player, position, status: 'finished' })) };
}

/** A field in finishing order, players p0, p1, … (rank = index + 1 unless ranks are given). */
export function fieldOf<S>(states: readonly S[], ranks?: readonly number[]): FieldEntry<S>[] {
	return states.map((state, i) => ({ player: `p${i}`, rank: ranks?.[i] ?? i + 1, status: 'finished' as const, state }));
}
