import type { LeagueEvent } from './league-events.js';
import type { PlayerInfo, RaceEdit, RaceRecord } from './race-log.js';
import { LeagueError } from './race-log-checks.js';
import {
	applyTimePenalties,
	checkPenaltyAmount,
	penaltyAmountText,
	penaltyKey,
	timePenaltyProblem,
	type PenaltyRecord,
} from './penalties.js';

/**
 * How the race log (race-log.ts) folds `penalty-given` and `penalty-withdrawn` (penalties.ts says what a penalty
 * does). Each plan checks the event against the state and says what to change; race-log.ts commits it.
 */

type PenaltyGiven = Extract<LeagueEvent, { type: 'penalty-given' }>;
type PenaltyWithdrawn = Extract<LeagueEvent, { type: 'penalty-withdrawn' }>;

export interface PenaltyFoldState {
	readonly penalties: readonly PenaltyRecord[];
	/** A confirmed race (LeagueError otherwise). */
	readonly confirmedRace: (id: string) => { race: RaceRecord; i: number };
	/** Any stored race, voided too. */
	readonly raceAt: (id: string) => { race: RaceRecord; i: number } | undefined;
	readonly must: (ref: string) => PlayerInfo;
	readonly reason: (text: string) => string;
}

export interface PenaltyPlan {
	/** The penalty record to store at `index` (a new one: at the end). */
	readonly record: PenaltyRecord;
	readonly index: number;
	/** The race whose entries change (time penalties), and its new record. */
	readonly race?: { readonly i: number; readonly next: RaceRecord } | undefined;
}

/** The time penalties of a race in force (given, not withdrawn), in the order given. */
export const activeTimePenalties = (penalties: readonly PenaltyRecord[], race: string): PenaltyRecord[] =>
	penalties.filter((p) => p.race === race && p.kind === 'time' && p.withdrawn === undefined);

export function planPenaltyGiven(event: PenaltyGiven, seq: number, state: PenaltyFoldState): PenaltyPlan {
	const { race, i } = state.confirmedRace(event.race);
	const player = state.must(event.player);
	if (!race.entries.some((e) => e.player === player.id)) {
		throw new LeagueError(`${player.name} did not race in ${race.id}`);
	}
	checkPenaltyAmount(event.kind, event.seconds, event.points);
	const why = state.reason(event.reason);
	const record: PenaltyRecord = {
		id: `P${state.penalties.length + 1}`,
		seq,
		race: race.id,
		player: player.id,
		kind: event.kind,
		...(event.kind === 'time' ? { seconds: event.seconds } : { points: event.points }),
		reason: why,
		by: event.by,
		at: event.at,
		...(event.preview !== undefined && { preview: event.preview }),
	};
	if (event.kind === 'points') return { record, index: state.penalties.length };
	const problem = timePenaltyProblem(race.entries, player.id, player.name, race.id);
	if (problem !== undefined) throw new LeagueError(problem);
	const classified = race.classified ?? race.entries;
	const entries = applyTimePenalties(classified, [...activeTimePenalties(state.penalties, race.id), record]);
	const edit = penaltyEdit(
		'penalty',
		record,
		seq,
		event,
		`${record.id} ${penaltyAmountText(record)} for ${player.name}: ${why}`,
	);
	return {
		record,
		index: state.penalties.length,
		race: { i, next: { ...race, classified, entries, edits: [...race.edits, edit] } },
	};
}

export function planPenaltyWithdrawn(event: PenaltyWithdrawn, seq: number, state: PenaltyFoldState): PenaltyPlan {
	const id = typeof event.penalty === 'string' ? penaltyKey(event.penalty) : '';
	const index = state.penalties.findIndex((p) => p.id === id);
	const penalty = state.penalties[index];
	if (penalty === undefined) throw new LeagueError(`there is no penalty ${String(event.penalty).slice(0, 20)}`);
	if (penalty.withdrawn !== undefined) {
		throw new LeagueError(`penalty ${penalty.id} was already withdrawn on ${penalty.withdrawn.at.slice(0, 10)}`);
	}
	const why = state.reason(event.reason);
	const record: PenaltyRecord = { ...penalty, withdrawn: { seq, by: event.by, at: event.at, reason: why } };
	if (penalty.kind === 'points') return { record, index };
	const found = state.raceAt(penalty.race);
	if (found === undefined) throw new LeagueError(`unknown race ${penalty.race}`);
	const { race, i } = found;
	const remaining = activeTimePenalties(state.penalties, race.id).filter((p) => p.id !== penalty.id);
	const classified = race.classified ?? race.entries;
	// With no penalty left, the race is again exactly as classified (the same entries, so the same ratings).
	const rest: RaceRecord = { ...race, classified: undefined };
	delete (rest as { classified?: unknown }).classified;
	const edit = penaltyEdit('penalty-withdrawn', record, seq, event, `${penalty.id} withdrawn: ${why}`);
	const next: RaceRecord =
		remaining.length === 0
			? { ...rest, entries: classified, edits: [...race.edits, edit] }
			: { ...race, entries: applyTimePenalties(classified, remaining), edits: [...race.edits, edit] };
	return { record, index, race: { i, next } };
}

function penaltyEdit(
	kind: 'penalty' | 'penalty-withdrawn',
	record: PenaltyRecord,
	seq: number,
	event: { by: string; at: string },
	reason: string,
): RaceEdit {
	return { seq, kind, by: event.by, at: event.at, reason, penalty: record.id };
}

/**
 * A correction of a race with time penalties in force may change its date or name, not its results: the penalties
 * were given on the results as they stand (withdraw them, correct the race, give them again).
 */
export function checkEditKeepsPenalties(
	penalties: readonly PenaltyRecord[],
	race: RaceRecord,
	entries: readonly RaceRecord['entries'][number][],
): void {
	const active = activeTimePenalties(penalties, race.id);
	if (active.length === 0) return;
	const key = (list: readonly RaceRecord['entries'][number][]) =>
		JSON.stringify(
			list
				.map((e) => [e.player, e.position, e.status, e.time ?? null, e.team ?? null, e.car ?? null])
				.sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
		);
	if (key(entries) === key(race.entries)) return;
	throw new LeagueError(
		`${race.id} has time ${active.length === 1 ? 'penalty' : 'penalties'} ${active.map((p) => p.id).join(', ')} in force: ` +
			'withdraw them (/race penalty-withdraw) before correcting its results, then give them again',
	);
}
