import { createHash, timingSafeEqual } from 'node:crypto';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';
import type { Actor } from './actor.js';
import type { LeaderboardService } from './leaderboard-service.js';
import { leagueReadingDay } from './league-day.js';
import { checkSystemOption } from './rating-service.js';
import { systems } from '../ratings/index.js';

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
	/** The standings' version, cheap (no replay): the league's log seq and the day they are grown to. */
	version(league: LeagueInfo): Promise<{ readonly seq: number; readonly asOf: string }>;
	/** Every row of `/leaderboard` for `system` (default the headline); an unknown system is a UserFacingError. */
	standings(league: LeagueInfo, system?: string): Promise<WebStandings>;
	/** The last `count` confirmed races, newest first. */
	lastRaces(league: LeagueInfo, count: number): Promise<WebRace[]>;
	/** A player of the league by id (`#3`, as merged), with their row in each system and their races; else undefined. */
	player(league: LeagueInfo, id: string): Promise<WebPlayer | undefined>;
}

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
	}[];
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

export function createLeagueWebService(
	repo: LeagueRepository,
	leaderboard: LeaderboardService,
	clock: () => Date = () => new Date(),
): LeagueWebService {
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
	/** The last standings read per league and system, with the version they are of (most recently used last). */
	const kept = new Map<string, { readonly seq: number; readonly asOf: string; readonly standings: WebStandings }>();
	const standings = async (league: LeagueInfo, system?: string): Promise<WebStandings> => {
		const id = checkSystemOption(system, league.config.headline);
		// The same league, system, log seq (every setting is an event too) and day give the same rows: kept, so a busy
		// page costs one check.
		const { seq, asOf: day } = await version(league);
		const key = `${league.id}\u0000${id}`;
		const known = kept.get(key);
		if (known !== undefined && known.seq === seq && known.asOf === day) {
			return known.standings;
		}
		const read = await readStandings(league, id);
		kept.delete(key);
		kept.set(key, { seq, asOf: day, standings: read });
		if (kept.size > KEPT_STANDINGS) kept.delete(kept.keys().next().value!);
		return read;
	};
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
		version,
		standings,
		async player(league, ref) {
			const state = await repo.loadState(league.id);
			const given = state.playerById(ref);
			const found = given?.mergedInto === undefined ? given : state.playerById(given.mergedInto);
			if (found === undefined) return undefined;
			const rows: WebPlayer['standings'][number][] = [];
			for (const system of Object.keys(systems)) {
				const all = await standings(league, system);
				rows.push({ system, row: all.rows.find((r) => r.id === found.id) });
			}
			const races = state
				.races()
				.filter((r) => r.status === 'confirmed')
				.flatMap((race) => {
					const entry = race.entries.find((e) => e.player === found.id);
					return entry === undefined
						? []
						: [
								{
									id: race.id,
									name: race.name,
									date: race.date,
									position: entry.position,
									status: entry.status,
									racers: race.entries.length,
								},
							];
				})
				.reverse();
			return { id: found.id, name: found.name, standings: rows, races };
		},
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
