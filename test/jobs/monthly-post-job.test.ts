/**
 * The monthly ranking post job (src/jobs/monthly-post-job.ts) over the real league services and a memory store, with
 * a fake clock (vitest fake timers drive both node-cron and `new Date()`), a composer double returning a PNG, and an
 * in-memory channel that records every post. "Exactly once" is checked by counting the channel's messages.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../src/jobs/job.js';
import { createMonthlyPostJob } from '../../src/jobs/monthly-post-job.js';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createNoticeService, type NoticeService } from '../../src/services/posts/notices.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { KeyValueNamespace, Store } from '../../src/storage/ports.js';
import { GUILD, member, organizer } from '../services/helpers.js';
import { memoryPoster, PNG_SIGNATURE, testComposer, type MemoryPoster } from './helpers.js';

const CHANNEL = '600000000000000001';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

interface Line {
	readonly level: number;
	readonly msg: string;
	readonly [key: string]: unknown;
}

interface World {
	readonly store: Store;
	readonly jobs: KeyValueNamespace;
	readonly services: Services;
	readonly notices: NoticeService;
	readonly poster: MemoryPoster;
	readonly composer: ReturnType<typeof testComposer>;
	readonly log: Logger;
	readonly lines: Line[];
	leagueId: string;
	/** A fresh job over the same store: what a restarted (or a second) bot process runs. */
	job(jobs?: KeyValueNamespace): Job;
	posts(): ReturnType<MemoryPoster['messagesIn']>;
}

async function world(timezone: string, post: { postDay?: number; postHour?: number } = {}): Promise<World> {
	const store = createMemoryStore();
	const repo = createLeagueRepository(store);
	const services = createServices(repo);
	const jobs = store.namespace('jobs');
	const notices = createNoticeService({ store: jobs, getLeague: (id) => repo.getLeague(id) });
	const lines: Line[] = [];
	const log = createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line) as Line) });
	const poster = memoryPoster();
	const composer = testComposer();
	const league = await services.leagues.create(organizer, { name: 'Sunday Cup', timezone, rankingChannel: CHANNEL });
	if (post.postDay !== undefined || post.postHour !== undefined) {
		await services.leagues.configure(organizer, undefined, post);
	}
	const w: World = {
		store,
		jobs,
		services,
		notices,
		poster,
		composer,
		log,
		lines,
		leagueId: league.id,
		job: (namespace = jobs) =>
			createMonthlyPostJob({
				leagues: services.leagues,
				guildIds: () => [GUILD],
				store: namespace,
				composer,
				poster,
				notices,
			}),
		posts: () => poster.messagesIn(CHANNEL),
	};
	return w;
}

/** Runs a job once now, as the scheduler would. */
const runOnce = (w: World, job: Job = w.job()) => job.run({ now: new Date(), log: w.log });

/** A namespace that stops writing once killed: the process died there. */
function mortal(inner: KeyValueNamespace): KeyValueNamespace & { killed: boolean } {
	const dead = () => Promise.reject(new Error('process killed'));
	const ns = {
		killed: false,
		get: (key: string) => inner.get(key),
		getMany: (keys: readonly string[]) => inner.getMany(keys),
		set: (key: string, value: unknown) => (ns.killed ? dead() : inner.set(key, value)),
		add: (key: string, value: unknown) => (ns.killed ? dead() : inner.add(key, value)),
		delete: (key: string) => (ns.killed ? dead() : inner.delete(key)),
	};
	return ns;
}

let schedulers: Scheduler[] = [];

function schedule(w: World, job = w.job()): Scheduler {
	const scheduler = createScheduler({ jobs: [job], log: w.log });
	schedulers.push(scheduler);
	scheduler.start();
	return scheduler;
}

/** Stops the schedulers, then sets the clock: a new scene, not a process that slept through months. */
async function newScene(iso: string): Promise<void> {
	for (const scheduler of schedulers) await scheduler.stop();
	schedulers = [];
	vi.setSystemTime(new Date(iso));
}

/** Advances the fake clock to `iso` (by hours, so the log of runs stays small per step). */
async function advanceTo(iso: string): Promise<void> {
	const target = Date.parse(iso);
	while (Date.now() < target) await vi.advanceTimersByTimeAsync(Math.min(6 * HOUR, target - Date.now()));
}

beforeEach(() => {
	vi.useFakeTimers();
});

afterEach(async () => {
	for (const scheduler of schedulers) await scheduler.stop();
	schedulers = [];
	vi.useRealTimers();
});

describe('monthly post job: schedule', () => {
	it('posts exactly once per month across two months, at the local hour, each with its PNG', async () => {
		vi.setSystemTime(new Date('2026-11-30T23:01:00Z')); // 2026-12-01 00:01 in Budapest
		const w = await world('Europe/Budapest'); // default: day 1 at 12:00
		schedule(w);
		await advanceTo('2027-01-31T00:00:00Z');
		const posts = w.posts();
		expect(posts).toHaveLength(2);
		expect(w.composer.calls.map((c) => [c.month, c.now.toISOString(), c.late])).toEqual([
			['2026-12', '2026-12-01T11:00:00.000Z', false], // 12:00 CET
			['2027-01', '2027-01-01T11:00:00.000Z', false],
		]);
		for (const [i, post] of posts.entries()) {
			const month = ['2026-12', '2027-01'][i]!;
			expect(post.content).toContain(`Ranking ${month}`);
			expect(post.content).toContain(`-# pitwall ranking ${w.leagueId} ${month}`);
			expect(post.content.length).toBeLessThanOrEqual(2000);
			expect(post.files).toHaveLength(1);
			expect(post.files?.[0]?.data.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		}
		expect(posts[0]!.nonce).not.toBe(posts[1]!.nonce);
		expect(posts[0]!.nonce.length).toBeLessThanOrEqual(25);
		expect(await w.jobs.get(`post:${w.leagueId}:2026-12`)).toMatchObject({
			v: 1,
			state: 'posted',
			attempt: 1,
			messageId: posts[0]!.id,
		});
	});

	it('a restart in the middle of the posting hour does not post again', async () => {
		vi.setSystemTime(new Date('2026-12-01T10:50:00Z'));
		const w = await world('Europe/Budapest');
		const first = schedule(w);
		await advanceTo('2026-12-01T11:20:00Z');
		expect(w.posts()).toHaveLength(1);
		await first.stop();
		schedule(w); // the restarted process: a new job and scheduler over the same store
		await advanceTo('2026-12-02T00:00:00Z');
		expect(w.posts()).toHaveLength(1);
		expect(w.composer.calls).toHaveLength(1);
	});

	it('a bot down at the hour posts when it is back: on time within the hour, late after it', async () => {
		vi.setSystemTime(new Date('2026-12-01T11:20:00Z'));
		const onTime = await world('Europe/Budapest');
		schedule(onTime);
		await advanceTo('2026-12-01T11:31:00Z');
		expect(onTime.composer.calls.map((c) => [c.now.toISOString(), c.late])).toEqual([
			['2026-12-01T11:30:00.000Z', false],
		]);

		await newScene('2026-12-03T08:05:00Z');
		const late = await world('Europe/Budapest');
		schedule(late);
		await advanceTo('2026-12-04T00:00:00Z');
		expect(late.composer.calls.map((c) => [c.now.toISOString(), c.late])).toEqual([['2026-12-03T08:15:00.000Z', true]]);
		expect(late.posts()[0]?.content).toContain('posted late');
	});

	it('DST in Europe/Budapest: the post follows local time across the change; an hour that occurs twice posts once', async () => {
		// Day 1 at 12:00: 11:00Z in March (CET), 10:00Z in April (CEST, from 2026-03-29). (A post day is at most 28, so
		// Budapest's 2026 spring-forward day, the 29th, cannot be a post day; the skipped hour is tested in New York.)
		vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
		const spring = await world('Europe/Budapest');
		schedule(spring);
		await advanceTo('2026-04-02T00:00:00Z');
		expect(spring.composer.calls.map((c) => [c.month, c.now.toISOString()])).toEqual([
			['2026-03', '2026-03-01T11:00:00.000Z'],
			['2026-04', '2026-04-01T10:00:00.000Z'],
		]);
		expect(spring.posts()).toHaveLength(2);

		await newScene('2026-10-24T22:00:00Z');
		const autumn = await world('Europe/Budapest', { postDay: 25, postHour: 2 });
		schedule(autumn);
		await advanceTo('2026-10-25T06:00:00Z');
		// 02:00 CEST (00:00Z); the second 02:00 (CET, 01:00Z) finds it posted.
		expect(autumn.composer.calls.map((c) => [c.now.toISOString(), c.late])).toEqual([
			['2026-10-25T00:00:00.000Z', false],
		]);
		expect(autumn.posts()).toHaveLength(1);
	});

	it('DST in America/New_York', async () => {
		vi.setSystemTime(new Date('2026-03-08T04:00:00Z'));
		const spring = await world('America/New_York', { postDay: 8, postHour: 2 });
		schedule(spring);
		await advanceTo('2026-03-08T12:00:00Z');
		expect(spring.composer.calls.map((c) => c.now.toISOString())).toEqual(['2026-03-08T07:00:00.000Z']); // 03:00 EDT

		await newScene('2026-11-01T04:01:00Z'); // 00:01 EDT
		const autumn = await world('America/New_York', { postDay: 1, postHour: 1 });
		schedule(autumn);
		await advanceTo('2026-11-01T12:00:00Z');
		expect(autumn.composer.calls.map((c) => c.now.toISOString())).toEqual(['2026-11-01T05:00:00.000Z']); // 01:00 EDT
		expect(autumn.posts()).toHaveLength(1);
	});

	it('a month boundary in the league’s zone: December’s post at local midnight is made on 30 November UTC', async () => {
		vi.setSystemTime(new Date('2026-11-30T22:40:00Z'));
		const w = await world('Europe/Budapest', { postDay: 1, postHour: 0 });
		// November's post (due 2026-10-31T23:00Z) was never made: it is still due, late, until local midnight.
		await runOnce(w);
		expect(w.composer.calls.map((c) => [c.month, c.late])).toEqual([['2026-11', true]]);
		schedule(w);
		await advanceTo('2026-12-01T02:00:00Z');
		expect(w.composer.calls.map((c) => [c.month, c.now.toISOString(), c.late])).toEqual([
			['2026-11', '2026-11-30T22:40:00.000Z', true],
			['2026-12', '2026-11-30T23:00:00.000Z', false],
		]);
		expect(w.posts()).toHaveLength(2);
	});

	it('leagues without a ranking channel, or with the post off, are left alone', async () => {
		vi.setSystemTime(new Date('2026-12-01T12:00:00Z'));
		const w = await world('UTC');
		await w.services.leagues.configure(organizer, undefined, { monthlyPost: 'off' });
		await w.services.leagues.create(organizer, { name: 'No Channel', timezone: 'UTC' });
		await runOnce(w);
		expect(w.composer.calls).toEqual([]);
		await w.services.leagues.configure(organizer, 'Sunday Cup', { monthlyPost: 'on' });
		await runOnce(w);
		expect(w.composer.calls.map((c) => c.leagueId)).toEqual([w.leagueId]);
	});
});

describe('monthly post job: exactly once', () => {
	beforeEach(() => vi.setSystemTime(new Date('2026-12-01T12:00:00Z')));

	it('two attempts for the same month post once', async () => {
		const w = await world('UTC');
		await runOnce(w);
		await runOnce(w);
		await runOnce(w, w.job()); // a restarted process
		expect(w.posts()).toHaveLength(1);
		expect(w.composer.calls).toHaveLength(1);
	});

	it('two processes running at the same instant post once', async () => {
		const w = await world('UTC');
		await Promise.all([runOnce(w, w.job()), runOnce(w, w.job()), runOnce(w, w.job())]);
		expect(w.posts()).toHaveLength(1);
	});

	it('a post refused with HTTP 500 is retried on the next run and posted once', async () => {
		const w = await world('UTC');
		w.poster.failNext.push({ kind: 'http', status: 500, code: 0 });
		await runOnce(w);
		expect(w.posts()).toHaveLength(0);
		expect(await w.jobs.get(`post:${w.leagueId}:2026-12`)).toMatchObject({
			state: 'failed',
			attempt: 1,
			failure: { kind: 'http', status: 500 },
		});
		vi.setSystemTime(new Date('2026-12-01T12:15:00Z'));
		await runOnce(w);
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
		expect(w.poster.attempts).toHaveLength(2);
		expect(await w.jobs.get(`post:${w.leagueId}:2026-12`)).toMatchObject({ state: 'posted', attempt: 2 });
	});

	it('an error from the composer is logged, and the next run posts', async () => {
		const w = await world('UTC');
		const compose = w.composer.compose.bind(w.composer);
		let fail = true;
		w.composer.compose = (...args) => (fail ? Promise.reject(new Error('chart failed')) : compose(...args));
		await runOnce(w);
		expect(w.lines.find((l) => l.msg === 'monthly post failed')).toMatchObject({
			level: 50,
			err: { message: 'chart failed' },
		});
		fail = false;
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
	});

	it('a crash after Discord posted but before the store recorded it: found by its marker, not posted again', async () => {
		const w = await world('UTC');
		const dying = mortal(w.jobs);
		w.poster.onSend = () => (dying.killed = true); // the process dies right after Discord took the post
		await runOnce(w, w.job(dying));
		w.poster.onSend = undefined;
		expect(w.posts()).toHaveLength(1);
		expect(await w.jobs.get(`post:${w.leagueId}:2026-12`)).toMatchObject({ state: 'claimed', attempt: 1 });
		// Restarted 5 minutes later: the claim is too fresh to be a crash (another process may be posting).
		vi.setSystemTime(new Date('2026-12-01T12:05:00Z'));
		await runOnce(w);
		expect(w.composer.calls).toHaveLength(1);
		// 15 minutes later the claim is stale: the post is found in the channel and recorded, not made again.
		vi.setSystemTime(new Date('2026-12-01T12:15:00Z'));
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
		expect(w.composer.calls).toHaveLength(1);
		expect(await w.jobs.get(`post:${w.leagueId}:2026-12`)).toMatchObject({
			state: 'posted',
			attempt: 2,
			messageId: w.posts()[0]!.id,
		});
	});

	it('a crash after the claim, before anything was sent: posted once on the retry', async () => {
		const w = await world('UTC');
		const dying = mortal(w.jobs);
		const compose = w.composer.compose.bind(w.composer);
		w.composer.compose = () => {
			dying.killed = true;
			return Promise.reject(new Error('process killed'));
		};
		await runOnce(w, w.job(dying));
		w.composer.compose = compose;
		expect(w.posts()).toHaveLength(0);
		vi.setSystemTime(new Date('2026-12-01T12:15:00Z'));
		await runOnce(w);
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
	});

	it('a retry whose owner died before recording it is passed over once stale, never blocking the month', async () => {
		const w = await world('UTC');
		const key = `post:${w.leagueId}:2026-12`;
		await w.jobs.set(key, {
			v: 1,
			state: 'failed',
			attempt: 1,
			at: '2026-12-01T11:45:00.000Z',
			failure: { kind: 'http' },
		});
		// Retry 2 was won by a process that died before writing the record.
		await w.jobs.set(`${key}:attempt:2`, { v: 1, at: '2026-12-01T11:55:00.000Z' });
		await runOnce(w); // 12:00: that owner may still be working (5 minutes): nothing
		expect(w.composer.calls).toEqual([]);
		vi.setSystemTime(new Date('2026-12-01T12:15:00Z'));
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
		expect(await w.jobs.get(key)).toMatchObject({ state: 'posted', attempt: 3 });
	});

	it('an answer lost after the post (connection reset): the retry finds the post by its marker', async () => {
		const w = await world('UTC');
		w.poster.crash = { afterSend: true };
		await runOnce(w);
		w.poster.crash = undefined;
		expect(await w.jobs.get(`post:${w.leagueId}:2026-12`)).toMatchObject({
			state: 'failed',
			failure: { kind: 'error' },
		});
		vi.setSystemTime(new Date('2026-12-01T12:15:00Z'));
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
		expect(w.poster.attempts).toHaveLength(1);
	});
});

describe('monthly post job: a channel the bot cannot post in', () => {
	beforeEach(() => vi.setSystemTime(new Date('2026-12-01T12:00:00Z')));

	it('is logged without user text, and the next organizer command gets one notice', async () => {
		const w = await world('UTC');
		w.poster.denied.set(CHANNEL, { kind: 'missing-permission', status: 403, code: 50013 });
		await runOnce(w);
		const warning = w.lines.find((l) => l.msg.startsWith('monthly post refused'));
		expect(warning).toMatchObject({
			level: 40,
			kind: 'missing-permission',
			status: 403,
			code: 50013,
			channel: CHANNEL,
		});
		expect(JSON.stringify(w.lines)).not.toContain('Sunday Cup');

		expect(await w.notices.takeFor(member)).toEqual([]);
		const [notice, ...more] = await w.notices.takeFor(organizer);
		expect(more).toEqual([]);
		expect(notice).toBe(
			`The monthly ranking of **Sunday Cup** (2026-12) could not be posted in <#${CHANNEL}>: the bot lacks ` +
				'permission to send messages or attach files there. Fix the channel permissions or choose another channel ' +
				'with /league config ranking-channel. The bot tries again every 15 minutes until the end of the month.',
		);
		expect(await w.notices.takeFor(organizer)).toEqual([]);

		// Still denied on the next run: retried, but the organizer is not told twice.
		vi.setSystemTime(new Date('2026-12-01T12:15:00Z'));
		await runOnce(w);
		expect(await w.notices.takeFor(organizer)).toEqual([]);
		expect(w.posts()).toHaveLength(0);

		// Permissions fixed: the next run posts (once), late now.
		w.poster.denied.clear();
		vi.setSystemTime(new Date('2026-12-01T13:15:00Z'));
		await runOnce(w);
		await runOnce(w);
		expect(w.posts()).toHaveLength(1);
		expect(w.composer.calls.at(-1)?.late).toBe(true);
		expect(await w.jobs.get(`notices:${GUILD}`)).toBeUndefined();
	});

	it('a notice no longer applies once the organizer chose another channel', async () => {
		const w = await world('UTC');
		w.poster.denied.set(CHANNEL, { kind: 'missing-channel', status: 404, code: 10003 });
		await runOnce(w);
		await w.services.leagues.configure(organizer, undefined, { rankingChannel: '600000000000000002' });
		expect(await w.notices.takeFor(organizer)).toEqual([]);
	});
});
