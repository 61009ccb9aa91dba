/**
 * The rank roles' Discord side (services/role-sync-service.ts RoleSyncDiscord) over discord.js's REST client:
 *
 * - GET /guilds/{guild}/roles and GET /guilds/{guild}/members/{bot}: whether the bot may manage the roles (Manage
 *   Roles, or Administrator, on one of its roles; each managed role below its highest role, as Discord requires:
 *   https://discord.com/developers/docs/topics/permissions#permission-hierarchy);
 * - GET /guilds/{guild}/members?limit=1000&after=…: the members and their roles (needs the Server Members Intent);
 * - PUT / DELETE /guilds/{guild}/members/{user}/roles/{role}: one change, with an audit log reason.
 *
 * Rate limits are discord.js's: its REST client queues the requests of a route and waits out the limits Discord
 * announces (X-RateLimit-*), and on a 429 it waits Retry-After and sends the same request again (the client must not
 * set `rejectOnRateLimit`, and does not: client.ts). The sync sends one request at a time, so there is no burst. The
 * bot checks access before any change, so a refusal costs at most one 403 (Discord counts them against the bot).
 */
import {
	DiscordAPIError,
	PermissionFlagsBits,
	Routes,
	type APIGuildMember,
	type APIRole,
	type Client,
} from 'discord.js';
import { escapeForDiscord } from '../formats/discord-escape.js';
import type { RoleOp } from '../league/rank-tiers.js';
import { RoleSyncProblem, type RoleAccess, type RoleSyncDiscord } from '../services/roles/role-sync-service.js';

/** Discord's error codes the sync words for people (https://discord.com/developers/docs/topics/opcodes-and-status-codes). */
const UNKNOWN_MEMBER = 10007;
const UNKNOWN_ROLE = 10011;
const MISSING_ACCESS = 50001;
const MISSING_PERMISSIONS = 50013;

/** Members per page of GET /guilds/{guild}/members (Discord's maximum). */
const MEMBERS_PAGE = 1000;

export const NEED_MANAGE_ROLES =
	'I need Manage Roles to give rank roles: give my role that permission in Server Settings → Roles.';

export const NEED_MEMBERS_INTENT =
	'I cannot list the server’s members: turn on the Server Members Intent of the bot (Discord Developer Portal → Bot → Privileged Gateway Intents).';

export const roleAboveMine = (role: string, mine: string) =>
	`${escapeForDiscord(role)} is above my highest role (${escapeForDiscord(mine)}): move my role above it in Server Settings → Roles.`;

export const roleGone = (role: string) =>
	`The role <@&${role}> of the rank roles no longer exists: remove it with /league roles remove, or choose another.`;

/** Discord orders roles by position, then by id (the older role is lower). */
const higher = (a: APIRole, b: APIRole) =>
	a.position !== b.position ? a.position > b.position : BigInt(a.id) < BigInt(b.id);

const codeOf = (error: unknown) => (error instanceof DiscordAPIError ? error.code : undefined);

export function createRoleSyncAdapter(client: Client): RoleSyncDiscord {
	const rest = client.rest;
	const botId = () => {
		const id = client.user?.id;
		if (id === undefined) throw new Error('rank roles: the client is not logged in');
		return id;
	};

	const access = async (guild: string, roles: readonly string[]): Promise<RoleAccess> => {
		const all = (await rest.get(Routes.guildRoles(guild))) as APIRole[];
		const me = (await rest.get(Routes.guildMember(guild, botId()))) as APIGuildMember;
		const names = new Map(all.map((role) => [role.id, role.name]));
		// @everyone (the guild's id) is every member's role, the bot's too.
		const mine = all.filter((role) => role.id === guild || me.roles.includes(role.id));
		const permissions = mine.reduce((bits, role) => bits | BigInt(role.permissions), 0n);
		if ((permissions & (PermissionFlagsBits.Administrator | PermissionFlagsBits.ManageRoles)) === 0n) {
			return { names, problem: NEED_MANAGE_ROLES };
		}
		const top = mine.reduce<APIRole | undefined>((a, b) => (a === undefined || higher(b, a) ? b : a), undefined);
		for (const id of roles) {
			const role = all.find((r) => r.id === id);
			if (role === undefined) return { names, problem: roleGone(id) };
			if (top === undefined || !higher(top, role)) {
				return { names, problem: roleAboveMine(role.name, top?.name ?? '@everyone') };
			}
		}
		return { names };
	};

	return {
		access,
		async members(guild) {
			const members = new Map<string, readonly string[]>();
			let after = '0';
			for (;;) {
				let page: APIGuildMember[];
				try {
					const query = new URLSearchParams({ limit: String(MEMBERS_PAGE), after });
					page = (await rest.get(Routes.guildMembers(guild), { query })) as APIGuildMember[];
				} catch (error) {
					if (codeOf(error) === MISSING_ACCESS) throw new RoleSyncProblem(NEED_MEMBERS_INTENT);
					throw error;
				}
				for (const member of page) if (member.user) members.set(member.user.id, member.roles);
				const last = page.at(-1)?.user?.id;
				if (page.length < MEMBERS_PAGE || last === undefined) return members;
				after = last;
			}
		},
		async apply(guild, op: RoleOp, reason) {
			const route = Routes.guildMemberRole(guild, op.user, op.role);
			try {
				if (op.op === 'add') await rest.put(route, { reason });
				else await rest.delete(route, { reason });
				return 'done';
			} catch (error) {
				const code = codeOf(error);
				if (code === UNKNOWN_MEMBER) return 'gone';
				if (code === UNKNOWN_ROLE) throw new RoleSyncProblem(roleGone(op.role));
				if (code === MISSING_PERMISSIONS) {
					// A permission or the role order changed since the check: say which, as the check words it.
					const { problem } = await access(guild, [op.role]);
					throw new RoleSyncProblem(
						problem ?? `Discord refused to change the role <@&${op.role}> (Missing Permissions).`,
					);
				}
				throw error;
			}
		},
		serves: (guild) => client.guilds.cache.has(guild),
	};
}
