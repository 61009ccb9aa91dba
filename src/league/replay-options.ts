import type { LeagueConfig } from './league-events.js';
import type { ReplayOptions } from './replay.js';

/**
 * How a league's races are replayed, from its configuration: the yearly reset and the reading of retirements. Every
 * replay of a league's history (ratings, explanations, charts, daily standings) takes its options from here, so that
 * a setting added later cannot be honoured by some and forgotten by others.
 */
export function replayOptionsOf(config: LeagueConfig | undefined): ReplayOptions {
	return { reset: config?.reset, retirements: config?.retirements };
}

/**
 * What a replay of one system depends on in the configuration (its parameters and the replay options), as one
 * string: a kept replay whose key differs was made under other settings and is replayed again. Stored with the
 * change cache's copies, so its form must stay as it is.
 */
export function replaySettingsKey(config: LeagueConfig | undefined, system: string): string {
	return JSON.stringify([config?.params[system] ?? {}, config?.reset ?? null, config?.retirements ?? null]);
}
