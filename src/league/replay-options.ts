import type { LeagueConfig } from './league-events.js';
import type { ReplayOptions, SeasonBoundaries } from './replay.js';
import type { SeasonRecord } from './season-fold.js';

/**
 * How a league's races are replayed, from its configuration and its named seasons (LeagueLog.seasons): the yearly
 * reset, the reading of retirements, and what ratings do at each season's first race (`seasonReset`). Every replay of
 * a league's history (ratings, explanations, charts, daily standings) takes its options from here, so that a setting
 * added later cannot be honoured by some and forgotten by others.
 */
export function replayOptionsOf(config: LeagueConfig | undefined, seasons: readonly SeasonRecord[]): ReplayOptions {
	const boundaries = seasonBoundariesOf(config, seasons);
	return {
		reset: config?.reset,
		retirements: config?.retirements,
		...(boundaries !== undefined && { seasons: boundaries }),
	};
}

/**
 * The seasons as the replay reads them: none under `carry` (the default: nothing happens at a season's start); the
 * named seasons' starts, or each calendar year for a league that named none (seasons.ts's implicit seasons).
 */
function seasonBoundariesOf(
	config: LeagueConfig | undefined,
	seasons: readonly SeasonRecord[],
): SeasonBoundaries | undefined {
	const reset = config?.seasonReset;
	if (reset === undefined || reset.mode === 'carry') return undefined;
	return {
		starts: seasons.length > 0 ? seasons.map((s) => s.start) : 'calendar-years',
		mode: reset.mode,
		...(reset.mode === 'soft' && { share: reset.share ?? 0 }),
	};
}

/**
 * What a replay of one system depends on in the configuration and the seasons (its parameters and the replay
 * options), as one string: a kept replay whose key differs was made under other settings and is replayed again.
 * Stored with the change cache's copies, so its form must stay as it is: the seasons are appended only when they
 * move ratings (a league under `carry` keeps the key it always had).
 */
export function replaySettingsKey(
	config: LeagueConfig | undefined,
	system: string,
	seasons: readonly SeasonRecord[],
): string {
	const boundaries = seasonBoundariesOf(config, seasons);
	return JSON.stringify([
		config?.params[system] ?? {},
		config?.reset ?? null,
		config?.retirements ?? null,
		...(boundaries === undefined ? [] : [boundaries]),
	]);
}
