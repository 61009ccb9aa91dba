/**
 * The scheduler (src/jobs/scheduler.ts) under vitest's fake timers: node-cron arms setTimeouts and reads `new Date()`,
 * both faked, so advancing the fake clock fires the schedule.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job, JobContext } from '../../src/jobs/job.js';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/logger.js';

const MINUTE = 60_000;

interface Line {
	readonly level: number;
	readonly msg: string;
	readonly job?: string;
	readonly durationMs?: number;
	readonly err?: { message: string };
}

function collector() {
	const lines: Line[] = [];
	const log = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line) as Line) });
	return { log, lines, messages: (job: string) => lines.filter((l) => l.job === job).map((l) => l.msg) };
}

/** A job recording each run's `ctx.now`; `body` decides what a run does. */
function recordingJob(name: string, schedule: string, body: (n: number) => Promise<void> = () => Promise.resolve()) {
	const runs: Date[] = [];
	const job: Job = {
		name,
		schedule,
		async run(ctx: JobContext) {
			runs.push(ctx.now);
			await body(runs.length);
		},
	};
	return { job, runs };
}

let scheduler: Scheduler | undefined;

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(new Date('2026-11-30T10:07:30Z'));
});

afterEach(async () => {
	await scheduler?.stop();
	scheduler = undefined;
	vi.useRealTimers();
});

describe('scheduler', () => {
	it('fires a job on its schedule, with the clock as ctx.now, and logs start and end with the duration', async () => {
		const { log, lines, messages } = collector();
		const { job, runs } = recordingJob('tick', '*/15 * * * *');
		scheduler = createScheduler({ jobs: [job], log });
		scheduler.start();
		await vi.advanceTimersByTimeAsync(7 * MINUTE + 29_000); // 10:14:59
		expect(runs).toEqual([]);
		await vi.advanceTimersByTimeAsync(1000); // 10:15:00
		expect(runs.map((d) => d.toISOString())).toEqual(['2026-11-30T10:15:00.000Z']);
		await vi.advanceTimersByTimeAsync(30 * MINUTE); // 10:45
		expect(runs.map((d) => d.toISOString())).toEqual([
			'2026-11-30T10:15:00.000Z',
			'2026-11-30T10:30:00.000Z',
			'2026-11-30T10:45:00.000Z',
		]);
		expect(messages('tick').filter((m) => m.startsWith('job '))).toEqual([
			'job started',
			'job finished',
			'job started',
			'job finished',
			'job started',
			'job finished',
		]);
		const finished = lines.find((l) => l.msg === 'job finished');
		expect(finished?.level).toBe(30); // info
		expect(typeof finished?.durationMs).toBe('number');
	});

	it('an injected clock is what the job sees as ctx.now', async () => {
		const { log } = collector();
		const { job, runs } = recordingJob('clocked', '0 * * * *');
		const fixed = new Date('2030-01-01T00:00:00Z');
		scheduler = createScheduler({ jobs: [job], log, clock: () => fixed });
		scheduler.start();
		await vi.advanceTimersByTimeAsync(60 * MINUTE);
		expect(runs).toEqual([fixed]);
	});

	it('a failing run is logged at error with the job name, and the next run still happens', async () => {
		const { log, lines } = collector();
		const { job, runs } = recordingJob('flaky', '*/15 * * * *', (n) =>
			n === 1 ? Promise.reject(new Error('store unavailable')) : Promise.resolve(),
		);
		scheduler = createScheduler({ jobs: [job], log });
		scheduler.start();
		await vi.advanceTimersByTimeAsync(8 * MINUTE); // 10:15:30: first run fails
		const failure = lines.find((l) => l.msg === 'job failed');
		expect(failure).toMatchObject({ level: 50, job: 'flaky', err: { message: 'store unavailable' } });
		await vi.advanceTimersByTimeAsync(15 * MINUTE); // 10:30:30
		expect(runs).toHaveLength(2);
		expect(lines.filter((l) => l.msg === 'job finished' && l.job === 'flaky')).toHaveLength(1);
	});

	it('a synchronous throw is caught like a rejection', async () => {
		const { log, lines } = collector();
		const job: Job = {
			name: 'throws',
			schedule: '* * * * *',
			run: () => {
				throw new Error('boom');
			},
		};
		scheduler = createScheduler({ jobs: [job], log });
		await scheduler.runNow('throws');
		expect(lines.find((l) => l.msg === 'job failed')?.err?.message).toBe('boom');
	});

	it('never overlaps two runs of one job: a tick while a run is in flight is skipped and logged', async () => {
		const { log, lines, messages } = collector();
		let release: () => void = () => undefined;
		const { job, runs } = recordingJob('slow', '*/15 * * * *', (n) =>
			n === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve(),
		);
		scheduler = createScheduler({ jobs: [job], log });
		scheduler.start();
		await vi.advanceTimersByTimeAsync(8 * MINUTE); // 10:15: run 1 starts and hangs
		await vi.advanceTimersByTimeAsync(30 * MINUTE); // 10:30 and 10:45 ticks: skipped
		const joined = scheduler.runNow('slow'); // joins the run in flight instead of starting one
		expect(runs).toHaveLength(1);
		// The two ticks are refused by node-cron's noOverlap (its warning comes through our logger), runNow by ours.
		const warnings = lines.filter((l) => l.job === 'slow' && l.level === 40).map((l) => l.msg);
		expect(warnings).toEqual([
			'task still running, new execution blocked by overlap prevention!',
			'task still running, new execution blocked by overlap prevention!',
			'job skipped: the previous run is still running',
		]);
		release();
		await joined;
		await vi.advanceTimersByTimeAsync(15 * MINUTE); // 11:00: runs again
		expect(runs).toHaveLength(2);
		expect(messages('slow').filter((m) => m.startsWith('job started'))).toHaveLength(2);
	});

	it('stop() disarms every schedule and waits for the run in flight', async () => {
		const { log } = collector();
		let release: () => void = () => undefined;
		let finished = false;
		const { job, runs } = recordingJob('stoppable', '*/15 * * * *', async () => {
			await new Promise<void>((resolve) => (release = resolve));
			finished = true;
		});
		scheduler = createScheduler({ jobs: [job], log });
		scheduler.start();
		await vi.advanceTimersByTimeAsync(8 * MINUTE);
		expect(runs).toHaveLength(1);
		const stopped = scheduler.stop();
		release();
		await stopped;
		expect(finished).toBe(true);
		await vi.advanceTimersByTimeAsync(24 * 60 * MINUTE);
		expect(runs).toHaveLength(1);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('stop() waits for the leader lease renewal in flight: nothing is written after it returns', async () => {
		const { log } = collector();
		let release: () => void = () => undefined;
		const calls: string[] = [];
		const lease = {
			holder: 'me',
			periodMs: MINUTE,
			async isLeader() {
				calls.push('renewal started');
				await new Promise<void>((resolve) => (release = resolve));
				calls.push('renewal wrote');
				return true;
			},
		};
		scheduler = createScheduler({ jobs: [recordingJob('tick', '0 0 1 1 *').job], log, lease });
		scheduler.start(); // renews at once, as the bot does when it connects
		const stopped = scheduler.stop().then(() => calls.push('stopped'));
		await vi.advanceTimersByTimeAsync(10);
		expect(calls).toEqual(['renewal started']);
		release();
		await stopped;
		expect(calls).toEqual(['renewal started', 'renewal wrote', 'stopped']);
	});

	it('after a suspend, the slots slept through are warned about once and the schedule goes on', async () => {
		const { log, lines } = collector();
		const { job, runs } = recordingJob('sleeper', '*/15 * * * *');
		scheduler = createScheduler({ jobs: [job], log });
		scheduler.start();
		vi.setSystemTime(new Date('2026-11-30T16:07:30Z')); // the machine slept six hours
		await vi.advanceTimersByTimeAsync(8 * MINUTE); // 16:15:30
		const missed = lines.filter((l) => l.job === 'sleeper' && l.msg.startsWith('scheduled run missed'));
		expect(missed.filter((l) => l.level === 40)).toHaveLength(1);
		expect(missed.length).toBeGreaterThanOrEqual(24); // 10:15 … 16:00
		expect(runs.map((d) => d.toISOString())).toEqual(['2026-11-30T16:15:00.000Z']);
	});

	it('schedules in the job time zone (default UTC)', async () => {
		const { log } = collector();
		const budapest = recordingJob('budapest-midnight', '5 0 * * *');
		const utc = recordingJob('utc-midnight', '5 0 * * *');
		scheduler = createScheduler({ jobs: [{ ...budapest.job, timezone: 'Europe/Budapest' }, utc.job], log });
		scheduler.start();
		await vi.advanceTimersByTimeAsync(26 * 60 * MINUTE); // to 2026-12-01 12:07:30Z
		// 00:05 in Budapest (UTC+1 in winter) is 23:05 UTC the day before.
		expect(budapest.runs.map((d) => d.toISOString())).toEqual(['2026-11-30T23:05:00.000Z']);
		expect(utc.runs.map((d) => d.toISOString())).toEqual(['2026-12-01T00:05:00.000Z']);
	});

	it('refuses two jobs with one name, a bad cron expression and an unknown job in runNow', async () => {
		const { log } = collector();
		const a = recordingJob('a', '* * * * *').job;
		expect(() => createScheduler({ jobs: [a, a], log })).toThrow('two jobs are named "a"');
		expect(() => createScheduler({ jobs: [{ ...a, schedule: 'every day' }], log })).toThrow(
			'job "a": "every day" is not a cron expression',
		);
		await expect(createScheduler({ jobs: [a], log }).runNow('b')).rejects.toThrow('no job named "b"');
	});
});
