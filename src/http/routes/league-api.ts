/**
 * The league JSON API, version 1, read-only (docs/web.md):
 *
 * - `GET /api/v1/leagues`: the public leagues (`id`, `name`, `server`: the Discord server's id, `headline`).
 * - `GET /api/v1/leagues/<league>/standings?system=<id>`: the standings as `/leaderboard` shows them, every row
 *   (`rank`, `player`, `rating`, `uncertainty`, `races`, `provisional`, raw values as `pitwall replay` prints them).
 * - `GET /api/v1/leagues/<league>/standings.csv?system=<id>`: the same rows as a CSV download.
 *
 * `<league>` is a public league's id or an unlisted league's `<id>-<secret>`; anything else (a private league, an
 * unlisted one without its secret) is 404, worded as for a league that does not exist. Standings carry an ETag (the
 * league's log seq, the day they are grown to, the system) and a short Cache-Control; a matching If-None-Match is 304.
 * No answer carries a Discord user id.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { csvLine } from '../../formats/csv.js';
import { UserFacingError } from '../../services/errors.js';
import type { LeagueWebService } from '../../services/league-web-service.js';
import { checkSystemOption } from '../../services/rating-service.js';
import type { LeagueInfo } from '../../storage/ports.js';

/** How long a browser or proxy may reuse an answer without asking (a race confirmed shows within a minute). */
export const MAX_AGE_SECONDS = 60;

export interface LeagueApiOptions {
	readonly web: LeagueWebService;
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
	const { seq, asOf } = await web.version(league);
	const tag = `"${seq}-${asOf}-${kind}"`;
	reply.header('etag', tag);
	const asked = request.headers['if-none-match'];
	return asked !== undefined && asked.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
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

const fileName = (text: string) => text.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'league';

export const leagueApiRoute =
	(options: LeagueApiOptions): FastifyPluginAsync =>
	(app) => {
		const { web } = options;
		app.get('/api/v1/leagues', async (_request, reply) => {
			const leagues = await web.listed();
			return cacheHeaders(reply, undefined).send({ leagues });
		});

		const standings = (csv: boolean) => async (request: LeagueRequest, reply: FastifyReply) => {
			const key = request.params.league;
			const league = await web.find(key);
			if (league === undefined) return notFound(reply, key);
			const system = request.query.system;
			cacheHeaders(reply, league);
			return withSystem(reply, async () => {
				const id = checkSystemOption(system, league.config.headline);
				// The ETag first: a client that has this version is answered without a replay.
				if (await notModified(web, league, `${id}${csv ? '.csv' : ''}`, request, reply)) return reply.code(304).send();
				const result = await web.standings(league, id);
				if (!csv) return reply.send(result);
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
				const name = `${fileName(league.config.name)}-${result.system}-${result.asOf}.csv`;
				return reply
					.header('content-type', 'text/csv; charset=utf-8')
					.header('content-disposition', `attachment; filename="${name}"`)
					.send(lines.join('\n') + '\n');
			});
		};
		app.get('/api/v1/leagues/:league/standings', standings(false));
		app.get('/api/v1/leagues/:league/standings.csv', standings(true));
		return Promise.resolve();
	};
