import { leagueEventTypes, type LoggedEvent } from '../league/league-events.js';
import type { LeagueLogSnapshot } from '../league/race-log.js';
import type { ReplaySnapshot } from '../league/replay.js';

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

/** One system's replay after the confirmed races submitted up to seq `upTo`, as the log stood at seq `basis`. */
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
}

export interface RawRatingIndex {
	readonly v: 1;
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
	return (versioned(raw, what) as unknown as RawRatingIndex).entries;
}

export function guildToDomain(raw: unknown, what: string): readonly string[] {
	if (raw === undefined) return [];
	return (versioned(raw, what) as unknown as RawGuild).leagues;
}
