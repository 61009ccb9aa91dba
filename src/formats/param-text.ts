import type { ParamOverrides } from '../ratings/types.js';

/** Thrown for a `/league config parameters:` text that is not `system.name=value …`. */
export class ParamTextError extends Error {
	override readonly name = 'ParamTextError';
}

/**
 * Apply a typed parameter text to a league's overrides: `glicko.c=2.07 endure.k=0.14` (space- or comma-separated,
 * as `pitwall calibrate` prints them with the system in front). `system.name=default` removes an override. Values
 * stay strings; each system's params() parses and range-checks them when the league configuration is checked.
 */
export function applyParamText(
	current: Readonly<Record<string, ParamOverrides>>,
	text: string,
): Record<string, ParamOverrides> {
	const next: Record<string, Record<string, string | number | boolean>> = Object.fromEntries(
		Object.entries(current).map(([system, overrides]) => [system, { ...overrides }]),
	);
	const items = text.split(/[\s,]+/).filter((item) => item !== '');
	if (items.length === 0) throw new ParamTextError('no parameters given: write them as system.name=value');
	for (const item of items) {
		const match = /^([a-z][a-z0-9-]*)\.([A-Za-z][A-Za-z0-9]*)=(.+)$/.exec(item);
		if (match === null) throw new ParamTextError(`"${item}" is not system.name=value (for example glicko.c=2.07)`);
		const [, system = '', name = '', value = ''] = match;
		const overrides = (next[system] ??= {});
		if (value === 'default') delete overrides[name];
		else overrides[name] = value;
		if (Object.keys(overrides).length === 0) delete next[system];
	}
	return next;
}

/** A league's parameters as `/league config parameters:` takes them (applyParamText reads it back): `glicko.c=2 …`. */
export function paramText(params: Readonly<Record<string, ParamOverrides>>): string {
	return Object.entries(params)
		.flatMap(([system, overrides]) => Object.entries(overrides).map(([name, value]) => `${system}.${name}=${value}`))
		.join(' ');
}
