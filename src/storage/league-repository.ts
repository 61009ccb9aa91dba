import { createHash } from 'node:crypto';
import type { LeagueConfig, LeagueEvent, LoggedEvent } from '../league/league-events.js';
import { createLeagueLogInSteps, LeagueError, type ApplyResult, type LeagueLog } from '../league/race-log.js';
import type { Replay, ReplaySnapshot } from '../league/replay.js';
import { nameKey } from '../league/race-log-checks.js';
import { getSystem, raceSystems } from '../ratings/index.js';
import type { AnyRatingSystem } from '../ratings/types.js';
import { EVENTS_PER_SLICE, yieldToEventLoop } from '../event-loop.js';
import { createAppendOnlyList } from './append-only-list.js';
import { appendEvent, eventKey, readEventsFrom } from './event-log.js';
import { asStored, storedRecordOf } from './event-parts.js';
import { runInSlices } from './in-slices.js';
import { StoreError } from './keyv-store.js';
import { createKeyedMutex } from './mutex.js';
import {
	LogMovedError,
	type AppendOptions,
	type AppendResult,
	type LeagueInfo,
	type LeagueRepository,
	type PendingChange,
	type RatingsView,
	type Store,
} from './ports.js';
import { createRatingKeeper, type RatingKeeper } from './rating-keeper.js';
import { createLeagueStateStore } from './league-state-store.js';
import { dailyToDomain, dailyToRecord, versioned } from './records.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

/**
 * The service-facing league repository over a Store. Per league, everything (appends and reads) runs through one
 * in-process queue, in call order. An append validates the event against the state at the head, writes it at the
 * next seq (atomic insert-if-absent: if another process took that seq, roll forward and retry), only then applies
 * it and answers, and brings every system's ratings to the head (snapshots, rating-keeper.ts). The league state is
 * cached in memory and snapshotted to the store every `stateEvery` events, so opening a league reads one state
 * record plus the events after it.
 */

export interface LeagueRepositoryOptions {
	/** Rating systems kept up to date on every append (default: every race system). */
	readonly systems?: readonly AnyRatingSystem[];
	/** Races between rating snapshots (default 250). */
	readonly ratingEvery?: number;
	/** Events between league-state snapshots (default 500). */
	readonly stateEvery?: number;
	/** Timestamps of events (default: the system clock). */
	readonly clock?: () => Date;
	/**
	 * How long a read trusts the last look at the store for other processes' events (default 50 ms). This process's
	 * own events are applied as they are stored, and an append always looks first; only what another process appended
	 * meanwhile (shards serve disjoint servers: in practice, an overlapping restart) shows up to this much later.
	 */
	readonly freshMs?: number;
	/** Hears a cache write that failed after its event was stored; default: nothing is logged. */
	readonly log?: { warn(context: object, message: string): void } | undefined;
}

interface Session {
	readonly log: LeagueLog;
	readonly ratings: RatingKeeper;
	/** When the store was last read for events after the head (performance.now()). */
	rolledAt: number;
	/**
	 * Ratings views already computed at the log's current seq, by `system|day`: /rating, /leaderboard and /odds read the
	 * same standings many times between two races, and growing 2,000 players to a day costs milliseconds each time.
	 */
	readonly views: Map<string, RatingsView>;
	/** Set while a stored change's ratings are being replayed: what reads answer from meanwhile. */
	before?: Before | undefined;
}

/**
 * The league as it stood before a stored change whose ratings are still being replayed. A void of an early race
 * replays every system over the whole history (about 10 s for 15,000 races of 20 racers): reads answer from here at
 * once, saying which change is not in their answer yet (RatingsView.recomputing), instead of queueing behind it.
 * Writes still run one at a time, at the head.
 */
interface Before {
	readonly change: PendingChange;
	/** The log before the change (its records are shared with the live log, never copied), built when first read. */
	readonly logLater: () => LeagueLog;
	log?: LeagueLog;
	/** Each system's replay kept at the seq before the change, forked (the writer's own moves on). */
	readonly replays: ReadonlyMap<string, Replay<unknown>>;
	/** Views of that seq computed for the reads meanwhile, by `system|day`. */
	readonly views: Map<string, RatingsView>;
	/** Settles when the replay is over: a read this state cannot answer waits for it. */
	readonly done: Promise<void>;
	readonly finish: () => void;
}

/** Whether an event makes the ratings replay from a past race (or from none: an import), not just take one more. */
const replaysHistory = (planned: ApplyResult, event: LoggedEvent) =>
	planned.retroFrom !== undefined || event.type === 'league-imported';

/** Ratings views kept per league (systems × days asked at one seq). */
const MAX_VIEWS = 16;

/** An answer from the state before a change, or none (the read then waits for the change). */
type Answer<T> = { readonly value: T } | undefined;

/** A view's rows given their names between two pauses (a row: a copy with one more field). */
const NAMED_ROWS_PER_STEP = 200;

/** The key of the guilds namespace listing every server with a league (no Discord id is `*`). */
const ALL_GUILDS = '*';

/**
 * League ids are `<guild>.<name slug>`: stable, readable, unique per guild and name. A name with no letter or digit
 * (emoji only: 🏁) has an empty slug, so it takes `h` and a hash of the name instead (every such
 * league had the id `<guild>.`, and the second was refused as existing).
 */
export const leagueId = (guildId: string, name: string): string => {
	const key = nameKey(name);
	const slug = key.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
	return `${guildId}.${slug === '' ? `h${createHash('sha256').update(key).digest('hex').slice(0, 12)}` : slug}`;
};

/** How long a failed append looks for its event in the store, and how often (appendOrLook). */
const LOOK_MS = 4000;
const LOOK_EVERY_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long an append keeps retrying while other processes keep appending to the same league. */
const APPEND_RETRY_MS = 10_000;

export function createLeagueRepository(store: Store, options: LeagueRepositoryOptions = {}): LeagueRepository {
	const {
		systems = raceSystems,
		ratingEvery = 250,
		stateEvery = 500,
		freshMs = 50,
		clock = () => new Date(),
		log: logger,
	} = options;
	const events = store.namespace('events');
	// In chunks: a big league's state is too large to parse or write in one turn.
	const states = createLeagueStateStore(store.namespace('league-state'));
	// A server's leagues under its id, and the servers with leagues under ALL_GUILDS, as append-only lists.
	const lists = createAppendOnlyList(store.namespace('guilds'));
	const daily = store.namespace('daily-standings');
	const caches = store.namespace('derived-caches');
	const dailyKey = (league: string, day: string) => `${league}:${day}`;
	const mutex = createKeyedMutex();
	const sessions = new Map<string, Session>();
	/** finishBeforeClose's work still running. */
	const unawaited = new Set<Promise<void>>();

	const roll = async (league: string, log: LeagueLog) => {
		const lookedAt = performance.now();
		const fresh = await readEventsFrom(events, league, log.seq() + 1);
		const s = sessions.get(league);
		if (s?.log === log) s.rolledAt = lookedAt;
		for (const [i, event] of fresh.entries()) {
			// A big import is folded a slice of its races at a time (10,000 races: hundreds of milliseconds at once).
			if (event.type === 'league-imported') await runInSlices(log.applyInSteps(event));
			else log.apply(event);
			if ((i + 1) % EVENTS_PER_SLICE === 0) await yieldToEventLoop(); // a cold open of a long log
		}
	};

	/** A cache write failed: the answer stands (it comes from the log), the cache is written again later. */
	const cacheWarning = (error: unknown, where: { league: string; seq: number; cache: string }) =>
		logger?.warn(
			{ err: error, ...where },
			'a cache write failed after the event was stored; the next read rebuilds it from the log',
		);

	/**
	 * The league's session, rolled forward to the store's head. For a read (`forRead`), a look at the store within the
	 * last `freshMs` is enough: under load, one query per read kept every read of a league queued behind SQLite
	 * (800 lookups a second at 200 interactions a second).
	 */
	const session = async (league: string, forRead = false): Promise<Session> => {
		const s = sessions.get(league) ?? (await opened(league));
		if (forRead && performance.now() - s.rolledAt < freshMs) return s;
		await roll(league, s.log);
		return s;
	};
	/** Sessions being opened: the reads and writes that come meanwhile share the one open. */
	const opening = new Map<string, Promise<Session>>();
	const opened = (league: string): Promise<Session> => {
		let open = opening.get(league);
		if (open === undefined) {
			open = openSession(league).finally(() => opening.delete(league));
			opening.set(league, open);
		}
		return open;
	};
	const openSession = async (league: string): Promise<Session> => {
		// The log's indexes of a long history are built in slices (15,000 races: up to 15 ms at once).
		const log = await runInSlices(createLeagueLogInSteps(await states.read(league)));
		const ratings = createRatingKeeper({
			league,
			snapshots: store.namespace('rating-snapshots'),
			index: store.namespace('rating-index'),
			every: ratingEvery,
			onCacheError: (error, system, seq) => cacheWarning(error, { league, seq, cache: `ratings ${system}` }),
		});
		const s: Session = { log, ratings, views: new Map(), rolledAt: -Infinity };
		sessions.set(league, s);
		return s;
	};

	/**
	 * The append of `event`; when the store fails to answer it, whether it landed all the same. A write whose answer
	 * was lost may have been applied (seen: edits and voids on PostgreSQL, a submission on Redis answered as failed
	 * though stored), so the event's key is read again, for up to LOOK_MS while the store does not answer: our event
	 * there is a success (true), another's means the seq was taken (false: roll forward and retry), none means nothing
	 * was stored; a store still silent leaves it unknown (the error says so).
	 */
	const appendOrLook = async (league: string, event: LoggedEvent): Promise<boolean> => {
		try {
			return await appendEvent(events, league, event);
		} catch (error) {
			if (!(error instanceof StoreUnavailableError) || error.stored === 'no') throw error;
			const ours = JSON.stringify(storedRecordOf(event)); // a big import's record names its parts
			const deadline = performance.now() + LOOK_MS;
			for (;;) {
				try {
					const found = await events.get(eventKey(league, event.seq));
					if (found === undefined) throw error.withOutcome('no');
					return JSON.stringify(found) === ours;
				} catch (lookError) {
					if (!(lookError instanceof StoreUnavailableError) || lookError.write) throw lookError;
					if (performance.now() >= deadline) throw error;
					await sleep(LOOK_EVERY_MS);
				}
			}
		}
	};

	const append = async (
		league: string,
		s: Session,
		input: LeagueEvent,
		options?: AppendOptions,
		firstOnly = false,
	): Promise<AppendResult | undefined> => {
		// Each lost race means another process appended (the log moved on), so retrying is progress for the league;
		// a busy log (another process appending race after race, faster than this one re-reads) may take more than
		// 20 tries, so the bound is 20 tries or 10 s, whichever comes later.
		const deadline = performance.now() + APPEND_RETRY_MS;
		for (let attempt = 0; attempt < 20 || performance.now() < deadline; attempt++) {
			if (options?.atSeq !== undefined && s.log.seq() !== options.atSeq) {
				throw new LogMovedError(options.atSeq, s.log.seq());
			}
			const planned = await runInSlices(s.log.checkInSteps(input));
			// The JSON round trip makes the applied event exactly what a reload will read.
			const event = await asStored({ ...input, seq: s.log.seq() + 1 });
			const stored = await appendOrLook(league, event);
			if (!stored && firstOnly) {
				await roll(league, s.log);
				return undefined; // the league's first event (seq 0) was another process's: it created the league
			}
			if (stored) {
				const before = replaysHistory(planned, event) ? beforeOf(s, event, planned) : undefined;
				const result = await runInSlices(s.log.applyInSteps(event));
				s.before = before; // the caller brings the ratings to the head (follow)
				return { seq: event.seq, ...result };
			}
			await roll(league, s.log); // another process appended first: re-check against the new head
		}
		throw new StoreError(`could not append to league ${league}: the log kept moving`);
	};

	/** The state before `event` (about to be applied to `s.log`) for the reads that come while its ratings replay. */
	const beforeOf = (s: Session, event: LoggedEvent, planned: ApplyResult): Before => {
		const seq = s.log.seq();
		const replays = new Map<string, Replay<unknown>>();
		for (const system of systems) {
			// A fork costs a copy of one map of players; a system not kept in memory is not read from here (its reads wait).
			const kept = s.ratings.kept(system.id, seq);
			if (kept !== undefined) replays.set(system.id, kept.fork());
		}
		let finish = () => {};
		const done = new Promise<void>((resolve) => (finish = resolve));
		const change = { type: event.type, seq: event.seq, ...(planned.race !== undefined && { race: planned.race }) };
		return { change, logLater: s.log.copyLater(), replays, views: new Map(), done, finish };
	};

	/** After an append, the caches follow the head; reads answer from the state before it meanwhile, if it left one. */
	const follow = async (league: string, s: Session, seq: number, progress?: AppendOptions['progress']) => {
		const before = s.before;
		try {
			await refreshCaches(league, s, seq, progress);
		} finally {
			if (before !== undefined) {
				s.before = undefined;
				before.finish();
			}
		}
	};

	/**
	 * After an event is durable, the caches (league-state snapshot, rating snapshots and index) follow it. The event is
	 * stored whatever happens here, so a failure (a full disk, a locked store) is a warning, never the append's error:
	 * the caller answers "stored" and the caches are rebuilt from the log by the next read. Each
	 * system is brought separately, so one failing leaves the others warm.
	 */
	const refreshCaches = async (league: string, s: Session, seq: number, progress?: AppendOptions['progress']) => {
		const warn = (error: unknown, cache: string) => cacheWarning(error, { league, seq, cache });
		if ((seq + 1) % stateEvery === 0) {
			await states.write(league, s.log.snapshot()).catch((error: unknown) => warn(error, 'league-state'));
		}
		for (const [k, system] of systems.entries()) {
			await s.ratings
				.bring(s.log, system, progress && ((done, total) => progress(k * total + done, systems.length * total)))
				.catch((error: unknown) => warn(error, `ratings ${system.id}`));
		}
	};

	const info = (id: string, log: LeagueLog): LeagueInfo | undefined => {
		const config = log.config();
		return config === undefined ? undefined : { id, config, seq: log.seq() };
	};

	/**
	 * A read of `league`. While a stored change's ratings replay (Session.before), `fromBefore` answers at once from
	 * the state before it, or returns undefined when it cannot (a system that was not in memory) and the read waits for
	 * the replay; otherwise the read runs at the head, in the league's queue. A read queued while a change was being
	 * stored finds the state before it too, once its turn comes.
	 */
	const read = async <T>(
		league: string,
		atHead: () => Promise<T>,
		fromBefore?: (before: Before, s: Session) => Answer<T> | Promise<Answer<T>>,
	): Promise<T> => {
		for (;;) {
			const s = sessions.get(league);
			const before = s?.before;
			if (s !== undefined && before !== undefined) {
				const answer = await fromBefore?.(before, s);
				if (answer !== undefined) return answer.value;
				await before.done;
				continue;
			}
			const outcome = await mutex.run(league, async () =>
				sessions.get(league)?.before !== undefined ? undefined : { value: await atHead() },
			);
			if (outcome !== undefined) return outcome.value;
		}
	};

	/** The log before the change being replayed (built from its snapshot when first read). */
	const logBefore = (before: Before) => (before.log ??= before.logLater());

	/**
	 * A league's settings and seq: while a change replays, the head's (the change is applied to the log; only its
	 * ratings are not there yet), so that a write computed from them (a whole new configuration) builds on it.
	 */
	const getLeague = (id: string) =>
		read(
			id,
			async () => info(id, (await session(id, true)).log),
			(_, s) => ({ value: info(id, s.log) }),
		);

	/**
	 * The ratings view of `replay` (at `log`'s seq), standings grown to `day`, names as `log` has them, in steps
	 * (Replay.standingsInSteps: after a change, or on a fork, every row is computed anew).
	 */
	function* viewOf(
		system: string,
		log: LeagueLog,
		replay: Replay<unknown>,
		day: string | undefined,
		recomputing?: PendingChange,
	): Generator<void, RatingsView> {
		const seq = log.seq(); // the log may move on between the steps; the view is of this seq
		const rows = yield* replay.standingsInSteps(day);
		const standings: RatingsView['standings'][number][] = [];
		for (const row of rows) {
			standings.push({ ...row, name: log.resolve(row.player)?.name ?? row.player });
			if (standings.length % NAMED_ROWS_PER_STEP === 0) yield;
		}
		let snapshot: ReplaySnapshot<unknown> | undefined;
		return {
			system,
			seq,
			day,
			standings,
			replay,
			get snapshot() {
				return (snapshot ??= replay.snapshot());
			},
			...(recomputing !== undefined && { recomputing }),
		};
	}

	/**
	 * The leagues of `ids`, opened one after another: opening a league not in memory rolls its log forward, and
	 * opening many at once would run all their slices of work back to back between two turns of the event loop.
	 */
	const listed = async (ids: readonly string[], deleted = false): Promise<LeagueInfo[]> => {
		const found: LeagueInfo[] = [];
		for (const id of ids) {
			const league = await getLeague(id);
			if (league !== undefined && (league.config.deleted !== undefined) === deleted) found.push(league);
		}
		return found;
	};

	return {
		async createLeague(config: LeagueConfig, by: string) {
			const id = leagueId(config.guildId, config.name);
			// The claim is the league's first event: seq 0 of `<guild>.<name slug>`, written with the store's atomic
			// insert-if-absent, so of two processes creating one name exactly one creates it. A
			// league-configured event at a later seq would be a config change, silently replacing the winner's.
			const created = await mutex.run(id, async () => {
				const s = await session(id);
				if (s.log.config() !== undefined) return false;
				const first = { type: 'league-configured', config, by, at: clock().toISOString() } as const;
				const result = await append(id, s, first, undefined, true);
				if (result !== undefined) await follow(id, s, result.seq);
				return result !== undefined;
			});
			// Listed after its first event exists; a crash in between is repaired by the next create of that name.
			await mutex.run(`guild:${config.guildId}`, () => lists.appendOnce(config.guildId, id));
			// The servers that have leagues, for jobs that visit every league (the same kind of list).
			await mutex.run(`guild:${ALL_GUILDS}`, () => lists.appendOnce(ALL_GUILDS, config.guildId));
			if (!created) throw new LeagueError(`a league named "${config.name}" already exists in this server`);
			return (await getLeague(id))!;
		},
		getLeague,
		listLeagues: async (guildId, options) => listed(await lists.read(guildId), options?.deleted),
		// Writes to a league run one at a time (`write:` queue) for as long as their ratings replay; the league's own
		// queue is held only while the event is stored and applied when the replay leaves a state for reads (follow).
		appendEvent: (league, event, options) =>
			mutex.run(`write:${league}`, async () => {
				const { s, result } = await mutex.run(league, async () => {
					const s = await session(league).catch((error: unknown) => {
						// The head could not be read: nothing of this write was sent.
						throw error instanceof StoreUnavailableError && !error.write ? error.withOutcome('no') : error;
					});
					if (s.log.config() === undefined) throw new LeagueError(`unknown league ${league}`);
					let result: AppendResult;
					try {
						result = (await append(league, s, { ...event, at: event.at ?? clock().toISOString() }, options))!;
					} catch (error) {
						// The event may be durable though this process did not apply it (the answer was lost, the store is
						// gone): the next read looks at the store again.
						s.rolledAt = -Infinity;
						// A read that failed before the event was written: nothing of this write was stored.
						if (error instanceof StoreUnavailableError && !error.write) throw error.withOutcome('no');
						throw error;
					}
					// One more race on top: quick, and the reads queued behind it get the new ratings.
					if (s.before === undefined) await follow(league, s, result.seq, options?.progress);
					return { s, result };
				});
				if (s.before !== undefined) await follow(league, s, result.seq, options?.progress);
				return result;
			}),
		readEvents: (league, from = 0) => readEventsFrom(events, league, from),
		// A fresh read (a Confirm checking what is stored) waits for a replay in progress; the others read before it.
		loadState: (league, options) =>
			read(
				league,
				async () => (await session(league, options?.fresh !== true)).log,
				options?.fresh === true ? undefined : (before) => ({ value: logBefore(before) }),
			),
		ratingsAt: (league, systemId, day) => {
			const system = getSystem(systemId);
			const key = `${system.id}|${day ?? ''}`;
			return read(
				league,
				async (): Promise<RatingsView> => {
					const s = await session(league, true);
					const cached = s.views.get(key);
					if (cached !== undefined && cached.seq === s.log.seq()) return cached;
					const replay = await s.ratings.bring(s.log, system);
					// A fork: the kept replay moves on with the next race, this view stays at its seq.
					const view = await runInSlices(viewOf(system.id, s.log, replay.fork(), day));
					// Views of an older seq are stale whatever their system or day: drop them all.
					for (const [k, v] of s.views) if (v.seq !== view.seq) s.views.delete(k);
					s.views.set(key, view);
					if (s.views.size > MAX_VIEWS) s.views.delete(s.views.keys().next().value!); // the oldest
					return view;
				},
				async (before) => {
					const cached = before.views.get(key);
					if (cached !== undefined) return { value: cached };
					const replay = before.replays.get(system.id);
					if (replay === undefined) return undefined;
					const view = await runInSlices(viewOf(system.id, logBefore(before), replay, day, before.change));
					before.views.set(key, view);
					return { value: view };
				},
			);
		},
		standingsOn: (league, systemId, days) =>
			read(
				league,
				async () => {
					const s = await session(league, true);
					const replay = await s.ratings.bring(s.log, getSystem(systemId));
					return new Map(days.map((day) => [day, replay.standings(day)]));
				},
				(before) => {
					const replay = before.replays.get(getSystem(systemId).id);
					return replay && { value: new Map(days.map((day) => [day, replay.standings(day)])) };
				},
			),
		async listAllLeagues() {
			const ids: string[] = [];
			for (const guild of await lists.read(ALL_GUILDS)) ids.push(...(await lists.read(guild)));
			return listed(ids);
		},
		async readDaily(league, days) {
			const raws = await daily.getMany(days.map((day) => dailyKey(league, day)));
			return raws.map((raw, i) =>
				raw === undefined ? undefined : dailyToDomain(raw, `daily standings ${dailyKey(league, days[i]!)}`),
			);
		},
		addDaily: (record) => daily.add(dailyKey(record.league, record.day), dailyToRecord(record)),
		replaceDaily: (record) => daily.set(dailyKey(record.league, record.day), dailyToRecord(record)),
		async dailyCursor(league) {
			const raw = (await daily.get(`${league}:cursor`)) as { v: 1; day: string } | undefined;
			return raw === undefined
				? undefined
				: (versioned(raw, `daily cursor of ${league}`) as unknown as { day: string }).day;
		},
		setDailyCursor: (league, day) => daily.set(`${league}:cursor`, { v: 1, day }),
		readCache: (league, keys) => caches.getMany(keys.map((key) => `${league}:${key}`)),
		writeCache: (league, key, value) => caches.set(`${league}:${key}`, value),
		deleteCache: (league, key) => caches.delete(`${league}:${key}`),
		finishBeforeClose(work) {
			const settled = work.then(
				() => undefined,
				() => undefined,
			);
			unawaited.add(settled);
			void settled.then(() => unawaited.delete(settled));
		},
		async close() {
			// Work handed over while waiting (a write queued behind another) is waited for too.
			while (unawaited.size > 0) await Promise.all([...unawaited]);
			await store.close();
		},
	};
}
