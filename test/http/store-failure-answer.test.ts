/**
 * The HTTP server's answer when the store fails under a request (a server that stops answering, a read-only or
 * damaged database): 503 saying the store is unavailable and whether anything was stored, the words the bot uses
 * (services/errors.ts), not "Something went wrong … Nothing was stored.", which is false when the write may have
 * been stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { createInboxService, type InboxOutlet } from '../../src/services/inbox/inbox-service.js';
import { StoreIntegrityError } from '../../src/storage/store-integrity-error.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';
import { organizer, world } from '../services/helpers.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
	for (const app of apps.splice(0)) await app.close();
});

/** POST /inbox with a valid token, the inbox failing with `failure` once the file is read. */
async function postFailing(failure: Error) {
	const store = createMemoryStore();
	const w = world(store);
	await w.services.leagues.create(organizer, { name: 'Club', resultsChannel: '600000000000000001' });
	const inbox = createInboxService(w.repo, w.services.leagues, w.services.races, {
		store: store.namespace('inbox'),
		clock: () => new Date(w.now.ms),
	});
	const outlet = {} as InboxOutlet; // never reached: the store fails first
	const lines: string[] = [];
	const app = buildHttpServer({
		log: createLogger({ level: 'info', write: (line) => lines.push(line) }),
		inbox: { inbox: { ...inbox, receive: () => Promise.reject(failure) }, outlet, maxBytes: 4096, perLeague: 30 },
	});
	apps.push(app);
	const { token } = await inbox.newToken(organizer, undefined);
	const answer = await app.inject({
		method: 'POST',
		url: '/inbox?name=results.txt',
		payload: '1. Alice 1:23.456\n2. Bob 1:24.000\n',
		headers: { authorization: `Bearer ${token}` },
	});
	return { answer, body: answer.json<{ status: string; message: string }>(), log: lines.join('\n') };
}

describe('a store failure under an HTTP request', () => {
	it('a write whose outcome is unknown: 503, said so, never "Nothing was stored"', async () => {
		const { answer, body, log } = await postFailing(new StoreUnavailableError('redis timed out', 'unknown'));
		expect(answer.statusCode).toBe(503);
		expect(body.status).toBe('store-unavailable');
		expect(body.message).toMatch(
			/^The league store stopped answering while this was being stored, so it is not known whether it was\. .* \(ref: \S+\)$/,
		);
		expect(body.message).not.toContain('Nothing was stored');
		expect(log).toContain('redis timed out'); // the operator's details stay in the log
		expect(body.message).not.toContain('redis timed out');
	});

	it('a write that was not stored, and a damaged store: each says so', async () => {
		const notStored = await postFailing(new StoreUnavailableError('connection refused', 'no', { write: true }));
		expect(notStored.answer.statusCode).toBe(503);
		expect(notStored.body.message).toMatch(/^The league store is unavailable right now: nothing was stored\. /);
		const damaged = await postFailing(new StoreIntegrityError('the database x was overwritten in place'));
		expect(damaged.answer.statusCode).toBe(503);
		expect(damaged.body.message).toMatch(/^The league store is damaged, so the bot has stopped storing anything/);
	});

	it('any other failure is still a 500 with a reference', async () => {
		const { answer, body } = await postFailing(new Error('a bug'));
		expect(answer.statusCode).toBe(500);
		expect(body.message).toMatch(/^Something went wrong \(ref: \S+\)/);
	});
});
