/**
 * `/league roles tier|provisional|remove|on|off|show` (docs/rank-roles.md): Discord roles by rating or by place on the
 * league's leaderboard, kept in step by the bot. Organizers set the tiers; `on` shows what would change (who gains and
 * who loses which role) and waits for Confirm (roles-buttons below); every change is a setting of the league's log.
 */
import {
	ApplicationCommandOptionType,
	MessageFlags,
	type APIApplicationCommandSubcommandGroupOption,
	type APIRole,
	type ChatInputCommandInteraction,
	type Role,
} from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { answer } from '../../src/discord/reply.js';
import { plural } from '../../src/formats/plural.js';
import type { LeagueConfig } from '../../src/league/league-events.js';
import { isPlaceTier, orderedTiers, type RankRoleSettings, type RoleChange } from '../../src/league/rank-tiers.js';
import type { RoleChoice, RolesPreview } from '../../src/services/roles/rank-roles-service.js';
import type { RoleSyncStatus } from '../../src/services/roles/role-sync-service.js';
import { confirmCancelButtons, confirmCancelRow } from '../confirm-buttons.js';
import { actorOf, clip, esc, leagueOption, servicesOf } from '../shared.js';

const { Subcommand, SubcommandGroup, Role: RoleOption, Number: Decimal, Integer } = ApplicationCommandOptionType;

const roleOption = (description: string) => ({ type: RoleOption, name: 'role', description, required: true }) as const;

/** The `roles` group of /league (commands/league.ts). */
export const rolesGroup = {
	type: SubcommandGroup,
	name: 'roles',
	description: 'Rank roles: Discord roles by rating or place on the leaderboard (organizers)',
	options: [
		{
			type: Subcommand,
			name: 'tier',
			description: 'Add a tier, or change its bound: min-rating (by rating) or top (by place)',
			options: [
				roleOption('The role of this tier'),
				{
					type: Decimal,
					name: 'min-rating',
					description: 'Players rated at least this, as /leaderboard shows ratings, e.g. 1600',
					min_value: -100000,
					max_value: 100000,
				},
				{
					type: Integer,
					name: 'top',
					description: 'Players placed this or better on the leaderboard, e.g. 3 for the top 3',
					min_value: 1,
					max_value: 10000,
				},
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'provisional',
			description: 'The role of provisional players (they hold it instead of a tier)',
			options: [roleOption('The role of provisional players'), leagueOption],
		},
		{
			type: Subcommand,
			name: 'remove',
			description: 'Take a role out of the rank roles (members keep it)',
			options: [roleOption('The tier or provisional role to take out'), leagueOption],
		},
		{
			type: Subcommand,
			name: 'on',
			description: 'Preview who gains and loses which role, then turn rank roles on with Confirm',
			options: [leagueOption],
		},
		{
			type: Subcommand,
			name: 'off',
			description: 'Stop changing rank roles (members keep theirs)',
			options: [leagueOption],
		},
		{
			type: Subcommand,
			name: 'show',
			description: 'The rank roles and how the last sync went',
			options: [leagueOption],
		},
	],
} as const satisfies APIApplicationCommandSubcommandGroupOption;

/** Lines of a preview listed before the rest are counted. */
const PREVIEW_LINES = 15;

const mention = (role: string) => `<@&${role}>`;

/** `<@&1> from 1600 · <@&2> from 1400 · <@&3> provisional players`, or by place `<@&1> top 3 · <@&2> top 10`. */
export function tiersText(settings: RankRoleSettings): string {
	const tiers = orderedTiers(settings).map((t) =>
		isPlaceTier(t)
			? `${mention(t.role)} ${t.lastPlace === 1 ? 'first place' : `top ${t.lastPlace}`}`
			: `${mention(t.role)} from ${t.minRating.toFixed(1).replace('.0', '')}`,
	);
	const provisional = settings.provisionalRole ? [`${mention(settings.provisionalRole)} provisional players`] : [];
	const all = [...tiers, ...provisional];
	return all.length === 0 ? 'no roles yet' : all.join(' · ');
}

/** The settings' line of /league info: `Rank roles: on · by rating of folyami: <@&1> from 1600 · …`. */
export function rankRolesLine(config: LeagueConfig): string | undefined {
	const r = config.roles;
	if (r === undefined) return undefined;
	const by =
		r.tiers.length === 0 ? '' : r.tiers.some(isPlaceTier) ? ' · by place' : ` · by \`${config.headline}\` rating`;
	return `Rank roles: ${r.enabled ? 'on' : 'off'}${by}: ${tiersText(r)}`;
}

/** `Last sync: 2026-05-01 10:00 UTC · 3 changes pending · I need Manage Roles …`. */
export function syncStatusText(status: RoleSyncStatus | undefined): string {
	if (status === undefined) return 'Last sync: none yet';
	const when = `${status.at.slice(0, 16).replace('T', ' ')} UTC`;
	const pending = status.pending > 0 ? ` · ${plural(status.pending, 'change')} pending` : ' · every role in step';
	return `Last sync: ${when}${pending}${status.problem ? `\nThe sync stopped: ${status.problem}` : ''}`;
}

const changeText = (c: RoleChange) =>
	[...(c.add !== undefined ? [`+${mention(c.add)}`] : []), ...c.remove.map((r) => `−${mention(r)}`)].join(' ');

/** `<@&1> +12 −3 · <@&2> +4`: what every role gains and loses. */
function countsText(changes: readonly RoleChange[]): string {
	const counts = new Map<string, { gain: number; lose: number }>();
	const at = (role: string) => counts.get(role) ?? counts.set(role, { gain: 0, lose: 0 }).get(role)!;
	for (const c of changes) {
		if (c.add !== undefined) at(c.add).gain += 1;
		for (const r of c.remove) at(r).lose += 1;
	}
	return [...counts]
		.map(([role, n]) => `${mention(role)}${n.gain ? ` +${n.gain}` : ''}${n.lose ? ` −${n.lose}` : ''}`)
		.join(' · ');
}

/** The preview of `/league roles on`: every change (or the first and then counts), or, without Discord, who holds what. */
export function previewText(p: RolesPreview): string {
	const { plan, settings } = p;
	const name = esc(plan.league.config.name);
	const head = `Rank roles of **${name}**: ${tiersText(settings)}.`;
	const who = (user: string) => `**${esc(plan.names.get(user) ?? 'not a player')}** (<@${user}>)`;
	const lines: string[] = [head];
	if (plan.changes === undefined) {
		const held = [...plan.wanted].filter((entry): entry is [string, string] => entry[1] !== undefined);
		lines.push(
			'This console has no Discord members, so no role is changed here: the bot does it in Discord. Each linked player would hold:',
			...held.slice(0, PREVIEW_LINES).map(([user, role]) => `• ${who(user)}: ${mention(role)}`),
			...(held.length > PREVIEW_LINES ? [`…and ${held.length - PREVIEW_LINES} more.`] : []),
			...(held.length === 0 ? ['• no one (no linked player is on the leaderboard in a tier)'] : []),
		);
	} else if (plan.changes.length === 0) {
		lines.push('Turning them on changes no one’s roles: every member already holds the right one.');
	} else {
		const gain = plan.changes.filter((c) => c.add !== undefined).length;
		const lose = plan.changes.filter((c) => c.remove.length > 0).length;
		lines.push(
			`Turning them on changes the roles of ${plural(plan.changes.length, 'member')}: ${gain} gain a role, ${lose} lose one.`,
			...plan.changes.slice(0, PREVIEW_LINES).map((c) => `• ${who(c.user)}: ${changeText(c)}`),
		);
		if (plan.changes.length > PREVIEW_LINES) {
			lines.push(`…and ${plan.changes.length - PREVIEW_LINES} more. In all: ${countsText(plan.changes)}.`);
		}
	}
	lines.push(
		'Only these roles are ever added or removed; members keep every other role. The bot then keeps them in step after every race, change and day. Confirm within 15 minutes to turn them on.',
	);
	return clip(lines.join('\n'));
}

const roleChoice = (role: Role | APIRole): RoleChoice => ({
	id: role.id,
	name: role.name,
	managed: role.managed,
	permissions: BigInt(typeof role.permissions === 'string' ? role.permissions : role.permissions.bitfield),
});

export async function leagueRoles(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const { rankRoles } = servicesOf(ctx);
	const actor = actorOf(interaction);
	const o = interaction.options;
	const league = o.getString('league') ?? undefined;
	const settingsAnswer = async (result: { league: { config: LeagueConfig }; note?: string | undefined }) => {
		const name = esc(result.league.config.name);
		const content = [`Updated the rank roles of **${name}**.`, rankRolesLine(result.league.config), result.note]
			.filter((line) => line !== undefined)
			.join('\n');
		await answer(interaction, { content: clip(content) }, { ephemeral: false });
	};
	switch (o.getSubcommand()) {
		case 'tier':
			return settingsAnswer(
				await rankRoles.setTier(actor, league, {
					role: roleChoice(o.getRole('role', true)),
					minRating: o.getNumber('min-rating') ?? undefined,
					lastPlace: o.getInteger('top') ?? undefined,
				}),
			);
		case 'provisional':
			return settingsAnswer(await rankRoles.setProvisional(actor, league, roleChoice(o.getRole('role', true))));
		case 'remove':
			return settingsAnswer(await rankRoles.remove(actor, league, o.getRole('role', true).id));
		case 'off':
			return settingsAnswer(await rankRoles.off(actor, league));
		case 'on': {
			// The preview reads every member's roles from Discord: acknowledge first, to the organizer only.
			await interaction.deferReply({ flags: MessageFlags.Ephemeral });
			const preview = await rankRoles.preview(actor, league);
			const row = confirmCancelRow(ROLES_PREFIX, preview.id);
			return answer(interaction, { content: previewText(preview), components: [row] }, { ephemeral: true });
		}
		case 'show': {
			const { league: info, sync } = await rankRoles.show(actor, league);
			const content = [
				`**${esc(info.config.name)}**`,
				rankRolesLine(info.config) ?? 'No rank roles: add a tier with /league roles tier.',
				...(info.config.roles?.enabled ? [syncStatusText(sync)] : []),
			].join('\n');
			return answer(interaction, { content: clip(content) }, { ephemeral: true });
		}
		default:
			throw new UserFacingError('unknown-command', 'This command is not available any more.');
	}
}

const ROLES_PREFIX = 'roles';

/** Confirm / Cancel of `/league roles on`. */
export const rolesButtons = confirmCancelButtons({
	prefix: ROLES_PREFIX,
	cancelled: 'Cancelled: rank roles stay off.',
	cancel: ({ rankRoles }, actor, id) => rankRoles.cancel(actor, id),
	async confirm({ rankRoles }, actor, id) {
		const { league, already } = await rankRoles.confirm(actor, id);
		const name = esc(league.config.name);
		if (already) return { stored: `Rank roles of **${name}** are already on: nothing was stored twice.` };
		return {
			stored: `Rank roles of **${name}** are on (${tiersText(league.config.roles!)}): the bot is giving the roles now, within Discord’s rate limits. /league roles show says how it went.`,
			announcement: { content: `**${name}**: rank roles are on (${tiersText(league.config.roles!)}).` },
		};
	},
});
