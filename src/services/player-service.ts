import { newName } from '../league/race-log-checks.js';
import type { PlayerInfo } from '../league/race-log.js';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';
import { requireOrganizer, type Actor } from './actor.js';
import { escapeForDiscord } from '../formats/discord-escape.js';
import { refuse, refused } from './errors.js';
import type { LeagueService } from './league-service.js';
import { createMergePreviews, type MergePreviewOptions, type MergePreviews } from './player-merge.js';
import { findPlayer } from './players.js';
import { newPreviewId } from './preview-id.js';

/** `/player link|unlink|alias|rename|merge` (organizers): one event each, validated by the league log. */

export interface PlayerChange {
	readonly league: LeagueInfo;
	readonly player: PlayerInfo;
	/** For a merge: the player merged away. */
	readonly from?: PlayerInfo | undefined;
}

/** Link, unlink, alias, rename and merge; a merge goes through a preview and Confirm (player-merge.ts). */
export interface PlayerService extends MergePreviews {
	/** Link `player` to Discord user `user` (the caller when undefined). */
	link(
		actor: Actor,
		input: { league?: string | undefined; player: string; user?: string | undefined },
	): Promise<PlayerChange>;
	/** Undo a link (the player then has no Discord user); `unlinked` is the user it had. */
	unlink(
		actor: Actor,
		input: { league?: string | undefined; player: string },
	): Promise<PlayerChange & { readonly unlinked: string }>;
	/** Another name a scoreboard may use for the player (an in-game name): results typed with it find them. */
	alias(actor: Actor, input: { league?: string | undefined; player: string; alias: string }): Promise<PlayerChange>;
	rename(actor: Actor, input: { league?: string | undefined; player: string; name: string }): Promise<PlayerChange>;
	/** Without a preview (the CLI's and the tests' shortcut); `/player merge` previews first. */
	merge(actor: Actor, input: { league?: string | undefined; from: string; into: string }): Promise<PlayerChange>;
}

export function createPlayerService(
	repo: LeagueRepository,
	leagues: LeagueService,
	options: MergePreviewOptions = { clock: () => new Date(), newId: newPreviewId },
): PlayerService {
	const prepare = async (actor: Actor, leagueRef: string | undefined) => {
		const league = await leagues.resolve(actor, leagueRef);
		requireOrganizer(actor, league.config);
		return { league, state: await repo.loadState(league.id) };
	};
	const reload = async (league: LeagueInfo, id: string) => (await repo.loadState(league.id)).resolve(id)!;

	return {
		...createMergePreviews(repo, leagues, options),
		async link(actor, input) {
			const { league, state } = await prepare(actor, input.league);
			const player = findPlayer(state, input.player, actor, league.config.name);
			const user = input.user ?? actor.userId;
			const other = state.playerByUser(user);
			if (other !== undefined && other.id !== player.id) {
				throw refused(
					'bad-link',
					`That Discord user is already linked to **${escapeForDiscord(other.name)}**: unlink them first with ` +
						`/player unlink player:${escapeForDiscord(other.name)}.`,
				);
			}
			await refuse('bad-link', () =>
				repo.appendEvent(league.id, { type: 'player-linked', player: player.id, user, by: actor.userId }),
			);
			return { league, player: await reload(league, player.id) };
		},
		async unlink(actor, input) {
			const { league, state } = await prepare(actor, input.league);
			const player = findPlayer(state, input.player, actor, league.config.name);
			if (player.user === undefined) {
				throw refused('not-linked', `**${escapeForDiscord(player.name)}** is not linked to a Discord user.`);
			}
			await refuse('bad-link', () =>
				repo.appendEvent(league.id, { type: 'player-linked', player: player.id, user: null, by: actor.userId }),
			);
			return { league, player: await reload(league, player.id), unlinked: player.user };
		},
		async alias(actor, input) {
			const { league, state } = await prepare(actor, input.league);
			const player = findPlayer(state, input.player, actor, league.config.name);
			// The scoreboard's name rules and tidying, as for a rename.
			await refuse('bad-alias', () =>
				repo.appendEvent(league.id, {
					type: 'alias-added',
					player: player.id,
					alias: newName(input.alias, 'alias'),
					by: actor.userId,
				}),
			);
			return { league, player: await reload(league, player.id) };
		},
		async rename(actor, input) {
			const { league, state } = await prepare(actor, input.league);
			const player = findPlayer(state, input.player, actor, league.config.name);
			// The scoreboard's name rules, and its tidying (one space between words), for a name typed here too.
			await refuse('bad-rename', () =>
				repo.appendEvent(league.id, {
					type: 'player-renamed',
					player: player.id,
					name: newName(input.name, 'player name'),
					by: actor.userId,
				}),
			);
			return { league, player: await reload(league, player.id) };
		},
		async merge(actor, input) {
			const { league, state } = await prepare(actor, input.league);
			const from = findPlayer(state, input.from, actor, league.config.name);
			const into = findPlayer(state, input.into, actor, league.config.name);
			await refuse('bad-merge', () =>
				repo.appendEvent(league.id, { type: 'players-merged', from: from.id, into: into.id, by: actor.userId }),
			);
			return { league, player: await reload(league, into.id), from };
		},
	};
}
