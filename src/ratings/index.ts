import { endure } from './endure.js';
import { folyami } from './folyami.js';
import { glicko } from './glicko.js';
import { speed } from './speed.js';
import { stk } from './stk.js';
import { ParamError, type AnyRatingSystem, type SystemId } from './types.js';

/**
 * The registry of rating systems that rate races (relrank rates best-of-X games and lives apart, see relrank/).
 * Each entry is a pure module: (participants' states, ranked race, params) -> new states.
 */
export const systems = { folyami, glicko, endure, speed, stk } as const satisfies Partial<
	Record<SystemId, AnyRatingSystem>
>;

export type RaceSystemId = keyof typeof systems;

export function isSystemId(id: string): id is RaceSystemId {
	return Object.hasOwn(systems, id);
}

export function getSystem(id: string): AnyRatingSystem {
	if (!isSystemId(id)) {
		throw new ParamError(`unknown system "${id}"; known: ${Object.keys(systems).join(', ')}`);
	}
	return systems[id] as AnyRatingSystem;
}

/** Every race system, type-erased, in registry order (for listings, the demo and benchmarks). */
export const raceSystems: readonly AnyRatingSystem[] = Object.values(systems);
