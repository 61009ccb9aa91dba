/**
 * The league JSON API, version 1, read-only (docs/web.md):
 *
 * - `GET /api/v1/leagues`: the public leagues (`id`, `name`, `server`: the Discord server's id, `headline`).
 * - `GET /api/v1/leagues/<league>/standings?system=<id>`: the standings as `/leaderboard` shows them, every row
 *   (`rank`, `player`, `rating`, `uncertainty`, `races`, `provisional`, raw values as `pitwall replay` prints them).
 * - `GET /api/v1/leagues/<league>/standings.csv?system=<id>`: the same rows as a CSV download.
 * - `GET /api/v1/leagues/<league>/championship?season=<name>`: a season's championship table (`/standings`'s).
 * - `GET /api/v1/leagues/<league>/races/<race>`, `…/forecast`: a race's changes, the championship forecast.
 *
 * `<league>` is a public league's id or an unlisted league's `<id>-<secret>`; anything else (a private league, an
 * unlisted one without its secret) is 404, worded as for a league that does not exist. Standings carry an ETag (the
 * league's log seq, the day they are grown to, the system) and a short Cache-Control; a matching If-None-Match is 304.
 * No answer carries a Discord user id.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { csvLine } from '../../formats/csv.js';
import { nameKey } from '../../league/race-log-checks.js';
import { UserFacingError } from '../../services/errors.js';
import type { LeagueWebService } from '../../services/web/league-web-service.js';
import { checkSystemOption } from '../../services/ratings/rating-service.js';
import type { LeagueInfo } from '../../storage/ports.js';
import { createPageCache, type PageCache } from '../page-cache.js';

/** How long a browser or proxy may reuse an answer without asking (a race confirmed shows within a minute). */
export const MAX_AGE_SECONDS = 60;

export interface LeagueApiOptions {
	readonly web: LeagueWebService;
	/** Answers kept by version (default: a cache of this route's own). */
	readonly pages?: PageCache | undefined;
}

type LeagueRequest = FastifyRequest<{ Params: { league: string }; Querystring: { system?: string } }>;

/** `Cache-Control` of a league's answers: an unlisted league's stay in the browser (not shared caches, not indexed). */
export function cacheHeaders(reply: FastifyReply, league: LeagueInfo | undefined): FastifyReply {
	if (league?.config.visibility === 'unlisted') {
		return reply.header('cache-control', `private, max-age=${MAX_AGE_SECONDS}`).header('x-robots-tag', 'noindex');
	}
	return reply.header('cache-control', `public, max-age=${MAX_AGE_SECONDS}`);
}

/**
 * The league's ETag for an answer of `kind` (the league's log seq and the day its standings are grown to: a race, an
 * edit or a new day makes a new one); true when the request's If-None-Match has it (answer 304).
 */
export async function notModified(
	web: LeagueWebService,
	league: LeagueInfo,
	kind: string,
	request: FastifyRequest,
	reply: FastifyReply,
): Promise<boolean> {
	return (await versioned(web, league, kind, request, reply)).fresh;
}

/** notModified, with the ETag itself (the key of the answer's version: page-cache.ts). */
export async function versioned(
	web: LeagueWebService,
	league: LeagueInfo,
	kind: string,
	request: FastifyRequest,
	reply: FastifyReply,
): Promise<{ readonly tag: string; readonly fresh: boolean; readonly asOf: string }> {
	const { seq, asOf } = await web.version(league);
	const tag = `"${seq}-${asOf}-${kind}"`;
	reply.header('etag', tag);
	const asked = request.headers['if-none-match'];
	const fresh = asked !== undefined && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
	return { tag, fresh, asOf };
}

export const notFound = (reply: FastifyReply, key: string) =>
	reply.code(404).send({ status: 'not-found', message: `There is no public league "${key}".` });

/** A query's system that is not one is 400, with the known systems. */
async function withSystem<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
	try {
		return await work();
	} catch (error) {
		if (!(error instanceof UserFacingError)) throw error;
		return reply.code(400).send({ status: 'bad-request', message: error.message });
	}
}

/** A race id as the log has it (`r12` → `R12`), safe in an ETag (anything else: `-`). */
export const raceKey = (ref: string): string =>
	ref
		.toUpperCase()
		.replace(/[^A-Z0-9]/g, '-')
		.slice(0, 32);

/**
 * The ETag kind of a season's championship: `championship` for the current season (the day in the ETag says which it
 * is), else a digest of the name as seasons.ts compares names (case and spacing aside), safe in a header.
 */
export const championshipKind = (season: string | undefined): string =>
	season === undefined || season.trim() === ''
		? 'championship'
		: `championship-${createHash('sha256').update(nameKey(season)).digest('hex').slice(0, 16)}`;

const fileName = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'league';

export const leagueApiRoute =
	(options: LeagueApiOptions): FastifyPluginAsync =>
	(app) => {
		const { web } = options;
		app.get('/api/v1/leagues', async (_request, reply) => {
			const leagues = await web.listed();
			return cacheHeaders(reply, undefined).send({ leagues });
		});

		const pages = options.pages ?? createPageCache();
		const standings = (csv: boolean) => async (request: LeagueRequest, reply: FastifyReply) => {
			const key = request.params.league;
			const league = await web.find(key);
			if (league === undefined) return notFound(reply, key);
			const system = request.query.system;
			cacheHeaders(reply, league);
			return withSystem(reply, async () => {
				const id = checkSystemOption(system, league.config.headline);
				// The ETag first: a client that has this version is answered without a replay.
				const { tag, fresh, asOf } = await versioned(web, league, `${id}${csv ? '.csv' : ''}`, request, reply);
				if (fresh) return reply.code(304).send();
				// The text is kept by version (page-cache.ts): 2,000 rows are 250 kB, too long to serialize per request.
				const text = await pages.get(`${key}\u0000${tag}`, async () => {
					const result = await web.standings(league, id);
					if (!csv) return JSON.stringify(result);
					const lines = ['rank,player,rating,uncertainty,races,provisional'];
					for (const row of result.rows) {
						lines.push(
							csvLine([
								String(row.rank),
								row.player,
								String(row.rating),
								row.uncertainty === null ? '' : String(row.uncertainty),
								String(row.races),
								String(row.provisional),
							]),
						);
					}
					return lines.join('\n') + '\n';
				});
				if (!csv) return reply.type('application/json; charset=utf-8').send(text);
				const name = `${fileName(league.config.name)}-${id}-${asOf}.csv`;
				return reply
					.header('content-type', 'text/csv; charset=utf-8')
					.header('content-disposition', `attachment; filename="${name}"`)
					.send(text);
			});
		};
		app.get('/api/v1/leagues/:league/standings', standings(false));
		app.get('/api/v1/leagues/:league/standings.csv', standings(true));

		/** A league's JSON answer of `kind`, kept by version (page-cache.ts); 404 saying `what` when `read` finds none. */
		const json =
			(spec: {
				kind: (params: Record<string, string>) => string;
				what: (params: Record<string, string>) => string;
				read: (league: LeagueInfo, params: Record<string, string>) => Promise<unknown>;
			}) =>
			async (request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply) => {
				const key = request.params['league']!;
				const league = await web.find(key);
				if (league === undefined) return notFound(reply, key);
				cacheHeaders(reply, league);
				const kind = spec.kind(request.params);
				const { tag, fresh } = await versioned(web, league, kind, request, reply);
				if (fresh) return reply.code(304).send();
				const text = await pages.get(`${key}\u0000${tag}`, async () => {
					const body = await spec.read(league, request.params);
					return body === undefined ? '' : JSON.stringify(body);
				});
				if (text === '') {
					return reply.code(404).send({ status: 'not-found', message: `There is no ${spec.what(request.params)}.` });
				}
				return reply.type('application/json; charset=utf-8').send(text);
			};
		app.get(
			'/api/v1/leagues/:league/races/:race',
			json({
				kind: (p) => `race-${raceKey(p['race']!)}`,
				what: (p) => `race ${raceKey(p['race']!)} in this league`,
				read: async (league, p) => {
					const race = await web.race(league, p['race']!);
					if (race === undefined) return undefined;
					// The explanations by player are the page's; the JSON has every number of them per result.
					return { ...race, why: undefined };
				},
			}),
		);
		app.get(
			'/api/v1/leagues/:league/championship',
			async (request: FastifyRequest<{ Params: { league: string }; Querystring: { season?: string } }>, reply) => {
				const key = request.params.league;
				const league = await web.find(key);
				if (league === undefined) return notFound(reply, key);
				cacheHeaders(reply, league);
				const season = request.query.season;
				const { tag, fresh } = await versioned(web, league, championshipKind(season), request, reply);
				if (fresh) return reply.code(304).send();
				const result = await web.championship(league, season);
				// An unknown season is the asker's mistake (404 with the league's seasons); no season yet is an answer.
				if (!result.available && result.unknownSeason) {
					return reply.code(404).send({ status: 'not-found', message: result.reason });
				}
				const text = await pages.get(`${key}\u0000${tag}`, () => Promise.resolve(JSON.stringify(result)));
				return reply.type('application/json; charset=utf-8').send(text);
			},
		);
		app.get(
			'/api/v1/leagues/:league/forecast',
			json({ kind: () => 'forecast', what: () => 'forecast', read: (league) => web.forecast(league) }),
		);
		return Promise.resolve();
	};
