import type { LeagueConfig, RankingPostSettings } from './league-events.js';

/**
 * The monthly ranking post's settings as a league has them. A league that never set them posts on day 1
 * at 12:00 local time, as soon as it has a ranking channel; `enabled: false` turns the post off. Posting also needs a
 * ranking channel, so a league without one never posts, whatever `enabled` says.
 */

export const DEFAULT_RANKING_POST: RankingPostSettings = { day: 1, hour: 12, enabled: true };

/** The last day every month has: a post on day 29-31 would silently skip February. */
export const RANKING_POST_MAX_DAY = 28;

export interface ActiveRankingPost extends RankingPostSettings {
	/** The channel it goes to, when it is posted at all. */
	readonly channel: string | undefined;
	/** Enabled and a channel set: the job posts it. */
	readonly active: boolean;
}

export function rankingPostOf(config: LeagueConfig): ActiveRankingPost {
	const settings = config.rankingPost ?? DEFAULT_RANKING_POST;
	const channel = config.rankingChannel;
	return { ...settings, channel, active: settings.enabled && channel !== undefined };
}

/** Why `settings` is not a valid post setting, or undefined when it is (checkConfig and the league service use it). */
export function rankingPostProblem(settings: unknown): string | undefined {
	if (typeof settings !== 'object' || settings === null) return 'the ranking post settings must be an object';
	const { day, hour, enabled } = settings as Record<string, unknown>;
	if (typeof day !== 'number' || !Number.isInteger(day) || day < 1 || day > RANKING_POST_MAX_DAY) {
		return `the ranking post day must be a whole number from 1 to ${RANKING_POST_MAX_DAY} (every month has it), not ${String(day)}`;
	}
	if (typeof hour !== 'number' || !Number.isInteger(hour) || hour < 0 || hour > 23) {
		return `the ranking post hour must be a whole number from 0 to 23, not ${String(hour)}`;
	}
	if (typeof enabled !== 'boolean') return 'the ranking post must be on or off';
	return undefined;
}
