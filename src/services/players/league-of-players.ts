/**
 * The league a player-reading command (`/rating`, `/odds`) means when it names none in a server with several: the
 * one league where every player asked for is found. A player in two leagues, or in none, keeps the refusal that asks
 * for the league option.
 */
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import { refused, UserFacingError } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { playerOf } from './players.js';

/**
 * `leagues.resolve`, except that without a league option in a server of several leagues it takes the only league
 * where every reference in `players` is a player (by name, alias, id or mention; an undefined or empty reference is
 * the caller's linked player).
 */
export async function leagueOfPlayers(
	repo: LeagueRepository,
	leagues: LeagueService,
	actor: Actor,
	league: string | undefined,
	players: readonly (string | undefined)[],
): Promise<LeagueInfo> {
	try {
		return await leagues.resolve(actor, league);
	} catch (error) {
		if (!(error instanceof UserFacingError) || error.code !== 'which-league' || actor.guildId === undefined)
			throw error;
		const matching: LeagueInfo[] = [];
		for (const info of await leagues.list(actor.guildId)) {
			const state = await repo.loadState(info.id);
			if (players.every((ref) => playerOf(state, ref, actor) !== undefined)) matching.push(info);
		}
		if (matching.length === 1) return matching[0]!;
		// Nobody named and the caller is linked nowhere: say that, rather than ask for a league that would not help.
		if (matching.length === 0 && players.every((ref) => ref === undefined || ref.trim() === '')) {
			throw refused(
				'not-linked',
				'Your Discord account is not linked to a player in any league of this server: give the player option, or ask an organizer to run /player link.',
			);
		}
		throw error;
	}
}
