/**
 * The daily standings job (issue 7 §2). It fires every 15 minutes (one minute past each quarter hour, UTC) so that
 * "just after midnight" holds in every time zone, including those offset by 30 or 45 minutes; each league's records
 * are written once its own calendar day has begun, and a run with nothing due writes nothing.
 */
import type { DailyStandingsService } from '../services/daily-standings.js';
import type { Job } from './job.js';

export const DAILY_STANDINGS_SCHEDULE = '1,16,31,46 * * * *';

export function createDailyStandingsJob(daily: DailyStandingsService): Job {
	return {
		name: 'daily-standings',
		schedule: DAILY_STANDINGS_SCHEDULE,
		timezone: 'UTC',
		async run(ctx) {
			const { leagues, written } = await daily.writeDue(ctx.now);
			ctx.log.info({ leagues, written }, 'daily standings written');
		},
	};
}
