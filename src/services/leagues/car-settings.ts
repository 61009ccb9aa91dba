import type { LeagueConfig } from '../../league/league-events.js';
import { getSystem } from '../../ratings/index.js';
import type { ParamOverrides } from '../../ratings/types.js';

/**
 * `/league config cars:on|off` (docs/cars.md): the driver and the car rated apart. Only endure and speed have a car
 * part (R = D + C); the setting is their parameter `cars`, written for both systems, so that `/league config
 * parameters:` and `pitwall replay --param cars=true` say the same thing; the car's step and carry-over are their
 * parameters `kCar` and `carCarry` (`parameters: endure.kCar=0.08 speed.kCar=0.08`). A change is a
 * `league-configured` event like any other: every rating replays with it.
 */

/** The systems that can rate cars apart from drivers. */
export const CAR_SYSTEMS = ['endure', 'speed'] as const;
export type CarSystem = (typeof CAR_SYSTEMS)[number];

export const isCarSystem = (system: string): system is CarSystem => (CAR_SYSTEMS as readonly string[]).includes(system);

/** The league's parameters with cars turned on or off in endure and speed; the same object when `cars` is absent. */
export function withCarSettings(
	params: Readonly<Record<string, ParamOverrides>>,
	cars: 'on' | 'off' | undefined,
): Readonly<Record<string, ParamOverrides>> {
	if (cars === undefined) return params;
	const next: Record<string, ParamOverrides> = { ...params };
	for (const system of CAR_SYSTEMS) {
		const overrides: Record<string, string | number | boolean> = { ...params[system] };
		// Off is the parameter's default: the override goes, as `endure.cars=default` would take it away. The car's
		// step and carry-over stay (`parameters: endure.kCar=0.08`), for the next time cars are on.
		if (cars === 'on') overrides['cars'] = true;
		else delete overrides['cars'];
		if (Object.keys(overrides).length === 0) delete next[system];
		else next[system] = overrides;
	}
	return next;
}

/** The car settings of one system as its resolved parameters hold them. */
export interface CarParams {
	readonly cars: boolean;
	readonly kCar: number;
	readonly carCarry: number;
}

/** `system`'s car settings in the league (undefined for a system without a car part). */
export function carParamsOf(config: Pick<LeagueConfig, 'params'>, system: string): CarParams | undefined {
	if (!isCarSystem(system)) return undefined;
	const p = getSystem(system).params(config.params[system]) as Partial<CarParams>;
	return { cars: p.cars === true, kCar: Number(p.kCar), carCarry: Number(p.carCarry) };
}

/** The systems of the league that rate cars now (endure, speed, or both), in that order. */
export function carSystemsOf(config: Pick<LeagueConfig, 'params'>): CarSystem[] {
	return CAR_SYSTEMS.filter((system) => carParamsOf(config, system)?.cars === true);
}

/** `car step 0.3, keeps 57% over a winter`. */
const carParamsText = (p: CarParams) => `car step ${p.kCar}, keeps ${+(p.carCarry * 100).toFixed(2)}% over a winter`;

/**
 * `/league info`'s line: `Cars: rated apart from drivers in endure and speed (car step 0.3, keeps 57% over a
 * winter)`; undefined while no system rates cars (the default says nothing).
 */
export function carSettingsText(config: Pick<LeagueConfig, 'params'>): string | undefined {
	const on = carSystemsOf(config);
	if (on.length === 0) return undefined;
	const settings = on.map((system) => carParamsOf(config, system)!);
	const same = settings.every((p) => carParamsText(p) === carParamsText(settings[0]!));
	const detail = same
		? `(${carParamsText(settings[0]!)})`
		: `(${on.map((system, i) => `${system}: ${carParamsText(settings[i]!)}`).join('; ')})`;
	return `Cars: rated apart from drivers in ${on.join(' and ')} ${detail}`;
}
