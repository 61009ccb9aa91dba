import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readCalendarDay } from '../league/dates.js';
import { latestRaceDate } from '../league/standings.js';
import type { AnyRatingSystem, Race } from '../ratings/types.js';
import { getSystem } from '../ratings/index.js';
import { RETIREMENT_READINGS, type RetirementReading } from '../ratings/race.js';
import type { SeasonBoundaries } from '../league/replay.js';
import { shareOfPercent } from '../league/seasons.js';

/** A bad command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
	override readonly name = 'UsageError';
}

/**
 * Parse a subcommand's arguments with node:util parseArgs, strict (unknown options and missing values are errors)
 * and with positionals allowed; a parse error becomes a UsageError.
 */
export function parseCommandArgs<const O extends NonNullable<ParseArgsConfig['options']>>(
	argv: readonly string[],
	options: O,
) {
	try {
		return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
}

/** The value of a required option. */
export function required<T>(value: T | undefined, name: string): T {
	if (value === undefined) throw new UsageError(`missing required option --${name}`);
	return value;
}

/** Fail on positionals beyond the first `max`. */
export function noExtraPositionals(positionals: readonly string[], max = 0): void {
	if (positionals.length > max) throw new UsageError(`unexpected argument "${positionals[max]}"`);
}

/** Look up a system by id; an unknown id is a usage error that lists the known ones (from the registry). */
export function systemArg(id: string): AnyRatingSystem {
	try {
		return getSystem(id.trim());
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
}

/** Names of the parameters a system knows: the keys of its resolved defaults. */
export function knownParams(system: AnyRatingSystem): string[] {
	return Object.keys(system.params() as object);
}

/**
 * Distribute `--param` values over the selected systems:
 * - `system.name=value` targets that system (it must be selected);
 * - `name=value` applies to every selected system that knows `name` (an error when none does).
 * Values stay strings: each system's params() parses and range-checks them (ParamError).
 */
export function paramOverrides(
	params: readonly string[],
	selected: readonly AnyRatingSystem[],
): Map<AnyRatingSystem, Record<string, string>> {
	const result = new Map<AnyRatingSystem, Record<string, string>>(selected.map((system) => [system, {}]));
	for (const param of params) {
		const eq = param.indexOf('=');
		if (eq <= 0) throw new UsageError(`--param expects name=value, got "${param}"`);
		const key = param.slice(0, eq).trim();
		const value = param.slice(eq + 1).trim();
		const dot = key.indexOf('.');
		if (dot >= 0) {
			const target = systemArg(key.slice(0, dot));
			const overrides = result.get(target);
			if (!overrides) {
				throw new UsageError(
					`--param ${key}: system ${target.id} is not selected (${selected.map((s) => s.id).join(', ')})`,
				);
			}
			overrides[key.slice(dot + 1)] = value;
			continue;
		}
		const takers = selected.filter((system) => knownParams(system).includes(key));
		if (takers.length === 0) {
			const known = selected.map((system) => `${system.id}: ${knownParams(system).join(', ') || '(none)'}`).join('; ');
			throw new UsageError(`--param ${key}: no selected system has a parameter "${key}" (${known})`);
		}
		for (const system of takers) result.get(system)![key] = value;
	}
	return result;
}

/** Resolve one system's parameters from `--param` values (ParamError on a bad value). */
export function resolveSystemParams(system: AnyRatingSystem, params: readonly string[]): unknown {
	return system.params(paramOverrides(params, [system]).get(system));
}

/** `--reset`: only `yearly` is known. */
export function resetArg(value: string | undefined): 'yearly' | undefined {
	if (value === undefined) return undefined;
	if (value !== 'yearly') throw new UsageError(`--reset must be "yearly", got "${value}"`);
	return value;
}

/** The options of a league's seasons for the commands that replay (replay, odds, forecast): seasonsArg reads them. */
export const seasonOptions = {
	'season-starts': { type: 'string' },
	'season-reset': { type: 'string' },
	'season-share': { type: 'string' },
} as const;

/**
 * `--season-starts 2027-01-09,2027-06-05 --season-reset carry|restart|soft --season-share 30`: what ratings do at
 * each season's first race, as the bot does for a league configured `/league config season-reset: season-share:`
 * whose organizers started those seasons (`/season start`; without `--season-starts`: each calendar year, the seasons
 * of a league that named none). The share is a percentage, as the bot takes it.
 */
export function seasonsArg(values: {
	readonly 'season-starts'?: string | undefined;
	readonly 'season-reset'?: string | undefined;
	readonly 'season-share'?: string | undefined;
}): SeasonBoundaries | undefined {
	const mode = values['season-reset'];
	if (mode === undefined) {
		if (values['season-starts'] !== undefined || values['season-share'] !== undefined)
			throw new UsageError('--season-starts and --season-share go with --season-reset restart|soft|carry');
		return undefined;
	}
	if (mode !== 'carry' && mode !== 'restart' && mode !== 'soft')
		throw new UsageError(`--season-reset must be carry, restart or soft, got "${mode}"`);
	const starts = values['season-starts']?.split(',').map((day) => dayArg(day, 'season-starts')!);
	if (starts?.some((day, i) => i > 0 && day <= starts[i - 1]!))
		throw new UsageError('--season-starts must be in order, each after the one before');
	const percent = values['season-share'] === undefined ? undefined : Number(values['season-share']);
	if (mode === 'soft' && !(percent !== undefined && Number.isFinite(percent) && percent >= 0 && percent <= 100))
		throw new UsageError('--season-reset soft needs --season-share, a percentage from 0 to 100');
	if (mode !== 'soft' && percent !== undefined) throw new UsageError('--season-share goes with --season-reset soft');
	return {
		starts: starts ?? 'calendar-years',
		mode,
		...(percent !== undefined && { share: shareOfPercent(percent) }),
	};
}

/** `--retirements ordered|tied|excluded`: how retirements are read (rankRace); default ordered. */
export function retirementsArg(value: string | undefined): RetirementReading | undefined {
	if (value === undefined) return undefined;
	const reading = RETIREMENT_READINGS.find((r) => r === value);
	if (reading === undefined) {
		throw new UsageError(`--retirements must be one of ${RETIREMENT_READINGS.join(', ')}, got "${value}"`);
	}
	return reading;
}

/**
 * `--as-of YYYY-MM-DD`: the day standings are grown to; default the latest race date of the history
 * (undefined when no race is dated: nothing grows).
 */
export function asOfArg(value: string | undefined, races: readonly Race[]): string | undefined {
	if (value === undefined) return latestRaceDate(races);
	return dayArg(value, 'as-of');
}

/** A day option (`--as-of`, `--season-start`…), `YYYY-MM-DD`, read as the bot reads a date option (dates.ts). */
export function dayArg(value: string | undefined, name: string): string | undefined {
	if (value === undefined) return undefined;
	const read = readCalendarDay(value, `--${name}`);
	if (!read.ok) throw new UsageError(read.problem);
	return read.date;
}
