import type { LeagueConfig, LeagueEventInput, LoggedEvent } from '../league/league-events.js';
import type { ApplyResult, LeagueLog } from '../league/race-log.js';
import type { Replay, ReplaySnapshot, Standing } from '../league/replay.js';
import type { DailyStandings } from './records.js';

/**
 * The storage ports (STYLE.md 16). `Store` is the key-value port with one namespace per entity; keyv-store.ts adapts
 * keyv to it (SQLite, PostgreSQL, Redis) and memory-store.ts is the in-memory adapter for tests.
 * `LeagueRepository` is what services call.
 */

/** The entities, one namespace each. */
export type EntityName =
	| 'events'
	| 'league-state'
	| 'rating-snapshots'
	| 'rating-index'
	| 'guilds'
	| 'daily-standings'
	| 'jobs'
	| 'derived-caches'
	/** The results inbox: each league's token (hashed) and settings, and every file received (services/inbox-service.ts). */
	| 'inbox';

/** One namespace of a store. Values are plain JSON (records.ts). */
export interface KeyValueNamespace {
	get(key: string): Promise<unknown>;
	/** Values in the order of `keys`, undefined where absent. */
	getMany(keys: readonly string[]): Promise<unknown[]>;
	/** Insert or replace, atomically (one row / one key). Resolves once durable in the store. */
	set(key: string, value: unknown): Promise<void>;
	/** Insert only when the key is absent, atomically; false when it already existed (nothing written). */
	add(key: string, value: unknown): Promise<boolean>;
	delete(key: string): Promise<void>;
}

export interface Store {
	/** `sqlite`, `memory`, `postgresql` or `redis`. */
	readonly kind: string;
	namespace(name: EntityName): KeyValueNamespace;
	/**
	 * Every (key, value) of a namespace, in no particular order (`npm run migrate`). Optional so test
	 * doubles need not implement it; every real store does.
	 */
	scan?(name: EntityName): AsyncIterable<readonly [string, unknown]>;
	close(): Promise<void>;
}

export interface LeagueInfo {
	readonly id: string;
	readonly config: LeagueConfig;
	/** Last event seq. */
	readonly seq: number;
}

export interface AppendResult extends ApplyResult {
	readonly seq: number;
}

export interface AppendOptions {
	/**
	 * Hears the rating work after the event is stored, now and then: races replayed summed over every system, of
	 * `total` (a big import's progress message).
	 */
	readonly progress?: ((done: number, total: number) => void) | undefined;
	/**
	 * Append only while the log's head is this seq (checked in the league's queue, and again after another process
	 * appended first); otherwise LogMovedError and nothing is stored. For a change decided on the state at that seq:
	 * `/league calibrate`'s Confirm must not overwrite a setting changed since.
	 */
	readonly atSeq?: number | undefined;
}

/** AppendOptions.atSeq: the log moved past the seq the change was decided at. */
export class LogMovedError extends Error {
	override readonly name = 'LogMovedError';
	constructor(
		readonly expected: number,
		readonly head: number,
	) {
		super(`the log is at seq ${head}, not ${expected}`);
	}
}

export interface RatingsView {
	readonly system: string;
	/** The log seq these ratings reflect. */
	readonly seq: number;
	/** The day the standings are grown to (undefined: not grown). */
	readonly day?: string | undefined;
	/** Standings by rating, with `player` the player id and `name` the current display name. */
	readonly standings: readonly (Standing & { readonly name: string })[];
	/** The ratings at `seq`, shared by every reader of this view: read it, or `fork()` it before applying a race. */
	readonly replay: Replay<unknown>;
	/** `replay.snapshot()`, made when first read. */
	readonly snapshot: ReplaySnapshot<unknown>;
	/**
	 * Set when these ratings are from before a stored change whose replay is still running (a void of an early race
	 * replays every system over the whole history: seconds in a long league). Reads do not wait for it; the reply says
	 * which change is not in it yet.
	 */
	readonly recomputing?: PendingChange | undefined;
}

/** A stored change whose ratings are being replayed, as a read answered from the state before it reports it. */
export interface PendingChange {
	readonly type: LoggedEvent['type'];
	/** The race it voided, restored, edited or submitted (when it concerns one race). */
	readonly race?: string | undefined;
	/** The change's seq (the view's seq is the one before it). */
	readonly seq: number;
}

export interface LeagueRepository {
	/** A new league in `guildId` (league names are unique per guild, case-insensitive). */
	createLeague(config: LeagueConfig, by: string): Promise<LeagueInfo>;
	getLeague(leagueId: string): Promise<LeagueInfo | undefined>;
	/** A server's leagues; deleted ones (LeagueConfig.deleted) only with `deleted: true`, and then only those. */
	listLeagues(guildId: string, options?: { readonly deleted?: boolean }): Promise<LeagueInfo[]>;
	/**
	 * Validate against the current state, write the event at the next seq, apply it, update every system's ratings.
	 * Appends to one league are serialised in call order. `at` defaults to the repository clock.
	 */
	appendEvent(leagueId: string, event: LeagueEventInput, options?: AppendOptions): Promise<AppendResult>;
	/** Events from `from` (inclusive) to the head, contiguous. */
	readEvents(leagueId: string, from?: number): Promise<LoggedEvent[]>;
	/**
	 * The league state at the head (players, aliases, races with status). Treat as read-only. Another process's
	 * events show within the repository's freshness window; `fresh` reads the store first (a Confirm's check for a
	 * preview another process stored).
	 */
	loadState(leagueId: string, options?: { readonly fresh?: boolean }): Promise<LeagueLog>;
	/**
	 * One system's ratings at the head, from the latest valid snapshot and the races after it. With `day`, the
	 * standings are grown to that day (Replay.standings(day)); the snapshot is always the head's, ungrown.
	 */
	ratingsAt(leagueId: string, system: string, day?: string): Promise<RatingsView>;
	/** One system's standings at the head grown to each of `days` (cheaper than one ratingsAt per day). */
	standingsOn(leagueId: string, system: string, days: readonly string[]): Promise<Map<string, Standing[]>>;
	/** Every league of every server (the daily job, the monthly post). */
	/** Every league that is not deleted. */
	listAllLeagues(): Promise<LeagueInfo[]>;
	/** The daily standings records of `days` (undefined where none was written); caches, see DailyStandings. */
	readDaily(leagueId: string, days: readonly string[]): Promise<(DailyStandings | undefined)[]>;
	/** Write a day's record only if absent (the daily job: exactly once per league and day); false when it existed. */
	addDaily(record: DailyStandings): Promise<boolean>;
	/** Replace a stale day's record with a fresh computation. */
	replaceDaily(record: DailyStandings): Promise<void>;
	/** The last day the daily job wrote for a league (undefined before its first run). */
	dailyCursor(leagueId: string): Promise<string | undefined>;
	setDailyCursor(leagueId: string, day: string): Promise<void>;
	/**
	 * The services' caches derived from a league's log (the rated history /rating explains), plain JSON
	 * under `key`: like rating snapshots they only save work, and the log alone decides every result.
	 */
	readCache(leagueId: string, keys: readonly string[]): Promise<unknown[]>;
	writeCache(leagueId: string, key: string, value: unknown): Promise<void>;
	deleteCache(leagueId: string, key: string): Promise<void>;
	/**
	 * Store work a caller does not wait for (the change cache writes its copy in the background): `close` lets it
	 * finish first, so that a stop never cuts a write off or writes to a closed store.
	 */
	finishBeforeClose(work: Promise<unknown>): void;
	/** Waits for the work handed to finishBeforeClose (its failures are that work's own), then closes the store. */
	close(): Promise<void>;
}
