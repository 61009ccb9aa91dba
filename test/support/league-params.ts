import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import type { RatingSystem } from '../../src/ratings/types.js';

/**
 * A system's parameters as a league created through the league service has them: the new-league defaults of
 * src/league/league-defaults.ts, not the reference defaults. Tests that check a league against a
 * direct replay use this, so their expectations are still computed, never copied.
 */
export function leagueParams<S, P>(system: RatingSystem<S, P>): P {
	return system.params(LEAGUE_DEFAULTS[system.id]);
}

/** The same parameters as `pitwall` arguments (`--param system.name=value`), for the systems a command selects. */
export function leagueParamArgs(...systems: readonly string[]): string[] {
	return systems.flatMap((system) =>
		Object.entries(LEAGUE_DEFAULTS[system] ?? {}).flatMap(([name, value]) => ['--param', `${system}.${name}=${value}`]),
	);
}
