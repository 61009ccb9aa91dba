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
