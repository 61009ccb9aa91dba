import { escapeForDiscord } from '../formats/discord-escape.js';
import { lookupSuggestions } from '../league/player-names.js';
import type { LeagueLog, PlayerInfo } from '../league/race-log.js';
import type { Actor } from './actor.js';
import { refused } from './errors.js';

/** A Discord user mention as typed or as the client sends it: `<@123>` or `<@!123>`. */
const MENTION = /^<@!?(\d{5,20})>$/;

export function mentionedUser(ref: string): string | undefined {
	return MENTION.exec(ref.trim())?.[1];
}

/**
 * A player of a league by name, alias, id (`#3`) or user mention; with no reference, the caller's linked player.
 * Every refusal says what to do next.
 */
export function findPlayer(state: LeagueLog, ref: string | undefined, actor: Actor, leagueName: string): PlayerInfo {
	const league = escapeForDiscord(leagueName);
	if (ref === undefined || ref.trim() === '') {
		const mine = state.playerByUser(actor.userId);
		if (mine) return mine;
		throw refused(
			'not-linked',
			`Your Discord account is not linked to a player in ${league}: give the player option, or ask an organizer to run /player link.`,
		);
	}
	const user = mentionedUser(ref);
	if (user !== undefined) {
		const linked = state.playerByUser(user);
		if (linked) return linked;
		throw refused(
			'user-not-linked',
			`That Discord user is not linked to a player in ${league} (an organizer can run /player link).`,
		);
	}
	const found = state.resolve(ref.trim());
	if (found) return found;
	const known = state.players().flatMap((p) => [p.name, ...p.aliases]);
	const near = lookupSuggestions(ref, known);
	const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `**${escapeForDiscord(n)}**`).join(' or ')}?` : '';
	throw refused('unknown-player', `There is no player "${escapeForDiscord(ref.trim())}" in ${league}.${hint}`);
}
