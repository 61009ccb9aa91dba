import { createHash, timingSafeEqual } from 'node:crypto';
import type { RatingHistoryChart } from '../../charts/chart-types.js';
import type { LeagueLog, RaceEdit } from '../../league/race-log.js';
import type { RatingSummary } from '../../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import { ratingHistoryChart } from '../ratings/chart-data.js';
import type { ChangeWhy } from '../ratings/change-why.js';
import { UserFacingError } from '../errors.js';
import { createForecastService, type ForecastService, type ForecastView } from '../ratings/forecast-service.js';
import { createHistoryCache, type HistoryCache } from '../caches/history-cache.js';
import type { LeaderboardService } from '../ratings/leaderboard-service.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import { createLeagueService } from '../leagues/league-service.js';
import { checkSystemOption } from '../ratings/rating-service.js';
import { createWebRaceHistory, named, type WebRaceHistory } from './web-race-history.js';
import { systems } from '../../ratings/index.js';
import { findSeason, seasonsOf, type Season } from '../../league/seasons.js';
import { championshipOf, type TeamStandingsRow } from '../seasons/standings-service.js';
import { nameKey } from '../../league/race-log-checks.js';

/**
 * What the league's web pages and JSON API show (src/http/routes/league-api.ts, league-pages.ts; docs/web.md): the
 * public leagues, a league found by its address, its standings as the bot's `/leaderboard` computes them (every page
 * of the leaderboard service, so every number is the bot's) and its last races. Read-only; a private league, and an
 * unlisted one without its secret, is not found. Nothing here carries a Discord user id: players are named.
 */

export interface WebLeague {
	readonly id: string;
	readonly name: string;
	/** The Discord server (guild) the league belongs to. */
	readonly server: string;
	readonly headline: string;
}

export interface WebStanding {
	readonly rank: number;
	readonly player: string;
	/** The league's id of the player (`#3`): their page's address, not a Discord id. */
	readonly id: string;
	readonly rating: number;
	/** Null where the system has none per player (endure's base form). */
	readonly uncertainty: number | null;
	readonly races: number;
	readonly provisional: boolean;
}

export interface WebStandings {
	readonly league: WebLeague;
	readonly system: string;
	/** The day the standings are grown to (league-day.ts), as the bot's leaderboard. */
	readonly asOf: string;
	readonly rows: readonly WebStanding[];
}

export interface WebRace {
	readonly id: string;
	readonly name?: string | undefined;
	readonly date?: string | undefined;
	/** The first three places by name, in order (ties share a place). */
	readonly podium: readonly { readonly position: number; readonly player: string }[];
	readonly racers: number;
}

export interface LeagueWebService {
	/** The public leagues, by name. */
	listed(): Promise<WebLeague[]>;
	/** A public league by its id, or an unlisted one by `<id>-<secret>`; undefined for any other key. */
	find(key: string): Promise<LeagueInfo | undefined>;
	/**
	 * The standings' version, cheap (no replay): the league's log seq and the day they are grown to. A version seen
	 * for the first time starts its warm-up in the background (unless the service was made with `warm: false`).
	 */
	version(league: LeagueInfo): Promise<{ readonly seq: number; readonly asOf: string }>;
	/** Resolves when the warm-up of the league's current version is done (started now if it was not). */
	warmed(league: LeagueInfo): Promise<void>;
	/** Every row of `/leaderboard` for `system` (default the headline); an unknown system is a UserFacingError. */
	standings(league: LeagueInfo, system?: string): Promise<WebStandings>;
	/** The last `count` confirmed races, newest first. */
	lastRaces(league: LeagueInfo, count: number): Promise<WebRace[]>;
	/**
	 * A player of the league by id (`#3`, as merged), with their row in each system and their races; else undefined.
	 * `chart: false` leaves the chart out (the caller has it already: playerChart, kept).
	 */
	player(league: LeagueInfo, id: string, options?: { readonly chart?: boolean }): Promise<WebPlayer | undefined>;
	/** The rating-history chart of player `id` (as player() gives it), or undefined before any rated race. */
	playerChart(league: LeagueInfo, id: string): Promise<RatingHistoryChart | undefined>;
	/** Every player with a confirmed race: those on the headline leaderboard first, in its order (the most read). */
	playersByInterest(league: LeagueInfo): Promise<string[]>;
	/**
	 * A step the pages add to every version's warm-up (after the service's own): `current()` turns false once a newer
	 * version is seen, and the step should stop then.
	 */
	alsoWarm(step: (league: LeagueInfo, current: () => boolean) => Promise<void>): void;
	/** A race of the league by id (`R12`, confirmed or voided) with each racer's change in the headline system. */
	race(league: LeagueInfo, id: string): Promise<WebRaceDetail | undefined>;
	/** `/forecast` with its defaults (the same seed and seasons), kept per league, log seq and day; or why not. */
	forecast(league: LeagueInfo): Promise<WebForecast>;
	/**
	 * The championship table of a season (a name, case-insensitive; absent: the current one) as `/standings` computes
	 * it (standings-service.ts championshipOf); `available: false` with why when the league has no season or no
	 * season of that name (with its seasons).
	 */
	championship(league: LeagueInfo, season?: string): Promise<WebChampionship>;
}

export interface WebChampionshipRow {
	/** 1-based; drivers equal on points and count-back share it (`shared`). */
	readonly place: number;
	readonly shared: boolean;
	readonly player: string;
	/** The league's player id (`#3`). */
	readonly id: string;
	/** The total: counted results less deductions. */
	readonly points: number;
	/** Points of the dropped results (best-results rule). */
	readonly droppedPoints: number;
	readonly deducted: number;
	readonly races: number;
	readonly wins: number;
	readonly podiums: number;
	readonly team: string | null;
}

export interface WebSeason {
	readonly name: string;
	readonly start: string;
	/** Null while a named season is open. */
	readonly end: string | null;
}

export type WebChampionship =
	| {
			readonly league: WebLeague;
			readonly available: true;
			readonly season: WebSeason;
			/** Every season of the league, in start order. */
			readonly seasons: readonly WebSeason[];
			readonly asOf: string;
			readonly points: readonly number[];
			readonly pointsText: string;
			readonly bestResults: number | null;
			/** Races of the season counted. */
			readonly races: number;
			readonly rows: readonly WebChampionshipRow[];
			readonly teams: readonly TeamStandingsRow[];
	  }
	| {
			readonly league: WebLeague;
			readonly available: false;
			readonly asOf: string;
			readonly seasons: readonly WebSeason[];
			readonly reason: string;
			/** A season was asked for by a name the league does not have. */
			readonly unknownSeason: boolean;
	  };

/** A racer's rating in the headline system around one race, as `/race show` explains it (raw values). */
export interface WebRatingChange {
	readonly before: number;
	readonly after: number;
	/** after − before, unrounded. */
	readonly change: number;
	/** Null where the system has none per player. */
	readonly uncertaintyBefore: number | null;
	readonly uncertaintyAfter: number | null;
	/** The odds engine's expected place before the race (null when it could not place the field). */
	readonly expectedPlace: number | null;
}

export interface WebRaceResult {
	/** The place given (DNF entries are ordered among themselves by it). */
	readonly position: number;
	readonly status: string;
	readonly player: string;
	/** The league's player id (`#3`). */
	readonly id: string;
	/** Seconds, when known. */
	readonly time: number | null;
	/** Null when the headline system did not rate this racer here (DNS, DSQ, a voided or unrated race). */
	readonly rating: WebRatingChange | null;
}

export interface WebRaceDetail {
	readonly league: WebLeague;
	readonly id: string;
	readonly name?: string | undefined;
	readonly date?: string | undefined;
	readonly status: 'confirmed' | 'voided';
	/** The headline system the changes are of. */
	readonly system: string;
	/** Why the headline system did not rate this race, when it did not. */
	readonly unrated?: string | undefined;
	/** Corrections, voids, restores and time penalties, oldest first: the day and the reason (never who: a Discord id). */
	readonly history: readonly {
		readonly kind: RaceEdit['kind'];
		readonly on: string;
		readonly reason: string;
	}[];
	/** In `/race show`'s order: finishers by place, then the others. */
	readonly results: readonly WebRaceResult[];
	/** Each rated racer's explanation, by player id (the page's, not the JSON's: names of opponents and the parts). */
	readonly why: ReadonlyMap<string, ChangeWhy>;
}

export interface WebForecastRow {
	readonly player: string;
	readonly id: string;
	readonly rating: number;
	readonly pointsNow: number;
	readonly pTitle: number;
	readonly pTitleError: number;
	readonly pTop3: number;
	readonly expectedPoints: number;
}

export type WebForecast =
	| ({
			readonly league: WebLeague;
			readonly available: true;
			readonly bestResults: number | null;
			/** Favourites first, as `/forecast` lists them. */
			readonly rows: readonly WebForecastRow[];
			readonly leftOut: number;
			readonly contendersFrom: string | null;
	  } & Pick<
			ForecastView,
			| 'system'
			| 'asOf'
			| 'year'
			| 'undated'
			| 'racesSoFar'
			| 'racesLeft'
			| 'racesLeftFromLastYear'
			| 'points'
			| 'pointsText'
			| 'seasons'
			| 'seed'
	  >)
	| { readonly league: WebLeague; readonly available: false; readonly asOf: string; readonly reason: string };

export interface WebPlayer {
	readonly id: string;
	readonly name: string;
	/** Their row of each system's standings (absent from a system whose leaderboard does not show them). */
	readonly standings: readonly { readonly system: string; readonly row: WebStanding | undefined }[];
	/** Their confirmed races, newest first: the place they were given and the field's size. */
	readonly races: readonly {
		readonly id: string;
		readonly name?: string | undefined;
		readonly date?: string | undefined;
		readonly position: number;
		readonly status: string;
		readonly racers: number;
		/** Why the race moved their headline rating, as `/rating` explains it; absent when it did not rate them. */
		readonly why?: ChangeWhy | undefined;
	}[];
	/** The headline system (the chart's and the explanations'). */
	readonly system: string;
	/** Their rating history in the headline system, as `/rating`'s chart draws it; absent before any rated race. */
	readonly chart?: RatingHistoryChart | undefined;
}

export const webLeague = (league: LeagueInfo): WebLeague => ({
	id: league.id,
	name: league.config.name,
	server: league.config.guildId,
	headline: league.config.headline,
});

/** The path part of a league's address: its id when public, `<id>-<secret>` when unlisted, undefined when private. */
export function leagueAddress(league: LeagueInfo): string | undefined {
	const { visibility, webSecret } = league.config;
	// A deleted league (`/league delete`) is hidden from every page, as from every list.
	if ((league.config as { readonly deleted?: unknown }).deleted !== undefined) return undefined;
	if (visibility === 'public') return league.id;
	if (visibility === 'unlisted' && webSecret !== undefined) return `${league.id}-${webSecret}`;
	return undefined;
}

/**
 * The web address of a public league's page, or of player `#n`'s page in it, for a link posted in a channel (the
 * `/leaderboard` and `/rating` embeds): undefined without the bot's public address (HTTP_PUBLIC_URL) or when the league
 * is not public (an unlisted league's secret is not for the channel).
 */
export function leaguePageUrl(base: string | undefined, league: LeagueInfo, player?: string): string | undefined {
	if (base === undefined || league.config.visibility !== 'public') return undefined;
	const page = `${base.replace(/\/+$/, '')}/leagues/${encodeURIComponent(league.id)}`;
	return player === undefined ? page : `${page}/players/${encodeURIComponent(player.replace(/^#/, ''))}`;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The same key, compared in constant time (an unlisted league's secret is not guessed a character at a time). */
const sameKey = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/** Standings kept in memory (league × system): a few hundred rows each. */
const KEPT_STANDINGS = 64;

export interface LeagueWebServiceOptions {
	/** `/forecast`'s service (default: one over the same repository and clock: it keeps nothing). */
	readonly forecast?: ForecastService | undefined;
	/** The rating histories of `/rating`'s chart (default: a cache of this service's own). */
	readonly histories?: HistoryCache | undefined;
	/** Every rated race explained (default: a history of this service's own). */
	readonly explained?: WebRaceHistory | undefined;
	/** Warm a league's new version in the background when a page first asks for it (default true). */
	readonly warm?: boolean | undefined;
}

type PlayerRace = {
	readonly race: ReturnType<LeagueLog['races']>[number];
	readonly entry: ReturnType<LeagueLog['races']>[number]['entries'][number];
};

interface KeptStandings {
	readonly seq: number;
	readonly asOf: string;
	readonly read: Promise<{ readonly standings: WebStandings; readonly byId: ReadonlyMap<string, WebStanding> }>;
}

/** A refusal of `/forecast` in the web's words (no command option to give): by the service's code. */
function forecastRefusal(error: UserFacingError, league: LeagueInfo, asOf: string): string {
	switch (error.code) {
		case 'races-left-needed':
			return 'The forecast needs to know how many races are left this season, and this league does not say: it counts them from last year’s number of races, and last year had no more races than this year so far (or the races have no dates). Ask in Discord with /forecast races-left:.';
		case 'forecast-empty':
			return `No dated race up to ${asOf} in ${league.config.name}: nobody to forecast.`;
		case 'forecast-nothing':
			return 'No race has been run this season and none is known to be left: there is nothing to forecast yet.';
		default:
			return error.message;
	}
}

/** Forecasts kept (one per league, of one log seq and day). */
const KEPT_FORECASTS = 16;

export function createLeagueWebService(
	repo: LeagueRepository,
	leaderboard: LeaderboardService,
	clock: () => Date = () => new Date(),
	options: LeagueWebServiceOptions = {},
): LeagueWebService {
	const forecasts = options.forecast ?? createForecastService(repo, createLeagueService(repo, { clock }), clock);
	const histories = options.histories ?? createHistoryCache(repo);
	const explained = options.explained ?? createWebRaceHistory(repo);
	/** The leaderboard service asks as a member of the league's server, with no rights (read-only). */
	const reader = (league: LeagueInfo): Actor => ({
		userId: 'web',
		guildId: league.config.guildId,
		manageGuild: false,
		roles: [],
	});
	const version = async (league: LeagueInfo) => {
		const state = await repo.loadState(league.id);
		return { seq: state.seq(), asOf: leagueReadingDay(state, league.config.timezone, clock()) };
	};
	/** The version a page is of; a version seen for the first time starts the warm-up (below) when asked to. */
	const pageVersion = async (league: LeagueInfo) => {
		const v = await version(league);
		if (options.warm !== false) void warm(league, v.seq, v.asOf);
		return v;
	};
	/** Every page of `/leaderboard`, as one list. */
	const readStandings = async (league: LeagueInfo, system: string): Promise<WebStandings> => {
		const rows: WebStanding[] = [];
		let asOf = '';
		for (let page = 1, pages = 1; page <= pages; page++) {
			const view = await leaderboard.page(reader(league), { league: league.id, system, page });
			pages = view.pages;
			asOf = view.asOf;
			for (const row of view.rows) {
				rows.push({
					rank: row.rank,
					player: row.name,
					id: row.player,
					rating: row.rating,
					uncertainty: row.uncertainty ?? null,
					races: row.races,
					provisional: row.provisional,
				});
			}
		}
		return { league: webLeague(league), system, asOf, rows };
	};
	/**
	 * The standings per league and system with the version they are of (most recently used last), and each row by
	 * player id (a player page looks its rows up rather than scanning 2,000 rows per system). The promise is kept from
	 * the start: a burst of requests for a new version shares one reading (single flight), not one each.
	 */
	const kept = new Map<string, KeptStandings>();
	const standingsOf = async (league: LeagueInfo, id: string): Promise<KeptStandings> => {
		// The same league, system, log seq (every setting is an event too) and day give the same rows.
		const { seq, asOf: day } = await version(league);
		const key = `${league.id}\u0000${id}`;
		const known = kept.get(key);
		if (known !== undefined && known.seq === seq && known.asOf === day) {
			kept.delete(key); // set again: most recently used last
			kept.set(key, known);
			return known;
		}
		const read = readStandings(league, id).then((standings) => ({
			standings,
			byId: new Map(standings.rows.map((row) => [row.id, row])),
		}));
		const entry: KeptStandings = { seq, asOf: day, read };
		kept.delete(key);
		kept.set(key, entry);
		if (kept.size > KEPT_STANDINGS) kept.delete(kept.keys().next().value!);
		// A failure is not kept: the next request reads again.
		read.catch(() => {
			if (kept.get(key) === entry) kept.delete(key);
		});
		return entry;
	};
	const standings = async (league: LeagueInfo, system?: string): Promise<WebStandings> => {
		const id = checkSystemOption(system, league.config.headline);
		return (await (await standingsOf(league, id)).read).standings;
	};
	/**
	 * What the pages of a new version will ask, computed once in the background when the version is first seen: the
	 * headline standings, each player's races, the current championship table, the explained history (one replay gives
	 * every player's rated races and each race's explanation), the chart histories, then the other systems' standings. A page asked meanwhile waits only for the
	 * part it needs (each is single-flight), and the warm-up yields between slices (web-race-history.ts).
	 */
	const warmed = new Map<string, { readonly seq: number; readonly asOf: string; readonly done: Promise<void> }>();
	const extraSteps: ((league: LeagueInfo, current: () => boolean) => Promise<void>)[] = [];
	const warm = (league: LeagueInfo, seq: number, asOf: string): Promise<void> => {
		const known = warmed.get(league.id);
		if (known !== undefined && known.seq === seq && known.asOf === asOf) return known.done;
		const headline = league.config.headline;
		const current = () => {
			const now = warmed.get(league.id);
			return now !== undefined && now.seq === seq && now.asOf === asOf;
		};
		const done = (async () => {
			await standingsOf(league, headline).then((k) => k.read);
			confirmedRacesOf(league.id, await repo.loadState(league.id));
			await championship(league, undefined);
			await explained.warm(league, headline);
			await histories.histories(league, headline, []);
			for (const system of Object.keys(systems)) await standingsOf(league, system).then((k) => k.read);
			for (const step of extraSteps) if (current()) await step(league, current);
		})().catch(() => {
			// Nothing is lost: each page computes what it needs (and says what failed) when asked.
		});
		warmed.delete(league.id);
		warmed.set(league.id, { seq, asOf, done });
		if (warmed.size > KEPT_FORECASTS) warmed.delete(warmed.keys().next().value!);
		return done;
	};
	/**
	 * `/forecast` with no option, as the league's own reader: the same races left (from last year), points, seasons and
	 * seed as the bot's default, so the same numbers. The run takes seconds at most, in slices (forecast-service.ts).
	 */
	const runForecast = async (league: LeagueInfo, asOf: string): Promise<WebForecast> => {
		try {
			const f = await forecasts.forecast(reader(league), { league: league.id });
			return {
				league: webLeague(league),
				available: true,
				system: f.system,
				asOf: f.asOf,
				year: f.year,
				undated: f.undated,
				racesSoFar: f.racesSoFar,
				racesLeft: f.racesLeft,
				racesLeftFromLastYear: f.racesLeftFromLastYear,
				points: f.points,
				pointsText: f.pointsText,
				bestResults: f.bestResults ?? null,
				seasons: f.seasons,
				seed: f.seed,
				rows: f.rows.map((r) => ({
					player: r.name,
					id: r.id,
					rating: r.rating,
					pointsNow: r.pointsNow,
					pTitle: r.pTitle,
					pTitleError: r.pTitleError,
					pTop3: r.pTop3,
					expectedPoints: r.expectedPoints,
				})),
				leftOut: f.leftOut,
				contendersFrom: f.contendersFrom ?? null,
			};
		} catch (error) {
			if (!(error instanceof UserFacingError)) throw error;
			return { league: webLeague(league), available: false, asOf, reason: forecastRefusal(error, league, asOf) };
		}
	};
	/**
	 * Each player's confirmed races with their entry, in the log's order, per league and log seq: one pass over the log
	 * (60,000 entries in a big league) rather than one per player page.
	 */
	const racesIndex = new Map<string, { readonly seq: number; readonly byPlayer: Map<string, PlayerRace[]> }>();
	const confirmedRacesOf = (leagueId: string, state: LeagueLog): ReadonlyMap<string, readonly PlayerRace[]> => {
		const known = racesIndex.get(leagueId);
		if (known !== undefined && known.seq === state.seq()) return known.byPlayer;
		const byPlayer = new Map<string, PlayerRace[]>();
		for (const race of state.races()) {
			if (race.status !== 'confirmed') continue;
			for (const entry of race.entries) {
				const list = byPlayer.get(entry.player);
				if (list === undefined) byPlayer.set(entry.player, [{ race, entry }]);
				else list.push({ race, entry });
			}
		}
		racesIndex.delete(leagueId);
		racesIndex.set(leagueId, { seq: state.seq(), byPlayer });
		if (racesIndex.size > KEPT_FORECASTS) racesIndex.delete(racesIndex.keys().next().value!);
		return byPlayer;
	};
	/** The championship table of a season, read once per league, version and season (the league page shows its top). */
	const keptTables = new Map<
		string,
		{ readonly seq: number; readonly asOf: string; readonly table: Promise<WebChampionship> }
	>();
	const championship = async (league: LeagueInfo, seasonRef: string | undefined): Promise<WebChampionship> => {
		const { seq, asOf } = await version(league);
		const key = `${league.id}\u0000${nameKey(seasonRef ?? '')}`;
		const known = keptTables.get(key);
		if (known !== undefined && known.seq === seq && known.asOf === asOf) return known.table;
		const table = readChampionship(league, seasonRef);
		keptTables.delete(key);
		keptTables.set(key, { seq, asOf, table });
		if (keptTables.size > KEPT_STANDINGS) keptTables.delete(keptTables.keys().next().value!);
		table.catch(() => {
			if (keptTables.get(key)?.table === table) keptTables.delete(key);
		});
		return table;
	};
	const readChampionship = async (league: LeagueInfo, seasonRef: string | undefined): Promise<WebChampionship> => {
		const state = await repo.loadState(league.id);
		const asOf = leagueReadingDay(state, league.config.timezone, clock());
		const seasons = seasonsOf(state).map(webSeason);
		const season = findSeason(state, seasonRef, asOf);
		// A league whose races carry no dates has one table of its whole history (standings-service.ts), as /standings.
		const table =
			season !== undefined || seasonRef === undefined
				? await championshipOf(repo, league, season?.name, clock()).catch((error: unknown) => {
						if (error instanceof UserFacingError) return undefined;
						throw error;
					})
				: undefined;
		if (table === undefined) {
			const unknownSeason = seasons.length > 0;
			const reason = unknownSeason
				? `${league.config.name} has no season “${(seasonRef ?? '').slice(0, 64)}”: its seasons are ${seasons.map((x) => x.name).join(', ')}.`
				: `${league.config.name} has no season yet: a season counts dated races (the calendar year of each, or the seasons its organizers started).`;
			return { league: webLeague(league), available: false, asOf, seasons, reason, unknownSeason };
		}
		// The service's own table (the one `/standings` shows): the same points, places and counts.
		const idOf = (player: string) => state.resolve(player)?.id ?? player;
		return {
			league: webLeague(league),
			available: true,
			season: webSeason(table.season),
			seasons,
			asOf: table.asOf,
			points: table.points,
			pointsText: table.pointsText,
			bestResults: table.bestResults ?? null,
			races: table.races,
			rows: table.drivers.map((d) => ({
				place: d.place,
				shared: d.shared,
				player: d.name,
				id: idOf(d.player),
				points: d.points,
				droppedPoints: d.droppedPoints,
				deducted: d.deducted,
				races: d.races,
				wins: d.wins,
				podiums: d.podiums,
				team: d.team ?? null,
			})),
			teams: table.teams.map((t) => ({
				place: t.place,
				shared: t.shared,
				team: t.team,
				points: t.points,
				deducted: t.deducted,
				wins: t.wins,
				podiums: t.podiums,
				drivers: t.drivers,
			})),
		};
	};
	const keptForecasts = new Map<
		string,
		{ readonly seq: number; readonly asOf: string; readonly forecast: Promise<WebForecast> }
	>();
	return {
		async listed() {
			const leagues = await repo.listAllLeagues();
			return leagues
				.filter((l) => l.config.visibility === 'public')
				.map(webLeague)
				.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
		},
		async find(key) {
			let found: LeagueInfo | undefined;
			for (const league of await repo.listAllLeagues()) {
				const address = leagueAddress(league);
				if (address !== undefined && sameKey(address, key)) found = league;
			}
			return found;
		},
		version: pageVersion,
		alsoWarm: (step) => void extraSteps.push(step),
		async playerChart(league, id) {
			const state = await repo.loadState(league.id);
			const found = state.resolve(id);
			if (found === undefined) return undefined;
			const { asOf } = await version(league);
			return ratingHistoryChart(repo, league, league.config.headline, [found], asOf, histories);
		},
		async playersByInterest(league) {
			const state = await repo.loadState(league.id);
			const { standings: board } = await (await standingsOf(league, league.config.headline)).read;
			const ids = board.rows.map((r) => r.id);
			const shown = new Set(ids);
			for (const id of confirmedRacesOf(league.id, state).keys()) {
				const player = state.resolve(id)?.id ?? id;
				if (!shown.has(player)) {
					shown.add(player);
					ids.push(player);
				}
			}
			return ids;
		},
		async warmed(league) {
			const { seq, asOf } = await version(league);
			return warm(league, seq, asOf);
		},
		standings,
		async player(league, ref, options = {}) {
			const state = await repo.loadState(league.id);
			const given = state.playerById(ref);
			const found = given?.mergedInto === undefined ? given : state.playerById(given.mergedInto);
			if (found === undefined) return undefined;
			// Every system's standings as kept for this version (the warm-up reads them once per version).
			const rows: WebPlayer['standings'][number][] = [];
			for (const system of Object.keys(systems)) {
				const { byId } = await (await standingsOf(league, system)).read;
				rows.push({ system, row: byId.get(found.id) });
			}
			const system = league.config.headline;
			const nameOf = nameIn(state);
			const why = new Map(
				(await explained.playerRaces(league, system, found.id)).map((w) => [
					w.race,
					named(w, nameOf, state.race(w.race)?.name),
				]),
			);
			const races = (confirmedRacesOf(league.id, state).get(found.id) ?? [])
				.map(({ race, entry }) => ({
					id: race.id,
					name: race.name,
					date: race.date,
					position: entry.position,
					status: entry.status,
					racers: race.entries.length,
					why: why.get(race.id),
				}))
				.reverse();
			const { asOf } = await version(league);
			const chart =
				options.chart === false ? undefined : await ratingHistoryChart(repo, league, system, [found], asOf, histories);
			return { id: found.id, name: found.name, standings: rows, races, system, chart };
		},
		async race(league, ref) {
			const state = await repo.loadState(league.id);
			const record = state.race(ref.toUpperCase());
			if (record === undefined) return undefined;
			const system = league.config.headline;
			const nameOf = nameIn(state);
			const explanation =
				record.status === 'confirmed' ? await explained.explain(league, system, record.id) : undefined;
			const why = new Map<string, ChangeWhy>();
			if (explanation !== undefined && 'racers' in explanation) {
				for (const w of explanation.racers) why.set(w.player, named(w, nameOf, record.name));
			}
			const results = [...record.entries]
				.sort((a, b) => rankKey(a) - rankKey(b))
				.map((e): WebRaceResult => {
					const w = why.get(e.player);
					return {
						position: e.position,
						status: e.status,
						player: nameOf(e.player),
						id: state.resolve(e.player)?.id ?? e.player,
						time: e.time ?? null,
						rating: w === undefined ? null : ratingChange(w.before, w.after, w.expectedRank),
					};
				});
			return {
				league: webLeague(league),
				id: record.id,
				name: record.name,
				date: record.date,
				status: record.status,
				system,
				...(explanation !== undefined && 'unrated' in explanation && { unrated: explanation.unrated }),
				history: record.edits.map((edit) => ({ kind: edit.kind, on: edit.at.slice(0, 10), reason: edit.reason })),
				results,
				why,
			};
		},
		async forecast(league) {
			const { seq, asOf } = await version(league);
			const known = keptForecasts.get(league.id);
			if (known !== undefined && known.seq === seq && known.asOf === asOf) return known.forecast;
			const forecast = runForecast(league, asOf);
			keptForecasts.delete(league.id);
			keptForecasts.set(league.id, { seq, asOf, forecast });
			if (keptForecasts.size > KEPT_FORECASTS) keptForecasts.delete(keptForecasts.keys().next().value!);
			// A failure is not kept: the next page asks again.
			forecast.catch(() => {
				if (keptForecasts.get(league.id)?.forecast === forecast) keptForecasts.delete(league.id);
			});
			return forecast;
		},
		championship: (league, seasonRef) => championship(league, seasonRef),
		async lastRaces(league, count) {
			const state = await repo.loadState(league.id);
			const confirmed = state.races().filter((r) => r.status === 'confirmed');
			const nameOf = (id: string) => state.playerById(id)?.name ?? id;
			return confirmed
				.slice(-count)
				.reverse()
				.map((race) => ({
					id: race.id,
					name: race.name,
					date: race.date,
					racers: race.entries.length,
					podium: [...race.entries]
						.filter((e) => e.status === 'finished' || e.status === undefined)
						.sort((a, b) => a.position - b.position)
						.filter((e) => e.position <= 3)
						.map((e) => ({ position: e.position, player: nameOf(e.player) })),
				}));
		},
	};
}

const webSeason = (s: Season): WebSeason => ({ name: s.name, start: s.start, end: s.end ?? null });

/** `/race show`'s order: finishers by place, then DNF, DNS and DSQ entries by the place given. */
const rankKey = (e: { readonly position: number; readonly status: string }) =>
	(e.status === 'finished' ? 0 : 1e6) + e.position;

/** A player's name by id, as merged (the id itself when unknown). */
const nameIn = (state: LeagueLog) => (id: string) => state.resolve(id)?.name ?? id;

const ratingChange = (before: RatingSummary, after: RatingSummary, expected: number): WebRatingChange => ({
	before: before.rating,
	after: after.rating,
	change: after.rating - before.rating,
	uncertaintyBefore: before.uncertainty ?? null,
	uncertaintyAfter: after.uncertainty ?? null,
	expectedPlace: Number.isFinite(expected) ? expected : null,
});
