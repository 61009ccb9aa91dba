import type { LeagueConfig } from '../league/league-events.js';
import { refused } from './errors.js';

/** Who is asking: what the Discord adapter knows about the member, as plain data. */
export interface Actor {
	readonly userId: string;
	/** Undefined outside a server (DMs). */
	readonly guildId: string | undefined;
	/** The member has Manage Server. */
	readonly manageGuild: boolean;
	/** Role ids of the member. */
	readonly roles: readonly string[];
	/** The channel the command was run in (the league it means without the league option); undefined if unknown. */
	readonly channelId?: string | undefined;
}

/** A league organizer: Manage Server, or the league's organizer role. */
export function isOrganizer(actor: Actor, config: LeagueConfig | undefined): boolean {
	if (actor.manageGuild) return true;
	const role = config?.organizerRole;
	return role !== undefined && actor.roles.includes(role);
}

export function requireGuild(actor: Actor): string {
	if (actor.guildId === undefined) throw refused('guild-only', 'This can only be used in a server.');
	return actor.guildId;
}

export function requireOrganizer(actor: Actor, config: LeagueConfig | undefined): void {
	if (isOrganizer(actor, config)) return;
	const role = config?.organizerRole;
	throw refused(
		'not-organizer',
		role === undefined
			? 'Only league organizers (Manage Server permission) can do this.'
			: `Only league organizers (Manage Server permission or the <@&${role}> role) can do this.`,
	);
}
