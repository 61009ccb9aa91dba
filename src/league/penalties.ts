import type { RaceEntry } from '../ratings/types.js';
import { LeagueError } from './race-log-checks.js';

/**
 * Penalties given after a race (`/race penalty`, docs/championship.md), as the log keeps them: pure.
 *
 * - A time penalty adds seconds to the racer's finish time and moves them down the order: past every finisher behind
 *   them whose time is now better or equal (the penalised racer loses a dead heat), stopping at the first finisher
 *   with a worse time or without a time. The finishers' positions are then numbered again by standard competition
 *   ranking (1, 2, 2, 4) in the new order, ties of the other finishers kept; DNF, DNS and DSQ entries are untouched.
 *   The race's entries change, so every rating replays from that race, as after an edit.
 * - Several time penalties of one race apply in the order given (P1 before P3), each on the order the previous left;
 *   withdrawing one applies the others again to the race as classified before any (so withdrawing every penalty gives
 *   back exactly the entries as submitted or last edited, and with them exactly the ratings before).
 * - A points deduction changes no race: only the championship table of the race's season (championship.ts).
 */

export type PenaltyKind = 'time' | 'points';

export interface PenaltyWithdrawal {
	readonly seq: number;
	readonly by: string;
	readonly at: string;
	readonly reason: string;
}

export interface PenaltyRecord {
	/** `P1`, `P2`, … in the order given. */
	readonly id: string;
	readonly seq: number;
	readonly race: string;
	/** Player id (`#n`), following merges. */
	readonly player: string;
	readonly kind: PenaltyKind;
	/** Time penalty: seconds added to the finish time. */
	readonly seconds?: number | undefined;
	/** Points deduction: points taken off the championship total. */
	readonly points?: number | undefined;
	readonly reason: string;
	readonly by: string;
	readonly at: string;
	/** The preview confirmed into this penalty (idempotent Confirm, as for races). */
	readonly preview?: string | undefined;
	readonly withdrawn?: PenaltyWithdrawal | undefined;
}

/** The most a time penalty may add: a day (a bigger number is a typo, and would push any racer to last anyway). */
export const MAX_PENALTY_SECONDS = 86_400;
/** The most points one deduction may take. */
export const MAX_PENALTY_POINTS = 10_000;

/** `P3`, `p3` → `P3`. */
export const penaltyKey = (ref: string): string => ref.trim().toUpperCase();

/** The amount of a penalty as the log stores it, checked: a positive number within bounds, of the kind's unit. */
export function checkPenaltyAmount(kind: unknown, seconds: unknown, points: unknown): void {
	if (kind === 'time') {
		if (points !== undefined) throw new LeagueError('a time penalty gives seconds, not points');
		if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_PENALTY_SECONDS) {
			throw new LeagueError(`a time penalty must be more than 0 and at most ${MAX_PENALTY_SECONDS} seconds`);
		}
		return;
	}
	if (kind === 'points') {
		if (seconds !== undefined) throw new LeagueError('a points deduction gives points, not seconds');
		if (typeof points !== 'number' || !Number.isFinite(points) || points <= 0 || points > MAX_PENALTY_POINTS) {
			throw new LeagueError(`a points deduction must be more than 0 and at most ${MAX_PENALTY_POINTS} points`);
		}
		return;
	}
	throw new LeagueError('a penalty is a time penalty or a points deduction');
}

/**
 * Why a time penalty cannot apply to a racer of these entries (undefined: it can): it moves a finisher by their time.
 * `name` and `race` name them in the message.
 */
export function timePenaltyProblem(
	entries: readonly RaceEntry[],
	player: string,
	name: string,
	race: string,
): string | undefined {
	const entry = entries.find((e) => e.player === player);
	if (entry === undefined) return `${name} did not race in ${race}`;
	if (entry.status !== 'finished') {
		return `${name} did not finish ${race} (${entry.status}): a time penalty moves a finisher down the order; give a points deduction instead`;
	}
	if (entry.time === undefined) {
		return (
			`${race} has no finish time for ${name}: a time penalty adds seconds to a finish time, so it needs one ` +
			'(correct the race with its times with /race edit, or give a points deduction instead)'
		);
	}
	return undefined;
}

/** The race's entries after its time penalties (in the order given) on the entries as classified. */
export function applyTimePenalties(
	classified: readonly RaceEntry[],
	penalties: readonly Pick<PenaltyRecord, 'player' | 'seconds' | 'kind'>[],
): readonly RaceEntry[] {
	let entries = classified;
	for (const p of penalties)
		if (p.kind === 'time' && p.seconds !== undefined) entries = addTime(entries, p.player, p.seconds);
	return entries;
}

/** One time penalty: the racer's time grows, they move down past the finishers now faster, positions renumbered. */
export function addTime(entries: readonly RaceEntry[], player: string, seconds: number): readonly RaceEntry[] {
	const target = entries.find((e) => e.player === player);
	if (target?.status !== 'finished' || target.time === undefined) return entries;
	const time = target.time + seconds;
	// Finishers in finishing order (position, then the order given: a scoreboard's order among equal positions).
	const finishers = entries
		.map((entry, index) => ({ entry, index }))
		.filter(({ entry }) => entry.status === 'finished')
		.sort((a, b) => a.entry.position - b.entry.position || a.index - b.index);
	const from = finishers.findIndex(({ entry }) => entry.player === player);
	let to = from;
	while (to + 1 < finishers.length) {
		const next = finishers[to + 1]!.entry.time;
		if (next === undefined || next > time) break;
		to++;
	}
	const moved = { ...target, time };
	if (to === from) return entries.map((e) => (e === target ? moved : e));
	const order = finishers.map(({ entry }) => entry);
	order.splice(from, 1);
	order.splice(to, 0, moved);
	// Competition ranking from the first finisher's position: a racer ties the one before if they tied before.
	const base = finishers[0]!.entry.position;
	const renumbered = new Map<string, RaceEntry>();
	order.forEach((entry, i) => {
		const before = order[i - 1];
		const tied =
			before !== undefined && entry.player !== player && before.player !== player && before.position === entry.position;
		const position = tied ? renumbered.get(before.player)!.position : base + i;
		renumbered.set(entry.player, entry.position === position && entry !== moved ? entry : { ...entry, position });
	});
	// The entries keep the order given, except the moved racer, who is listed where they now finish.
	const result = entries.filter((e) => e.player !== player).map((e) => renumbered.get(e.player) ?? e);
	const after = order[to - 1];
	const at = after === undefined ? 0 : result.findIndex((e) => e.player === after.player) + 1;
	result.splice(at, 0, renumbered.get(player)!);
	return result;
}

/** `+5 s` or `−3 points`. */
export function penaltyAmountText(p: Pick<PenaltyRecord, 'kind' | 'seconds' | 'points'>): string {
	if (p.kind === 'time') return `+${formatNumber(p.seconds ?? 0)} s`;
	const points = p.points ?? 0;
	return `−${formatNumber(points)} ${points === 1 ? 'point' : 'points'}`;
}

const formatNumber = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(3))));

/** A player's team over time (`/player team`), as PlayerInfo.teams keeps it: each change with its log position. */
export interface TeamChange {
	readonly seq: number;
	readonly team: string | null;
}

/**
 * The player's team in the race submitted at `seq`: the last change before it; before the first change, the first
 * team set (a team set after the season began counts back to its first races, so an organizer who sets teams late
 * needs no edit; a driver who changes team later keeps the old team's points with the old team).
 */
export function teamAt(changes: readonly TeamChange[] | undefined, seq: number): string | undefined {
	if (changes === undefined || changes.length === 0) return undefined;
	const last = changes.findLast((c) => c.seq < seq);
	return (last ?? changes[0]!).team ?? undefined;
}
