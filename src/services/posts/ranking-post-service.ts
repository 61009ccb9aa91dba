import { rankingPostOf, type ActiveRankingPost } from '../../league/ranking-post.js';
import type { KeyValueNamespace, LeagueInfo } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import type { ChannelMessage, MonthlyPostComposer } from './monthly-post-port.js';
import { duePost, nextPost, rankingPostKey } from './ranking-post-schedule.js';
import { formatLocal } from '../leagues/zoned-time.js';

/** `/league preview-post`: the league's next monthly ranking post, composed now, for an organizer. */

export interface PostPreview {
	readonly info: LeagueInfo;
	readonly post: ActiveRankingPost;
	/** `YYYY-MM`: the month of the post previewed. */
	readonly month: string;
	readonly late: boolean;
	/** When it is (or was) scheduled, and that instant on the league's wall clock. */
	readonly scheduledAt: Date;
	readonly local: string;
	readonly message: ChannelMessage;
}

export interface RankingPostService {
	preview(actor: Actor, league: string | undefined): Promise<PostPreview>;
}

export interface RankingPostServiceDeps {
	readonly leagues: Pick<LeagueService, 'resolve'>;
	/** Absent until the ranking composer is wired in (src/jobs/index.ts): the preview then says so. */
	readonly composer?: MonthlyPostComposer | undefined;
	/** The store's `jobs` namespace: tells whether this month's post already went out. */
	readonly jobs?: KeyValueNamespace | undefined;
	readonly clock?: () => Date;
}

export function createRankingPostService(deps: RankingPostServiceDeps): RankingPostService {
	const { clock = () => new Date() } = deps;
	return {
		async preview(actor, league) {
			const info = await deps.leagues.resolve(actor, league);
			requireOrganizer(actor, info.config);
			if (deps.composer === undefined) {
				throw refused('no-composer', 'The monthly ranking post cannot be composed in this mode of the bot.');
			}
			const now = clock();
			const post = rankingPostOf(info.config);
			const timezone = info.config.timezone;
			// This month's post when it is due and has not gone out yet (a late post), else the next scheduled one. A post
			// that is off (or has no channel) is never due: the preview is the next one it would make once switched on.
			const due = post.active ? duePost(now, post, timezone) : undefined;
			const record =
				due && ((await deps.jobs?.get(rankingPostKey(info.id, due.month))) as { state?: string } | undefined);
			const next =
				due !== undefined && record?.state !== 'posted' ? due : { ...nextPost(now, post, timezone), late: false };
			const scheduledAt = 'scheduledAt' in next ? next.scheduledAt : next.at;
			const message = await deps.composer.compose(info.id, next.month, { late: next.late, now });
			if (message === undefined) {
				throw refused(
					'nothing-to-post',
					'There is nothing to rank yet: the monthly post starts once a race is stored (a month without any rated player is skipped).',
				);
			}
			return {
				info,
				post,
				month: next.month,
				late: next.late,
				scheduledAt,
				local: formatLocal(scheduledAt, timezone),
				message,
			};
		},
	};
}
