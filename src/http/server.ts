/**
 * The bot's own HTTP server (fastify): the results inbox now (routes/inbox.ts, docs/results-inbox.md), the league's
 * web pages and JSON API next, one route file each. Off unless HTTP_PORT is set; it listens on HTTP_HOST (default
 * 127.0.0.1). Started after the Discord client (the inbox posts through it) and closed before it (src/index.ts): a
 * file in flight is answered first.
 *
 * Answers are JSON with a `message` sentence; fastify's own refusals are worded the same way (an oversized body is
 * 413 with the limit). fastify logs nothing (logger off: its lines carry URLs and headers); each route logs its own
 * line, without tokens or file content.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import { sizeText } from '../services/races/attachment-download.js';
import { storeFailureMessage } from '../services/errors.js';
import { healthRoute } from './routes/health.js';
import { inboxRoute, type InboxRouteOptions } from './routes/inbox.js';
import { leagueApiRoute } from './routes/league-api.js';
import { leaguePagesRoute } from './routes/league-pages.js';
import { createChartCache } from './chart-cache.js';
import { createPageCache } from './page-cache.js';
import type { LeagueWebService } from '../services/web/league-web-service.js';

export interface HttpServerOptions {
	readonly log: Logger;
	/** The results inbox (absent: no POST /inbox). */
	readonly inbox?: Omit<InboxRouteOptions, 'log'> | undefined;
	/** The league web pages and JSON API (routes/league-pages.ts, league-api.ts; docs/web.md); absent: none. */
	readonly web?: LeagueWebService | undefined;
	/** Longest a request may take, body included (default 60 s: 8 MiB over a slow uplink). */
	readonly requestTimeoutMs?: number;
}

export function buildHttpServer(options: HttpServerOptions): FastifyInstance {
	const { log } = options;
	// Only the inbox takes a body: without it, the web's GETs need none.
	const maxBytes = options.inbox?.maxBytes ?? 64 * 1024;
	const app = Fastify({
		logger: false,
		bodyLimit: maxBytes,
		requestTimeout: options.requestTimeoutMs ?? 60_000,
		return503OnClosing: true,
	});
	app.setErrorHandler((error: FastifyError, request, reply) => {
		if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
			const declared = Number(request.headers['content-length']);
			const size = Number.isFinite(declared) && declared > maxBytes ? `${sizeText(declared)}` : undefined;
			return reply.code(413).send({
				status: 'too-large',
				message:
					`The file is ${size ?? `larger than ${sizeText(maxBytes)}`}: at most ${sizeText(maxBytes)} ` +
					'(INBOX_MAX_BYTES). Nothing was stored.',
			});
		}
		const status = error.statusCode ?? 500;
		if (status >= 400 && status < 500) {
			return reply.code(status).send({ status: 'bad-request', message: `${error.message}. Nothing was stored.` });
		}
		const storeFailure = storeFailureMessage(error);
		if (storeFailure !== undefined) {
			// The store failed (not a bug): said so, and whether anything was stored (it may have been).
			log.warn({ err: error, ref: request.id, url: request.routeOptions.url }, 'the store failed');
			return reply.code(503).send({ status: 'store-unavailable', message: `${storeFailure} (ref: ${request.id})` });
		}
		log.error({ err: error, ref: request.id, url: request.routeOptions.url }, 'http request failed');
		return reply
			.code(500)
			.send({ status: 'error', message: `Something went wrong (ref: ${request.id}). Nothing was stored.` });
	});
	app.setNotFoundHandler((request, reply) =>
		reply.code(404).send({
			status: 'not-found',
			message: `No ${request.method} ${request.url.split('?')[0]} here: result files go to POST /inbox.`,
		}),
	);
	void app.register(healthRoute);
	if (options.inbox !== undefined) void app.register(inboxRoute({ ...options.inbox, log }));
	if (options.web !== undefined) {
		// One cache of rendered answers by version for the pages and the API (page-cache.ts).
		const pages = createPageCache();
		void app.register(leagueApiRoute({ web: options.web, pages }));
		// The player pages' charts drawn in each version's warm-up (chart-cache.ts).
		const charts = createChartCache(options.web);
		void app.register(leaguePagesRoute({ web: options.web, pages, charts }));
	}
	return app;
}

export interface RunningHttpServer {
	/** `http://host:port` as it listens (the port the system chose when given 0). */
	readonly url: string;
	readonly port: number;
	/** Stops taking requests, answers those in flight, then closes. */
	close(): Promise<void>;
}

export async function startHttpServer(
	options: HttpServerOptions & { readonly host: string; readonly port: number },
): Promise<RunningHttpServer> {
	const app = buildHttpServer(options);
	await app.listen({ host: options.host, port: options.port });
	const address = app.server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	const url = `http://${host}:${address.port}`;
	options.log.info({ url }, 'http server listening');
	return { url, port: address.port, close: () => app.close() };
}
