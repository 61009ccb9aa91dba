import { fieldOdds, headToHead } from '../../ratings/odds/odds.js';
import { getSystem } from '../../ratings/index.js';
import type { LeagueInfo, LeagueRepository, PendingChange } from '../../storage/ports.js';
import type { Actor } from '../actor.js';
import { refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import { findPlayer } from '../players/players.js';
import { leagueOfPlayers } from '../players/league-of-players.js';
import { checkSystemOption } from './rating-service.js';

/** `/odds`: P(win), P(top 3) and expected position of a field from current ratings; head-to-head for two. */

export const MAX_ODDS_FIELD = 50;

export interface OddsRow {
	readonly id: string;
	readonly name: string;
	readonly rating: number;
	/** Where the league rates cars: the racer's latest car and its part today, which the odds add to `rating`. */
	readonly car?: { readonly name: string; readonly part: number } | undefined;
	/** Never rated under this system: a newcomer's rating is used. */
	readonly unrated: boolean;
	readonly pWin: number;
	readonly pTop3: number;
	readonly expectedPosition: number;
}

export interface OddsResult {
	readonly league: LeagueInfo;
	readonly system: string;
	/** The day the ratings are grown to (league-day.ts). */
	readonly asOf: string;
	/** In the order given. */
	readonly rows: readonly OddsRow[];
	/** P(first ahead of second), for a field of two. */
	readonly headToHead?: number | undefined;
	/** Set when the odds are from ratings before a stored change whose replay is still running (RatingsView.recomputing). */
	readonly recomputing?: PendingChange | undefined;
}

export interface OddsService {
	odds(
		actor: Actor,
		input: { players: string; system?: string | undefined; league?: string | undefined },
	): Promise<OddsResult>;
}

export function createOddsService(
	repo: LeagueRepository,
	leagues: LeagueService,
	clock: () => Date = () => new Date(),
): OddsService {
	return {
		async odds(actor, input) {
			const refs = input.players
				.split(/[,\n]/)
				.map((r) => r.trim())
				.filter((r) => r !== '');
			const league = await leagueOfPlayers(repo, leagues, actor, input.league, refs);
			const system = checkSystemOption(input.system, league.config.headline);
			if (refs.length < 2) {
				throw refused('odds-field', 'Give at least two players, comma separated (e.g. players:Alice, Bob).');
			}
			if (refs.length > MAX_ODDS_FIELD) {
				throw refused('odds-field', `At most ${MAX_ODDS_FIELD} players in one field (got ${refs.length}).`);
			}
			const state = await repo.loadState(league.id);
			const players = refs.map((ref) => findPlayer(state, ref, actor, league.config.name));
			const seen = new Set<string>();
			for (const p of players) {
				if (seen.has(p.id)) throw refused('odds-duplicate', `${p.name} is in the field twice.`);
				seen.add(p.id);
			}
			const asOf = leagueReadingDay(state, league.config.timezone, clock());
			const view = await repo.ratingsAt(league.id, system);
			const impl = getSystem(system);
			const params: unknown = impl.params(league.config.params[system]);
			const replay = view.replay;
			// Each racer's state grown to the reading day, as /rating and the CLI show it.
			const states = players.map((p): unknown => replay.stateAt(p.id, asOf));
			const field = states.map((s) => impl.performance(s, params));
			const odds = fieldOdds(field);
			const rows = players.map((p, i): OddsRow => {
				const carName = replay.player(p.id)?.car;
				const part = carName === undefined ? undefined : replay.carPart(carName, asOf);
				return {
					id: p.id,
					name: p.name,
					rating: impl.summary(states[i], params).rating,
					...(carName !== undefined && part !== undefined && { car: { name: carName, part } }),
					unrated: replay.player(p.id) === undefined,
					pWin: odds.pWin[i]!,
					pTop3: odds.pTop3[i]!,
					expectedPosition: odds.expectedPosition[i]!,
				};
			});
			return {
				league,
				system,
				asOf,
				rows,
				...(field.length === 2 && { headToHead: headToHead(field[0]!, field[1]!) }),
				...(view.recomputing !== undefined && { recomputing: view.recomputing }),
			};
		},
	};
}
