/**
 * The monthly ranking post end to end: the REAL discord.js client against the fake Discord, the real router,
 * services, scheduler and monthly-post job over a memory store, the channel poster over the client, and a composer
 * double that returns a PNG. The scheduler's clock is injected, and each 15-minute tick is a `runNow` (fake timers
 * would also stop the client's own heartbeat and REST timers).
 */
import { Events, PermissionFlagsBits, type Client } from 'discord.js';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { createChannelPoster } from '../../src/discord/channel-poster.js';
import { startBot } from '../../src/discord/client.js';
import { createJobs } from '../../src/jobs/index.js';
import { MONTHLY_POST_JOB } from '../../src/jobs/monthly-post-job.js';
import { createScheduler, type Scheduler } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/logger.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createNoticeService } from '../../src/services/posts/notices.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { ChannelPoster } from '../../src/services/posts/monthly-post-port.js';
import type { KeyValueNamespace, LeagueRepository } from '../../src/storage/ports.js';
import { PNG_SIGNATURE, testComposer } from '../jobs/helpers.js';
import {
	startFakeDiscord,
	type Actor,
	type FakeDiscord,
	type InteractionHandle,
	type RawOption,
} from './fake-discord.js';
import { content, dataOf, EPHEMERAL, flagsOf, MEMBER, mentionsOf, ORGANIZER, sub, text } from './league-bot.js';

const CHANNEL = 7;
const channelOption = (name: string, id: string): RawOption => ({ name, type: CHANNEL, value: id });
const TICK = 15 * 60_000;

let fake: FakeDiscord;
let client: Client;
let repo: LeagueRepository;
let scheduler: Scheduler;
let services: Services;
let jobs: KeyValueNamespace;
let poster: ChannelPoster;
const clock = { ms: Date.parse('2026-11-30T23:30:00Z') }; // 2026-12-01 00:30 in Budapest
const composer = testComposer();

beforeAll(async () => {
	fake = await startFakeDiscord();
	const store = createMemoryStore();
	repo = createLeagueRepository(store);
	const log = createLogger({ level: 'silent' });
	const now = () => new Date(clock.ms);
	jobs = store.namespace('jobs');
	const notices = createNoticeService({ store: jobs, getLeague: (id) => repo.getLeague(id) });
	services = createServices(repo, { clock: now, composer, jobs });
	client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log, services },
		commands,
		buttons,
		notices,
	});
	if (!client.isReady()) await once(client, Events.ClientReady);
	poster = createChannelPoster(client);
	const guildIds = () => client.guilds.cache.keys();
	scheduler = createScheduler({
		log,
		clock: now,
		jobs: createJobs({ services, jobs, poster, composer, notices, guildIds, log, clock: now }),
	});
});

afterAll(async () => {
	await scheduler.stop();
	await client.destroy();
	await fake.close();
});

/** Every 15-minute tick of the job from the clock's time to `iso`. */
async function runUntil(iso: string): Promise<void> {
	const end = Date.parse(iso);
	for (; clock.ms <= end; clock.ms += TICK) await scheduler.runNow(MONTHLY_POST_JOB);
	clock.ms = end;
}

/** A command's answers: the reply (or the deferred reply's edit) and then any follow-ups within `waitMs`. */
async function answers(name: string, options: RawOption[], actor: Actor, waitMs = 400) {
	const handle: InteractionHandle = fake.sendSlashCommand(name, options, actor);
	const first = await handle.next();
	const reply = first.kind === 'callback' && first.type === 5 ? await handle.next() : first;
	await new Promise((resolve) => setTimeout(resolve, waitMs));
	return { first, reply, followUps: handle.events.filter((e) => e.kind === 'followup') };
}

describe('monthly ranking post end to end', () => {
	let rankings = '';

	it('an organizer sets the post: channel, day, hour; /league info shows the next post in league time', async () => {
		rankings = fake.addChannel('rankings');
		await answers(
			'league',
			[sub('create', [text('name', 'Sunday Cup'), text('timezone', 'Europe/Budapest')])],
			ORGANIZER,
		);
		const { reply } = await answers(
			'league',
			[sub('config', [channelOption('ranking-channel', rankings), text('post-day', 1), text('post-hour', 12)])],
			ORGANIZER,
		);
		expect(content(reply)).toContain(`Ranking channel: <#${rankings}>`);
		expect(content(reply)).toContain('Monthly ranking post: day 1 at 12:00 (league time)');
		const info = await answers('league', [sub('info')], MEMBER);
		// 2026-12-01 12:00 in Budapest (CET, UTC+1) is 11:00 UTC.
		const unix = Date.UTC(2026, 11, 1, 11) / 1000;
		expect(content(info.reply)).toContain(
			`Monthly ranking post: day 1 at 12:00 (league time) · next 2026-12-01 12:00 (<t:${unix}:R>)`,
		);
	});

	it('bad settings get specific messages', async () => {
		const { reply } = await answers('league', [sub('config', [text('post-day', 31)])], ORGANIZER);
		expect(content(reply)).toBe('The post day must be a whole number from 1 to 28 (a day every month has), not 31.');
		expect(flagsOf(reply) & EPHEMERAL).toBe(EPHEMERAL);
		const hour = await answers('league', [sub('config', [text('post-hour', 24)])], ORGANIZER);
		expect(content(hour.reply)).toBe('The post hour must be a whole number from 0 to 23 (league time), not 24.');
	});

	it('/league preview-post shows the next post to the organizer only, with its chart', async () => {
		const { first, reply } = await answers('league', [sub('preview-post')], ORGANIZER);
		expect(first).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(first) & EPHEMERAL).toBe(EPHEMERAL);
		expect(content(reply)).toContain('Preview of the 2026-12 ranking post of **Sunday Cup**, only you can see it.');
		expect(content(reply)).toContain(`It goes to <#${rankings}> at 2026-12-01 12:00 (league time).`);
		expect(content(reply)).toContain('**Ranking 2026-12**');
		expect(reply.kind === 'edit' && reply.files.map((f) => f.data.subarray(0, 8))).toEqual([PNG_SIGNATURE]);
		expect(mentionsOf(reply)).toEqual({ parse: [] });
		const refused = await answers('league', [sub('preview-post')], MEMBER);
		expect(content(refused.reply)).toMatch(/Only league organizers/);
		expect(fake.postedIn(rankings)).toEqual([]);
	});

	it('/league preview-post of a post switched off says what would switch it on, and when it would go', async () => {
		await answers('league', [sub('config', [text('monthly-post', 'off')])], ORGANIZER);
		const { reply } = await answers('league', [sub('preview-post')], ORGANIZER);
		expect(content(reply)).toContain('Preview of the 2026-12 ranking post of **Sunday Cup**, only you can see it.');
		expect(content(reply)).toContain(
			'The monthly post is off. With /league config monthly-post:on, this post would go out at 2026-12-01 12:00 (league time).',
		);
		await answers('league', [sub('config', [text('monthly-post', 'on')])], ORGANIZER);
		expect(fake.postedIn(rankings)).toEqual([]);
	});

	it('across two months the channel receives exactly one post per month, each with its PNG', async () => {
		await runUntil('2027-01-02T00:00:00Z');
		const posts = fake.postedIn(rankings);
		expect(posts.map((p) => p.body['content'])).toEqual([
			expect.stringContaining('**Ranking 2026-12**'),
			expect.stringContaining('**Ranking 2027-01**'),
		]);
		for (const post of posts) {
			expect(post.files).toHaveLength(1);
			expect(post.files[0]!.filename).toBe('leaderboard.png');
			expect(post.files[0]!.data.subarray(0, 8)).toEqual(PNG_SIGNATURE);
			expect(post.body['allowed_mentions']).toEqual({ parse: [] });
			expect(String(post.body['content']).length).toBeLessThanOrEqual(2000);
			expect(post.body['enforce_nonce']).toBe(true);
			expect(String(post.body['nonce']).length).toBeLessThanOrEqual(25);
		}
		// After the two previews' calls: one composition per month, at 12:00 Budapest time, on time.
		expect(composer.calls.slice(2).map((c) => [c.month, c.now.toISOString(), c.late])).toEqual([
			['2026-12', '2026-12-01T11:00:00.000Z', false],
			['2027-01', '2027-01-01T11:00:00.000Z', false],
		]);
		const leagueId = (await repo.listLeagues(fake.guildId))[0]!.id;
		expect(posts.map((p) => String(p.body['content']).split('\n').at(-1))).toEqual([
			`-# pitwall ranking ${leagueId} 2026-12`,
			`-# pitwall ranking ${leagueId} 2027-01`,
		]);
		// Restarting the same month's run changes nothing.
		await scheduler.runNow(MONTHLY_POST_JOB);
		expect(fake.postedIn(rankings)).toHaveLength(2);
	});

	it('a channel answering 403 Missing Permissions gives the organizer one notice on their next command', async () => {
		const locked = fake.addChannel('locked');
		fake.denyChannel(locked, 'missing-permissions');
		await answers(
			'league',
			[sub('create', [text('name', 'Night Cup'), text('timezone', 'America/New_York')])],
			ORGANIZER,
		);
		await answers(
			'league',
			[sub('config', [text('league', 'Night Cup'), channelOption('ranking-channel', locked), text('post-day', 2)])],
			ORGANIZER,
		);
		await runUntil('2027-01-02T18:00:00Z'); // 2027-01-02 12:00 in New York is 17:00 UTC
		expect(fake.postedIn(locked)).toEqual([]);
		const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${locked}/messages`);
		expect(posts.length).toBeGreaterThanOrEqual(1);

		// A member's command: no notice.
		const memberRun = await answers('about', [], MEMBER);
		expect(memberRun.followUps).toEqual([]);
		// The organizer's next command: its own answer, then the notice, ephemeral and pinging nobody.
		const organizerRun = await answers('league', [sub('info', [text('league', 'Sunday Cup')])], ORGANIZER);
		expect(organizerRun.followUps).toHaveLength(1);
		const notice = organizerRun.followUps[0]!;
		expect(content(notice)).toBe(
			`The monthly ranking of **Night Cup** (2027-01) could not be posted in <#${locked}>: the bot lacks permission ` +
				'to send messages or attach files there. Fix the channel permissions or choose another channel with ' +
				'/league config ranking-channel. The bot tries again every 15 minutes until the end of the month.',
		);
		expect(flagsOf(notice) & EPHEMERAL).toBe(EPHEMERAL);
		expect(dataOf(notice)['allowed_mentions']).toEqual({ parse: [] });
		// Once.
		const again = await answers('about', [], { ...ORGANIZER, permissions: PermissionFlagsBits.ManageGuild });
		expect(again.followUps).toEqual([]);

		// Permissions fixed: the next run posts it, late, once.
		fake.allowChannel(locked);
		await runUntil('2027-01-02T19:00:00Z');
		expect(fake.postedIn(locked)).toHaveLength(1);
		expect(composer.calls.at(-1)).toMatchObject({ month: '2027-01', late: true });
	});

	it('a channel the bot cannot see (GET /channels/{id}: 403 Missing Access) gives its own notice', async () => {
		// Configured without an interaction (as after a restart, before any command), so the client has not cached
		// the channel and discord.js fetches it.
		const hidden = fake.addChannel('hidden');
		fake.denyChannel(hidden, 'missing-access');
		const admin = { userId: ORGANIZER.userId!, guildId: fake.guildId, manageGuild: true, roles: [] };
		await services.leagues.create(admin, { name: 'Dawn Cup', timezone: 'UTC', rankingChannel: hidden });
		clock.ms = Date.parse('2027-01-05T00:00:00Z'); // January's post (day 1, 12:00 UTC) is due, late
		await scheduler.runNow(MONTHLY_POST_JOB);
		expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/channels/${hidden}`)).toBe(true);
		expect(fake.postedIn(hidden)).toEqual([]);
		const run = await answers('about', [], ORGANIZER);
		expect(run.followUps.map(content)).toEqual([
			`The monthly ranking of **Dawn Cup** (2027-01) could not be posted in <#${hidden}>: the bot cannot see that ` +
				'channel (it lacks the View Channel permission). Fix the channel permissions or choose another channel with ' +
				'/league config ranking-channel. The bot tries again every 15 minutes until the end of the month.',
		]);
	});

	it('a claim left by a crash is resolved by the marker found in the channel (GET /channels/{id}/messages)', async () => {
		const leagueId = (await repo.listLeagues(fake.guildId))[0]!.id;
		// The state a crash leaves: February's post claimed, sent to Discord, never recorded as posted.
		clock.ms = Date.parse('2027-02-01T11:00:00Z');
		await jobs.set(`post:${leagueId}:2027-02`, { v: 1, state: 'claimed', attempt: 1, at: '2027-02-01T11:00:00.000Z' });
		const sent = await poster.post(
			rankings,
			{ content: `**Ranking 2027-02**\n-# pitwall ranking ${leagueId} 2027-02` },
			{ nonce: 'crashed-attempt' },
		);
		expect(sent.ok).toBe(true);
		await runUntil('2027-02-01T12:00:00Z');
		expect(fake.postedIn(rankings)).toHaveLength(3);
		expect(await jobs.get(`post:${leagueId}:2027-02`)).toMatchObject({
			state: 'posted',
			attempt: 2,
			messageId: sent.ok ? sent.messageId : '',
		});
		expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/channels/${rankings}/messages`)).toBe(true);
	});
});
