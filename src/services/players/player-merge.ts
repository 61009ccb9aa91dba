import { yieldToEventLoop } from '../../event-loop.js';
import type { LeagueLog, PlayerInfo } from '../../league/race-log.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refuse } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { findPlayer } from './players.js';
import {
	createWaitingItems,
	expiredPreview,
	findStoredPreview,
	PREVIEW_TTL_MS,
	storePreviewOnce,
} from '../races/previews.js';
import { effectToday, type RatingEffect } from '../races/rating-effect.js';

/**
 * `/player merge` previewed and confirmed as a race is (race-service.ts): a merge folds one player's races into
 * another's for good (there is no unmerge), so the organizer first sees both players, their races, and what the merge
 * does to today's ratings; it is stored only on Confirm within 15 minutes, by an organizer. The preview id goes into
 * the players-merged event and the log refuses it twice, so a Confirm pressed again (a retry, after a restart, in
 * another process) merges nothing twice and says where it went.
 */

/** One side of a merge as the organizer sees it. */
export interface MergeSide {
	readonly id: string;
	readonly name: string;
	readonly aliases: readonly string[];
	/** Confirmed races the player is in. */
	readonly races: number;
	/** The player's latest confirmed race (by the league's order). */
	readonly lastRace?: { readonly id: string; readonly date?: string | undefined } | undefined;
	/** Linked Discord user id. */
	readonly user?: string | undefined;
}

export interface MergePreview {
	readonly id: string;
	readonly league: LeagueInfo;
	readonly from: MergeSide;
	readonly into: MergeSide;
	/** Under the headline, today: the two players first (the one merged away has no rating after), then the others. */
	readonly effect: RatingEffect;
	readonly expiresAt: Date;
	readonly by: string;
}

/** A confirmed merge; `already`: by an earlier press of the same Confirm (here, before a restart, or elsewhere). */
export interface ConfirmedMerge {
	readonly already: boolean;
	readonly league: LeagueInfo;
	readonly from: string;
	readonly into: string;
}

export interface MergePreviews {
	previewMerge(actor: Actor, input: { league?: string | undefined; from: string; into: string }): Promise<MergePreview>;
	confirmMerge(actor: Actor, previewId: string): Promise<ConfirmedMerge>;
	cancelMerge(actor: Actor, previewId: string): Promise<MergePreview>;
}

export interface MergePreviewOptions {
	readonly clock: () => Date;
	readonly newId: () => string;
}

/** Both sides of a merge, in one pass over the league's races (15,000 of 20 racers: a few milliseconds). */
function sidesOf(state: LeagueLog, from: PlayerInfo, into: PlayerInfo): { from: MergeSide; into: MergeSide } {
	const counts = new Map([
		[from.id, { races: 0, lastRace: undefined as MergeSide['lastRace'] }],
		[into.id, { races: 0, lastRace: undefined as MergeSide['lastRace'] }],
	]);
	for (const race of state.races()) {
		if (race.status !== 'confirmed') continue;
		for (const entry of race.entries) {
			const count = counts.get(entry.player);
			if (count === undefined) continue;
			count.races++;
			count.lastRace = { id: race.id, date: race.date };
		}
	}
	const side = (player: PlayerInfo): MergeSide => {
		const { races, lastRace } = counts.get(player.id)!;
		return {
			id: player.id,
			name: player.name,
			aliases: player.aliases,
			races,
			...(lastRace !== undefined && { lastRace }),
			...(player.user !== undefined && { user: player.user }),
		};
	};
	return { from: side(from), into: side(into) };
}

export function createMergePreviews(
	repo: LeagueRepository,
	leagues: LeagueService,
	{ clock, newId }: MergePreviewOptions,
): MergePreviews {
	const pending = createWaitingItems(repo, clock, (preview: MergePreview) => preview);
	const expired = () => expiredPreview('nothing was merged', 'Run /player merge again.');

	/** Names as the log knows them now: the one merged away keeps its own (resolve would follow the merge). */
	const mergedNames = (state: LeagueLog, stored: { from: string; into: string }) => ({
		from: state.playerById(stored.from)?.name ?? stored.from,
		into: state.resolve(stored.into)?.name ?? stored.into,
	});

	return {
		async previewMerge(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			requireOrganizer(actor, league.config);
			const state = await repo.loadState(league.id);
			const from = findPlayer(state, input.from, actor, league.config.name);
			const into = findPlayer(state, input.into, actor, league.config.name);
			const event = { type: 'players-merged', from: from.id, into: into.id, by: actor.userId } as const;
			const at = clock().toISOString();
			await refuse('bad-merge', () => state.check({ ...event, at }));
			// The check walked every race; the sides take a turn of their own (a big league).
			await yieldToEventLoop();
			const sides = sidesOf(state, from, into);
			const effect = await refuse('bad-merge', () =>
				effectToday(repo, league, state, clock(), { ...event, at }, { focus: () => [from.id, into.id] }),
			);
			const preview: MergePreview = {
				id: newId(),
				league,
				...sides,
				effect,
				expiresAt: new Date(clock().getTime() + PREVIEW_TTL_MS),
				by: actor.userId,
			};
			pending.set(preview.id, preview);
			return preview;
		},
		async confirmMerge(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) {
				const found = await findStoredPreview(repo, leagues, actor, previewId, 'merged');
				if (found !== undefined)
					return { already: true, league: found.league, ...mergedNames(found.state, found.stored) };
				throw expired();
			}
			const { item: preview, league } = claimed;
			const event = {
				type: 'players-merged',
				from: preview.from.id,
				into: preview.into.id,
				preview: previewId,
				by: actor.userId,
			} as const;
			const done = await storePreviewOnce(repo, league, previewId, 'merged', 'bad-merge', () =>
				repo.appendEvent(league.id, event),
			);
			pending.delete(previewId);
			if ('already' in done) return { already: true, league, ...mergedNames(done.state, done.already) };
			return { already: false, league, from: preview.from.name, into: preview.into.name };
		},
		async cancelMerge(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) throw expired();
			pending.delete(previewId);
			return claimed.item;
		},
	};
}
