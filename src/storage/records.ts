import { leagueEventTypes, type LoggedEvent } from '../league/league-events.js';
import type { LeagueLogSnapshot } from '../league/race-log.js';
import type { ReplaySnapshot, Standing } from '../league/replay.js';

/**
 * Stored records: versioned `Raw*` shapes and the pure functions mapping them to and from the domain (STYLE.md 16).
 * Every record carries its schema version `v`. A record from a newer pitwall (v above what this build reads) is
 * refused with SchemaVersionError rather than misread; a migration for an older v goes in the matching toDomain.
 */

export const SCHEMA_VERSION = 1;

export class SchemaVersionError extends Error {
	override readonly name = 'SchemaVersionError';
}

export class RecordError extends Error {
	override readonly name = 'RecordError';
}

export type RawEvent = { readonly v: 1 } & LoggedEvent;

export interface RawLeagueState {
	readonly v: 1;
	readonly league: string;
	readonly state: LeagueLogSnapshot;
}

/** One system's replay of the confirmed races up to rating position `upTo`, as the log stood at seq `basis`. */
export interface RawRatingSnapshot {
	readonly v: 1;
	readonly league: string;
	readonly system: string;
	readonly upTo: number;
	readonly basis: number;
	readonly replay: ReplaySnapshot<unknown>;
}

export interface RatingIndexEntry {
	readonly upTo: number;
	readonly basis: number;
	/** Listed by an index written when races were rated in confirmation order (upTo a seq): never valid. */
	readonly legacy?: true | undefined;
}

export interface RawRatingIndex {
	readonly v: 1;
	/** `date`: `upTo` are rating positions (rating-order.ts); absent in an index written before, whose were seqs. */
	readonly order?: 'date' | undefined;
	readonly entries: readonly RatingIndexEntry[];
}

export interface RawGuild {
	readonly v: 1;
	readonly leagues: readonly string[];
}

/** The object of a record whose version this build reads; throws on anything else. */
export function versioned(raw: unknown, what: string): Record<string, unknown> & { v: number } {
	if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new RecordError(`${what} is not a record`);
	const v = (raw as { v?: unknown }).v;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
		throw new SchemaVersionError(`${what} has no valid schema version (field "v")`);
	}
	if (v > SCHEMA_VERSION) {
		throw new SchemaVersionError(
			`${what} has schema version ${v}, but this pitwall reads up to version ${SCHEMA_VERSION}: ` +
				'it was written by a newer pitwall; upgrade before opening this store',
		);
	}
	return raw as Record<string, unknown> & { v: number };
}

export const eventToRecord = (event: LoggedEvent): RawEvent => ({ v: 1, ...event });

export function eventToDomain(raw: unknown, what: string): LoggedEvent {
	const event: Record<string, unknown> = { ...versioned(raw, what) };
	delete event.v;
	if (typeof event.seq !== 'number' || !leagueEventTypes.includes(event.type as LoggedEvent['type'])) {
		throw new RecordError(`${what} is not a league event`);
	}
	return event as unknown as LoggedEvent;
}

export const stateToRecord = (league: string, state: LeagueLogSnapshot): RawLeagueState => ({ v: 1, league, state });

export function stateToDomain(raw: unknown, what: string): LeagueLogSnapshot {
	const record = versioned(raw, what) as unknown as RawLeagueState;
	if (record.state?.version !== 1) throw new RecordError(`${what} holds no league state`);
	return record.state;
}

export function ratingSnapshotToDomain(raw: unknown, what: string): RawRatingSnapshot {
	const record = versioned(raw, what) as unknown as RawRatingSnapshot;
	if (record.replay?.version !== 1 || typeof record.upTo !== 'number') throw new RecordError(`${what} holds no replay`);
	return record;
}

export function ratingIndexToDomain(raw: unknown, what: string): readonly RatingIndexEntry[] {
	if (raw === undefined) return [];
	const record = versioned(raw, what) as unknown as RawRatingIndex;
	return record.order === 'date' ? record.entries : record.entries.map((e) => ({ ...e, legacy: true }));
}

export function guildToDomain(raw: unknown, what: string): readonly string[] {
	if (raw === undefined) return [];
	return (versioned(raw, what) as unknown as RawGuild).leagues;
}

/**
 * A league's standings on one day, every system, as the daily job wrote them at log seq `basis`: a
 * cache of `standingsAsOf`, valid while `standingsUnchangedSince(log, basis, day)`.
 */
export interface DailyStandings {
	readonly league: string;
	readonly day: string;
	readonly basis: number;
	readonly systems: Readonly<Record<string, readonly Standing[]>>;
}

/** Standing rows as tuples (a record holds every player of every system, written every day). */
type RawStandingRow = readonly [
	player: string,
	rating: number,
	uncertainty: number | null,
	races: number,
	provisional: 0 | 1,
	lastDate: string | null,
	idleDays: number,
	atLastRating: number,
	atLastUncertainty: number | null,
	atLastProvisional: 0 | 1,
];

export interface RawDailyStandings {
	readonly v: 1;
	/**
	 * `date`: computed with races rated in date order (rating-order.ts). A record without it was computed in
	 * confirmation order: it is read with basis -1, so it holds only while no race counts on its day.
	 */
	readonly order?: 'date' | undefined;
	readonly league: string;
	readonly day: string;
	readonly basis: number;
	readonly systems: Readonly<Record<string, readonly RawStandingRow[]>>;
}

const rowToRecord = (s: Standing): RawStandingRow => [
	s.player,
	s.rating,
	s.uncertainty ?? null,
	s.races,
	s.provisional ? 1 : 0,
	s.lastDate ?? null,
	s.idleDays,
	s.atLastRace.rating,
	s.atLastRace.uncertainty ?? null,
	s.atLastRace.provisional ? 1 : 0,
];

const rowToDomain = (r: RawStandingRow): Standing => ({
	player: r[0],
	rating: r[1],
	uncertainty: r[2] ?? undefined,
	races: r[3],
	provisional: r[4] === 1,
	lastDate: r[5] ?? undefined,
	idleDays: r[6],
	atLastRace: { rating: r[7], uncertainty: r[8] ?? undefined, races: r[3], provisional: r[9] === 1 },
});

export const dailyToRecord = (d: DailyStandings): RawDailyStandings => ({
	v: 1,
	order: 'date',
	league: d.league,
	day: d.day,
	basis: d.basis,
	systems: Object.fromEntries(Object.entries(d.systems).map(([id, rows]) => [id, rows.map(rowToRecord)])),
});

export function dailyToDomain(raw: unknown, what: string): DailyStandings {
	const record = versioned(raw, what) as unknown as RawDailyStandings;
	if (typeof record.day !== 'string' || typeof record.basis !== 'number' || typeof record.systems !== 'object') {
		throw new RecordError(`${what} holds no daily standings`);
	}
	const systems = Object.fromEntries(Object.entries(record.systems).map(([id, rows]) => [id, rows.map(rowToDomain)]));
	const basis = record.order === 'date' ? record.basis : -1;
	return { league: record.league, day: record.day, basis, systems };
}
