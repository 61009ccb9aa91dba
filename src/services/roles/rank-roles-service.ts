import type { LeagueConfig } from '../../league/league-events.js';
import { isPlaceTier, MAX_TIERS, type RankRoleSettings, type RankTier } from '../../league/rank-tiers.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireGuild, requireOrganizer, type Actor } from '../actor.js';
import { refuse, refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { createWaitingItems, expiredPreview, newPreviewId, PREVIEW_TTL_MS } from '../races/previews.js';
import type { RolePlan, RoleSyncService } from './role-sync-service.js';

/**
 * `/league roles` (docs/rank-roles.md): an organizer sets a league's tiers (a role from a minimum rating, or down to a
 * last place), the role of provisional players, and turns the roles on (after a preview of every change, confirmed)
 * or off. Every change is one `league-configured` event (LeagueConfig.roles); the sync (role-sync-service.ts) follows
 * each write on its own.
 */

/** A role as the command's role option resolves it. */
export interface RoleChoice {
	readonly id: string;
	readonly name: string;
	/** A bot's, a booster's or an integration's role: Discord gives it, no one else can. */
	readonly managed: boolean;
	/** The role's permission bits. */
	readonly permissions: bigint;
}

export interface RankRolesResult {
	readonly league: LeagueInfo;
	/** What the change means for the members, when it is worth a line (e.g. a removed role stays on its members). */
	readonly note?: string | undefined;
}

export interface RolesPreview {
	readonly id: string;
	readonly plan: RolePlan;
	readonly settings: RankRoleSettings;
}

export interface RankRolesService {
	/** Adds a tier, or moves the bound of the role's tier: `minRating` (by rating) or `lastPlace` (by place). */
	setTier(
		actor: Actor,
		league: string | undefined,
		input: { role: RoleChoice; minRating?: number | undefined; lastPlace?: number | undefined },
	): Promise<RankRolesResult>;
	setProvisional(actor: Actor, league: string | undefined, role: RoleChoice): Promise<RankRolesResult>;
	/** Takes a role out of the tiers (or as the provisional role). */
	remove(actor: Actor, league: string | undefined, role: string): Promise<RankRolesResult>;
	/** What turning the roles on would change: waits 15 minutes for Confirm. */
	preview(actor: Actor, league: string | undefined): Promise<RolesPreview>;
	confirm(actor: Actor, id: string): Promise<{ league: LeagueInfo; already: boolean }>;
	cancel(actor: Actor, id: string): Promise<void>;
	off(actor: Actor, league: string | undefined): Promise<RankRolesResult>;
	/** The settings and the sync's state, for /league roles show and /league info. */
	show(
		actor: Actor,
		league: string | undefined,
	): Promise<{ league: LeagueInfo; sync: Awaited<ReturnType<RoleSyncService['status']>> }>;
}

/**
 * Permissions a rank must never hand out (Discord's bits, https://discord.com/developers/docs/topics/permissions):
 * a tier is won by racing, and a role with these would let a fast driver moderate or administer the server.
 */
const POWERS: readonly [bigint, string][] = [
	[1n << 3n, 'Administrator'],
	[1n << 5n, 'Manage Server'],
	[1n << 28n, 'Manage Roles'],
	[1n << 4n, 'Manage Channels'],
	[1n << 1n, 'Kick Members'],
	[1n << 2n, 'Ban Members'],
	[1n << 13n, 'Manage Messages'],
	[1n << 17n, 'Mention Everyone'],
	[1n << 29n, 'Manage Webhooks'],
	[1n << 40n, 'Timeout Members'],
	[1n << 7n, 'View Audit Log'],
];

export interface RankRolesDeps {
	readonly repo: LeagueRepository;
	readonly leagues: LeagueService;
	readonly sync: RoleSyncService;
	readonly clock: () => Date;
	readonly newId?: (() => string) | undefined;
}

interface Waiting {
	readonly league: LeagueInfo;
	readonly settings: RankRoleSettings;
	readonly expiresAt: Date;
	applying?: Promise<LeagueInfo> | undefined;
}

const NO_SETTINGS: RankRoleSettings = { enabled: false, tiers: [] };

/** Two settings alike but for on/off and the preview that turned them on. */
const sameTiers = (a: RankRoleSettings, b: RankRoleSettings) =>
	JSON.stringify([a.tiers, a.provisionalRole ?? null]) === JSON.stringify([b.tiers, b.provisionalRole ?? null]);

export function createRankRolesService(deps: RankRolesDeps): RankRolesService {
	const { repo, leagues, sync, clock } = deps;
	const newId = deps.newId ?? newPreviewId;
	const waiting = createWaitingItems<Waiting>(repo, clock, (w) => w);

	const organizerLeague = async (actor: Actor, league: string | undefined) => {
		const info = await leagues.resolve(actor, league);
		requireOrganizer(actor, info.config);
		return info;
	};

	const store = async (actor: Actor, info: LeagueInfo, roles: RankRoleSettings) => {
		const config: LeagueConfig = { ...info.config, roles };
		await refuse('bad-roles', () => repo.appendEvent(info.id, { type: 'league-configured', config, by: actor.userId }));
		return (await repo.getLeague(info.id))!;
	};

	/** A role a rank may hand out: not @everyone, not Discord's, not a power, not another league's or the organizers'. */
	const checkRole = async (actor: Actor, info: LeagueInfo, role: RoleChoice) => {
		const guild = requireGuild(actor);
		const name = `**${escapeForDiscord(role.name)}**`;
		if (role.id === guild) {
			throw refused('bad-role', '@everyone is every member of the server: it cannot be a rank role. Choose a role.');
		}
		if (role.managed) {
			throw refused(
				'bad-role',
				`${name} is managed by Discord or an integration (a bot’s role, Server Booster): no one can give it, so it cannot be a rank role.`,
			);
		}
		if (role.id === info.config.organizerRole) {
			throw refused(
				'bad-role',
				`${name} is the organizer role of this league: a rank would make fast drivers organizers. Choose another role.`,
			);
		}
		const powers = POWERS.filter(([bit]) => (role.permissions & bit) !== 0n).map(([, label]) => label);
		if (powers.length > 0) {
			throw refused(
				'bad-role',
				`${name} has the ${powers.join(', ')} permission${powers.length > 1 ? 's' : ''}: a rank must not hand out moderation or admin rights. Choose a role without them.`,
			);
		}
		for (const other of await repo.listLeagues(guild)) {
			if (other.id === info.id) continue;
			const roles = other.config.roles;
			if (roles?.provisionalRole === role.id || roles?.tiers.some((t) => t.role === role.id)) {
				throw refused(
					'bad-role',
					`${name} is a rank role of **${escapeForDiscord(other.config.name)}**: a role follows one league’s ranks. Choose another role.`,
				);
			}
		}
	};

	return {
		async setTier(actor, league, input) {
			const info = await organizerLeague(actor, league);
			const { role, minRating, lastPlace } = input;
			if ((minRating === undefined) === (lastPlace === undefined)) {
				throw refused(
					'bad-tier',
					'Give the tier’s min-rating: (e.g. 1600, as /leaderboard shows ratings) or its top: place (e.g. 10), one of them.',
				);
			}
			await checkRole(actor, info, role);
			const now = info.config.roles ?? NO_SETTINGS;
			const tier: RankTier =
				minRating !== undefined ? { role: role.id, minRating } : { role: role.id, lastPlace: lastPlace! };
			const others = now.tiers.filter((t) => t.role !== role.id);
			const kinds = others.filter((t) => isPlaceTier(t) !== isPlaceTier(tier));
			if (kinds.length > 0) {
				const theirs = isPlaceTier(tier) ? 'by rating' : 'by place';
				throw refused(
					'bad-tier',
					`The tiers of **${escapeForDiscord(info.config.name)}** are ${theirs}: every tier is by rating or every tier by place. Remove them first with /league roles remove.`,
				);
			}
			const clash = others.find((t) => (isPlaceTier(t) ? t.lastPlace === lastPlace : t.minRating === minRating));
			if (clash) {
				throw refused('bad-tier', `<@&${clash.role}> already has that bound: each tier needs its own.`);
			}
			if (others.length >= MAX_TIERS) throw refused('bad-tier', `A league has at most ${MAX_TIERS} tiers.`);
			const provisional = now.provisionalRole === role.id ? undefined : now.provisionalRole;
			const note =
				now.provisionalRole === role.id ? `<@&${role.id}> is a tier now, no longer the provisional role.` : undefined;
			return {
				league: await store(actor, info, { ...now, tiers: [...others, tier], provisionalRole: provisional }),
				note,
			};
		},
		async setProvisional(actor, league, role) {
			const info = await organizerLeague(actor, league);
			await checkRole(actor, info, role);
			const now = info.config.roles ?? NO_SETTINGS;
			const tiers = now.tiers.filter((t) => t.role !== role.id);
			const note =
				tiers.length < now.tiers.length ? `<@&${role.id}> is the provisional role now, no longer a tier.` : undefined;
			return { league: await store(actor, info, { ...now, tiers, provisionalRole: role.id }), note };
		},
		async remove(actor, league, role) {
			const info = await organizerLeague(actor, league);
			const now = info.config.roles ?? NO_SETTINGS;
			const tiers = now.tiers.filter((t) => t.role !== role);
			const provisional = now.provisionalRole === role ? undefined : now.provisionalRole;
			if (tiers.length === now.tiers.length && provisional === now.provisionalRole) {
				throw refused(
					'not-a-rank-role',
					`<@&${role}> is not a rank role of **${escapeForDiscord(info.config.name)}**: nothing changed.`,
				);
			}
			// Without a tier or a provisional role there is nothing to keep in step: the roles go off too.
			const empty = tiers.length === 0 && provisional === undefined;
			const settings: RankRoleSettings = {
				...now,
				tiers,
				provisionalRole: provisional,
				enabled: now.enabled && !empty,
			};
			const kept = `Members who hold <@&${role}> keep it: the bot no longer adds or removes it.`;
			const note = now.enabled && empty ? `${kept} That was the last rank role, so rank roles are off.` : kept;
			return { league: await store(actor, info, settings), note };
		},
		async preview(actor, league) {
			const info = await organizerLeague(actor, league);
			const settings = info.config.roles;
			if (settings === undefined || (settings.tiers.length === 0 && settings.provisionalRole === undefined)) {
				throw refused(
					'no-tiers',
					`**${escapeForDiscord(info.config.name)}** has no rank roles yet: add a tier first, e.g. /league roles tier role:@Gold min-rating:1600.`,
				);
			}
			if (settings.enabled) {
				throw refused(
					'roles-on',
					`Rank roles of **${escapeForDiscord(info.config.name)}** are already on: the bot keeps them in step after every change. /league roles show says how the last sync went.`,
				);
			}
			const plan = await sync.plan(info, settings);
			if (plan.problem !== undefined) throw refused('roles-access', plan.problem);
			const id = newId();
			waiting.set(id, { league: info, settings, expiresAt: new Date(clock().getTime() + PREVIEW_TTL_MS) });
			return { id, plan, settings };
		},
		async confirm(actor, id) {
			const claimed = await waiting.claim(actor, id);
			if (claimed === undefined) {
				// Not waiting here: turned on by this preview already (a press again, a restart), or expired.
				for (const league of await leagues.list(requireGuild(actor))) {
					if (league.config.roles?.preview === id && league.config.roles.enabled) {
						requireOrganizer(actor, league.config);
						return { league, already: true };
					}
				}
				throw expiredPreview('rank roles were not turned on', 'Run /league roles on again.');
			}
			const { item: w, league } = claimed;
			if (w.applying !== undefined) return { league: await w.applying, already: true };
			const now = league.config.roles ?? NO_SETTINGS;
			if (!sameTiers(now, w.settings)) {
				waiting.delete(id);
				throw refused(
					'roles-stale',
					`The rank roles of **${escapeForDiscord(league.config.name)}** changed since this preview: nothing was turned on. Run /league roles on again.`,
				);
			}
			if (now.enabled) return { league, already: true };
			w.applying = store(actor, league, { ...now, enabled: true, preview: id });
			try {
				const stored = await w.applying;
				return { league: stored, already: false };
			} catch (error) {
				w.applying = undefined; // nothing stored: Confirm may be pressed again
				throw error;
			}
		},
		async cancel(actor, id) {
			const claimed = await waiting.claim(actor, id);
			if (claimed === undefined) throw expiredPreview('nothing was turned on', 'Run /league roles on again.');
			if (claimed.item.applying !== undefined) {
				throw refused('roles-applied', 'Rank roles were already turned on: /league roles off turns them off.');
			}
			waiting.delete(id);
		},
		async off(actor, league) {
			const info = await organizerLeague(actor, league);
			const now = info.config.roles;
			if (now === undefined || !now.enabled) {
				throw refused(
					'roles-off',
					`Rank roles of **${escapeForDiscord(info.config.name)}** are already off: nothing changed.`,
				);
			}
			return {
				league: await store(actor, info, { ...now, enabled: false, preview: undefined }),
				note: 'Members keep the roles they hold now; the bot no longer changes them.',
			};
		},
		async show(actor, league) {
			const info = await leagues.resolve(actor, league);
			return { league: info, sync: await sync.status(info.id) };
		},
	};
}
