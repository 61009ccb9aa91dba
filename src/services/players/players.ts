import { escapeForDiscord } from '../../formats/discord-escape.js';
import { lookupSuggestions } from '../../league/player-names.js';
import type { LeagueLog, PlayerInfo } from '../../league/race-log.js';
import type { Actor } from '../actor.js';
import { refused } from '../errors.js';

/** A Discord user mention as typed or as the client sends it: `<@123>` or `<@!123>`. */
const MENTION = /^<@!?(\d{5,20})>$/;

export function mentionedUser(ref: string): string | undefined {
	return MENTION.exec(ref.trim())?.[1];
}

/** The player `ref` names in a league (by name, alias, id or user mention; none: the caller's linked player), if any. */
export function playerOf(state: LeagueLog, ref: string | undefined, actor: Actor): PlayerInfo | undefined {
	if (ref === undefined || ref.trim() === '') return state.playerByUser(actor.userId);
	const user = mentionedUser(ref);
	return user !== undefined ? state.playerByUser(user) : state.resolve(ref.trim());
}

/**
 * A player of a league by name, alias, id (`#3`) or user mention; with no reference, the caller's linked player.
 * Every refusal says what to do next.
 */
export function findPlayer(state: LeagueLog, ref: string | undefined, actor: Actor, leagueName: string): PlayerInfo {
	const found = playerOf(state, ref, actor);
	if (found) return found;
	const league = escapeForDiscord(leagueName);
	if (ref === undefined || ref.trim() === '') {
		throw refused(
			'not-linked',
			`Your Discord account is not linked to a player in ${league}: give the player option, or ask an organizer to run /player link.`,
		);
	}
	if (mentionedUser(ref) !== undefined) {
		throw refused(
			'user-not-linked',
			`That Discord user is not linked to a player in ${league} (an organizer can run /player link).`,
		);
	}
	const known = state.players().flatMap((p) => [p.name, ...p.aliases]);
	const near = lookupSuggestions(ref, known);
	const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `**${escapeForDiscord(n)}**`).join(' or ')}?` : '';
	throw refused('unknown-player', `There is no player "${escapeForDiscord(ref.trim())}" in ${league}.${hint}`);
}
