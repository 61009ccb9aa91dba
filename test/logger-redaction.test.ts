/**
 * A reply Discord refuses made the log record the request's URL, which holds the
 * interaction token, and its body, which holds the user's text. Every logged error goes through one redaction
 * (src/log-redaction.ts, the logger's `err` serializer): tokens out of URLs, messages and stacks, the bot token out of
 * everything, request bodies dropped; status, code, method and the path (token replaced by `:token`) kept.
 * The errors here are real: discord.js's REST client against a local server that refuses as Discord does.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DiscordAPIError, REST, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';

const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';
const INTERACTION_TOKEN = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc5OmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1Njc4OQ';
const INTERACTION_ID = '123456789012345679';
const APP_ID = '123456789012345678';
const USER_TEXT = 'Alice 1:23.456 wrote this scoreboard line herself';

/** Discord's answer to a message over 2,000 characters. */
const INVALID_FORM_BODY = {
	code: 50035,
	message: 'Invalid Form Body',
	errors: {
		data: {
			content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
		},
	},
};

let server: Server;
let rest: REST;

beforeAll(async () => {
	server = createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify(INVALID_FORM_BODY));
		});
	});
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	rest = new REST({ api: `http://127.0.0.1:${port}/api`, retries: 0 }).setToken(BOT_TOKEN);
});

afterAll(async () => {
	server.close();
	await once(server, 'close');
});

function collect(options: { pretty?: boolean } = {}) {
	const lines: string[] = [];
	const log = createLogger({ level: 'info', write: (line) => lines.push(line), secrets: [BOT_TOKEN], ...options });
	return { lines, log };
}

async function refused(work: Promise<unknown>): Promise<DiscordAPIError> {
	const error: unknown = await work.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect(error).toBeInstanceOf(DiscordAPIError);
	return error as DiscordAPIError;
}

describe('logged errors carry no token and no user text', () => {
	it('a refused interaction reply: status, code, method and path kept; token and body gone', async () => {
		const error = await refused(
			rest.post(Routes.interactionCallback(INTERACTION_ID, INTERACTION_TOKEN), {
				body: { type: 4, data: { content: `${USER_TEXT}\n${'x'.repeat(2000)}` } },
			}),
		);
		// What discord.js puts on the error: the URL with the token, the body with the user's text.
		expect(error.url).toContain(INTERACTION_TOKEN);
		expect(JSON.stringify(error.requestBody)).toContain(USER_TEXT);

		const { lines, log } = collect();
		log.error({ err: error, interactionId: INTERACTION_ID }, 'could not send the error reply');
		expect(lines).toHaveLength(1);
		const line = lines[0] ?? '';
		expect(line).not.toContain(INTERACTION_TOKEN);
		expect(line).not.toContain(USER_TEXT);
		expect(line).not.toContain(BOT_TOKEN);
		const { err } = JSON.parse(line) as { err: Record<string, unknown> };
		expect(err).toMatchObject({
			type: 'DiscordAPIError',
			status: 400,
			code: 50035,
			method: 'POST',
			path: `/api/v10/interactions/${INTERACTION_ID}/:token/callback`,
		});
		expect(String(err['message'])).toContain('data.content[BASE_TYPE_MAX_LENGTH]: Must be 2000 or fewer in length.');
		expect(err).not.toHaveProperty('requestBody');
		expect(err).not.toHaveProperty('rawError');
		expect(err).not.toHaveProperty('url');
	});

	it('a refused edit of the reply with a file: the webhook token and the file are gone', async () => {
		const error = await refused(
			rest.patch(Routes.webhookMessage(APP_ID, INTERACTION_TOKEN, '@original'), {
				body: { content: USER_TEXT },
				files: [{ name: 'results.csv', data: Buffer.from(`player,position\n${USER_TEXT},1\n`) }],
				auth: false,
			}),
		);
		expect(error.url).toContain(INTERACTION_TOKEN);
		const { lines, log } = collect();
		log.error({ err: error }, 'interaction failed');
		const line = lines[0] ?? '';
		expect(line).not.toContain(INTERACTION_TOKEN);
		expect(line).not.toContain(USER_TEXT);
		expect(line).not.toContain('results.csv');
		expect(JSON.parse(line)).toMatchObject({
			err: { method: 'PATCH', status: 400, path: `/api/v10/webhooks/${APP_ID}/:token/messages/%40original` },
		});
	});

	it('tokens in messages, stacks and causes are replaced; so is a bot token the logger was not told about', () => {
		const unknownBotToken = 'OTg3NjU0MzIxMDk4NzY1NDMy.HzYxWv.ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zz';
		const cause = new Error(`GET https://discord.com/api/v10/webhooks/${APP_ID}/${INTERACTION_TOKEN}/messages/1`);
		const error = new Error(`login refused for ${BOT_TOKEN} and ${unknownBotToken}`, { cause });
		const { lines, log } = collect();
		log.error({ err: error }, 'failed');
		log.error(error, 'failed as the first argument');
		for (const line of lines) {
			expect(line).not.toContain(INTERACTION_TOKEN);
			expect(line).not.toContain(BOT_TOKEN);
			expect(line).not.toContain(unknownBotToken);
			expect(line).toContain(`/webhooks/${APP_ID}/:token/messages/1`);
		}
		expect(lines).toHaveLength(2);
	});

	it('pretty (development) lines go through the same redaction', async () => {
		const error = await refused(
			rest.post(Routes.interactionCallback(INTERACTION_ID, INTERACTION_TOKEN), {
				body: { type: 4, data: { content: USER_TEXT } },
			}),
		);
		const { lines, log } = collect({ pretty: true });
		log.error({ err: error }, 'failed');
		const text = lines.join('\n');
		expect(text).toContain(':token/callback');
		expect(text).not.toContain(INTERACTION_TOKEN);
		expect(text).not.toContain(USER_TEXT);
	});
});
