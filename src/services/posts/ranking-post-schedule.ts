import type { RankingPostSettings } from '../../league/league-events.js';
import { localTime, zonedInstant } from '../leagues/zoned-time.js';

/**
 * When a league's monthly ranking post is due. The post of month M is scheduled at day d, hour h of M,
 * local time in the league's zone (zoned-time.ts decides DST days: a repeated hour is its first occurrence, a skipped
 * hour is moved forward by the jump, so 02:00 on the spring-forward day is the instant the clocks show 03:00). It is
 * due from that instant until the end of M, local time: a bot that was down at the hour posts when it is back, within
 * the month. A post made an hour or more after its scheduled instant is `late` (the post says so); the job runs every
 * 15 minutes, so a post on time goes out within the hour even after a restart in the middle of it.
 */

export interface DuePost {
	/** The month of posting, `YYYY-MM`. */
	readonly month: string;
	readonly scheduledAt: Date;
	readonly late: boolean;
}

/** A post is late from an hour after its scheduled instant. */
export const LATE_AFTER_MS = 60 * 60 * 1000;

type Schedule = Pick<RankingPostSettings, 'day' | 'hour'>;

const monthText = (year: number, month: number): string => `${year}-${String(month).padStart(2, '0')}`;

/** The instant of month `year-month`'s post. */
export function scheduledPostAt(year: number, month: number, schedule: Schedule, timeZone: string): Date {
	return zonedInstant({ year, month, day: schedule.day, hour: schedule.hour }, timeZone);
}

/** The post due at `now`, or undefined when this month's post is not yet due. */
export function duePost(now: Date, schedule: Schedule, timeZone: string): DuePost | undefined {
	const local = localTime(now, timeZone);
	const scheduledAt = scheduledPostAt(local.year, local.month, schedule, timeZone);
	if (now.getTime() < scheduledAt.getTime()) return undefined;
	return {
		month: monthText(local.year, local.month),
		scheduledAt,
		late: now.getTime() - scheduledAt.getTime() >= LATE_AFTER_MS,
	};
}

/** The next scheduled post strictly after `now` (this month's, or next month's when this month's is past). */
export function nextPost(now: Date, schedule: Schedule, timeZone: string): { month: string; at: Date } {
	const local = localTime(now, timeZone);
	const thisMonth = scheduledPostAt(local.year, local.month, schedule, timeZone);
	if (now.getTime() < thisMonth.getTime()) return { month: monthText(local.year, local.month), at: thisMonth };
	const [year, month] = local.month === 12 ? [local.year + 1, 1] : [local.year, local.month + 1];
	return { month: monthText(year, month), at: scheduledPostAt(year, month, schedule, timeZone) };
}

/** The idempotency key of a league's post of `month` in the store's `jobs` namespace (docs/scheduler.md). */
export const rankingPostKey = (leagueId: string, month: string): string => `post:${leagueId}:${month}`;
