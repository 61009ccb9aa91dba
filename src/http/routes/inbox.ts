/**
 * `POST /inbox?name=<file name>`: one result file, the raw bytes as the body (any Content-Type; curl's
 * `--data-binary @file` works as is), the league's token as `Authorization: Bearer <token>` (docs/results-inbox.md).
 *
 * In order, before the body is read: the token (401, and 429 for an address that keeps presenting bad ones), then the
 * league's rate limit (429 with Retry-After). Then the body, at most INBOX_MAX_BYTES (413). Then the file: unreadable
 * or refused by the league's checks, 422 with the reason; already received (same bytes), 409 saying what became of
 * it; the preview posted in the results channel, 202; stored at once (auto-confirm), 201. The preview could not be
 * posted (no results channel, Discord refused or unreachable), 503. A refusal stores nothing.
 *
 * Every answer is JSON: `{ status, message, … }`, `message` a sentence for the person who sent the file. The log gets
 * one line per file (league, status, size, name, time), never the token nor the file's content.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../logger.js';
import { UserFacingError } from '../../services/errors.js';
import type { InboxOutlet, InboxReceipt, InboxService } from '../../services/inbox/inbox-service.js';
import type { LeagueInfo } from '../../storage/ports.js';

export interface InboxRouteOptions {
	readonly inbox: InboxService;
	readonly outlet: InboxOutlet;
	readonly log: Logger;
	/** The largest file taken (INBOX_MAX_BYTES). */
	readonly maxBytes: number;
	/** Files per minute per league (INBOX_RATE_LIMIT). */
	readonly perLeague: number;
	/** Requests with a missing or bad token per minute per address before they are answered 429 (default 30). */
	readonly badTokens?: number;
}

/** The answer's status for each refusal of the inbox service; any other refusal of the file is 422. */
const REFUSAL_STATUS: Readonly<Record<string, number>> = {
	'inbox-no-channel': 503,
	'inbox-post-failed': 503,
};

/** A file name as sent (query `name`, or the `X-File-Name` header): its last path part, printable, at most 200. */
export function fileNameOf(given: unknown): string {
	const raw = typeof given === 'string' ? given : '';
	// eslint-disable-next-line no-control-regex
	const name = (raw.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
	return name === '' ? 'results' : name.slice(0, 200);
}

const receiptAnswer = (receipt: InboxReceipt): { code: number; body: Record<string, unknown> } => {
	const name = receipt.league.config.name;
	switch (receipt.kind) {
		case 'previewed':
			return {
				code: 202,
				body: {
					status: 'previewed',
					league: name,
					preview: receipt.preview,
					message:
						`Previewed in the results channel of ${name} (${receipt.racers} racers` +
						`${receipt.warnings > 0 ? `, ${receipt.warnings} to check` : ''}): an organizer stores it with Confirm.`,
				},
			};
		case 'stored':
			return {
				code: 201,
				body: {
					status: 'stored',
					league: name,
					preview: receipt.preview,
					race: receipt.race,
					message:
						`Stored as ${receipt.race} in ${name} (auto-confirm)` +
						(receipt.notPosted === undefined ? '.' : `; not announced in the channel: ${receipt.notPosted}.`),
				},
			};
		case 'duplicate':
			return {
				code: 409,
				body: { status: 'duplicate', league: name, preview: receipt.preview, message: receipt.message },
			};
	}
};

export function inboxRoute(options: InboxRouteOptions): FastifyPluginAsync {
	const { inbox, outlet, log, maxBytes } = options;
	return async (app) => {
		// Limits are counted in this process (each bot process has its own), in memory.
		await app.register(rateLimit, { global: false });
		const leagues = new WeakMap<FastifyRequest, LeagueInfo>();
		const perLeague = app.createRateLimit({
			max: options.perLeague,
			timeWindow: 60_000,
			keyGenerator: (request) => `league:${leagues.get(request)?.id ?? ''}`,
		});
		const badTokens = app.createRateLimit({
			max: options.badTokens ?? 30,
			timeWindow: 60_000,
			keyGenerator: (request) => `address:${request.ip}`,
		});
		// The body is the file, whatever the sender calls its type (curl says form data, a sim's JSON says JSON).
		app.removeAllContentTypeParsers();
		app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) =>
			done(null, body),
		);

		const tooMany = (reply: FastifyReply, seconds: number, message: string) =>
			reply
				.header('retry-after', String(seconds))
				.code(429)
				.send({ status: 'rate-limited', message: `${message} Try again in ${seconds} s. Nothing was stored.` });

		/** The token and the league's rate limit, before a byte of the body is read. */
		const admit = async (request: FastifyRequest, reply: FastifyReply) => {
			const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
			const league = await inbox.authenticate(token);
			if (league === undefined) {
				const limit = await badTokens(request);
				if (!limit.isAllowed && limit.isExceeded) {
					return tooMany(reply, limit.ttlInSeconds, 'Too many requests with a missing or bad token from this address.');
				}
				return reply
					.header('www-authenticate', 'Bearer realm="pitwall results inbox"')
					.code(401)
					.send({
						status: 'unauthorized',
						message:
							token === undefined
								? "No token: send the league's inbox token as the header Authorization: Bearer <token> " +
									'(an organizer makes one with /league inbox token:new). Nothing was stored.'
								: 'The token is not valid: it is mistyped, or it was replaced or revoked with /league inbox. Nothing was stored.',
					});
			}
			leagues.set(request, league);
			const limit = await perLeague(request);
			if (!limit.isAllowed && limit.isExceeded) {
				return tooMany(
					reply,
					limit.ttlInSeconds,
					`Too many files for ${league.config.name}: at most ${options.perLeague} a minute.`,
				);
			}
			return undefined;
		};

		app.post('/inbox', { bodyLimit: maxBytes, onRequest: admit }, async (request, reply) => {
			const started = performance.now();
			const league = leagues.get(request)!;
			const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
			const query = request.query as Record<string, unknown>;
			const name = fileNameOf(query['name'] ?? request.headers['x-file-name']);
			const done = (code: number, body: Record<string, unknown>) => {
				log.info(
					{
						league: league.id,
						status: code,
						bytes: bytes.length,
						file: name,
						ms: Math.round(performance.now() - started),
					},
					'inbox file',
				);
				return reply.code(code).send(body);
			};
			if (bytes.length === 0) {
				return done(422, { status: 'refused', error: 'empty-file', message: 'The file is empty. Nothing was stored.' });
			}
			try {
				const { code, body } = receiptAnswer(await inbox.receive(league, { name, bytes }, outlet));
				return done(code, body);
			} catch (error) {
				if (!(error instanceof UserFacingError)) throw error;
				return done(REFUSAL_STATUS[error.code] ?? 422, {
					status: 'refused',
					error: error.code,
					message: error.message,
				});
			}
		});
	};
}
