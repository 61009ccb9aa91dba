/**
 * The player pages' rating-history charts, drawn for every player of a league when a new version of it is first seen
 * (a step of the web service's warm-up: league-web-service.ts alsoWarm), so that a player page's first visit reads its
 * chart rather than drawing it. Drawing one is the dearest part of a player page: the series has a point per week of
 * idle growth (services/chart-data.ts), some 1,900 for a player of a 36-year league, about 3 ms of a page's 6; under
 * 200 requests a second of mostly first visits (bench/pages.ts), that was the difference between keeping up and
 * falling behind. The warm-up yields between players; a newer version stops it and starts its own.
 *
 * Kept: the charts of one version per league (the latest), at most MAX_CHARTS of them (the leaderboard's order first:
 * the players most looked at), about 10 kB each.
 */
import { createSlicer } from '../event-loop.js';
import type { LeagueWebService } from '../services/web/league-web-service.js';
import type { LeagueInfo } from '../storage/ports.js';
import { ratingChartSvg, type ChartSvg } from './pages/rating-chart-svg.js';

/** Charts kept per league (a league of 2,000 players: about 20 MB). */
const MAX_CHARTS = 5000;
/** Leagues whose charts are kept. */
const KEPT_LEAGUES = 4;

export interface ChartCache {
	/** Player `id`'s chart of this version (`seq-asOf`): the SVG's geometry, null for no chart; undefined: not drawn. */
	get(league: string, version: string, id: string): ChartSvg | null | undefined;
}

export function createChartCache(web: LeagueWebService): ChartCache {
	const leagues = new Map<string, { readonly version: string; readonly charts: Map<string, ChartSvg | null> }>();
	const drawAll = async (league: LeagueInfo, current: () => boolean) => {
		const { seq, asOf } = await web.version(league);
		const charts = new Map<string, ChartSvg | null>();
		leagues.delete(league.id);
		leagues.set(league.id, { version: `${seq}-${asOf}`, charts });
		if (leagues.size > KEPT_LEAGUES) leagues.delete(leagues.keys().next().value!);
		const slicer = createSlicer();
		for (const id of (await web.playersByInterest(league)).slice(0, MAX_CHARTS)) {
			if (!current()) return;
			const chart = await web.playerChart(league, id);
			charts.set(id, (chart && ratingChartSvg(chart)) ?? null);
			if (slicer.due()) await slicer.pause();
		}
	};
	web.alsoWarm(drawAll);
	return {
		get(league, version, id) {
			const kept = leagues.get(league);
			return kept?.version === version ? kept.charts.get(id) : undefined;
		},
	};
}
