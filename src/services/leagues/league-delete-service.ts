import { nameKey } from '../../league/race-log-checks.js';
import { LeagueError } from '../../league/race-log.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { listWithMore } from '../../formats/clip-text.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireGuild, requireOrganizer, type Actor } from '../actor.js';
import { refused } from '../errors.js';
import type { LeagueService } from './league-service.js';
import type { LeagueExportFiles, LeagueTransferService } from '../transfer/league-transfer-service.js';
import { createWaitingItems, expiredPreview, newPreviewId, PREVIEW_TTL_MS } from '../races/previews.js';

/**
 * `/league delete` and `/league undelete`. A delete is previewed with the league's export attached (the organizer keeps
 * the whole history whatever happens next) and stored as one config change that hides the league (LeagueConfig
 * `deleted`): every list, command, page, job and the inbox stop seeing it, and its log refuses every other change
 * (race-log.ts). Nothing of the log is erased, so `/league undelete` brings it back exactly as it was. Only members
 * with Manage Server may do either, as only they may create a league.
 */

export interface LeagueDeletePreview {
	readonly id: string;
	readonly league: LeagueInfo;
	readonly export: LeagueExportFiles;
	readonly players: number;
	readonly expiresAt: Date;
}

export interface LeagueDeleteResult {
	readonly league: LeagueInfo;
	/** The league was already deleted (a Confirm pressed twice): nothing was stored again. */
	readonly already: boolean;
}

export interface LeagueDeleteService {
	preview(actor: Actor, league: string | undefined): Promise<LeagueDeletePreview>;
	confirm(actor: Actor, id: string): Promise<LeagueDeleteResult>;
	cancel(actor: Actor, id: string): Promise<void>;
	undelete(actor: Actor, name: string): Promise<LeagueInfo>;
}

/** Manage Server only: an organizer role may run a league but not remove it (as for /league create). */
const requireManageServer = (actor: Actor) => requireOrganizer({ ...actor, roles: [] }, undefined);

export function createLeagueDeleteService(
	repo: LeagueRepository,
	leagues: LeagueService,
	transfer: LeagueTransferService,
	{ clock, newId = newPreviewId }: { readonly clock: () => Date; readonly newId?: (() => string) | undefined },
): LeagueDeleteService {
	const waiting = createWaitingItems<LeagueDeletePreview>(repo, clock, (p) => p);
	const notDone = 'the league was not deleted';

	return {
		async preview(actor, leagueRef) {
			requireManageServer(actor);
			const league = await leagues.resolve(actor, leagueRef);
			const exported = await transfer.exportFiles(actor, league.id);
			const state = await repo.loadState(league.id);
			const preview: LeagueDeletePreview = {
				id: newId(),
				league,
				export: exported,
				players: state.players().length,
				expiresAt: new Date(clock().getTime() + PREVIEW_TTL_MS),
			};
			waiting.set(preview.id, preview);
			return preview;
		},

		async confirm(actor, id) {
			requireManageServer(actor);
			const claimed = await waiting.claim(actor, id);
			if (claimed === undefined) throw expiredPreview(notDone, 'Run /league delete again.');
			const { league } = claimed;
			if (league.config.deleted !== undefined) return { league, already: true };
			const deleted = { at: clock().toISOString(), by: actor.userId };
			try {
				await repo.appendEvent(league.id, {
					type: 'league-configured',
					config: { ...league.config, deleted },
					by: actor.userId,
				});
			} catch (error) {
				// Another press (or process) deleted it first: the log refuses the second, and that is the answer.
				const now = await repo.getLeague(league.id);
				if (error instanceof LeagueError && now?.config.deleted !== undefined) return { league: now, already: true };
				throw error;
			} finally {
				waiting.delete(id);
			}
			return { league: (await repo.getLeague(league.id)) ?? league, already: false };
		},

		async cancel(actor, id) {
			requireManageServer(actor);
			if ((await waiting.claim(actor, id)) === undefined) throw expiredPreview(notDone, 'Nothing to cancel.');
			waiting.delete(id);
		},

		async undelete(actor, name) {
			const guildId = requireGuild(actor);
			requireManageServer(actor);
			const deleted = await repo.listLeagues(guildId, { deleted: true });
			const key = nameKey(name);
			const found = deleted.find((l) => nameKey(l.config.name) === key || l.id === name.trim());
			if (found === undefined) {
				throw refused(
					'unknown-league',
					deleted.length === 0
						? 'This server has no deleted league.'
						: `There is no deleted league "${escapeForDiscord(name)}" in this server. Deleted: ${listWithMore(deleted.map((l) => `**${escapeForDiscord(l.config.name)}**`))}.`,
				);
			}
			const clash = (await repo.listLeagues(guildId)).find((l) => nameKey(l.config.name) === key);
			if (clash !== undefined) {
				throw refused(
					'name-taken',
					`Another league is named **${escapeForDiscord(clash.config.name)}** now: rename it with /league rename first, then undelete.`,
				);
			}
			const config = { ...found.config, deleted: undefined };
			await repo.appendEvent(found.id, { type: 'league-configured', config, by: actor.userId });
			return (await repo.getLeague(found.id)) ?? found;
		},
	};
}
