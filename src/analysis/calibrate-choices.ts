/**
 * Calibration over the choices that are not numbers: how retirements are read (rankRace), whether
 * ratings restart every calendar year, and, for endure and speed, whether they forget while idle. Each combination
 * that the history allows is calibrated on its numbers (calibrate.ts) and scored by the same winner log-likelihood,
 * so the combinations compare directly: the best is the one a league should run.
 *
 * What a history allows: a yearly reset and forgetting need a date on every race; retirements are only a choice
 * when some race has one; forgetting is a choice of the systems that have it (endure and speed: φ).
 */
import { calibrate, searchSpace, type CalibrationResult } from './calibrate.js';
import { RETIREMENT_READINGS, type RetirementReading } from '../ratings/race.js';
import type { ParamOverrides, Race, RatingSystem } from '../ratings/types.js';

export interface Choices {
	readonly retirements: RetirementReading;
	readonly reset: 'yearly' | 'none';
	/** Whether idle ratings forget (endure/speed φ searched) or not (φ = 1); `n/a` for the other systems. */
	readonly forgetting: 'on' | 'off' | 'n/a';
}

export interface ChoiceResult {
	readonly choices: Choices;
	readonly calibration: CalibrationResult;
}

export interface CalibrateChoicesOptions {
	readonly fixed?: ParamOverrides | undefined;
	/** Backtests per combination (default 30: the numbers of each settle well within it). */
	readonly maxEvaluations?: number | undefined;
}

/** Systems whose forgetting is a choice (the φ of pl-elo.ts). */
const FORGETTING = new Set(['endure', 'speed']);

/** Every combination the history allows, in a fixed order. */
export function choicesFor(systemId: string, races: readonly Race[]): Choices[] {
	const dated = races.length > 0 && races.every((race) => race.date !== undefined);
	const retired = races.some((race) => race.entries.some((entry) => entry.status === 'DNF'));
	const readings: readonly RetirementReading[] = retired ? RETIREMENT_READINGS : ['ordered'];
	const resets = dated ? (['none', 'yearly'] as const) : (['none'] as const);
	const out: Choices[] = [];
	for (const retirements of readings) {
		for (const reset of resets) {
			// Forgetting is searched only with ratings carried across seasons (calibration-space.ts).
			const forgetting =
				FORGETTING.has(systemId) && dated && reset === 'none' ? (['on', 'off'] as const) : (['n/a'] as const);
			for (const f of forgetting) out.push({ retirements, reset, forgetting: f });
		}
	}
	return out;
}

/** Calibrate every combination; sorted best first (ties keep the fixed order). */
export function calibrateChoices<S, P>(
	system: RatingSystem<S, P>,
	races: readonly Race[],
	options: CalibrateChoicesOptions = {},
): ChoiceResult[] {
	const fixed = options.fixed ?? {};
	const results = choicesFor(system.id, races).map((choices): ChoiceResult => {
		const calibration = calibrate(system, races, {
			fixed: choices.forgetting === 'off' ? { ...fixed, phi: 1 } : fixed,
			reset: choices.reset === 'yearly' ? 'yearly' : undefined,
			retirements: choices.retirements,
			maxEvaluations: options.maxEvaluations ?? 30,
			// With forgetting off, φ stays 1: the other numbers are searched.
			...(choices.forgetting === 'off' && { only: numbersWithoutForgetting(system, fixed) }),
		});
		return { choices, calibration };
	});
	return results
		.map((r, i) => ({ r, i }))
		.sort((a, b) => b.r.calibration.bestLogLikelihood - a.r.calibration.bestLogLikelihood || a.i - b.i)
		.map(({ r }) => r);
}

/** The searched quantities of a carried, dated calibration, less the forgetting half-life. */
function numbersWithoutForgetting<S, P>(system: RatingSystem<S, P>, fixed: ParamOverrides): string[] {
	const defaults = system.params(fixed) as Readonly<Record<string, unknown>>;
	const { dimensions } = searchSpace(system.id, defaults, { dated: true, reset: undefined });
	return dimensions.map((d) => d.name).filter((name) => name !== 'halfLifeDays');
}
