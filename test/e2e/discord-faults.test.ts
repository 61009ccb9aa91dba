/**
 * Discord's faults (issue 9 §3), through the REAL discord.js client: a 429 with retry-after, 5xx answers, and a dropped
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
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { content, ORGANIZER, sub, text } from './league-bot.js';

let fake: FakeDiscord;
let client: Client;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
	fake = await startFakeDiscord();
	const repo = createLeagueRepository(createMemoryStore());
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
		const gaveUp = () => logged.filter((l) => l['msg'] === 'could not send the error reply');
		await expect.poll(() => gaveUp().length, { timeout: 15_000 }).toBe(1);
		const failure = JSON.stringify(logged.filter((l) => l['msg'] === 'interaction failed').concat(gaveUp()));
		expect(failure).toContain('503');
		expect(failure).not.toContain(handle.token);
		expect(handle.events).toHaveLength(0);
		// It gave up: the answer and then the error reply, each tried once and retried 3 times (discord.js's
		// default for a 5xx), not an endless loop.
		expect(callbacks(handle.token)).toHaveLength(8);
	}, 20_000);

	it('a dropped gateway: the session is resumed and the next command is answered', async () => {
		const resumed = once(client, Events.ShardResume);
		fake.dropGateway(4000);
		await resumed;
		expect(fake.resumes).toHaveLength(1);
		expect(logged.some((l) => l['msg'] === 'gateway connection lost: reconnecting')).toBe(true);
		expect(logged.some((l) => l['msg'] === 'gateway session resumed')).toBe(true);
		expect(content(await fake.sendSlashCommand('about', []).next())).toMatch(/pitwall \d+\.\d+\.\d+/);
	});

	it('a graceful stop is not logged as a lost connection (discord.js reports its own destroy as reconnecting)', async () => {
		const lostBefore = logged.filter((l) => l['msg'] === 'gateway connection lost: reconnecting').length;
		await client.destroy();
		expect(logged.filter((l) => l['msg'] === 'gateway connection lost: reconnecting')).toHaveLength(lostBefore);
		expect(logged.some((l) => l['msg'] === 'gateway closed: the bot is stopping')).toBe(true);
	});
});
