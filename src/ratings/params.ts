import { ParamError, type ParamOverrides } from './types.js';

/** One documented parameter of a rating system: its default, meaning and valid range. */
export interface ParamSpec {
	readonly name: string;
	readonly default: number | boolean | string;
	readonly doc: string;
	/** Inclusive bounds for numbers. */
	readonly min?: number;
	readonly max?: number;
	/** Allowed values for strings. */
	readonly choices?: readonly string[];
}

/**
 * Resolve a system's parameters: every default from its spec table, each override parsed and range-checked.
 * Unknown names and bad values throw ParamError naming the system, the parameter and what is allowed.
 */
export function resolveParams<P>(system: string, specs: readonly ParamSpec[], overrides: ParamOverrides = {}): P {
	const byName = new Map(specs.map((spec) => [spec.name, spec]));
	for (const name of Object.keys(overrides)) {
		if (!byName.has(name)) {
			const known = specs.map((spec) => spec.name).join(', ') || '(none)';
			throw new ParamError(`${system}: unknown parameter "${name}"; known: ${known}`);
		}
	}
	const resolved: Record<string, number | boolean | string> = {};
	for (const spec of specs) {
		const raw = overrides[spec.name];
		resolved[spec.name] = raw === undefined ? spec.default : parseParam(system, spec, raw);
	}
	return Object.freeze(resolved) as P;
}

function parseParam(system: string, spec: ParamSpec, raw: string | number | boolean): number | boolean | string {
	const where = `${system}: parameter ${spec.name}`;
	if (typeof spec.default === 'boolean') {
		if (typeof raw === 'boolean') return raw;
		const text = String(raw).toLowerCase();
		if (['true', '1', 'yes', 'on'].includes(text)) return true;
		if (['false', '0', 'no', 'off'].includes(text)) return false;
		throw new ParamError(`${where} must be true or false, got "${raw}"`);
	}
	if (typeof spec.default === 'string') {
		const text = String(raw);
		if (spec.choices && !spec.choices.includes(text)) {
			throw new ParamError(`${where} must be one of ${spec.choices.join(', ')}, got "${text}"`);
		}
		return text;
	}
	const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (String(raw).trim() === '' || !Number.isFinite(value))
		throw new ParamError(`${where} must be a number, got "${raw}"`);
	if (spec.min !== undefined && value < spec.min)
		throw new ParamError(`${where} must be at least ${spec.min}, got ${value}`);
	if (spec.max !== undefined && value > spec.max)
		throw new ParamError(`${where} must be at most ${spec.max}, got ${value}`);
	return value;
}
