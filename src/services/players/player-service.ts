import { newName } from '../../league/race-log-checks.js';
import type { LeagueEventInput } from '../../league/league-events.js';
import type { PlayerInfo } from '../../league/race-log.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { refuse, refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { createMergePreviews, type MergePreviewOptions, type MergePreviews } from './player-merge.js';
import { findPlayer } from './players.js';
import { newPreviewId } from '../races/previews.js';

/** `/player link|unlink|alias|rename|simid|merge` (organizers): one event each, validated by the league log. */

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
	/**
	 * The sims' ids of the player (`simId` undefined: only shown), or one given (`steam:…`, `iracing:…`; a bare
	 * 17-digit number is a Steam id) or taken back (`remove`).
	 */
	simId(
		actor: Actor,
		input: { league?: string | undefined; player: string; simId?: string | undefined; remove?: boolean | undefined },
	): Promise<PlayerChange>;
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
	/** The league (organizers only), its state and the player named there. */
	const playerIn = async (actor: Actor, input: { league?: string | undefined; player: string }) => {
		const { league, state } = await prepare(actor, input.league);
		return { league, state, player: findPlayer(state, input.player, actor, league.config.name) };
	};
	/**
	 * One event about `player`, built inside the refusal so that a name the rules refuse is refused with `code` too;
	 * the player as the log knows them after it.
	 */
	const record = async (league: LeagueInfo, player: string, code: string, event: () => LeagueEventInput) => {
		await refuse(code, () => repo.appendEvent(league.id, event()));
		return { league, player: await reload(league, player) };
	};

	return {
		...createMergePreviews(repo, leagues, options),
		async link(actor, input) {
			const { league, state, player } = await playerIn(actor, input);
			const user = input.user ?? actor.userId;
			const other = state.playerByUser(user);
			if (other !== undefined && other.id !== player.id) {
				throw refused(
					'bad-link',
					`That Discord user is already linked to **${escapeForDiscord(other.name)}**: unlink them first with ` +
						`/player unlink player:${escapeForDiscord(other.name)}.`,
				);
			}
			// A link is replaced only on purpose: an organizer who meant another player (or user) reads the current link.
			const name = escapeForDiscord(player.name);
			if (player.user === user) {
				throw refused('already-linked', `**${name}** is already linked to <@${user}>: nothing was changed.`);
			}
			if (player.user !== undefined) {
				throw refused(
					'bad-link',
					`**${name}** is already linked to <@${player.user}>: unlink them first with /player unlink player:${name}, ` +
						'then link again. Nothing was changed.',
				);
			}
			return record(league, player.id, 'bad-link', () => ({
				type: 'player-linked',
				player: player.id,
				user,
				by: actor.userId,
			}));
		},
		async unlink(actor, input) {
			const { league, player } = await playerIn(actor, input);
			const user = player.user;
			if (user === undefined) {
				throw refused('not-linked', `**${escapeForDiscord(player.name)}** is not linked to a Discord user.`);
			}
			const done = await record(league, player.id, 'bad-link', () => ({
				type: 'player-linked',
				player: player.id,
				user: null,
				by: actor.userId,
			}));
			return { ...done, unlinked: user };
		},
		async alias(actor, input) {
			const { league, player } = await playerIn(actor, input);
			// The scoreboard's name rules and tidying, as for a rename.
			return record(league, player.id, 'bad-alias', () => ({
				type: 'alias-added',
				player: player.id,
				alias: newName(input.alias, 'alias'),
				by: actor.userId,
			}));
		},
		async simId(actor, input) {
			const { league, player } = await playerIn(actor, input);
			if (input.simId === undefined) return { league, player };
			const typed = input.simId.trim();
			const simId = /^\d{17}$/u.test(typed) ? `steam:${typed}` : typed.toLowerCase().replace(/^(\w+):\s*/u, '$1:');
			return record(league, player.id, 'bad-sim-id', () => ({
				type: 'sim-id-set',
				player: player.id,
				simId,
				...(input.remove === true && { remove: true }),
				by: actor.userId,
			}));
		},
		async rename(actor, input) {
			const { league, player } = await playerIn(actor, input);
			// The scoreboard's name rules, and its tidying (one space between words), for a name typed here too.
			return record(league, player.id, 'bad-rename', () => ({
				type: 'player-renamed',
				player: player.id,
				name: newName(input.name, 'player name'),
				by: actor.userId,
			}));
		},
		async merge(actor, input) {
			const { league, state } = await prepare(actor, input.league);
			const from = findPlayer(state, input.from, actor, league.config.name);
			const into = findPlayer(state, input.into, actor, league.config.name);
			const done = await record(league, into.id, 'bad-merge', () => ({
				type: 'players-merged',
				from: from.id,
				into: into.id,
				by: actor.userId,
			}));
			return { ...done, from };
		},
	};
}
