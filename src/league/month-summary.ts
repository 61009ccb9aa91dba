import type { Standing } from './replay.js';

/**
 * What the monthly ranking post says about a period, from the standings at its start and at its end
 * under one system: the top of the table, the biggest movers, the newcomers, who became established. Pure: the
 * standings come from `standingsAsOf` (through the daily records) and the races from the log.
 */

export interface Mover {
	readonly player: string;
	readonly from: number;
	readonly to: number;
	readonly change: number;
}

export interface MonthSummary {
	/** The standings at the end, best first, at most `top` rows. */
	readonly top: readonly Standing[];
	/** Rated players at the end. */
	readonly rated: number;
	/** Rated at both ends, by the largest rise; and by the largest fall. Changes of exactly 0 are left out. */
	readonly risers: readonly Mover[];
	readonly fallers: readonly Mover[];
	/** Rated at the end, not at the start, by rating. */
	readonly newcomers: readonly Standing[];
	/** Provisional at the start (or new), established at the end, by rating. */
	readonly established: readonly Standing[];
}

export interface SummaryLimits {
	readonly top: number;
	readonly movers: number;
}

export function summarizeMonth(
	start: readonly Standing[],
	end: readonly Standing[],
	limits: SummaryLimits = { top: 20, movers: 5 },
): MonthSummary {
	const before = new Map(start.map((s) => [s.player, s]));
	const moves: Mover[] = [];
	for (const s of end) {
		const was = before.get(s.player);
		if (was !== undefined && s.rating !== was.rating) {
			moves.push({ player: s.player, from: was.rating, to: s.rating, change: s.rating - was.rating });
		}
	}
	const byChange = (a: Mover, b: Mover) => b.change - a.change || (a.player < b.player ? -1 : 1);
	const risers = moves.filter((m) => m.change > 0).sort(byChange);
	const fallers = moves.filter((m) => m.change < 0).sort((a, b) => byChange(b, a));
	return {
		top: end.slice(0, limits.top),
		rated: end.length,
		risers: risers.slice(0, limits.movers),
		fallers: fallers.slice(0, limits.movers),
		newcomers: end.filter((s) => !before.has(s.player)),
		established: end.filter((s) => !s.provisional && (before.get(s.player)?.provisional ?? true)),
	};
}
