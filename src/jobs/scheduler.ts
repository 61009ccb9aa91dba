/**
 * The job scheduler (STYLE.md 21): one node-cron task per job, every run wrapped so that it logs its
 * start and its end (with the duration) at info with `{ job: name }`, catches and logs every error (a job never
 * crashes the process and never leaves an unhandled rejection), and never overlaps a run of the same job still in
 * flight. The clock is injected and handed to each run as `ctx.now`, so tests drive jobs with a fake clock;
 * node-cron arms plain setTimeouts, so vitest's fake timers drive the schedule too.
 */
import { performance } from 'node:perf_hooks';
import { createTask, validate, type ScheduledTask } from 'node-cron';
import type { Logger } from '../logger.js';
import type { Job } from './job.js';
import type { LeaderLease } from './leader-lease.js';

/** How late a tick may fire and still run (a blocked event loop, a slow start). */
export const MISSED_TOLERANCE_MS = 5 * 60_000;

export interface SchedulerOptions {
	readonly jobs: readonly Job[];
	readonly log: Logger;
	/** The instant a run starts (default: the system clock). */
	readonly clock?: () => Date;
	/**
	 * Shared stores: runs only while this process holds the lease (leader-lease.ts), renewed three times a period.
	 * Without it every process runs every job (one process per store).
	 */
	readonly lease?: LeaderLease | undefined;
}

export interface Scheduler {
	/** Arms every job's schedule (again after `stop`). */
	start(): void;
	/** Disarms every schedule and waits for runs in flight to finish (shutdown, tests). */
	stop(): Promise<void>;
	/** Runs one job now, outside its schedule; joins the run in flight instead of starting a second one. */
	runNow(name: string): Promise<void>;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
	const { jobs, log, clock = () => new Date(), lease } = options;
	const byName = new Map<string, Job>();
	for (const job of jobs) {
		if (byName.has(job.name)) throw new Error(`two jobs are named "${job.name}"`);
		if (!validate(job.schedule)) throw new Error(`job "${job.name}": "${job.schedule}" is not a cron expression`);
		byName.set(job.name, job);
	}
	const running = new Map<string, Promise<void>>();
	let tasks: ScheduledTask[] = [];
	let renewal: NodeJS.Timeout | undefined;
	/** The renewal in flight: `stop` waits for it, or it would write to a store that closes after the scheduler. */
	let renewing: Promise<void> | undefined;
	const renew = () =>
		(renewing = lease?.isLeader(clock()).then(
			() => {},
			(error: unknown) => log.warn({ err: error }, 'could not renew the leader lease'),
		));

	const run = (job: Job, trigger: 'schedule' | 'manual'): Promise<void> => {
		const jobLog = log.child({ job: job.name });
		const inFlight = running.get(job.name);
		if (inFlight !== undefined) {
			jobLog.warn({ trigger }, 'job skipped: the previous run is still running');
			return inFlight;
		}
		const now = clock();
		const started = performance.now();
		const durationMs = () => Math.round(performance.now() - started);
		const done = (async () => {
			try {
				if (lease !== undefined && !(await lease.isLeader(now))) {
					jobLog.debug({ trigger }, 'job skipped: another process holds the leader lease');
					return;
				}
				jobLog.info({ trigger, now: now.toISOString() }, 'job started');
				await job.run({ now, log: jobLog });
				jobLog.info({ durationMs: durationMs() }, 'job finished');
			} catch (error) {
				jobLog.error({ err: error, durationMs: durationMs() }, 'job failed');
			} finally {
				running.delete(job.name);
			}
		})();
		running.set(job.name, done);
		return done;
	};

	return {
		start() {
			if (tasks.length > 0) return;
			if (lease !== undefined) {
				void renew();
				renewal = setInterval(() => void renew(), lease.periodMs / 3);
				renewal.unref();
			}
			tasks = jobs.map((job) => {
				const cronLog = log.child({ job: job.name, source: 'node-cron' });
				const task = createTask(job.schedule, () => run(job, 'schedule'), {
					name: job.name,
					timezone: job.timezone ?? 'UTC',
					noOverlap: true,
					// node-cron skips a tick whose timer fired more than this late (default 1 s: a busy event loop would
					// drop a daily run for a whole day).
					missedExecutionTolerance: MISSED_TOLERANCE_MS,
					// After a suspend node-cron reports every slot it slept through: warn once, the rest at debug.
					suppressMissedWarning: true,
					logger: {
						info: (message) => cronLog.debug(message),
						warn: (message) => cronLog.warn(message),
						error: (message, err) => cronLog.error({ err: err ?? message }, 'node-cron error'),
						debug: (message) => cronLog.debug(String(message)),
					},
				});
				let missed = 0;
				task.on('execution:missed', (context) => {
					const at = { slot: context.date.toISOString() };
					if (missed++ === 0) cronLog.warn(at, 'scheduled run missed (the process was suspended or blocked)');
					else cronLog.debug(at, 'scheduled run missed');
				});
				task.on('execution:started', () => void (missed = 0));
				void task.start();
				return task;
			});
			log.info(
				{ jobs: jobs.map((job) => `${job.name} (${job.schedule} ${job.timezone ?? 'UTC'})`) },
				'scheduler started',
			);
		},
		async stop() {
			const stopping = tasks;
			tasks = [];
			clearInterval(renewal);
			renewal = undefined;
			for (const task of stopping) await task.destroy();
			await Promise.all([...running.values(), renewing]);
			if (stopping.length > 0) log.info({}, 'scheduler stopped');
		},
		runNow(name) {
			const job = byName.get(name);
			if (job === undefined) return Promise.reject(new Error(`no job named "${name}"`));
			return run(job, 'manual');
		},
	};
}
