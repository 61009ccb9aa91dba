import { filterStandings } from '../../league/leaderboard-filter.js';
import type { LeagueConfig } from '../../league/league-events.js';
import {
	managedRoles,
	roleChanges,
	roleOps,
	wantedRoles,
	type LeaderboardRow,
	type RankRoleSettings,
	type RoleChange,
	type RoleOp,
} from '../../league/rank-tiers.js';
import type { Logger } from '../../logger.js';
import type { KeyValueNamespace, LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import { leagueScale } from '../ratings/shown-scale.js';

/**
 * Keeps a league's rank roles in step with its leaderboard (docs/rank-roles.md). A sync computes the changes from the
 * members' current roles (rank-tiers.ts) and stores them as a queue in the store (namespace `jobs`, per league), then
 * applies them one request at a time through the Discord port: a restart finds the queue and finishes it, and
 * discord.js's REST client paces the requests to Discord's rate limits (waiting out a 429, then retrying it). A sync
 * is started after every write to a league (the repository's append, watched in services/index.ts: commands, buttons
 * and the results inbox alike), by the daily job (uncertainty grows, a tier may change) and at the bot's start; no
 * command waits for it. What Discord will not let the bot do is kept as the league's sync problem, in words the
 * organizer can act on, and shown by /league info and /league roles.
 */

/** What the sync asks of Discord (src/discord/role-sync-adapter.ts; tests: the fake Discord through it). */
export interface RoleSyncDiscord {
	/** Whether the bot may add and remove `roles` in the guild; `problem` says exactly why not. */
	access(guildId: string, roles: readonly string[]): Promise<RoleAccess>;
	/** Every member of the guild with their role ids. */
	members(guildId: string): Promise<ReadonlyMap<string, readonly string[]>>;
	/** Adds or removes one role of one member; `gone` when the member is no longer in the server (404 10007). */
	apply(guildId: string, op: RoleOp, reason: string): Promise<'done' | 'gone'>;
	/** Whether this process looks after the guild at start (its shard serves it). */
	serves(guildId: string): boolean;
}

export interface RoleAccess {
	/** Why the bot cannot manage the roles, as said to organizers (undefined: it can). */
	readonly problem?: string | undefined;
	/** Role names by id, where known. */
	readonly names: ReadonlyMap<string, string>;
}

/** A refusal from Discord to say as it is (the adapter words it: a permission taken away mid-sync). */
export class RoleSyncProblem extends Error {
	override readonly name = 'RoleSyncProblem';
}

/** The state of a league's sync, as /league info and /league roles show it. */
export interface RoleSyncStatus {
	/** When the last sync ended (ISO). */
	readonly at: string;
	/** The league day the last computed sync used (the daily job syncs again on a new day). */
	readonly day?: string | undefined;
	/** Changes still to apply. */
	readonly pending: number;
	/** What stopped the sync, for the organizers (undefined: nothing). */
	readonly problem?: string | undefined;
}

/** What turning rank roles on would do now (the preview), or, without Discord, who would hold which role. */
export interface RolePlan {
	readonly league: LeagueInfo;
	/** Player names by linked user id (the members' names in the preview). */
	readonly names: ReadonlyMap<string, string>;
	/** Role names by id, where Discord said them. */
	readonly roleNames: ReadonlyMap<string, string>;
	/** The changes, by member (undefined: no Discord here, the console; see `wanted`). */
	readonly changes?: readonly RoleChange[] | undefined;
	/** The one role each linked user should hold. */
	readonly wanted: ReadonlyMap<string, string | undefined>;
	/** Why the bot could not apply them. */
	readonly problem?: string | undefined;
}

export interface RoleSyncService {
	/** Starts syncing through `discord` (the bot, once logged in) and finishes every stored queue of its guilds. */
	connect(discord: RoleSyncDiscord): void;
	/** Whether a Discord port is connected (false in the console). */
	connected(): boolean;
	/** A league was written to: sync it soon, in the background (never throws, never waits). */
	leagueChanged(leagueId: string): void;
	/** The daily job: syncs every league with rank roles on whose day changed since its last sync. */
	syncDue(): Promise<number>;
	/** What a sync of `league` with `settings` would change now (the preview of turning the roles on). */
	plan(league: LeagueInfo, settings: RankRoleSettings): Promise<RolePlan>;
	status(leagueId: string): Promise<RoleSyncStatus | undefined>;
	/** Resolves once no sync is running or waiting (tests, the bench). */
	idle(): Promise<void>;
}

export interface RoleSyncOptions {
	/** The store's `jobs` namespace (the queues survive a restart). */
	readonly store: KeyValueNamespace;
	readonly clock: () => Date;
	readonly log?: Logger | undefined;
}

interface QueueRecord {
	readonly v: 1;
	readonly guild: string;
	readonly ops: readonly RoleOp[];
}

const queueKey = (league: string) => `role-sync:queue:${league}`;
/** How many of the queue's ops are done: a small write per request, the queue itself written once. */
const doneKey = (league: string) => `role-sync:done:${league}`;
const statusKey = (league: string) => `role-sync:status:${league}`;

/** The audit log's reason of every change (X-Audit-Log-Reason), so a server's admins see who changed a role and why. */
const reasonOf = (config: LeagueConfig) => `pitwall rank roles of ${config.name}`.slice(0, 512);

/** The leaderboard as /leaderboard shows it (leaderboard-service.ts: the same day, standings, filter and scale). */
async function leaderboardRows(repo: LeagueRepository, league: LeagueInfo, now: Date) {
	const state = await repo.loadState(league.id);
	const day = leagueReadingDay(state, league.config.timezone, now);
	const system = league.config.headline;
	const view = await repo.ratingsAt(league.id, system, day);
	const { shown } = filterStandings(view.standings, league.config, day);
	const scale = leagueScale(league, system);
	const rows = shown.map((s, i): LeaderboardRow => ({
		player: s.player,
		place: i + 1,
		shownRating: scale.rating(s.rating),
		provisional: s.provisional,
	}));
	const users = new Map<string, string>();
	const names = new Map<string, string>();
	for (const p of state.players()) {
		if (p.user === undefined || p.mergedInto !== undefined) continue;
		users.set(p.id, p.user);
		names.set(p.user, p.name);
	}
	return { day, rows, users, names };
}

export function createRoleSyncService(repo: LeagueRepository, options: RoleSyncOptions): RoleSyncService {
	const { store, clock, log } = options;
	let discord: RoleSyncDiscord | undefined;
	/** Leagues whose changes must be computed again before their queue goes on. */
	const dirty = new Set<string>();
	const running = new Map<string, Promise<void>>();
	/** Leagues whose stored queue is finished first, then computed again (connect: the queues of a restart). */
	const recheck = new Set<string>();
	/** The start-up pass over the leagues (idle waits for it). */
	let startup: Promise<void> = Promise.resolve();
	/** The hooks' reads of a league not yet answered (idle waits for them). */
	const reading = new Set<Promise<void>>();

	const readStatus = async (league: string) => (await store.get(statusKey(league))) as RoleSyncStatus | undefined;
	const writeStatus = async (league: string, status: Omit<RoleSyncStatus, 'at'>) => {
		const day = status.day ?? (await readStatus(league))?.day;
		await store.set(statusKey(league), { ...status, day, at: clock().toISOString() } satisfies RoleSyncStatus);
	};
	const stopWith = async (league: string, problem: string, pending: number) => {
		log?.warn({ league, pending }, 'rank roles: sync stopped');
		await writeStatus(league, { pending, problem });
	};

	/** Computes the league's changes and stores them as its queue (replacing an older one); false: nothing to do. */
	const compute = async (leagueId: string, port: RoleSyncDiscord): Promise<boolean> => {
		const league = await repo.getLeague(leagueId);
		const settings = league?.config.roles;
		if (league === undefined || settings?.enabled !== true) {
			await store.delete(queueKey(leagueId));
			return false;
		}
		const { day, rows, users } = await leaderboardRows(repo, league, clock());
		const members = await port.members(league.config.guildId);
		const ops = roleOps(roleChanges(wantedRoles(settings, rows, users), members, managedRoles(settings)));
		await store.delete(doneKey(leagueId));
		await store.set(queueKey(leagueId), { v: 1, guild: league.config.guildId, ops } satisfies QueueRecord);
		await writeStatus(leagueId, { day, pending: ops.length });
		return ops.length > 0;
	};

	/** Applies the stored queue from where it stopped; stops early when the league is dirty again or Discord refuses. */
	const drain = async (leagueId: string, port: RoleSyncDiscord): Promise<void> => {
		const queue = (await store.get(queueKey(leagueId))) as QueueRecord | undefined;
		if (queue === undefined) return;
		const league = await repo.getLeague(leagueId);
		if (league?.config.roles?.enabled !== true) return void (await store.delete(queueKey(leagueId)));
		let done = Number((await store.get(doneKey(leagueId))) ?? 0);
		const left = () => queue.ops.length - done;
		if (left() > 0) {
			const access = await port.access(queue.guild, [...new Set(queue.ops.slice(done).map((op) => op.role))]);
			if (access.problem !== undefined) return stopWith(leagueId, access.problem, left());
		}
		const gone = new Set<string>();
		const reason = reasonOf(league.config);
		while (done < queue.ops.length) {
			if (dirty.has(leagueId)) return; // recomputed from the members as they are now, this queue included
			const op = queue.ops[done]!;
			if (!gone.has(op.user)) {
				try {
					// One request at a time: discord.js queues per route and waits out rate limits (and a 429) itself.
					if ((await port.apply(queue.guild, op, reason)) === 'gone') gone.add(op.user);
				} catch (error) {
					if (error instanceof RoleSyncProblem) return stopWith(leagueId, error.message, left());
					log?.warn({ err: error, league: leagueId }, 'rank roles: a role change failed; the sync retries later');
					return stopWith(leagueId, 'Discord did not take a role change; the bot tries again later.', left());
				}
			}
			done += 1;
			await store.set(doneKey(leagueId), done);
		}
		await store.delete(queueKey(leagueId));
		await store.delete(doneKey(leagueId));
		log?.info({ league: leagueId, changes: queue.ops.length, left: gone.size }, 'rank roles synced');
		await writeStatus(leagueId, { pending: 0 });
	};

	/** The league's worker: the stored queue first (a restart), then as many fresh computations as writes ask for. */
	const work = async (leagueId: string, port: RoleSyncDiscord) => {
		for (;;) {
			if (dirty.delete(leagueId)) {
				try {
					await compute(leagueId, port);
				} catch (error) {
					const problem = error instanceof RoleSyncProblem ? error.message : undefined;
					if (problem === undefined) log?.warn({ err: error, league: leagueId }, 'rank roles: sync failed');
					await stopWith(leagueId, problem ?? 'Discord did not answer; the bot tries again later.', 0);
					if (!dirty.has(leagueId)) return;
					continue;
				}
			}
			await drain(leagueId, port);
			// A queue left by a restart is finished as it was stored; then the league is computed again.
			if (recheck.delete(leagueId)) dirty.add(leagueId);
			if (!dirty.has(leagueId)) return;
		}
	};

	const kick = (leagueId: string, recompute: boolean) => {
		const port = discord;
		if (port === undefined) return;
		if (recompute) dirty.add(leagueId);
		if (running.has(leagueId)) return;
		const run = work(leagueId, port)
			.catch((error: unknown) => log?.error({ err: error, league: leagueId }, 'rank roles: sync failed'))
			.finally(() => running.delete(leagueId));
		running.set(leagueId, run);
	};

	return {
		connect(port) {
			discord = port;
			startup = (async () => {
				for (const league of await repo.listAllLeagues()) {
					if (league.config.roles?.enabled !== true || !port.serves(league.config.guildId)) continue;
					const queued = (await store.get(queueKey(league.id))) !== undefined;
					if (queued) recheck.add(league.id);
					kick(league.id, !queued);
				}
			})().catch((error: unknown) => log?.error({ err: error }, 'rank roles: the start-up sync failed'));
		},
		connected: () => discord !== undefined,
		leagueChanged(leagueId) {
			if (discord === undefined) return;
			// Only leagues with rank roles (on, or just turned off: their queue is dropped) do any work.
			const read = repo
				.getLeague(leagueId)
				.then((league) => {
					if (league?.config.roles !== undefined || running.has(leagueId)) kick(leagueId, true);
				})
				.catch((error: unknown) => log?.warn({ err: error, league: leagueId }, 'rank roles: could not read league'))
				.finally(() => reading.delete(read));
			reading.add(read);
		},
		async syncDue() {
			if (discord === undefined) return 0;
			let due = 0;
			for (const league of await repo.listAllLeagues()) {
				if (league.config.roles?.enabled !== true || running.has(league.id)) continue;
				const day = leagueReadingDay(await repo.loadState(league.id), league.config.timezone, clock());
				const status = await readStatus(league.id);
				if (status?.day === day && status.problem === undefined && status.pending === 0) continue;
				kick(league.id, true);
				due += 1;
			}
			return due;
		},
		async plan(league, settings) {
			const { rows, users, names } = await leaderboardRows(repo, league, clock());
			const wanted = wantedRoles(settings, rows, users);
			if (discord === undefined) return { league, names, roleNames: new Map(), wanted };
			const managed = managedRoles(settings);
			const access = await discord.access(league.config.guildId, [...managed]);
			if (access.problem !== undefined) {
				return { league, names, roleNames: access.names, wanted, problem: access.problem };
			}
			const members = await discord.members(league.config.guildId);
			return { league, names, roleNames: access.names, wanted, changes: roleChanges(wanted, members, managed) };
		},
		status: readStatus,
		async idle() {
			await startup;
			while (reading.size > 0 || running.size > 0) await Promise.all([...reading, ...running.values()]);
		},
	};
}
