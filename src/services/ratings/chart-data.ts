import type {
	ForecastChart,
	LeaderboardChart,
	OddsChart,
	RatingHistoryChart,
	RatingPoint,
	RatingSeries,
} from '../../charts/chart-types.js';
import { RACES_PER_STEP } from '../../event-loop.js';
import { runInSlices } from '../../storage/in-slices.js';
import { addDays, daysBetween } from '../../league/dates.js';
import { playerHistoriesInSteps, type HistoryStep } from '../../league/player-history.js';
import type { Standing } from '../../league/replay.js';
import { happenedBy } from '../../league/standings.js';
import { getSystem } from '../../ratings/index.js';
import type { AnyRatingSystem, RatingSummary } from '../../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import type { HistoryCache } from '../caches/history-cache.js';
import type { ForecastView } from './forecast-service.js';
import type { OddsResult } from './odds-service.js';
import { everyRaceDated, latestDatedRace } from '../leagues/league-day.js';
import { leagueScale } from './shown-scale.js';
import { ratingScale, type RatingScale } from '../../formats/rating-scale.js';
import { replayOptionsOf } from '../../league/replay-options.js';

/**
 * The data behind the charts, from the league's standings as of a day: the renderers (src/charts) draw
 * it and know nothing of rating systems.
 */

/** Players on one rating chart. */
export const MAX_CHART_PLAYERS = 4;
/** Rows of the leaderboard chart. */
export const LEADERBOARD_CHART_ROWS = 20;
/** Idle stretches longer than this get a grown point every GROWTH_STEP_DAYS, so the band's widening shows. */
const GROWTH_STEP_DAYS = 7;

/**
 * A rating as drawn: on the shown scale (rating-scale.ts), with the band rating ± 2 × the shown uncertainty (Glicko:
 * ± 2 RD; endure and speed in the extended form: ± 2√k in points, k being the per-racer variance of R, endure-Elo
 * paper eq. 4-6); none for Folyami, stk and the base form (one global k, the same for everyone, is no uncertainty of
 * a player).
 */
export function drawnRating(scale: RatingScale, s: RatingSummary): { rating: number; low?: number; high?: number } {
	const rating = scale.rating(s.rating);
	const u = scale.uncertainty(s.uncertainty);
	return u === undefined ? { rating } : { rating, low: rating - 2 * u, high: rating + 2 * u };
}

/** The legend of the band: `±2 RD`, or `±2 sd` on the points scale. */
export function bandLabel(scale: RatingScale): string | undefined {
	if (scale.uncertaintyName === undefined) return undefined;
	return scale.uncertaintyName === 'RD' ? '±2 RD' : '±2 sd';
}

const point = (
	scale: RatingScale,
	s: RatingSummary,
	at: { day: string; race?: string; index?: number; restart?: boolean },
) => ({
	day: at.day,
	...drawnRating(scale, s),
	provisional: s.provisional,
	...(at.race !== undefined && { race: at.race }),
	...(at.index !== undefined && { index: at.index }),
	...(at.restart === true && { restart: true }),
});

/** One player's points: each race (before it when idle growth moved it, after it with a marker), growth between, today. */
function seriesPoints(
	system: AnyRatingSystem,
	params: unknown,
	scale: RatingScale,
	steps: readonly HistoryStep<unknown>[],
	asOf: string,
	dated: boolean,
): RatingPoint[] {
	const points: RatingPoint[] = [];
	const summary = (state: unknown) => system.summary(state, params);
	if (!dated) {
		// Undated races have no yearly reset: a newcomer step is only the player's first race.
		for (const step of steps) points.push(point(scale, step.after, { day: '', race: step.race, index: step.index }));
		return points;
	}
	let previous: HistoryStep<unknown> | undefined;
	// A race dated before one rated earlier (confirmed late, back-dated) moved the rating in rating order: it is drawn
	// on the day of the race before it, so the line never runs back in time (and grows nothing in between).
	let latest = '';
	const inOrder: (HistoryStep<unknown> & { readonly date: string })[] = [];
	for (const step of steps) {
		if (step.date === undefined) continue;
		latest = step.date > latest ? step.date : latest;
		inOrder.push({ ...step, date: latest });
	}
	const growth = (from: HistoryStep<unknown>, until: string) => {
		const days = daysBetween(from.date!, until);
		for (let d = GROWTH_STEP_DAYS; d < days; d += GROWTH_STEP_DAYS) {
			const grown = { ...summary(system.elapse(from.state, d, params)), races: from.after.races };
			points.push(point(scale, grown, { day: addDays(from.date!, d) }));
		}
	};
	for (const step of inOrder) {
		if (previous !== undefined && !step.newcomer) {
			growth(previous, step.date);
			if (previous.date !== step.date) points.push(point(scale, step.before, { day: step.date }));
		}
		// A newcomer again after earlier races: the yearly reset started the rating over.
		const restart = previous !== undefined && step.newcomer;
		points.push(point(scale, step.after, { day: step.date, race: step.race, index: step.index, restart }));
		previous = step;
	}
	if (previous !== undefined && previous.date! < asOf) {
		growth(previous, asOf);
		const days = daysBetween(previous.date!, asOf);
		const today = { ...summary(system.elapse(previous.state, days, params)), races: previous.after.races };
		points.push(point(scale, today, { day: asOf }));
	}
	return points;
}

/**
 * The rating-history chart of up to four players, as of `asOf` (the races that had happened by then). A player with
 * no rated race by then has no line; with no line at all there is no chart (undefined), never a chart that fails.
 */
export async function ratingHistoryChart(
	repo: LeagueRepository,
	league: LeagueInfo,
	systemId: string,
	players: readonly { readonly id: string; readonly name: string }[],
	asOf: string,
	cache?: HistoryCache,
): Promise<RatingHistoryChart | undefined> {
	const system = getSystem(systemId);
	const params: unknown = system.params(league.config.params[systemId]);
	const scale = ratingScale(systemId, params);
	const state = await repo.loadState(league.id);
	const ids = players.slice(0, MAX_CHART_PLAYERS).map((p) => p.id);
	let histories: ReadonlyMap<string, readonly HistoryStep<unknown>[]>;
	const latest = latestDatedRace(state)?.date;
	// Undated races cannot be placed in time: such a league's chart runs by race number.
	let dated: boolean;
	if (cache !== undefined && (latest === undefined || latest <= asOf)) {
		// The usual case (as of the reading day, every race has happened): the kept histories (history-cache.ts),
		// without listing 10,000 races for each chart.
		histories = (await cache.histories(league, systemId, ids)).histories;
		dated = everyRaceDated(state);
	} else {
		const races = state
			.ratedRaces()
			.map((r) => r.race)
			.filter((race) => happenedBy(race, asOf));
		dated = races.every((race) => race.date !== undefined);
		const steps = playerHistoriesInSteps(
			system,
			params,
			races,
			ids,
			replayOptionsOf(league.config, state.seasons()),
			RACES_PER_STEP,
		);
		histories = await runInSlices(steps);
	}
	const series: RatingSeries[] = players
		.slice(0, MAX_CHART_PLAYERS)
		.map((p) => ({
			player: p.name,
			points: seriesPoints(system, params, scale, histories.get(p.id) ?? [], asOf, dated),
		}))
		.filter((s) => s.points.length > 0);
	if (series.length === 0) return undefined;
	return {
		league: league.config.name,
		system: systemId,
		asOf,
		series,
		bandLabel: bandLabel(scale),
		axis: dated ? 'date' : 'race',
	};
}

/** The leaderboard chart: the top rows of standings (with display names and ranks) and their uncertainty whiskers. */
export function leaderboardChart(
	title: { readonly league: LeagueInfo; readonly system: string; readonly asOf: string },
	top: readonly (Standing & { readonly name: string; readonly rank: number })[],
): LeaderboardChart {
	const scale = leagueScale(title.league, title.system);
	return {
		league: title.league.config.name,
		system: title.system,
		asOf: title.asOf,
		rows: top.slice(0, LEADERBOARD_CHART_ROWS).map((r) => ({
			rank: r.rank,
			name: r.name,
			...drawnRating(scale, r),
			provisional: r.provisional,
		})),
		whiskerLabel: bandLabel(scale),
	};
}

/** The odds chart: P(win) and P(top 3) by P(win); the head-to-head for a field of two. */
export function oddsChart(odds: OddsResult): OddsChart {
	const rows = [...odds.rows].sort((a, b) => b.pWin - a.pWin);
	const [first, second] = odds.rows;
	return {
		league: odds.league.config.name,
		system: odds.system,
		asOf: odds.asOf,
		rows: rows.map((r) => ({ name: r.name, pWin: r.pWin, ...(rows.length > 3 && { pTop3: r.pTop3 }) })),
		...(odds.headToHead !== undefined &&
			first !== undefined &&
			second !== undefined && { headToHead: { first: first.name, second: second.name, pFirst: odds.headToHead } }),
	};
}

/** The forecast chart: P(title) of the favourites, already sorted by the service. */
export function forecastChart(forecast: ForecastView): ForecastChart {
	return {
		league: forecast.league.config.name,
		system: forecast.system,
		asOf: forecast.asOf,
		rows: forecast.rows.map((r) => ({ name: r.name, pTitle: r.pTitle })),
		subtitle: `${forecast.seasons.toLocaleString('en-US')} seasons · ${forecast.racesLeft} races left · ${forecast.pointsText} points`,
	};
}
