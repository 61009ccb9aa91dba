/**
 * The league web pages (docs/web.md), HTML rendered on the server (pages/templates.ts), no JavaScript:
 *
 * - `GET /`: the public leagues.
 * - `GET /leagues/<league>?system=<id>`: the leaderboard (every row of `/leaderboard`, numbers as the bot shows them,
 *   with the uncertainty), links to the other systems, the CSV and the JSON, and the last races.
 * - `GET /leagues/<league>/players/<n>`: player `#n`: their row in every system and their races, newest first.
 *
 * `<league>` as in the API (league-api.ts): a public league's id, an unlisted league's `<id>-<secret>`; else 404.
 * The same ETag and Cache-Control as the API's standings.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { shownSummary, uncertaintyLabel, uncertaintyText, type RatingScale } from '../../formats/rating-scale.js';
import { systems } from '../../ratings/index.js';
import { UserFacingError } from '../../services/errors.js';
import type { LeagueWebService, WebStanding } from '../../services/league-web-service.js';
import { checkSystemOption } from '../../services/rating-service.js';
import { leagueScale } from '../../services/shown-scale.js';
import { homeHtml, leagueHtml, missingHtml, playerHtml } from '../pages/templates.js';
import { cacheHeaders, notModified } from './league-api.js';

export interface LeaguePagesOptions {
	readonly web: LeagueWebService;
	/** Races listed under the leaderboard (default 10). */
	readonly lastRaces?: number;
}

const HTML = 'text/html; charset=utf-8';

type LeagueRequest = FastifyRequest<{ Params: { league: string }; Querystring: { system?: string } }>;

export const leaguePagesRoute =
	(options: LeaguePagesOptions): FastifyPluginAsync =>
	(app) => {
		const { web } = options;
		app.get('/', async (_request, reply) => {
			const leagues = await web.listed();
			return cacheHeaders(reply, undefined).type(HTML).send(homeHtml({ leagues }));
		});

		app.get('/leagues/:league', async (request: LeagueRequest, reply: FastifyReply) => {
			const key = request.params.league;
			const league = await web.find(key);
			if (league === undefined) return reply.code(404).type(HTML).send(missingHtml());
			let system: string;
			try {
				system = checkSystemOption(request.query.system, league.config.headline);
			} catch (error) {
				if (!(error instanceof UserFacingError)) throw error;
				system = league.config.headline; // a bad ?system= shows the headline system
			}
			cacheHeaders(reply, league);
			if (await notModified(web, league, `${system}.html`, request, reply)) return reply.code(304).send();
			const [standings, races] = await Promise.all([
				web.standings(league, system),
				web.lastRaces(league, options.lastRaces ?? 10),
			]);
			const scale = leagueScale(league, system);
			const address = encodeURIComponent(key);
			const rows = standings.rows.map((row) => ({
				...shownRow(scale, row),
				player: row.player,
				href: `/leagues/${address}/players/${encodeURIComponent(row.id.replace(/^#/, ''))}`,
			}));
			const query = `?system=${encodeURIComponent(system)}`;
			const html = leagueHtml(
				{ title: `${league.config.name} · pitwall`, noindex: league.config.visibility === 'unlisted' },
				{
					name: league.config.name,
					system,
					systems: Object.keys(systems),
					asOf: standings.asOf,
					uncertaintyName: uncertaintyLabel(scale),
					provisional: rows.some((r) => r.provisional),
					rows,
					races,
					csv: `/api/v1/leagues/${address}/standings.csv${query}`,
					json: `/api/v1/leagues/${address}/standings${query}`,
				},
			);
			return reply.type(HTML).send(html);
		});

		app.get(
			'/leagues/:league/players/:player',
			async (request: FastifyRequest<{ Params: { league: string; player: string } }>, reply: FastifyReply) => {
				const key = request.params.league;
				const league = await web.find(key);
				const player = league && (await web.player(league, `#${request.params.player}`));
				if (league === undefined || player === undefined) return reply.code(404).type(HTML).send(missingHtml());
				cacheHeaders(reply, league);
				if (await notModified(web, league, `player-${player.id}.html`, request, reply)) return reply.code(304).send();
				const html = playerHtml(
					{
						title: `${player.name} · ${league.config.name} · pitwall`,
						noindex: league.config.visibility === 'unlisted',
					},
					{
						name: player.name,
						league: league.config.name,
						back: `/leagues/${encodeURIComponent(key)}`,
						systems: player.standings.map(({ system, row }) => ({
							system,
							row: row && shownRow(leagueScale(league, system), row),
						})),
						races: player.races,
					},
				);
				return reply.type(HTML).send(html);
			},
		);
		return Promise.resolve();
	};

/** A row's numbers as the bot shows them (rating-scale.ts): one decimal, the uncertainty in its own unit. */
function shownRow(scale: RatingScale, row: WebStanding) {
	const shown = shownSummary(scale, { rating: row.rating, uncertainty: row.uncertainty ?? undefined });
	return {
		rank: row.rank,
		provisional: row.provisional,
		rating: shown.rating.toFixed(1),
		uncertainty: shown.uncertainty === undefined ? '' : uncertaintyText(scale, shown.uncertainty),
		races: row.races,
	};
}
