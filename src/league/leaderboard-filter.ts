import { daysBetween } from './dates.js';
import type { LeagueConfig } from './league-events.js';
import type { Standing } from './replay.js';

/**
 * Who the leaderboard shows: a league may hide players with fewer than `minRaces` rated races (a
 * one-race provisional typo ranked above established drivers) and players whose last race is more than `idleDays`
 * days before the standings' day. /leaderboard, its chart and the monthly post's table show the rest, ranked among
 * themselves; /rating still shows a hidden player, with the reason. Pure: the day is passed in.
 */

type FilterSettings = Pick<LeagueConfig, 'minRaces' | 'idleDays'>;

/** Why `standing` is not on the leaderboard on `day` (undefined: it is). A player with no dated race is never idle. */
export function hiddenBecause(standing: Standing, config: FilterSettings, day: string): string | undefined {
	const { minRaces, idleDays } = config;
	if (minRaces !== undefined && standing.races < minRaces) {
		return `the leaderboard shows players with at least ${minRaces} races, and this player has ${standing.races}`;
	}
	if (idleDays !== undefined && standing.lastDate !== undefined) {
		const idle = daysBetween(standing.lastDate, day);
		if (idle > idleDays) {
			return `the leaderboard shows players who raced in the last ${idleDays} days, and this player last raced on ${standing.lastDate} (${idle} days ago)`;
		}
	}
	return undefined;
}

/** The standings the leaderboard shows, in their order, and how many it hides. */
export function filterStandings<T extends Standing>(
	standings: readonly T[],
	config: FilterSettings,
	day: string,
): { readonly shown: readonly T[]; readonly hidden: number } {
	if (config.minRaces === undefined && config.idleDays === undefined) return { shown: standings, hidden: 0 };
	const shown = standings.filter((s) => hiddenBecause(s, config, day) === undefined);
	return { shown, hidden: standings.length - shown.length };
}

/** `players with at least 3 races, raced in the last 180 days` (undefined when the league filters no one). */
export function filterText(config: FilterSettings): string | undefined {
	const parts = [
		...(config.minRaces !== undefined ? [`at least ${config.minRaces} races`] : []),
		...(config.idleDays !== undefined ? [`raced in the last ${config.idleDays} days`] : []),
	];
	if (parts.length === 0) return undefined;
	return `players ${config.minRaces !== undefined ? 'with ' : 'who '}${parts.join(', ')}`;
}
