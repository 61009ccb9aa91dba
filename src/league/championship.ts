import type { EntryStatus, Race, RaceEntry } from '../ratings/types.js';
import { nameKey } from './player-names.js';

/**
 * The championship table of a list of races (docs/championship.md): pure, no clock. The forecast's season so far
 * (src/analysis/season-so-far.ts) reads a race's points with the same two functions below, so the table and the
 * forecast never disagree on what a result is worth.
 *
 * - A finisher at position p scores points[p - 1] (0 beyond the table; tied positions score alike). A DNF scores 0
 *   and is a result; DNS and DSQ are no result (they score nothing and count as no race entered).
 * - Dropped results: with `bestResults` n, only a driver's n best race scores count; among equal scores the later
 *   race is the one dropped (the earlier result stands, as it was scored first).
 * - Points deductions (penalties) come off the counted total, after the drops: a deduction is not a result to drop.
 * - Ties on points are broken by count-back: most wins, then most second places, and so on down every finishing
 *   position, over every result of the season, dropped ones included (the FIA's rule). Drivers equal on all of it
 *   share the place (1, 1, 3): no further rule (such as who scored their best result first) is invented.
 * - Teams: a race's points of a team are the sum of its drivers' points in that race, every result counted (no
 *   drops: a team's table is every point its drivers brought in) and a driver's deduction taken from the team they
 *   drove for in the race of the penalty. A driver's team in a race is the entry's own (a result file's team), else
 *   what `teamOf` says (the league: the team set with /player team at the time, race-log.ts teamAt).
 */

/** A race's points for a result: undefined when the entry is no result (DNS, DSQ). */
export function resultPoints(
	entry: Pick<RaceEntry, 'position' | 'status'>,
	points: readonly number[],
): number | undefined {
	if (!isResult(entry.status)) return undefined;
	return entry.status === 'finished' ? (points[entry.position - 1] ?? 0) : 0;
}

/** A finish or a retirement: a race entered, with a score (0 for a DNF). */
export const isResult = (status: EntryStatus): boolean => status === 'finished' || status === 'DNF';

/** Points taken off a driver's total by a penalty (`/race penalty points:`), counted in the season of its race. */
export interface PointsDeduction {
	readonly id: string;
	readonly race: string;
	readonly player: string;
	readonly points: number;
	readonly reason: string;
}

export interface ChampionshipInput {
	/** The season's counting races, in order (confirmed races only: a voided race is in no table). */
	readonly races: readonly Race[];
	readonly points: readonly number[];
	readonly bestResults?: number | undefined;
	/** Deductions of races of this list count; others are ignored. */
	readonly deductions?: readonly PointsDeduction[] | undefined;
	/** A driver's team in a race whose entry names none. */
	readonly teamOf?: ((player: string, race: Race) => string | undefined) | undefined;
}

export interface DriverResult {
	readonly race: string;
	readonly points: number;
	readonly status: 'finished' | 'DNF';
	/** Finishing position (finishers only). */
	readonly position?: number | undefined;
	/** Left out of the total by the dropped-results rule. */
	readonly dropped: boolean;
	readonly team?: string | undefined;
}

export interface DriverRow {
	/** 1-based; drivers equal on points and count-back share it. */
	readonly place: number;
	readonly shared: boolean;
	readonly player: string;
	/** The total: counted results less deductions. */
	readonly points: number;
	/** Points of the results that count (before deductions). */
	readonly counted: number;
	/** Points of the dropped results. */
	readonly droppedPoints: number;
	readonly deducted: number;
	/** Races entered (results: finishes and retirements). */
	readonly races: number;
	readonly wins: number;
	readonly podiums: number;
	/** In race order. */
	readonly results: readonly DriverResult[];
	readonly deductions: readonly PointsDeduction[];
	/** The team of the driver's latest result that names one. */
	readonly team?: string | undefined;
}

export interface TeamRow {
	readonly place: number;
	readonly shared: boolean;
	/** The team's name as first seen. */
	readonly team: string;
	readonly points: number;
	readonly deducted: number;
	readonly wins: number;
	readonly podiums: number;
	/** Its drivers (player keys), by points for the team, most first. */
	readonly drivers: readonly string[];
	/** The team's points in each race of the list (0 where it scored none). */
	readonly perRace: readonly number[];
}

export interface ChampionshipTable {
	readonly races: number;
	readonly drivers: readonly DriverRow[];
	/** Empty when no result has a team. */
	readonly teams: readonly TeamRow[];
}

interface Tally {
	points: number;
	/** Count of finishes at each position (index p - 1). */
	readonly placeCounts: number[];
	/** First appearance, to keep a stable order among shared places. */
	readonly order: number;
}

export function championship(input: ChampionshipInput): ChampionshipTable {
	const { races, points } = input;
	const raceIds = new Set(races.map((r) => r.id));
	const deductions = (input.deductions ?? []).filter((d) => raceIds.has(d.race));
	const results = new Map<string, DriverResult[]>();
	const teamNames = new Map<string, string>();
	const teamTallies = new Map<string, Tally & { perRace: number[]; deducted: number; drivers: Map<string, number> }>();
	const teamOfEntry = new Map<string, string>(); // `${race}\u0000${player}` → team key

	races.forEach((race, r) => {
		for (const entry of race.entries) {
			const scored = resultPoints(entry, points);
			if (scored === undefined) continue;
			const team = entry.team ?? input.teamOf?.(entry.player, race);
			const result: DriverResult = {
				race: race.id,
				points: scored,
				status: entry.status === 'finished' ? 'finished' : 'DNF',
				...(entry.status === 'finished' && { position: entry.position }),
				dropped: false,
				...(team !== undefined && { team }),
			};
			const list = results.get(entry.player);
			if (list === undefined) results.set(entry.player, [result]);
			else list.push(result);
			if (team === undefined) continue;
			const key = nameKey(team);
			if (!teamNames.has(key)) teamNames.set(key, team);
			teamOfEntry.set(`${race.id}\u0000${entry.player}`, key);
			let tally = teamTallies.get(key);
			if (tally === undefined) {
				tally = {
					points: 0,
					placeCounts: [],
					order: teamTallies.size,
					perRace: races.map(() => 0),
					deducted: 0,
					drivers: new Map(),
				};
				teamTallies.set(key, tally);
			}
			tally.points += scored;
			tally.perRace[r]! += scored;
			tally.drivers.set(entry.player, (tally.drivers.get(entry.player) ?? 0) + scored);
			if (result.position !== undefined) countPlace(tally.placeCounts, result.position);
		}
	});
	// A driver penalised without a result in these races is still in the table (with their deduction).
	for (const d of deductions) if (!results.has(d.player)) results.set(d.player, []);

	const tallies = new Map<string, Tally>();
	const rows = [...results].map(([player, list], order) => {
		const kept = keptResults(list, input.bestResults);
		const marked = list.map((result, i) => (kept.has(i) ? result : { ...result, dropped: true }));
		const counted = sum(marked.filter((r) => !r.dropped).map((r) => r.points));
		const own = deductions.filter((d) => d.player === player);
		const deducted = sum(own.map((d) => d.points));
		const placeCounts: number[] = [];
		for (const r of list) if (r.position !== undefined) countPlace(placeCounts, r.position);
		tallies.set(player, { points: counted - deducted, placeCounts, order });
		for (const d of own) {
			const team = teamOfEntry.get(`${d.race}\u0000${player}`);
			const tally = team === undefined ? undefined : teamTallies.get(team);
			if (tally !== undefined) {
				tally.points -= d.points;
				tally.deducted += d.points;
			}
		}
		return {
			player,
			points: counted - deducted,
			counted,
			droppedPoints: sum(marked.filter((r) => r.dropped).map((r) => r.points)),
			deducted,
			races: list.length,
			wins: placeCounts[0] ?? 0,
			podiums: (placeCounts[0] ?? 0) + (placeCounts[1] ?? 0) + (placeCounts[2] ?? 0),
			results: marked,
			deductions: own,
			...(list.findLast((r) => r.team !== undefined)?.team !== undefined && {
				team: list.findLast((r) => r.team !== undefined)!.team,
			}),
		};
	});
	const drivers = placed(rows, (row) => tallies.get(row.player)!);

	const teamRows = [...teamTallies].map(([key, tally]) => ({
		team: teamNames.get(key)!,
		points: tally.points,
		deducted: tally.deducted,
		wins: tally.placeCounts[0] ?? 0,
		podiums: (tally.placeCounts[0] ?? 0) + (tally.placeCounts[1] ?? 0) + (tally.placeCounts[2] ?? 0),
		drivers: [...tally.drivers].sort((a, b) => b[1] - a[1]).map(([player]) => player),
		perRace: tally.perRace,
		tally,
	}));
	const teams = placed(teamRows, (row) => row.tally).map(({ tally: _, ...row }) => row);
	return { races: races.length, drivers, teams };
}

/** The indexes of the results that count: all, or the best `best` (equal scores: the earlier race kept). */
function keptResults(list: readonly DriverResult[], best: number | undefined): Set<number> {
	const indexes = list.map((_, i) => i);
	if (best === undefined || best >= list.length) return new Set(indexes);
	return new Set(indexes.sort((a, b) => list[b]!.points - list[a]!.points || a - b).slice(0, best));
}

function countPlace(counts: number[], position: number): void {
	while (counts.length < position) counts.push(0);
	counts[position - 1]!++;
}

/** Points, then count-back (more firsts, then seconds, …); equal on all of it: a shared place (1, 1, 3). */
function compareTallies(a: Tally, b: Tally): number {
	if (a.points !== b.points) return b.points - a.points;
	const depth = Math.max(a.placeCounts.length, b.placeCounts.length);
	for (let p = 0; p < depth; p++) {
		const diff = (b.placeCounts[p] ?? 0) - (a.placeCounts[p] ?? 0);
		if (diff !== 0) return diff;
	}
	return 0;
}

function placed<T>(rows: readonly T[], tallyOf: (row: T) => Tally): (T & { place: number; shared: boolean })[] {
	const sorted = [...rows].sort(
		(a, b) => compareTallies(tallyOf(a), tallyOf(b)) || tallyOf(a).order - tallyOf(b).order,
	);
	const places: number[] = [];
	sorted.forEach((row, i) => {
		const previous = sorted[i - 1];
		places.push(
			previous !== undefined && compareTallies(tallyOf(previous), tallyOf(row)) === 0 ? places[i - 1]! : i + 1,
		);
	});
	return sorted.map((row, i) => ({
		...row,
		place: places[i]!,
		shared: places[i - 1] === places[i] || places[i + 1] === places[i],
	}));
}

const sum = (values: readonly number[]) => values.reduce((s, v) => s + v, 0);
