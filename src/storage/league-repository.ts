import { createHash } from 'node:crypto';
import type { LeagueConfig, LeagueEvent, LoggedEvent } from '../league/league-events.js';
import { createLeagueLog, LeagueError, type LeagueLog } from '../league/race-log.js';
import type { ReplaySnapshot } from '../league/replay.js';
import { nameKey } from '../league/race-log-checks.js';
import { getSystem, raceSystems } from '../ratings/index.js';
import type { AnyRatingSystem } from '../ratings/types.js';
import { EVENTS_PER_SLICE, yieldToEventLoop } from '../event-loop.js';
import { createAppendOnlyList } from './append-only-list.js';
import { appendEvent, readEventsFrom } from './event-log.js';
import { StoreError } from './keyv-store.js';
import { createKeyedMutex } from './mutex.js';
import {
	LogMovedError,
	type AppendOptions,
	type AppendResult,
	type LeagueInfo,
	type LeagueRepository,
	type RatingsView,
	type Store,
} from './ports.js';
import { createRatingKeeper, type RatingKeeper } from './rating-keeper.js';
import { createLeagueStateStore } from './league-state-store.js';
import { dailyToDomain, dailyToRecord, versioned } from './records.js';

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
	/** Hears a cache write that failed after its event was stored (issue 9 item 3); default: nothing is logged. */
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
}

/** Ratings views kept per league (systems × days asked at one seq). */
const MAX_VIEWS = 16;

/** The key of the guilds namespace listing every server with a league (no Discord id is `*`). */
const ALL_GUILDS = '*';

/**
 * League ids are `<guild>.<name slug>`: stable, readable, unique per guild and name. A name with no letter or digit
 * (emoji only: 🏁) has an empty slug, so it takes `h` and a hash of the name instead (issue 9 item 5: every such
 * league had the id `<guild>.`, and the second was refused as existing).
 */
export const leagueId = (guildId: string, name: string): string => {
	const key = nameKey(name);
	const slug = key.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
	return `${guildId}.${slug === '' ? `h${createHash('sha256').update(key).digest('hex').slice(0, 12)}` : slug}`;
};

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
	// In chunks: a big league's state is too large to parse or write in one turn (issue 9 §2).
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
			log.apply(event);
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
	 * (issue 9 §4: 800 lookups a second at 200 interactions a second).
	 */
	const session = async (league: string, forRead = false): Promise<Session> => {
		let s = sessions.get(league);
		if (forRead && s !== undefined && performance.now() - s.rolledAt < freshMs) return s;
		if (s === undefined) {
			const log = createLeagueLog(await states.read(league));
			const ratings = createRatingKeeper({
				league,
				snapshots: store.namespace('rating-snapshots'),
				index: store.namespace('rating-index'),
				every: ratingEvery,
				onCacheError: (error, system, seq) => cacheWarning(error, { league, seq, cache: `ratings ${system}` }),
			});
			s = { log, ratings, views: new Map(), rolledAt: -Infinity };
			sessions.set(league, s);
		}
		await roll(league, s.log);
		return s;
	};

	const append = async (
		league: string,
		s: Session,
		input: LeagueEvent,
		options?: AppendOptions,
		firstOnly = false,
	): Promise<AppendResult | undefined> => {
		const progress = options?.progress;
		// Each lost race means another process appended (the log moved on), so retrying is progress for the league;
		// a busy log (another process appending race after race, faster than this one re-reads) may take more than
		// 20 tries, so the bound is 20 tries or 10 s, whichever comes later.
		const deadline = performance.now() + APPEND_RETRY_MS;
		for (let attempt = 0; attempt < 20 || performance.now() < deadline; attempt++) {
			if (options?.atSeq !== undefined && s.log.seq() !== options.atSeq) {
				throw new LogMovedError(options.atSeq, s.log.seq());
			}
			s.log.check(input);
			// The JSON round trip makes the applied event exactly what a reload will read.
			const event = JSON.parse(JSON.stringify({ ...input, seq: s.log.seq() + 1 })) as LoggedEvent;
			const stored = await appendEvent(events, league, event);
			if (!stored && firstOnly) {
				await roll(league, s.log);
				return undefined; // the league's first event (seq 0) was another process's: it created the league
			}
			if (stored) {
				const result = s.log.apply(event);
				await refreshCaches(league, s, event.seq, progress);
				return { seq: event.seq, ...result };
			}
			await roll(league, s.log); // another process appended first: re-check against the new head
		}
		throw new StoreError(`could not append to league ${league}: the log kept moving`);
	};

	/**
	 * After an event is durable, the caches (league-state snapshot, rating snapshots and index) follow it. The event is
	 * stored whatever happens here, so a failure (a full disk, a locked store) is a warning, never the append's error:
	 * the caller answers "stored" and the caches are rebuilt from the log by the next read (issue 9 item 3). Each
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

	const getLeague = (id: string) => mutex.run(id, async () => info(id, (await session(id, true)).log));

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
			// insert-if-absent, so of two processes creating one name exactly one creates it (issue 9 item 5). A
			// league-configured event at a later seq would be a config change, silently replacing the winner's.
			const created = await mutex.run(id, async () => {
				const s = await session(id);
				if (s.log.config() !== undefined) return false;
				const first = { type: 'league-configured', config, by, at: clock().toISOString() } as const;
				return (await append(id, s, first, undefined, true)) !== undefined;
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
		appendEvent: (league, event, options) =>
			mutex.run(league, async () => {
				const s = await session(league);
				if (s.log.config() === undefined) throw new LeagueError(`unknown league ${league}`);
				try {
					return (await append(league, s, { ...event, at: event.at ?? clock().toISOString() }, options))!;
				} catch (error) {
					// The event may be durable though this process did not apply it (the answer was lost, the store is
					// gone): the next read looks at the store again.
					s.rolledAt = -Infinity;
					throw error;
				}
			}),
		readEvents: (league, from = 0) => readEventsFrom(events, league, from),
		loadState: (league, options) => mutex.run(league, async () => (await session(league, options?.fresh !== true)).log),
		ratingsAt: (league, systemId, day) =>
			mutex.run(league, async (): Promise<RatingsView> => {
				const system = getSystem(systemId);
				const s = await session(league, true);
				const key = `${system.id}|${day ?? ''}`;
				const cached = s.views.get(key);
				if (cached !== undefined && cached.seq === s.log.seq()) return cached;
				const replay = await s.ratings.bring(s.log, system);
				const standings = replay
					.standings(day)
					.map((row) => ({ ...row, name: s.log.resolve(row.player)?.name ?? row.player }));
				// A fork: the kept replay moves on with the next race, this view stays at its seq.
				const frozen = replay.fork();
				let snapshot: ReplaySnapshot<unknown> | undefined;
				const view: RatingsView = {
					system: system.id,
					seq: s.log.seq(),
					day,
					standings,
					replay: frozen,
					get snapshot() {
						return (snapshot ??= frozen.snapshot());
					},
				};
				// Views of an older seq are stale whatever their system or day: drop them all.
				for (const [k, v] of s.views) if (v.seq !== view.seq) s.views.delete(k);
				s.views.set(key, view);
				if (s.views.size > MAX_VIEWS) s.views.delete(s.views.keys().next().value!); // the oldest
				return view;
			}),
		standingsOn: (league, systemId, days) =>
			mutex.run(league, async () => {
				const s = await session(league, true);
				const replay = await s.ratings.bring(s.log, getSystem(systemId));
				return new Map(days.map((day) => [day, replay.standings(day)]));
			}),
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
