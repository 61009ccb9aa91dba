import { createSlicer } from '../event-loop.js';
import type { LeagueLog } from '../league/race-log.js';
import { createReplay, type Replay } from '../league/replay.js';
import type { AnyRatingSystem } from '../ratings/types.js';
import type { KeyValueNamespace } from './ports.js';
import {
	ratingIndexToDomain,
	ratingSnapshotToDomain,
	type RatingIndexEntry,
	type RawRatingSnapshot,
} from './records.js';
import { replayOptionsOf, replaySettingsKey } from '../league/replay-options.js';

/**
 * Ratings of one league, per system: an in-memory replay kept at the head of the log, backed by snapshots in the
 * store so a fresh process never replays the whole log.
 *
 * A snapshot (upTo, basis) is the replay of the confirmed races up to rating position upTo (rating-order.ts), with
 * their content as the log stood at seq `basis`. It stays valid while no later event (void, edit, merge, new
 * parameters, a make-up race dated before it) changed rated history at or before upTo (LeagueLog.touchedSince).
 * Bringing a system to the head: keep the in-memory replay if still valid, else restore the latest valid snapshot;
 * replay the races after it; write a snapshot every `every` races replayed and drop the snapshots that are no longer
 * valid. Snapshots written before races were rated in date order (an index without `order`) are never valid.
 * Snapshots are caches: the log alone decides the result, and a crash between writes at worst leaves a snapshot that
 * is ignored.
 */

/** Beyond SPARSE × every races before the head, a snapshot every SPARSE × every races. */
const SPARSE = 4;

interface Current {
	readonly replay: Replay<unknown>;
	readonly paramsKey: string;
	upTo: number;
	basis: number;
	/** Races applied (rated or skipped) since the empty log: the snapshot cadence counts these. */
	count: number;
}

export interface RatingKeeper {
	/** The replay of `system` at the log's head; `progress` hears (races replayed, races to replay) now and then. */
	bring(log: LeagueLog, system: AnyRatingSystem, progress?: ReplayProgress): Promise<Replay<unknown>>;
	/** The replay of `system` kept in memory at log seq `seq`, if there is one (nothing is read or replayed). */
	kept(system: string, seq: number): Replay<unknown> | undefined;
}

export type ReplayProgress = (done: number, total: number) => void;

export interface RatingKeeperOptions {
	readonly league: string;
	readonly snapshots: KeyValueNamespace;
	readonly index: KeyValueNamespace;
	/** Races between snapshots. */
	readonly every: number;
	/**
	 * A snapshot or index write failed (a full disk, a locked store). The replay's result stands (the log decides the
	 * ratings; a later call writes the cache again), so this hears the failure instead of the caller.
	 * Without it the failure is thrown.
	 */
	readonly onCacheError?: ((error: unknown, system: string, seq: number) => void) | undefined;
}

export function createRatingKeeper({
	league,
	snapshots,
	index,
	every,
	onCacheError = (error) => {
		throw error;
	},
}: RatingKeeperOptions): RatingKeeper {
	const current = new Map<string, Current>();
	/** The index as this process last read or wrote it (appends to a league are serialised, see the repository). */
	const indexes = new Map<string, readonly RatingIndexEntry[]>();
	const snapshotKey = (system: string, upTo: number) => `${league}:${system}:${upTo}`;
	const indexKey = (system: string) => `${league}:${system}`;
	const valid = (log: LeagueLog, e: { upTo: number; basis: number; legacy?: true | undefined }) =>
		e.legacy !== true && log.touchedSince(e.basis) > e.upTo;

	const restore = async (log: LeagueLog, system: AnyRatingSystem, entries: readonly RatingIndexEntry[]) => {
		const config = log.config();
		const params: unknown = system.params(config?.params[system.id]);
		const options = replayOptionsOf(config, log.seasons());
		const paramsKey = replaySettingsKey(config, system.id, log.seasons());
		const fresh = (): Current => ({
			replay: createReplay(system, params, options),
			paramsKey,
			upTo: -1,
			basis: -1,
			count: 0,
		});
		const cached = current.get(system.id);
		if (cached !== undefined && cached.paramsKey === paramsKey && valid(log, cached)) return cached;
		for (const entry of [...entries].filter((e) => valid(log, e)).sort((a, b) => b.upTo - a.upTo)) {
			const raw = await snapshots.get(snapshotKey(system.id, entry.upTo));
			if (raw === undefined) continue;
			const record = ratingSnapshotToDomain(raw, `rating snapshot ${snapshotKey(system.id, entry.upTo)}`);
			if (record.basis !== entry.basis || record.upTo !== entry.upTo) continue;
			const replay = createReplay(system, params, options, record.replay);
			return { replay, paramsKey, upTo: record.upTo, basis: record.basis, count: record.replay.racesApplied };
		}
		return fresh();
	};

	return {
		kept(system, seq) {
			const cur = current.get(system);
			return cur?.basis === seq ? cur.replay : undefined;
		},
		async bring(log, system, progress) {
			const head = log.seq();
			const cached = current.get(system.id);
			if (cached?.basis === head) return cached.replay;
			const entries =
				indexes.get(system.id) ??
				ratingIndexToDomain(await index.get(indexKey(system.id)), `rating index ${indexKey(system.id)}`);
			indexes.set(system.id, entries);
			const cur = await restore(log, system, entries);
			/** Snapshots written by this replay: each is written as it is taken, not held to the end. */
			const fresh: RatingIndexEntry[] = [];
			try {
				const slicer = createSlicer();
				const rated = log.ratedRaces(cur.upTo);
				for (const [i, { position, race }] of rated.entries()) {
					cur.replay.advance(race);
					cur.count++;
					// A long replay (a cold start, a void far back, an import) lets other work run in between.
					if (slicer.due()) {
						progress?.(i + 1, rated.length);
						await slicer.pause();
					}
					// Far from the head (a cold start, a void of R1) only every SPARSE-th snapshot is taken: a void there
					// replays at most SPARSE × every races more, and a 15,000-race replay writes 20 snapshots, not 60
					// (each a JSON string of every player: the garbage that grew the heap).
					const sparse = rated.length - i - 1 > SPARSE * every;
					if (cur.count % (sparse ? SPARSE * every : every) === 0) {
						// A snapshot (every player's state, 190,000 characters of JSON for 2,000 players) in a turn of
						// its own, not at the end of a slice.
						await slicer.pause();
						const replay = cur.replay.snapshot();
						const record: RawRatingSnapshot = { v: 1, league, system: system.id, upTo: position, basis: head, replay };
						const written = await snapshots.set(snapshotKey(system.id, position), record).then(
							() => true,
							(error: unknown) => (onCacheError(error, system.id, head), false),
						);
						if (written) fresh.push({ upTo: position, basis: head });
					}
					cur.upTo = position;
				}
				progress?.(rated.length, rated.length);
			} catch (error) {
				current.delete(system.id); // half-applied: the next call restores from a snapshot
				throw error;
			}
			cur.basis = head;
			current.set(system.id, cur);
			const kept = entries.filter((e) => valid(log, e) && !fresh.some((f) => f.upTo === e.upTo));
			if (fresh.length > 0 || kept.length < entries.length) {
				await writeSnapshots(fresh, kept, entries, system.id).catch((error: unknown) =>
					onCacheError(error, system.id, head),
				);
			}
			return cur.replay;
		},
	};

	/** New snapshots are written (during the replay), then the index, then the records it no longer lists deleted. */
	async function writeSnapshots(
		fresh: readonly RatingIndexEntry[],
		kept: readonly RatingIndexEntry[],
		before: readonly RatingIndexEntry[],
		system: string,
	): Promise<void> {
		const next = [...kept, ...fresh].sort((a, b) => a.upTo - b.upTo);
		await index.set(indexKey(system), { v: 1, order: 'date', entries: next });
		indexes.set(system, next);
		const listed = new Set(next.map((e) => e.upTo));
		for (const gone of before.filter((e) => !listed.has(e.upTo)))
			await snapshots.delete(snapshotKey(system, gone.upTo));
	}
}
