/**
 * Discord's faults, through the REAL discord.js client: a 429 with retry-after, 5xx answers, and a dropped
 * gateway. The bot waits and retries what is safe to retry (discord.js's REST queue: the request was not taken, so
 * nothing is doubled), resumes its gateway session, and logs what it gave up on without the interaction token.
 */
import { Events, type Client } from 'discord.js';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, commands } from '../../commands/index.js';
import { startBot } from '../../src/discord/client.js';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueRepository } from '../../src/storage/ports.js';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import type { Json } from './fake-discord.js';
import { content, dataOf, EPHEMERAL, flagsOf, mentionsOf, ORGANIZER, sub, text } from './league-bot.js';

let fake: FakeDiscord;
let client: Client;
let repo: LeagueRepository;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
	fake = await startFakeDiscord();
	repo = createLeagueRepository(createMemoryStore());
	const log = createLogger({
		level: 'info',
		write: (line) => void logged.push(JSON.parse(line) as Record<string, unknown>),
	});
	client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log, services: createServices(repo) },
		commands,
		buttons,
	});
	if (!client.isReady()) await once(client, Events.ClientReady);
	await fake.sendSlashCommand('league', [sub('create', [text('name', 'Cup')])], ORGANIZER).next();
});

afterAll(async () => {
	await client.destroy();
	await fake.close();
});

const callbacks = (token: string) =>
	fake.requests.filter((r) => r.method === 'POST' && r.path.includes(`/${token}/callback`));

describe('Discord faults', () => {
	// Retry-After is whole seconds (rounded up), which discord.js honours: 0.3 s waits 1 s.
	it('a 429 on the answer: discord.js waits retry-after and answers once, within 3 s', async () => {
		fake.failRest({ method: 'POST', path: /\/callback$/, status: 429, retryAfter: 0.3 });
		const started = Date.now();
		const handle = fake.sendSlashCommand('about', []);
		const answer = await handle.next();
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect(Date.now() - started).toBeLessThan(3000);
		expect(content(answer)).toMatch(/pitwall \d+\.\d+\.\d+/);
		expect(callbacks(handle.token)).toHaveLength(2); // the refused one, then the answer
		expect(handle.events.filter((e) => e.kind === 'callback')).toHaveLength(1);
	});

	it('a 502 on the edit after a defer: retried, one answer', async () => {
		fake.failRest({ method: 'PATCH', path: /\/messages\/@original$/, status: 502 });
		const handle = fake.sendSlashCommand('leaderboard', [text('league', 'Cup')]);
		expect(await handle.next()).toMatchObject({ kind: 'callback', type: 5 });
		const edit = await handle.next();
		expect(content(edit)).toBe('No rated players in **Cup** yet.');
		expect(handle.events.filter((e) => e.kind === 'edit')).toHaveLength(1);
	});

	it('a Discord that keeps failing: given up after the retries, logged with status, no token', async () => {
		fake.failRest({ method: 'POST', path: /\/callback$/, status: 503, times: 10 });
		const handle = fake.sendSlashCommand('about', []);
		const gaveUp = () =>
			logged.filter((l) => l['msg'] === 'the answer could not be shown' && l['interactionId'] === handle.id);
		await expect.poll(() => gaveUp().length, { timeout: 15_000 }).toBe(1);
		expect(gaveUp()[0]).toMatchObject({ status: 503, request: 'callback', shown: 'none', cmd: 'about' });
		expect(JSON.stringify(logged)).not.toContain(handle.token);
		expect(handle.events).toHaveLength(0);
		// It gave up: the answer and then the fallback, each tried once and retried 3 times (discord.js's default for
		// a 5xx), not an endless loop.
		expect(callbacks(handle.token)).toHaveLength(8);
	}, 20_000);

	// Discord refuses (400) or fails (5xx, after discord.js's 3 retries) the bot's answer: the user gets a short
	// ephemeral fallback instead of "thinking…" for ever, saying truly whether anything was stored.
	const fallbacks = () => logged.filter((l) => l['msg'] === 'the answer could not be shown');

	it('a 400 on the answer of a read (a public defer): an ephemeral fallback, nothing changed, within 3 s', async () => {
		const before = fallbacks().length;
		fake.failRest({ method: 'PATCH', path: /\/messages\/@original$/, status: 400 });
		const started = Date.now();
		const handle = fake.sendSlashCommand('leaderboard', [text('league', 'Cup')]);
		expect(await handle.next()).toMatchObject({ kind: 'callback', type: 5 });
		// The public "thinking…" goes (nobody else is left looking at it), and the fallback is for the user alone.
		expect(await handle.next()).toMatchObject({ kind: 'delete' });
		const fallback = await handle.next();
		expect(Date.now() - started).toBeLessThan(3000);
		expect(fallback.kind).toBe('followup');
		expect(content(fallback)).toBe(
			'I could not show that answer: Discord refused it (error 50035). Nothing was changed.',
		);
		expect(flagsOf(fallback) & EPHEMERAL).toBe(EPHEMERAL);
		expect(mentionsOf(fallback)).toEqual({ parse: [] });
		await expect.poll(() => fallbacks().length).toBe(before + 1);
		const line = fallbacks().at(-1)!;
		expect(line).toMatchObject({ discordCode: 50035, status: 400, cmd: 'leaderboard', shown: 'followUp' });
		expect(JSON.stringify(line)).not.toContain(handle.token);
	});

	/** `/race submit` in Cup: the customId of the preview's Confirm. */
	async function previewConfirm(results: string): Promise<string> {
		const submit = fake.sendSlashCommand(
			'race',
			[sub('submit', [text('results', results), text('league', 'Cup')])],
			ORGANIZER,
		);
		expect(await submit.next()).toMatchObject({ kind: 'callback', type: 5 });
		const preview = await submit.next();
		const ids = ((dataOf(preview)['components'] ?? []) as Json[]).flatMap((row) =>
			(row['components'] as Json[]).map((c) => String(c['custom_id'])),
		);
		return ids.find((id) => id.startsWith('race:confirm:'))!;
	}

	it('a 500 on the answer of a Confirm that stored the race: the fallback says so, and it is stored once', async () => {
		const confirm = await previewConfirm('1. Ann 60.1\n2. Bob 61.2');
		// The answer's edit fails 4 times (discord.js retries a 5xx 3 times), then the fallback's edit 4 times: the
		// fallback then follows up.
		fake.failRest({ method: 'PATCH', path: /\/messages\/@original$/, status: 500, times: 8 });
		const click = fake.clickButton(confirm, ORGANIZER);
		expect(await click.next()).toMatchObject({ kind: 'callback', type: 6 });
		const fallback = await click.next(10_000);
		expect(fallback.kind).toBe('followup');
		expect(content(fallback)).toBe(
			'I could not show that answer: Discord failed (error 500). ' +
				'What you asked for was stored all the same: Stored as **R1** in **Cup**.',
		);
		expect(flagsOf(fallback) & EPHEMERAL).toBe(EPHEMERAL);
		expect(mentionsOf(fallback)).toEqual({ parse: [] });
		const league = (await repo.listLeagues(fake.guildId)).find((l) => l.config.name === 'Cup')!;
		const stored = (await repo.readEvents(league.id)).filter((e) => e.type === 'race-submitted');
		expect(stored).toHaveLength(1);
		// Pressed again (the message still shows it): nothing is stored twice.
		const again = fake.clickButton(confirm, ORGANIZER);
		await again.next();
		expect(content(await again.next())).toMatch(/^Already stored as \*\*R1\*\*/);
		expect((await repo.readEvents(league.id)).filter((e) => e.type === 'race-submitted')).toHaveLength(1);
	}, 20_000);

	it('the same once Discord answers again: the fallback takes the place of the stale preview and its buttons', async () => {
		const confirm = await previewConfirm('1. Cy 60.1\n2. Dee 61.2');
		fake.failRest({ method: 'PATCH', path: /\/messages\/@original$/, status: 500, times: 4 });
		const click = fake.clickButton(confirm, ORGANIZER);
		expect(await click.next()).toMatchObject({ kind: 'callback', type: 6 });
		const fallback = await click.next(10_000);
		expect(fallback.kind).toBe('edit');
		expect(content(fallback)).toBe(
			'I could not show that answer: Discord failed (error 500). ' +
				'What you asked for was stored all the same: Stored as **R2** in **Cup**.',
		);
		expect(dataOf(fallback)).toMatchObject({ components: [], embeds: [], allowed_mentions: { parse: [] } });
		await expect.poll(() => fallbacks().at(-1)?.['shown']).toBe('editReply');
		expect(fallbacks().at(-1)).toMatchObject({ status: 500, request: 'edit', stored: true, customId: confirm });
	}, 20_000);

	it('a 400 on the reply itself (no defer): the fallback is the ephemeral reply', async () => {
		fake.failRest({ method: 'POST', path: /\/callback$/, status: 400 });
		const handle = fake.sendSlashCommand('about', []);
		const fallback = await handle.next();
		expect(fallback).toMatchObject({ kind: 'callback', type: 4 });
		expect(content(fallback)).toBe(
			'I could not show that answer: Discord refused it (error 50035). Nothing was changed.',
		);
		expect(flagsOf(fallback) & EPHEMERAL).toBe(EPHEMERAL);
		expect(mentionsOf(fallback)).toEqual({ parse: [] });
		expect(callbacks(handle.token)).toHaveLength(2); // the refused answer, then the fallback: no loop
	});

	it('a dropped gateway: the session is resumed and the next command is answered', async () => {
		const resumed = once(client, Events.ShardResume);
		fake.dropGateway(4000);
		await resumed;
		expect(fake.resumes).toHaveLength(1);
		expect(logged.some((l) => l['msg'] === 'gateway connection lost: reconnecting')).toBe(true);
		expect(logged.some((l) => l['msg'] === 'gateway session resumed')).toBe(true);
		expect(content(await fake.sendSlashCommand('about', []).next())).toMatch(/pitwall \d+\.\d+\.\d+/);
	});

	it('a command sent as the connection drops is answered once, after the resume', async () => {
		const resumed = once(client, Events.ShardResume);
		const resumesBefore = fake.resumes.length;
		fake.dropGateway(4000);
		// Sent on the closing connection: the client never reads it there, and gets it again when it resumes.
		const handle = fake.sendSlashCommand('about', []);
		await resumed;
		expect(fake.resumes).toHaveLength(resumesBefore + 1);
		expect(content(await handle.next())).toMatch(/pitwall \d+\.\d+\.\d+/);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(callbacks(handle.token)).toHaveLength(1);
	});

	it('a graceful stop is not logged as a lost connection (discord.js reports its own destroy as reconnecting)', async () => {
		const lostBefore = logged.filter((l) => l['msg'] === 'gateway connection lost: reconnecting').length;
		await client.destroy();
		expect(logged.filter((l) => l['msg'] === 'gateway connection lost: reconnecting')).toHaveLength(lostBefore);
		expect(logged.some((l) => l['msg'] === 'gateway closed: the bot is stopping')).toBe(true);
	});
});
