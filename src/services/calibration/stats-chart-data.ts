import type { ReliabilityChart } from '../../charts/chart-types.js';
import { rankSystems, type LeagueStats } from './league-stats-service.js';

/** Systems drawn on the reliability chart of `/league stats`: more lines than this tangle. */
export const CHARTED_SYSTEMS = 3;

/**
 * The reliability chart of a league's stats: the first CHARTED_SYSTEMS systems that scored races, best first
 * (rankSystems), each with its non-empty deciles. Titled with the league and the day of its
 * last dated race (or its count of races when none is dated). Undefined when no system scored a race (a league of
 * one race): there is nothing to draw.
 */
export function reliabilityChartOf(stats: LeagueStats): ReliabilityChart | undefined {
	const ranked = rankSystems(stats.systems)
		.filter((s) => s.backtest.races > 0)
		.slice(0, CHARTED_SYSTEMS);
	if (ranked.length === 0) return undefined;
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
