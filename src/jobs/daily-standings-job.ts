/**
 * The daily standings job. It fires every 15 minutes (one minute past each quarter hour, UTC) so that
 * "just after midnight" holds in every time zone, including those offset by 30 or 45 minutes; each league's records
 * are written once its own calendar day has begun, and a run with nothing due writes nothing.
 */
import type { DailyStandingsService } from '../services/ratings/daily-standings.js';
import type { Job } from './job.js';

export const DAILY_STANDINGS_SCHEDULE = '1,16,31,46 * * * *';

/** `guildIds`: the servers the bot is in (the client's guild cache), whose leagues are visited too. */
export function createDailyStandingsJob(daily: DailyStandingsService, guildIds?: () => Iterable<string>): Job {
	return {
		name: 'daily-standings',
		schedule: DAILY_STANDINGS_SCHEDULE,
		timezone: 'UTC',
		async run(ctx) {
			const { leagues, written } = await daily.writeDue(ctx.now, guildIds?.());
			ctx.log.info({ leagues, written }, 'daily standings written');
		},
	};
}
