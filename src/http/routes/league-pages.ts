/**
 * The league web pages (docs/web.md), HTML rendered on the server (pages/templates.ts), no JavaScript:
 *
 * - `GET /`: the public leagues.
 * - `GET /leagues/<league>?system=<id>&page=<n>`: the current season's championship (its top 10), the leaderboard
 *   (`/leaderboard`'s rows, 100 a page, numbers as the bot shows them, with the uncertainty), links to the other
 *   systems, the CSV and the JSON (every row), and the last races.
 * - `GET /leagues/<league>/championship?season=<name>`: a season's whole championship table (`/standings`').
 * - `GET /leagues/<league>/players/<n>`: player `#n`: their row in every system and their races, newest first.
 * - `GET /leagues/<league>/races/<race>`, `…/forecast`: a race's classification and changes, the forecast.
 *
 * `<league>` as in the API (league-api.ts): a public league's id, an unlisted league's `<id>-<secret>`; else 404.
 * The same ETag and Cache-Control as the API's standings.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { shownSummary, uncertaintyLabel, uncertaintyText, type RatingScale } from '../../formats/rating-scale.js';
import { systems } from '../../ratings/index.js';
import { UserFacingError } from '../../services/errors.js';
import { displayTime } from '../../formats/display-time.js';
import { plural } from '../../formats/plural.js';
import type {
	LeagueWebService,
	WebChampionshipRow,
	WebForecast,
	WebStanding,
} from '../../services/web/league-web-service.js';
import { checkSystemOption } from '../../services/ratings/rating-service.js';
import { leagueScale } from '../../services/ratings/shown-scale.js';
import type { LeagueInfo } from '../../storage/ports.js';
import type { ChartCache } from '../chart-cache.js';
import { createPageCache, type PageCache } from '../page-cache.js';
import { ratingChartSvg } from '../pages/rating-chart-svg.js';
import {
	championshipHtml,
	forecastHtml,
	homeHtml,
	leagueHtml,
	missingHtml,
	playerHtml,
	raceHtml,
	type ChampionshipRowText,
} from '../pages/templates.js';
import {
	fmtDelta,
	fmtMcError,
	fmtPct,
	fmtPosition,
	racerWhy,
	shownChange,
	shownRating,
	whyBody,
} from '../pages/why-format.js';
import { cacheHeaders, championshipKind, raceKey, versioned } from './league-api.js';

export interface LeaguePagesOptions {
	readonly web: LeagueWebService;
	/** Races listed under the leaderboard (default 10). */
	readonly lastRaces?: number;
	/** Pages kept by version (default: a cache of this route's own). */
	readonly pages?: PageCache | undefined;
	/** The player pages' charts drawn ahead (default: none, each drawn with its page). */
	readonly charts?: ChartCache | undefined;
}

const HTML = 'text/html; charset=utf-8';
/** Marks a kept page that is answered 404 (page-cache.ts keeps text only). */
const MISSING = '\u0000404\u0000';

type LeagueRequest = FastifyRequest<{ Params: { league: string }; Querystring: { system?: string; page?: string } }>;

/** Rows per page of the leaderboard on the league page (the JSON and the CSV have every row). */
export const PAGE_ROWS = 100;
/** Rows of the championship table on the league page (the full table has its own page). */
export const CHAMPIONSHIP_TOP = 10;

/** `?page=` as a page number: 1 for anything that is not a positive integer. */
const pageNumber = (text: string | undefined): number => {
	const n = Number(text);
	return Number.isSafeInteger(n) && n >= 1 ? n : 1;
};
type Params = FastifyRequest<{ Params: Record<string, string> }>;

/** The address of a league page below the league's (`key`: its id, or `<id>-<secret>` when unlisted). */
const under = (key: string, ...parts: string[]) =>
	['/leagues', key, ...parts].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
const playerHref = (key: string, id: string) => under(key, 'players', id.replace(/^#/, ''));
const championshipHref = (key: string, season: string) =>
	`${under(key, 'championship')}?season=${encodeURIComponent(season)}`;

type Championship = Extract<Awaited<ReturnType<LeagueWebService['championship']>>, { available: true }>;

/** A championship row as `/standings` shows it: `3=` for a shared place, points with their decimal when not whole. */
const championshipRow = (key: string, r: WebChampionshipRow): ChampionshipRowText => ({
	place: `${r.place}${r.shared ? '=' : ''}`,
	player: r.player,
	href: playerHref(key, r.id),
	points: fmtPoints(r.points),
	wins: r.wins,
	podiums: r.podiums,
	races: r.races,
	deducted: r.deducted === 0 ? '' : `−${fmtPoints(r.deducted)}`,
});

/** `12 races counted · f1 points · best 10 results count`. */
const championshipAbout = (c: Championship): string =>
	[
		`${plural(c.races, 'race')} counted`,
		`${c.pointsText} points`,
		...(c.bestResults !== null ? [`best ${c.bestResults} results count`] : []),
	].join(' · ');

export const leaguePagesRoute =
	(options: LeaguePagesOptions): FastifyPluginAsync =>
	(app) => {
		const { web } = options;
		const pages = options.pages ?? createPageCache();
		const charts = options.charts;

		/**
		 * A page of a league: 404 for no such league; 304 for the version the browser has; else the page of this version
		 * as kept (page-cache.ts) or rendered by `render` (undefined: 404, no such race or player; `missing`: a page of
		 * its own answered 404, as an unknown season's with the league's seasons).
		 */
		const leaguePage = async (
			request: FastifyRequest,
			reply: FastifyReply,
			key: string,
			kind: string,
			render: (league: LeagueInfo) => Promise<string | { readonly missing: string } | undefined>,
		) => {
			const league = await web.find(key);
			if (league === undefined) return reply.code(404).type(HTML).send(missingHtml());
			cacheHeaders(reply, league);
			const { tag, fresh } = await versioned(web, league, kind, request, reply);
			if (fresh) return reply.code(304).send();
			const html = await pages.get(`${key}\u0000${tag}`, async () => {
				const page = await render(league);
				return page === undefined ? '' : typeof page === 'string' ? page : MISSING + page.missing;
			});
			if (html === '') return reply.code(404).type(HTML).send(missingHtml());
			if (html.startsWith(MISSING)) return reply.code(404).type(HTML).send(html.slice(MISSING.length));
			return reply.type(HTML).send(html);
		};
		const shell = (league: LeagueInfo, title: string) => ({
			title: `${title} · pitwall`,
			noindex: league.config.visibility === 'unlisted',
		});

		app.get('/', async (_request, reply) => {
			const leagues = await web.listed();
			return cacheHeaders(reply, undefined).type(HTML).send(homeHtml({ leagues }));
		});

		app.get('/leagues/:league', async (request: LeagueRequest, reply: FastifyReply) => {
			const key = request.params.league;
			const league = await web.find(key);
			let system = league?.config.headline ?? '';
			try {
				system = checkSystemOption(request.query.system, system);
			} catch (error) {
				if (!(error instanceof UserFacingError)) throw error; // a bad ?system= shows the headline system
			}
			const asked = pageNumber(request.query.page);
			return leaguePage(request, reply, key, `${system}${asked === 1 ? '' : `.p${asked}`}.html`, async (league) => {
				const [standings, races, championship] = await Promise.all([
					web.standings(league, system),
					web.lastRaces(league, options.lastRaces ?? 10),
					web.championship(league),
				]);
				const scale = leagueScale(league, system);
				const address = encodeURIComponent(key);
				// One page of the leaderboard: 2,000 rows are 330 kB of HTML, too long for a phone and slow to send.
				const pages = Math.max(1, Math.ceil(standings.rows.length / PAGE_ROWS));
				const page = Math.min(asked, pages); // past the end: the last page
				const from = (page - 1) * PAGE_ROWS;
				const rows = standings.rows.slice(from, from + PAGE_ROWS).map((row) => ({
					...shownRow(scale, row),
					player: row.player,
					href: playerHref(key, row.id),
				}));
				const query = `?system=${encodeURIComponent(system)}`;
				const pageHref = (n: number) => `${under(key)}${query}${n === 1 ? '' : `&page=${n}`}`;
				return leagueHtml(shell(league, league.config.name), {
					name: league.config.name,
					players: standings.rows.length,
					system,
					systems: Object.keys(systems),
					asOf: standings.asOf,
					uncertaintyName: uncertaintyLabel(scale),
					provisional: standings.rows.some((r) => r.provisional),
					rows,
					pager: {
						page,
						pages,
						from: from + 1,
						to: from + rows.length,
						...(page > 1 && { first: pageHref(1), previous: pageHref(page - 1) }),
						...(page < pages && { next: pageHref(page + 1), last: pageHref(pages) }),
					},
					...(championship.available && {
						championship: {
							season: championship.season.name,
							rows: championship.rows.slice(0, CHAMPIONSHIP_TOP).map((r) => championshipRow(key, r)),
							about: championshipAbout(championship),
							href: championshipHref(key, championship.season.name),
							more:
								championship.rows.length > CHAMPIONSHIP_TOP
									? `Full table (${plural(championship.rows.length, 'driver')})`
									: 'Full table',
						},
					}),
					races: races.map((race) => ({ ...race, href: under(key, 'races', race.id) })),
					csv: `/api/v1/leagues/${address}/standings.csv${query}`,
					json: `/api/v1/leagues/${address}/standings${query}`,
					forecast: under(key, 'forecast'),
				});
			});
		});

		app.get(
			'/leagues/:league/championship',
			async (request: FastifyRequest<{ Params: { league: string }; Querystring: { season?: string } }>, reply) => {
				const key = request.params.league;
				const season = request.query.season;
				return leaguePage(request, reply, key, `${championshipKind(season)}.html`, async (league) => {
					const c = await web.championship(league, season);
					const shown = c.available ? c.season.name : undefined;
					const common = {
						league: league.config.name,
						back: under(key),
						json: `/api/v1/leagues/${encodeURIComponent(key)}/championship${shown === undefined ? '' : `?season=${encodeURIComponent(shown)}`}`,
						asOf: c.asOf,
						seasons: c.seasons.map((s) => ({
							name: s.name,
							href: championshipHref(key, s.name),
							current: s.name === shown,
						})),
					};
					const title = shell(league, `Championship${shown === undefined ? '' : ` ${shown}`} · ${league.config.name}`);
					if (!c.available) {
						// An unknown season is a missing page (with the league's seasons); no season yet is the league's state.
						const html = championshipHtml(title, {
							...common,
							reason: c.reason,
							rows: [],
							deductions: false,
							teams: [],
						});
						return c.unknownSeason ? { missing: html } : html;
					}
					return championshipHtml(title, {
						...common,
						season: c.season.name,
						about: championshipAbout(c),
						rows: c.rows.map((r) => championshipRow(key, r)),
						deductions: c.rows.some((r) => r.deducted !== 0),
						teams: c.teams.map((t) => ({
							...t,
							place: `${t.place}${t.shared ? '=' : ''}`,
							points: fmtPoints(t.points),
						})),
					});
				});
			},
		);

		app.get('/leagues/:league/players/:player', async (request: Params, reply: FastifyReply) => {
			const key = request.params['league']!;
			const ref = request.params['player']!;
			return leaguePage(request, reply, key, `player-${raceKey(ref)}.html`, async (league) => {
				// The chart as the warm-up drew it for this version (chart-cache.ts), else drawn here.
				const { seq, asOf } = await web.version(league);
				const id = `#${ref}`;
				const drawn = charts?.get(league.id, `${seq}-${asOf}`, id);
				const player = await web.player(league, id, { chart: drawn === undefined });
				if (player === undefined) return undefined;
				const chart = drawn === undefined ? player.chart && ratingChartSvg(player.chart) : (drawn ?? undefined);
				const scale = leagueScale(league, player.system);
				return playerHtml(shell(league, `${player.name} · ${league.config.name}`), {
					name: player.name,
					league: league.config.name,
					back: under(key),
					system: player.system,
					chart,
					systems: player.standings.map(({ system, row }) => ({
						system,
						row: row && shownRow(leagueScale(league, system), row),
					})),
					races: player.races.map(({ why, ...race }) => ({
						...race,
						href: under(key, 'races', race.id),
						...(why !== undefined && {
							change: fmtDelta(shownChange(scale, why.before.rating, why.after.rating)),
							why: whyBody(scale, why),
						}),
					})),
				});
			});
		});

		app.get('/leagues/:league/races/:race', async (request: Params, reply: FastifyReply) => {
			const key = request.params['league']!;
			const ref = request.params['race']!;
			return leaguePage(request, reply, key, `race-${raceKey(ref)}.html`, async (league) => {
				const race = await web.race(league, ref);
				if (race === undefined) return undefined;
				const scale = leagueScale(league, race.system);
				const unratedText = race.status === 'voided' ? 'voided' : 'not rated';
				return raceHtml(shell(league, `${race.id} · ${league.config.name}`), {
					league: league.config.name,
					back: under(key),
					json: `/api/v1/leagues/${encodeURIComponent(key)}/races/${encodeURIComponent(race.id)}`,
					id: race.id,
					name: race.name,
					date: race.date,
					system: race.system,
					timed: race.results.some((r) => r.time !== null),
					voided: race.status === 'voided',
					unrated: race.unrated,
					history: race.history.map((h) => ({ ...h, kind: EDIT_KINDS[h.kind] ?? h.kind })),
					results: race.results.map((r) => ({
						place: r.status === 'finished' ? String(r.position) : r.status,
						player: r.player,
						href: playerHref(key, r.id),
						time: r.time === null ? '' : displayTime(r.time),
						rating:
							r.rating === null
								? undefined
								: {
										expected: r.rating.expectedPlace === null ? '' : fmtPosition(r.rating.expectedPlace),
										before: shownRating(scale, r.rating.before),
										after: shownRating(scale, r.rating.after),
										change: fmtDelta(shownChange(scale, r.rating.before, r.rating.after)),
									},
						unrated: unratedText,
					})),
					explained: race.results.flatMap((r) => {
						const w = race.why.get(r.id);
						return w === undefined
							? []
							: [
									{
										player: r.player,
										href: playerHref(key, r.id),
										summary: racerWhy(scale, w),
										lines: whyBody(scale, w).slice(1),
									},
								];
					}),
				});
			});
		});

		app.get('/leagues/:league/forecast', async (request: Params, reply: FastifyReply) => {
			const key = request.params['league']!;
			return leaguePage(request, reply, key, 'forecast.html', async (league) => {
				const f = await web.forecast(league);
				const common = {
					league: league.config.name,
					back: under(key),
					json: `/api/v1/leagues/${encodeURIComponent(key)}/forecast`,
					asOf: f.asOf,
				};
				const title = shell(league, `Forecast · ${league.config.name}`);
				if (!f.available) {
					return forecastHtml(title, {
						...common,
						system: league.config.headline,
						reason: f.reason,
						how: '',
						notes: [],
						rows: [],
					});
				}
				const decided = f.racesLeft === 0;
				return forecastHtml(title, {
					...common,
					system: f.system,
					...(!f.undated && { year: f.year }),
					how: forecastHow(f),
					notes: [
						...(f.leftOut > 0 ? [`${plural(f.leftOut, 'driver')} of this season left out of the field.`] : []),
						...(decided
							? ['No race left: these are the final standings (a tie on points splits the title).']
							: [
									`${f.seasons.toLocaleString('en-US')} seasons simulated (seed ${f.seed}), as /forecast does; ± is the Monte Carlo standard error.`,
									'Every contender starts every remaining race; ratings stay as they are today.',
								]),
					],
					rows: f.rows.map((r, i) => ({
						n: i + 1,
						player: r.player,
						href: playerHref(key, r.id),
						points: fmtPoints(r.pointsNow),
						title: `${fmtPct(r.pTitle)}${decided ? '' : ` ± ${fmtMcError(r.pTitleError)}`}`,
						top3: fmtPct(r.pTop3),
						expected: r.expectedPoints.toFixed(1),
					})),
				});
			});
		});
		return Promise.resolve();
	};

/** How the race page names each entry of a race's history. */
const EDIT_KINDS: Readonly<Record<string, string>> = {
	edited: 'Edited',
	voided: 'Voided',
	restored: 'Restored',
	penalty: 'Penalty',
	'penalty-withdrawn': 'Penalty withdrawn',
};

const fmtPoints = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** How the season is counted, as `/forecast`'s reply says it (commands/forecast.ts). */
function forecastHow(f: Extract<WebForecast, { available: true }>): string {
	const left = f.racesLeftFromLastYear ? ' (from last year’s number of races)' : '';
	const drops = f.bestResults !== null ? ` · best ${f.bestResults} results count` : '';
	if (f.undated) {
		return `The league’s races have no dates: a season from zero with the drivers of the latest race, ${plural(f.racesLeft, 'race')}; ${f.pointsText} points${drops}.`;
	}
	if (f.contendersFrom !== null) {
		return `No race yet in ${f.year}: a season from zero with the drivers of the latest race (${f.contendersFrom}), ${f.racesLeft} left${left}; ${f.pointsText} points${drops}.`;
	}
	return `${plural(f.racesSoFar, 'race')} so far in ${f.year}, ${f.racesLeft} left${left}; ${f.pointsText} points${drops}.`;
}

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
