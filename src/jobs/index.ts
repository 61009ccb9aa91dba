/**
 * Every scheduled job, built in one place from the services and adapters (STYLE.md 21). src/index.ts (bot mode)
 * hands the list to the scheduler once the client is ready; tests build the same list over a memory store.
 */
import type { Logger } from '../logger.js';
import type { Services } from '../services/index.js';
import type { ChannelPoster, MonthlyPostComposer } from '../services/posts/monthly-post-port.js';
import type { NoticeService } from '../services/posts/notices.js';
import type { KeyValueNamespace } from '../storage/ports.js';
import type { Job } from './job.js';
import { createDailyStandingsJob } from './daily-standings-job.js';
import { createMonthlyPostJob } from './monthly-post-job.js';
import { createRankRolesJob } from './rank-roles-job.js';

export interface JobDeps {
	readonly services: Services;
	/** The store's `jobs` namespace (idempotency keys, notices). */
	readonly jobs: KeyValueNamespace;
	readonly poster: ChannelPoster;
	/** The ranking post's composer (default: the services' own, ranking-composer.ts). */
	readonly composer?: MonthlyPostComposer | undefined;
	readonly notices: NoticeService;
	/** The servers the bot is in. */
	readonly guildIds: () => Iterable<string>;
	readonly log: Logger;
	/** Timestamps of job records (default: the system clock). */
	readonly clock?: () => Date;
}

export function createJobs(deps: JobDeps): Job[] {
	return [
		createDailyStandingsJob(deps.services.daily, deps.guildIds),
		createRankRolesJob(deps.services.roleSync),
		createMonthlyPostJob({
			leagues: deps.services.leagues,
			guildIds: deps.guildIds,
			store: deps.jobs,
			composer: deps.composer ?? deps.services.composer,
			poster: deps.poster,
			notices: deps.notices,
			clock: deps.clock,
		}),
	];
}
