/** `/league config` post settings, `/league info`'s next post and `/league preview-post`, at the service level. */
import { describe, expect, it } from 'vitest';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { testComposer } from '../jobs/helpers.js';
import { member, organizer, roleOrganizer, ROLE } from './helpers.js';

const CHANNEL = '600000000000000001';

/** Services over a memory store; `withComposer: false` keeps the services' own ranking composer. */
async function setup(nowIso = '2026-12-10T12:00:00Z', withComposer = true) {
	const store = createMemoryStore();
	const repo = createLeagueRepository(store);
	const composer = testComposer();
	const jobs = store.namespace('jobs');
	const services = createServices(repo, {
		clock: () => new Date(nowIso),
		composer: withComposer ? composer : undefined,
		jobs,
	});
	const league = await services.leagues.create(organizer, { name: 'Cup', timezone: 'America/New_York' });
	return { repo, services, composer, jobs, leagueId: league.id };
}

describe('ranking post settings', () => {
	it('bad day, hour or an on without a channel are refused with specific messages, and nothing is stored', async () => {
		const { services, repo, leagueId } = await setup();
		const before = (await repo.readEvents(leagueId)).length;
		const configure = (input: object) => services.leagues.configure(organizer, undefined, input);
		await expect(configure({ postDay: 29 })).rejects.toThrow(
			'The post day must be a whole number from 1 to 28 (a day every month has), not 29.',
		);
		await expect(configure({ postDay: 0 })).rejects.toThrow('not 0.');
		await expect(configure({ postDay: 2.5 })).rejects.toThrow('not 2.5.');
		await expect(configure({ postHour: 24 })).rejects.toThrow(
			'The post hour must be a whole number from 0 to 23 (league time), not 24.',
		);
		await expect(configure({ postHour: -1 })).rejects.toThrow('not -1.');
		await expect(configure({ monthlyPost: 'maybe' })).rejects.toThrow('The monthly post is either on or off.');
		await expect(configure({ monthlyPost: 'on' })).rejects.toThrow(
			'The monthly ranking post needs a ranking channel: add ranking-channel',
		);
		await expect(services.leagues.configure(member, undefined, { postDay: 3 })).rejects.toThrow(
			/Only league organizers/,
		);
		expect((await repo.readEvents(leagueId)).length).toBe(before);
	});

	it('day, hour and on/off are kept across changes; info gives the next post in league time', async () => {
		const { services } = await setup('2026-12-10T12:00:00Z');
		const off = await services.leagues.info(organizer, undefined);
		expect(off.rankingPost).toMatchObject({ day: 1, hour: 12, enabled: true, active: false, next: undefined });
		await services.leagues.configure(organizer, undefined, { rankingChannel: CHANNEL, postDay: 15, postHour: 20 });
		const on = await services.leagues.info(organizer, undefined);
		// 2026-12-15 20:00 EST (UTC−5) is 2026-12-16 01:00 UTC.
		expect(on.rankingPost).toMatchObject({ day: 15, hour: 20, enabled: true, active: true, channel: CHANNEL });
		expect(on.rankingPost.next).toEqual({
			month: '2026-12',
			at: new Date('2026-12-16T01:00:00Z'),
			local: '2026-12-15 20:00',
		});
		await services.leagues.configure(organizer, undefined, { monthlyPost: 'off' });
		const stopped = await services.leagues.info(organizer, undefined);
		expect(stopped.rankingPost).toMatchObject({ day: 15, hour: 20, enabled: false, active: false, next: undefined });
		await services.leagues.configure(organizer, undefined, { postHour: 8 });
		expect((await services.leagues.info(organizer, undefined)).rankingPost).toMatchObject({ hour: 8, enabled: false });
	});

	it('preview: organizers only; this month’s post while it is due and not posted, late; else the next one', async () => {
		const { services, composer, jobs, leagueId } = await setup('2026-12-10T12:00:00Z');
		await services.leagues.configure(organizer, undefined, {
			rankingChannel: CHANNEL,
			organizerRole: { id: ROLE, managed: false },
		});
		await expect(services.rankingPost.preview(member, undefined)).rejects.toThrow(/Only league organizers/);
		const due = await services.rankingPost.preview(roleOrganizer, undefined);
		expect(due).toMatchObject({ month: '2026-12', late: true, local: '2026-12-01 12:00' });
		expect(due.message.files?.[0]?.name).toBe('leaderboard.png');
		await jobs.set(`post:${leagueId}:2026-12`, { v: 1, state: 'posted', attempt: 1, at: 'x', messageId: '1' });
		const next = await services.rankingPost.preview(organizer, undefined);
		expect(next).toMatchObject({ month: '2027-01', late: false, local: '2027-01-01 12:00' });
		expect(next.scheduledAt).toEqual(new Date('2027-01-01T17:00:00Z'));
		expect(composer.calls.map((c) => [c.leagueId, c.month, c.late])).toEqual([
			[leagueId, '2026-12', true],
			[leagueId, '2027-01', false],
		]);
	});

	it('preview of a post that is off or has no channel: the next one it would make, never late', async () => {
		// No ranking channel yet (the post is on by default): nothing is due, so nothing is late.
		const { services, composer, leagueId } = await setup('2026-12-10T12:00:00Z');
		const noChannel = await services.rankingPost.preview(organizer, undefined);
		expect(noChannel).toMatchObject({ month: '2027-01', late: false, local: '2027-01-01 12:00' });
		expect(noChannel.post).toMatchObject({ enabled: true, active: false });
		// A channel but the post switched off: the same.
		await services.leagues.configure(organizer, undefined, { rankingChannel: CHANNEL, monthlyPost: 'off' });
		const off = await services.rankingPost.preview(organizer, undefined);
		expect(off).toMatchObject({ month: '2027-01', late: false });
		expect(off.post).toMatchObject({ enabled: false, active: false, channel: CHANNEL });
		// Switched on, the same day: this month's post is due and has not gone out, so it is late.
		await services.leagues.configure(organizer, undefined, { monthlyPost: 'on' });
		expect(await services.rankingPost.preview(organizer, undefined)).toMatchObject({ month: '2026-12', late: true });
		expect(composer.calls.map((c) => [c.leagueId, c.month, c.late])).toEqual([
			[leagueId, '2027-01', false],
			[leagueId, '2027-01', false],
			[leagueId, '2026-12', true],
		]);
	});

	it('with the services’ own composer, a league with nothing to rank yet says so; with a race, the post is shown', async () => {
		const { services } = await setup('2026-12-10T12:00:00Z', false);
		await expect(services.rankingPost.preview(organizer, undefined)).rejects.toThrow(
			'There is nothing to rank yet: the monthly post starts once a race is stored',
		);
		const preview = await services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		await services.races.confirm(organizer, preview.id);
		const post = await services.rankingPost.preview(organizer, undefined);
		const [embed] = post.message.embeds ?? [];
		// No ranking channel: the post previewed is January's (not December's, late), covering December so far.
		expect(embed).toMatchObject({ title: 'Monthly ranking, December 2026', author: { name: 'Cup · folyami' } });
		expect(embed!.footer!.text).toBe('as of 2026-12-10 · † provisional');
		expect(embed!.description).toContain('1 race since 2026-12-01 · 2 rated players');
	});
});
