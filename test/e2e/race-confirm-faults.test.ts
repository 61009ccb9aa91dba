import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityName } from '../../src/storage/ports.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { faultyStore } from '../support/faulty-store.js';
import type { Actor, RawOption } from './fake-discord.js';
import { content, EPHEMERAL, flagsOf, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

/**
 * Confirm under faults, through the real discord.js client and the fake Discord: what the organizer sees when a cache
 * write fails after the race is stored, when the durable write itself fails, on a second Confirm, and when the
 * organizer role is set to a role every member has or revoked between the preview and Confirm.
 */

const store = faultyStore(createMemoryStore());
const bot = useLeagueBot({ store, repo: { ratingEvery: 1, stateEvery: 1 } });
const CACHES: readonly EntityName[] = ['rating-snapshots', 'rating-index', 'league-state'];
const role = (name: string, id: string): RawOption => ({ name, type: 8, value: id });

let stewards = '';
let steward: Actor;
let leagueId = '';
const eventCount = async () => (await bot.repo.readEvents(leagueId)).length;

beforeAll(() => {
	stewards = bot.fake.addRole('Stewards');
	steward = { userId: '400000000000000007', roles: [stewards] };
});

describe('the organizer role', () => {
	it('@everyone and managed roles are refused; a role organizer cannot change the role; Manage Server can', async () => {
		const create = (organizerRole: string) =>
			[sub('create', [text('name', 'Sunday Cup'), role('organizer-role', organizerRole)])] as RawOption[];
		await bot.expectRefusal('league', create(bot.fake.guildId), ORGANIZER, /^@everyone is every member of the server/);
		expect(await bot.repo.listLeagues(bot.fake.guildId)).toEqual([]);
		const created = await bot.run('league', create(stewards), ORGANIZER);
		expect(visible(created)).toContain(`Organizers: Manage Server and <@&${stewards}>`);
		leagueId = (await bot.repo.listLeagues(bot.fake.guildId))[0]!.id;

		const config = (organizerRole: string) => [sub('config', [role('organizer-role', organizerRole)])];
		const botRole = bot.fake.addRole('pitwall', { managed: true });
		await bot.expectRefusal('league', config(botRole), ORGANIZER, /managed by Discord or an integration/);
		await bot.expectRefusal('league', config(bot.fake.guildId), steward, /^@everyone is every member/);
		const drivers = bot.fake.addRole('Drivers');
		await bot.expectRefusal('league', config(drivers), steward, /^Only members with Manage Server can change/);
		expect((await bot.repo.getLeague(leagueId))!.config.organizerRole).toBe(stewards);
		// The steward still changes the rest.
		const changed = await bot.run('league', [sub('config', [text('timezone', 'Europe/Budapest')])], steward);
		expect(visible(changed)).toContain('Time zone: Europe/Budapest');
	});
});

describe('a stored race is acknowledged', () => {
	it('a cache write failing after the race is stored: "Stored as R1"; a second Confirm stores nothing', async () => {
		const p = await bot.preview([text('results', '1. Alice; 2. Bob')]);
		store.failSet = (namespace) => CACHES.includes(namespace);
		const stored = await bot.click(p.confirm!);
		store.failSet = undefined;
		expect(store.faults.length).toBeGreaterThan(0);
		expect(content(stored[1]!)).toBe('Stored as **R1** in **Sunday Cup**.\nNew players: Alice, Bob.');
		expect(visible(stored[2]!)).toMatch(/^New race in \*\*Sunday Cup\*\*: \*\*R1\*\*\./);
		expect(await eventCount()).toBe(3);
		const again = await bot.click(p.confirm!);
		expect(content(again[1]!)).toBe('Already stored as **R1** in **Sunday Cup**: nothing was stored twice.');
		expect(await eventCount()).toBe(3);
	});

	it('a failed durable write keeps the preview: the user is told, and Confirm again stores it once', async () => {
		const p = await bot.preview([text('results', '1. Bob; 2. Alice')]);
		store.failAdd = (namespace) => namespace === 'events';
		const failed = await bot.click(p.confirm!);
		store.failAdd = undefined;
		expect(content(failed[1]!)).toMatch(/^Something went wrong \(ref: \d+\)$/);
		expect(flagsOf(failed[1]!) & EPHEMERAL).toBe(EPHEMERAL);
		expect(await eventCount()).toBe(3);
		const stored = await bot.click(p.confirm!);
		expect(content(stored[1]!)).toBe('Stored as **R2** in **Sunday Cup**.');
		expect(await eventCount()).toBe(4);
	});
});

describe('organizer status at Confirm', () => {
	it('a steward whose role was revoked after the preview cannot Confirm or Cancel it; nothing stored', async () => {
		const p = await bot.preview([text('results', '1. Alice; 2. Bob')], steward);
		const revoked = { ...steward, roles: [] };
		for (const button of [p.confirm!, p.cancel!]) {
			const refused = await bot.click(button, revoked);
			expect(content(refused[1]!)).toMatch(/^Only league organizers \(Manage Server permission or the <@&\d+> role\)/);
			expect(flagsOf(refused[1]!) & EPHEMERAL).toBe(EPHEMERAL);
		}
		expect(await eventCount()).toBe(4);
		const stored = await bot.click(p.confirm!, steward);
		expect(content(stored[1]!)).toBe('Stored as **R3** in **Sunday Cup**.');
	});
});

describe('a double click', () => {
	it('two presses of Confirm at once: one "Stored as R4" with its announcement, one "Already stored", one event', async () => {
		const p = await bot.preview([text('results', '1. Carol; 2. Alice')]);
		const answers = await Promise.all([bot.click(p.confirm!), bot.click(p.confirm!)]);
		const texts = answers.map((events) => content(events[1]!)).sort();
		expect(texts).toEqual([
			'Already stored as **R4** in **Sunday Cup**: nothing was stored twice.',
			'Stored as **R4** in **Sunday Cup**.\nNew players: Carol.',
		]);
		expect(answers.map((events) => events.length).sort()).toEqual([2, 3]); // one public announcement
		expect(await eventCount()).toBe(6);
	});
});
