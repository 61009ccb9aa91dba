/** The Discord member behind an interaction, as the services' plain `Actor`. */
import { PermissionFlagsBits, type AutocompleteInteraction, type RepliableInteraction } from 'discord.js';
import type { Actor } from '../services/actor.js';

/** Role ids of the member: a cached GuildMember has a role manager, a raw API member an id array. */
function rolesOf(member: unknown): string[] {
	if (typeof member !== 'object' || member === null || !('roles' in member)) return [];
	const roles: unknown = member.roles;
	if (Array.isArray(roles)) return roles.filter((r): r is string => typeof r === 'string');
	if (typeof roles === 'object' && roles !== null && 'cache' in roles) {
		const cache = roles.cache;
		if (cache instanceof Map) return [...cache.keys()].map(String);
	}
	return [];
}

export function actorOf(interaction: RepliableInteraction | AutocompleteInteraction): Actor {
	return {
		userId: interaction.user.id,
		guildId: interaction.guildId ?? undefined,
		manageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
		roles: rolesOf(interaction.member),
		channelId: interaction.channelId ?? undefined,
	};
}
