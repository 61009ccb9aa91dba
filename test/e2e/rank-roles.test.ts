/**
 * Rank roles end to end (docs/rank-roles.md): the REAL discord.js client against the fake Discord's guild members and
 * role routes. An organizer sets place tiers, `/league roles on` previews who gains and loses which role, Confirm turns
 * them on and the bot applies exactly that; a race confirmed afterwards moves one member from Silver to Gold with one
 * add and one remove; a 429 is waited out and retried; a missing Manage Roles and a role above the bot's are answered
 * with their exact messages; a queue left by a stopped bot is finished by the next one, skipping a member who left.
 */
import { Events, type Client } from 'discord.js';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { NEED_MANAGE_ROLES, roleAboveMine } from '../../src/discord/role-sync-adapter.js';
import { startBot } from '../../src/discord/client.js';
import { createLogger } from '../../src/logger.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueRepository, Store } from '../../src/storage/ports.js';
import { startFakeDiscord, type FakeDiscord, type Json, type RawOption, type ReplyEvent } from './fake-discord.js';
import {
	content,
	dataOf,
	EPHEMERAL,
	expectWithinDiscordLimits,
	flagsOf,
	MEMBER,
	ORGANIZER,
	sub,
	text,
} from './league-bot.js';

const ROLE = 8;
const role = (id: string): RawOption => ({ name: 'role', type: ROLE, value: id });
const roles = (name: string, options: RawOption[] = []): RawOption => ({
	name: 'roles',
	type: 2,
	options: [sub(name, options)],
});

/** Discord users of the players (B, C, D, F are linked; A races without a Discord link; E is a member, no player). */
const USER = { B: '500000000000000002', C: '500000000000000003', D: '500000000000000004' } as const;
const E = '500000000000000005';
const F = '500000000000000006';

interface RunningBot {
	readonly client: Client;
	readonly services: Services;
	readonly repo: LeagueRepository;
}

async function startRoleBot(fake: FakeDiscord, store: Store): Promise<RunningBot> {
	const repo = createLeagueRepository(store);
	const services = createServices(repo, { jobs: store.namespace('jobs') });
	const client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log: createLogger({ level: 'silent' }), services },
		commands,
		buttons,
	});
	if (!client.isReady()) await once(client, Events.ClientReady);
	return { client, services, repo };
}

let fake: FakeDiscord;
let store: Store;
let bot: RunningBot;
let gold: string;
let silver: string;
let drivers: string;
let leagueId: string;

/** A command's final answer (the reply, or the edit after a defer), checked against Discord's limits. */
async function run(options: RawOption[], actor = ORGANIZER): Promise<ReplyEvent & { ephemeral: boolean }> {
	const handle = fake.sendSlashCommand('league', options, actor);
	const first = await handle.next();
	const deferred = first.kind === 'callback' && first.type === 5;
	const final = deferred ? await handle.next(10_000) : first;
	expectWithinDiscordLimits(final);
	// After a defer, the "thinking…" fixed who sees the answer.
	return Object.assign(final, { ephemeral: (flagsOf(first) & EPHEMERAL) === EPHEMERAL });
}

const buttonIds = (event: ReplyEvent) =>
	((dataOf(event)['components'] ?? []) as Json[]).flatMap((row) =>
		(row['components'] as Json[]).map((c) => String(c['custom_id'])),
	);

async function click(customId: string, events = 2): Promise<ReplyEvent[]> {
	const handle = fake.clickButton(customId, ORGANIZER);
	const out: ReplyEvent[] = [];
	for (let i = 0; i < events; i++) out.push(await handle.next(10_000));
	return out;
}

/** Confirms a race through /race submit and its Confirm button, as an organizer does. */
async function confirmRace(results: string): Promise<void> {
	const handle = fake.sendSlashCommand('race', [sub('submit', [text('results', results)])], ORGANIZER);
	await handle.next();
	const preview = await handle.next(10_000);
	const confirm = buttonIds(preview).find((id) => id.startsWith('race:confirm:'));
	expect(confirm).toBeDefined();
	const events = await click(confirm!, 3);
	expect(content(events[1]!)).toMatch(/^Stored/);
}

const rolesOf = (user: string) => [...(fake.memberRoles(user) ?? [])].sort();

beforeAll(async () => {
	fake = await startFakeDiscord();
	store = createMemoryStore();
	bot = await startRoleBot(fake, store);
	gold = fake.addRole('Gold');
	silver = fake.addRole('Silver');
	drivers = fake.addRole('Drivers');
	// B already holds the right role; C holds the wrong one; D holds one to lose and one the bot never touches; E is no
	// player and holds a rank role; F is a linked player who is not in the server.
	fake.addMember(USER.B, [silver]);
	fake.addMember(USER.C, [gold]);
	fake.addMember(USER.D, [silver, drivers]);
	fake.addMember(E, [gold]);
	const created = await run([sub('create', [text('name', 'Club')])]);
	expect(content(created)).toContain('Created league **Club**');
	leagueId = (await bot.repo.listLeagues(fake.guildId))[0]!.id;
	// Two races A, B, C, D, F: on the leaderboard A is 1st, B 2nd, C 3rd, D 4th, F 5th.
	await confirmRace('1. A\n2. B\n3. C\n4. D\n5. F');
	await confirmRace('1. A\n2. B\n3. C\n4. D\n5. F');
	for (const [player, user] of [...Object.entries(USER), ['F', F]]) {
		await bot.repo.appendEvent(leagueId, { type: 'player-linked', player: player!, user: user!, by: 'test' });
	}
}, 30_000);

afterAll(async () => {
	await bot.client.destroy();
	await fake.close();
});

describe('/league roles', () => {
	it('sets tiers by place, refusing members and a tier without a bound', async () => {
		const member = await run([roles('tier', [role(gold), text('top', 1)])], MEMBER);
		expect(member.ephemeral).toBe(true);
		expect(content(member)).toMatch(/^Only league organizers/);
		const unbound = await run([roles('tier', [role(gold)])]);
		expect(content(unbound)).toMatch(/^Give the tier’s min-rating:/);
		expect(content(await run([roles('tier', [role(gold), text('top', 1)])]))).toContain(
			`Rank roles: off · by place: <@&${gold}> first place`,
		);
		const both = await run([roles('tier', [role(silver), text('top', 3)])]);
		expect(content(both)).toContain(`<@&${gold}> first place · <@&${silver}> top 3`);
		const info = await run([sub('info')]);
		expect(content(info)).toContain(`Rank roles: off · by place: <@&${gold}> first place · <@&${silver}> top 3`);
	});

	it('refuses to turn on without Manage Roles, or with a role above the bot’s, with the exact message', async () => {
		fake.setBotPermissions(0n);
		const noPermission = await run([roles('on')]);
		expect(noPermission.ephemeral).toBe(true);
		expect(content(noPermission)).toBe(NEED_MANAGE_ROLES);
		expect(content(noPermission)).toMatch(/^I need Manage Roles/);
		fake.setBotPermissions(1n << 28n);
		fake.moveRole(gold, 2000);
		const above = await run([roles('on')]);
		expect(content(above)).toBe(roleAboveMine('Gold', 'pitwall'));
		expect(content(above)).toBe(
			'Gold is above my highest role (pitwall): move my role above it in Server Settings → Roles.',
		);
		fake.moveRole(gold, 1);
		expect(fake.roleChanges).toEqual([]);
	});

	it('previews who gains and loses which role; Confirm applies exactly that, touching no other role', async () => {
		const preview = await run([roles('on')]);
		expect(preview.ephemeral).toBe(true);
		const text = content(preview);
		// A (place 1) has no Discord link; B (2) holds Silver already; C (3) holds Gold instead of Silver; D (4) and E
		// (no player) hold rank roles they should not; F is not in the server.
		expect(text).toContain('Turning them on changes the roles of 3 members: 1 gain a role, 3 lose one.');
		expect(text).toContain(`• **C** (<@${USER.C}>): +<@&${silver}> −<@&${gold}>`);
		expect(text).toContain(`• **D** (<@${USER.D}>): −<@&${silver}>`);
		expect(text).toContain(`• **not a player** (<@${E}>): −<@&${gold}>`);
		expect(text).not.toContain(`<@${USER.B}>`);
		expect(text).not.toContain(`<@${F}>`);
		expect(fake.roleChanges).toEqual([]); // a preview changes nothing
		const [confirm, cancel] = buttonIds(preview);
		expect(cancel).toMatch(/^roles:cancel:/);
		const [, stored, announcement] = await click(confirm!, 3);
		expect(content(stored!)).toMatch(/^Rank roles of \*\*Club\*\* are on/);
		expect(content(announcement!)).toContain('**Club**: rank roles are on');
		await bot.services.roleSync.idle();
		expect(rolesOf(USER.B)).toEqual([silver]);
		expect(rolesOf(USER.C)).toEqual([silver]);
		expect(rolesOf(USER.D)).toEqual([drivers]);
		expect(rolesOf(E)).toEqual([]);
		expect(fake.roleChanges).toHaveLength(4);
		expect(fake.roleChanges.every((c) => c.user !== USER.B && c.role !== drivers)).toBe(true);
		// A Confirm pressed again stores nothing twice.
		const [, again] = await click(confirm!, 2);
		expect(content(again!)).toBe('Rank roles of **Club** are already on: nothing was stored twice.');
		const show = await run([roles('show')]);
		expect(content(show)).toContain('every role in step');
	});

	it('a confirmed race that moves B to first changes only B’s roles: one add, one remove (a 429 waited out)', async () => {
		const before = fake.roleChanges.length;
		const requests = fake.requests.length;
		// The first role change of this sync is refused with a 429: discord.js waits Retry-After (1 s) and sends it again.
		fake.failRest({ method: 'DELETE', path: /^\/guilds\/\d+\/members\/\d+\/roles\/\d+$/, status: 429, retryAfter: 1 });
		// B wins, A is last: B 7 pairwise wins over the three races, A 6, C 4, D 1 (checked on /leaderboard below).
		await confirmRace('1. B\n2. C\n3. D\n4. A\n5. F');
		await bot.services.roleSync.idle();
		const leaderboard = fake.sendSlashCommand('leaderboard', [], ORGANIZER);
		const first = await leaderboard.next();
		const shown = JSON.stringify(first.kind === 'callback' && first.type === 5 ? await leaderboard.next() : first);
		expect(shown.indexOf('**B**')).toBeLessThan(shown.indexOf('**A**'));
		expect(shown.indexOf('**A**')).toBeLessThan(shown.indexOf('**C**'));
		expect(shown.indexOf('**C**')).toBeLessThan(shown.indexOf('**D**'));
		expect(fake.roleChanges.slice(before)).toEqual([
			{ method: 'DELETE', user: USER.B, role: silver },
			{ method: 'PUT', user: USER.B, role: gold },
		]);
		const deletes = fake.requests
			.slice(requests)
			.filter((r) => r.method === 'DELETE' && r.path.startsWith(`/guilds/${fake.guildId}/members/`));
		expect(deletes).toHaveLength(2); // the 429, then the same request again
		expect(deletes[0]!.path).toBe(deletes[1]!.path);
		expect(rolesOf(USER.B)).toEqual([gold]);
		expect(rolesOf(USER.C)).toEqual([silver]);
		expect(rolesOf(USER.D)).toEqual([drivers]);
	}, 20_000);

	it('a sync that loses Manage Roles says so in /league roles show', async () => {
		fake.setBotPermissions(0n);
		fake.addMember(E, [gold]); // given by hand: the sync takes it back, or says why it cannot
		await confirmRace('1. C\n2. B\n3. A\n4. D\n5. F');
		await bot.services.roleSync.idle();
		const show = await run([roles('show')]);
		expect(content(show)).toContain(`The sync stopped: ${NEED_MANAGE_ROLES}`);
		fake.setBotPermissions(1n << 28n);
	}, 20_000);

	it('a restart finishes the queue a stopped bot left, skipping a member who left the server', async () => {
		// Discord fails every role change (503, retried by discord.js, then given up): the queue stays in the store.
		for (const method of ['PUT', 'DELETE']) {
			fake.failRest({ method, path: /^\/guilds\/\d+\/members\/\d+\/roles\/\d+$/, status: 503, times: 100 });
		}
		// F becomes a member holding Gold, and A links to a member who will leave before the queue is finished.
		const leaver = '500000000000000007';
		fake.addMember(F, [gold]);
		fake.addMember(leaver, []);
		const linked = fake.sendSlashCommand(
			'player',
			[sub('link', [text('player', 'A'), { name: 'user', type: 6, value: leaver }])],
			ORGANIZER,
		);
		const linkedFirst = await linked.next();
		expect(
			content(linkedFirst.kind === 'callback' && linkedFirst.type === 5 ? await linked.next() : linkedFirst),
		).toContain('Linked');
		await bot.services.roleSync.idle();
		const stuck = await bot.services.roleSync.status(leagueId);
		expect(stuck?.pending).toBeGreaterThan(0);
		expect(stuck?.problem).toBe('Discord did not take a role change; the bot tries again later.');
		await bot.client.destroy();
		fake.clearFaults();
		fake.removeMember(leaver);
		const changes = fake.roleChanges.length;

		bot = await startRoleBot(fake, store);
		await bot.services.roleSync.idle();
		const status = await bot.services.roleSync.status(leagueId);
		expect(status?.pending).toBe(0);
		expect(status?.problem).toBeUndefined();
		expect(rolesOf(F)).toEqual([]); // F (5th) holds no tier
		expect(fake.roleChanges.slice(changes).some((c) => c.user === leaver)).toBe(false);
		const refusedLeaver = fake.requests.filter((r) => r.path.includes(`/members/${leaver}/roles/`));
		expect(refusedLeaver.length).toBeGreaterThan(0); // asked, answered 404 Unknown Member, dropped
	}, 30_000);
});
