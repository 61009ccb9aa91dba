/**
 * `POST /inbox` (src/http/routes/inbox.ts) through fastify's inject, over the real inbox service on a memory store and
 * a channel poster double: each answer code with its message, the order of the checks (the token before the body),
 * the rate limits, and a log that carries neither the token nor the file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildHttpServer } from '../../src/http/server.js';
import { fileNameOf } from '../../src/http/routes/inbox.js';
import { createLogger } from '../../src/logger.js';
import { createInboxService, type InboxOutlet } from '../../src/services/inbox/inbox-service.js';
import type { ChannelMessage } from '../../src/services/posts/monthly-post-port.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { eventCount, organizer, world } from '../services/helpers.js';

const CHANNEL = '600000000000000001';
const SCOREBOARD = '1. Alice 1:23.456\n2. Bob 1:24.000\n3. Carol 1:25.100\n';
const MAX = 4096;

const apps: FastifyInstance[] = [];
afterEach(async () => {
	for (const app of apps.splice(0)) await app.close();
});

async function server(options: { perLeague?: number; badTokens?: number } = {}) {
	const store = createMemoryStore();
	const w = world(store);
	const league = await w.services.leagues.create(organizer, { name: 'Club', resultsChannel: CHANNEL });
	const inbox = createInboxService(w.repo, w.services.leagues, w.services.races, {
		store: store.namespace('inbox'),
		clock: () => new Date(w.now.ms),
	});
	const posts: ChannelMessage[] = [];
	const outlet: InboxOutlet = {
		poster: {
			post: (_channel, message) => (posts.push(message), Promise.resolve({ ok: true, messageId: `m${posts.length}` })),
			findMarked: () => Promise.resolve({ ok: true, messageId: undefined }),
		},
		messages: { preview: (v) => ({ content: `preview ${v.file.name}` }), stored: (v) => ({ content: v.race.id }) },
	};
	const lines: string[] = [];
	const log = createLogger({ level: 'info', write: (line) => lines.push(line) });
	const app = buildHttpServer({
		log,
		inbox: { inbox, outlet, maxBytes: MAX, perLeague: options.perLeague ?? 30, badTokens: options.badTokens },
	});
	apps.push(app);
	const { token } = await inbox.newToken(organizer, undefined);
	const send = (body: string | Buffer, headers: Record<string, string> = {}, url = '/inbox?name=results.txt') =>
		app.inject({ method: 'POST', url, payload: body, headers: { authorization: `Bearer ${token}`, ...headers } });
	return { app, w, league, inbox, token, posts, lines, send };
}

describe('POST /inbox', () => {
	it('202: the preview is posted; 409: the same file again, one preview; the log has no token and no file', async () => {
		const s = await server();
		const first = await s.send(SCOREBOARD, { 'content-type': 'application/x-www-form-urlencoded' }); // curl's default
		expect(first.statusCode).toBe(202);
		expect(first.json()).toMatchObject({
			status: 'previewed',
			league: 'Club',
			preview: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
			message: 'Previewed in the results channel of Club (3 racers): an organizer stores it with Confirm.',
		});
		const again = await s.send(SCOREBOARD, { 'content-type': 'application/json' });
		expect(again.statusCode).toBe(409);
		expect(again.json()).toMatchObject({ status: 'duplicate', preview: first.json<{ preview: string }>().preview });
		expect(again.json<{ message: string }>().message).toMatch(/^This file was already received on /);
		expect(s.posts).toHaveLength(1);
		expect(s.posts[0]!.content).toBe('preview results.txt');
		const log = s.lines.join('\n');
		expect(log).toContain('"msg":"inbox file"');
		expect(log).toContain('"status":202');
		expect(log).not.toContain(s.token);
		expect(log).not.toContain('Alice');
	});

	it('201: stored at once under auto-confirm', async () => {
		const s = await server();
		await s.inbox.setAutoConfirm(organizer, undefined, true);
		const answer = await s.send(SCOREBOARD, {}, '/inbox?name=r.txt');
		expect(answer.statusCode).toBe(201);
		expect(answer.json()).toMatchObject({
			status: 'stored',
			race: 'R1',
			message: 'Stored as R1 in Club (auto-confirm).',
		});
	});

	it('401 without a token, with a wrong or revoked one, before the body is read (oversized or not)', async () => {
		const s = await server();
		const before = await eventCount(s.w, s.league.id);
		const none = await s.app.inject({ method: 'POST', url: '/inbox', payload: SCOREBOARD });
		expect(none.statusCode).toBe(401);
		expect(none.headers['www-authenticate']).toBe('Bearer realm="pitwall results inbox"');
		expect(none.json<{ message: string }>().message).toMatch(/^No token: send the league's inbox token as the header/);
		const wrong = await s.send(SCOREBOARD, { authorization: `Bearer ${s.token.slice(0, -2)}xx` });
		expect(wrong.statusCode).toBe(401);
		expect(wrong.json()).toEqual({
			status: 'unauthorized',
			message:
				'The token is not valid: it is mistyped, or it was replaced or revoked with /league inbox. Nothing was stored.',
		});
		const big = await s.send(Buffer.alloc(MAX * 4, 'a'), { authorization: 'Bearer nope' });
		expect(big.statusCode).toBe(401);
		await s.inbox.revokeToken(organizer, undefined);
		expect((await s.send(SCOREBOARD)).statusCode).toBe(401);
		expect(s.posts).toHaveLength(0);
		expect(await eventCount(s.w, s.league.id)).toBe(before);
	});

	it('413 over INBOX_MAX_BYTES, saying the size and the limit', async () => {
		const s = await server();
		const big = await s.send(Buffer.alloc(MAX + 1, 'a'));
		expect(big.statusCode).toBe(413);
		expect(big.json()).toEqual({
			status: 'too-large',
			message: 'The file is 5 KiB: at most 4 KiB (INBOX_MAX_BYTES). Nothing was stored.',
		});
		expect(s.posts).toHaveLength(0);
	});

	it('422 with the reason: a binary file, a malformed scoreboard, an empty body', async () => {
		const s = await server();
		const binary = await s.send(Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 37) % 256)));
		expect(binary.statusCode).toBe(422);
		expect(binary.json()).toMatchObject({
			status: 'refused',
			error: 'bad-results-file',
			message: expect.stringMatching(
				/^The file is not text: expected a sim result file .*Nothing was stored\.$/,
			) as unknown,
		});
		const twice = await s.send('1. Alice\n2. Alice\n');
		expect(twice.statusCode).toBe(422);
		expect(twice.json<{ message: string }>().message).toMatch(
			/^The scoreboard has problems, nothing was stored:\nline 2: /,
		);
		const empty = await s.send('');
		expect(empty.statusCode).toBe(422);
		expect(empty.json()).toEqual({
			status: 'refused',
			error: 'empty-file',
			message: 'The file is empty. Nothing was stored.',
		});
		expect(s.posts).toHaveLength(0);
	});

	it('503 when the league has no channel for the preview', async () => {
		const s = await server();
		await s.w.services.leagues.create(organizer, { name: 'Bare' });
		const { token } = await s.inbox.newToken(organizer, 'Bare');
		const answer = await s.send(SCOREBOARD, { authorization: `Bearer ${token}` });
		expect(answer.statusCode).toBe(503);
		expect(answer.json<{ message: string }>().message).toMatch(/^Bare has no results channel for the preview/);
	});

	it('429 past the league’s files per minute, with Retry-After; another league is not held back', async () => {
		const s = await server({ perLeague: 3 });
		const codes = [];
		for (let i = 0; i < 4; i++) codes.push((await s.send(`1. Alice\n2. Bob ${i}\n`)).statusCode);
		expect(codes).toEqual([202, 202, 202, 429]);
		const limited = await s.send('1. Alice\n2. Bob 9\n');
		expect(limited.statusCode).toBe(429);
		expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
		expect(limited.json<{ message: string }>().message).toMatch(
			/^Too many files for Club: at most 3 a minute\. Try again in \d+ s\. Nothing was stored\.$/,
		);
		await s.w.services.leagues.create(organizer, { name: 'Other', resultsChannel: CHANNEL });
		const { token } = await s.inbox.newToken(organizer, 'Other');
		expect((await s.send('1. Alice\n2. Bob 9\n', { authorization: `Bearer ${token}` })).statusCode).toBe(202);
	});

	it('429 for an address that keeps sending bad tokens', async () => {
		const s = await server({ badTokens: 2 });
		const codes = [];
		for (let i = 0; i < 3; i++) codes.push((await s.send('x', { authorization: 'Bearer bad' })).statusCode);
		expect(codes).toEqual([401, 401, 429]);
	});

	it('404 elsewhere, as JSON; GET /health', async () => {
		const s = await server();
		const missing = await s.app.inject({ method: 'GET', url: '/inbox?token=x' });
		expect(missing.statusCode).toBe(404);
		expect(missing.json()).toEqual({
			status: 'not-found',
			message: 'No GET /inbox here: result files go to POST /inbox.',
		});
		expect((await s.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
	});

	it('the file name: from ?name= or X-File-Name, its last path part, printable', () => {
		expect(fileNameOf('C:\\acc\\results\\260301_Race.json')).toBe('260301_Race.json');
		expect(fileNameOf('../../etc/passwd')).toBe('passwd');
		expect(fileNameOf('a\nb\u0000c.xml')).toBe('abc.xml');
		expect(fileNameOf(undefined)).toBe('results');
		expect(fileNameOf('x'.repeat(300))).toHaveLength(200);
	});
});
