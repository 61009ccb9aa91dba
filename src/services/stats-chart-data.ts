import type { ReliabilityChart } from '../charts/chart-types.js';
import type { LeagueStats } from './league-stats-service.js';

/** Systems drawn on the reliability chart of `/league stats`: more lines than this tangle (issue 10 §3). */
export const CHARTED_SYSTEMS = 3;

/**
 * The reliability chart of a league's stats: the CHARTED_SYSTEMS systems with the highest winner log-likelihood among
 * those that scored races, best first, each with its non-empty deciles. Titled with the league and the day of its
 * last dated race (or its count of races when none is dated).
 */
export function reliabilityChartOf(stats: LeagueStats): ReliabilityChart {
	const ranked = stats.systems
		.filter((s) => s.backtest.races > 0)
		.sort((a, b) => b.backtest.winner_log_likelihood - a.backtest.winner_log_likelihood)
		.slice(0, CHARTED_SYSTEMS);
	return {
		league: stats.league.config.name,
		system: 'calibration',
		asOf: stats.lastDate ?? `${stats.races} races`,
		series: ranked.map((s) => ({
			system: s.system,
			points: s.stats.reliability.flatMap((bin) =>
				bin.count === 0
					? []
					: [
							{
								predicted: bin.meanPredicted!,
								observed: bin.observed!,
								count: bin.count,
								standardError: bin.standardError ?? undefined,
							},
						],
			),
		})),
	};
}
