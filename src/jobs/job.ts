/**
 * A scheduled job (STYLE.md 21): a name, a cron schedule, and `run`. The scheduler (scheduler.ts) wraps every run in
 * try/catch with start and end logs; jobs call the same services as the commands. The clock is injected so tests
 * drive jobs with a fake clock.
 */
import type { Logger } from '../logger.js';

export interface JobContext {
	/** The scheduler's clock: the instant this run started. */
	readonly now: Date;
	/** Bound to the job (`{ job: name }`). */
	readonly log: Logger;
}

export interface Job {
	readonly name: string;
	/** A node-cron expression (5 or 6 fields), evaluated in `timezone` (default UTC). */
	readonly schedule: string;
	readonly timezone?: string | undefined;
	run(ctx: JobContext): Promise<void>;
}
