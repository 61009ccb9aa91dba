import { createForecastRun, DEFAULT_SEASONS, DEFAULT_SEED } from '../../analysis/forecast.js';
import { forecastSetup, racesLeftFromLastYear, racesLeftFromSeason } from '../../analysis/forecast-setup.js';
import { findSeason, seasonContains } from '../../league/seasons.js';
import { isUndatedHistory } from '../../analysis/season-so-far.js';
import { yearOf } from '../../league/dates.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { F1_POINTS, parsePointsTable, PointsTableError, pointsTableText } from '../../formats/points-table.js';
import { getSystem } from '../../ratings/index.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { createSlicer } from '../../event-loop.js';
import type { Actor } from '../actor.js';
import { refused } from '../errors.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import type { LeagueService } from '../leagues/league-service.js';

/**
 * `/forecast`: the rest of the season simulated under the league's headline system from today's
 * ratings (src/analysis/forecast.ts), with the league's points table and dropped results (`/league config`) unless
 * the command gives a points table, and the points so far this calendar year.
 */

/** Races left that `/forecast` takes: a season longer than this is not a season. */
export const MAX_FORECAST_RACES_LEFT = 50;

/**
 * Samples (racers × races) simulated between two checks of the slicer: about 2-4 ms of work, so that a slice ends
 * well under 50 ms however big the field (event-loop.ts).
 */
const SAMPLES_PER_STEP = 60_000;

export interface ForecastRowView {
	readonly id: string;
	readonly name: string;
	readonly rating: number;
	readonly pointsNow: number;
	readonly pTitle: number;
	readonly pTitleError: number;
	readonly pTop3: number;
	readonly expectedPoints: number;
}

export interface ForecastView {
	readonly league: LeagueInfo;
	readonly system: string;
	readonly asOf: string;
	readonly year: number;
	/** The league's races carry no dates: a season from zero with the latest race's drivers (season-so-far.ts). */
	readonly undated: boolean;
	/** Races of this season so far. */
	readonly racesSoFar: number;
	readonly racesLeft: number;
	/** Set when races-left was not given: taken from last year's number of races. */
	readonly racesLeftFromLastYear: boolean;
	/** The current named season (`/season start`), whose races so far count (absent: the calendar year). */
	readonly season?: string | undefined;
	/** Set when races-left was not given and the season planned its races: races left = this less those held. */
	readonly plannedRaces?: number | undefined;
	readonly points: readonly number[];
	/** `f1`, `motogp` or the list. */
	readonly pointsText: string;
	readonly bestResults?: number | undefined;
	readonly seasons: number;
	readonly seed: number;
	/** Favourites first (P(title), then expected points). */
	readonly rows: readonly ForecastRowView[];
	/** Drivers of this season left out of the field (season-so-far.ts MAX_CONTENDERS). */
	readonly leftOut: number;
	/** No race yet this season: the date of the latest race, whose drivers are the contenders. */
	readonly contendersFrom?: string | undefined;
}

export interface ForecastServiceInput {
	readonly racesLeft?: number | undefined;
	readonly points?: string | undefined;
	readonly league?: string | undefined;
	readonly seasons?: number | undefined;
	readonly seed?: number | undefined;
}

export interface ForecastService {
	forecast(actor: Actor, input: ForecastServiceInput): Promise<ForecastView>;
}

function pointsOf(text: string | undefined, league: LeagueInfo): readonly number[] {
	if (text === undefined) return league.config.points ?? F1_POINTS;
	try {
		return parsePointsTable(text);
	} catch (error) {
		if (!(error instanceof PointsTableError)) throw error;
		throw refused('bad-points', `Points: ${escapeForDiscord(error.message)}.`);
	}
}

export function createForecastService(
	repo: LeagueRepository,
	leagues: LeagueService,
	clock: () => Date = () => new Date(),
): ForecastService {
	return {
		async forecast(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			const points = pointsOf(input.points, league);
			const given = input.racesLeft;
			if (given !== undefined && !(Number.isInteger(given) && given >= 0 && given <= MAX_FORECAST_RACES_LEFT)) {
				throw refused(
					'bad-races-left',
					`Races left must be a whole number from 0 to ${MAX_FORECAST_RACES_LEFT}, not ${given}.`,
				);
			}
			const state = await repo.loadState(league.id);
			const races = state.ratedRaces().map((r) => r.race);
			const asOf = leagueReadingDay(state, league.config.timezone, clock());
			// The current named season (seasons.ts): the season so far counts from its start, and a planned number of
			// races gives the races left; a league without named seasons keeps the calendar year.
			const current = findSeason(state, undefined, asOf);
			const named = current !== undefined && !current.implicit && seasonContains(current, asOf) ? current : undefined;
			const planned =
				given === undefined && named?.plannedRaces !== undefined
					? racesLeftFromSeason(races, asOf, { start: named.start, plannedRaces: named.plannedRaces })
					: undefined;
			const racesLeft = given ?? planned?.left ?? racesLeftFromLastYear(races, asOf);
			if (racesLeft === undefined) {
				throw refused(
					'races-left-needed',
					isUndatedHistory(races)
						? 'This league’s races have no dates, so there is no season to count: give races-left, and the forecast runs that many races from zero with the drivers of the latest race.'
						: 'How many races are left this season? Give races-left, e.g. /forecast races-left:4. The forecast usually counts them from last year, but last year had no more races than this year has had so far, and no season with a planned number of races was started (/season start races:).',
				);
			}
			const system = league.config.headline;
			const impl = getSystem(system);
			const params: unknown = impl.params(league.config.params[system]);
			const view = await repo.ratingsAt(league.id, system);
			const bestResults = league.config.bestResults;
			const { season, input: run } = forecastSetup({
				races,
				asOf,
				racesLeft,
				seasonStart: named?.start,
				points,
				bestResults,
				seasons: input.seasons ?? DEFAULT_SEASONS,
				seed: input.seed ?? DEFAULT_SEED,
				// Each contender's state grown to the reading day, as /odds reads it.
				performanceOf: (player) => impl.performance(view.replay.stateAt(player, asOf), params),
			});
			if (season.contenders.length === 0) {
				throw refused(
					'forecast-empty',
					`No dated race up to ${asOf} in ${escapeForDiscord(league.config.name)}: nobody to forecast.`,
				);
			}
			// A season from zero (undated, or no race yet this year) with no race left: everyone on 0 points, tied.
			if (racesLeft === 0 && (season.undated || season.contendersFrom !== undefined)) {
				throw refused(
					'forecast-nothing',
					season.undated
						? 'With races-left 0 there is nothing to forecast: an undated league’s forecast is a season from zero. Give races-left of at least 1.'
						: `No race yet in ${season.year} and none left: nothing to forecast. Give races-left of at least 1.`,
				);
			}
			// Off the event loop's critical path: slices of a few milliseconds, a yield between them.
			const forecast = createForecastRun(run);
			const perStep = Math.max(1, Math.floor(SAMPLES_PER_STEP / Math.max(1, run.field.length * racesLeft)));
			const slicer = createSlicer();
			while (forecast.remaining > 0) {
				forecast.step(perStep);
				if (slicer.due()) await slicer.pause();
			}
			const result = forecast.result();
			const rows = season.contenders
				.map((id, i): ForecastRowView => {
					const row = result.rows[i]!;
					return {
						id,
						name: state.resolve(id)?.name ?? id,
						rating: impl.summary(view.replay.stateAt(id, asOf), params).rating,
						...row,
					};
				})
				.sort((a, b) => b.pTitle - a.pTitle || b.expectedPoints - a.expectedPoints);
			return {
				league,
				system,
				asOf,
				year: season.year ?? yearOf(asOf),
				undated: season.undated,
				racesSoFar: season.races,
				racesLeft,
				racesLeftFromLastYear: given === undefined && planned === undefined,
				...(named !== undefined && { season: named.name }),
				...(planned !== undefined && { plannedRaces: named?.plannedRaces }),
				points,
				pointsText: pointsTableText(points),
				bestResults,
				seasons: result.seasons,
				seed: result.seed,
				rows,
				leftOut: season.leftOut,
				contendersFrom: season.contendersFrom,
			};
		},
	};
}
