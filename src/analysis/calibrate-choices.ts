/**
 * Calibration over the choices that are not numbers: how retirements are read (rankRace), whether
 * ratings restart every calendar year, and, for endure and speed, whether they forget while idle and whether they rate
 * the car apart from the driver (`cars`: R = D + C, pl-elo.ts). Each combination
 * that the history allows is calibrated on its numbers (calibrate.ts) and scored by the same winner log-likelihood,
 * so the combinations compare directly: the best is the one a league should run.
 *
 * What a history allows: a yearly reset and forgetting need a date on every race; retirements are only a choice
 * when some race has one; forgetting is a choice of the systems that have it (endure and speed: φ); cars are a choice
 * of endure and speed where some result names a car (or a team, its stand-in).
 */
import { calibrate, searchSpace, type CalibrationResult } from './calibrate.js';
import { historyHasCars } from './calibration-space.js';
import { RETIREMENT_READINGS, type RetirementReading } from '../ratings/race.js';
import type { ParamOverrides, Race, RatingSystem } from '../ratings/types.js';

export interface Choices {
	readonly retirements: RetirementReading;
	readonly reset: 'yearly' | 'none';
	/** Whether idle ratings forget (endure/speed φ searched) or not (φ = 1); `n/a` for the other systems. */
	readonly forgetting: 'on' | 'off' | 'n/a';
	/** Whether the car is rated apart from the driver (endure/speed `cars`); `n/a` where no result names a car. */
	readonly cars: 'on' | 'off' | 'n/a';
}

export interface ChoiceResult {
	readonly choices: Choices;
	readonly calibration: CalibrationResult;
}

export interface CalibrateChoicesOptions {
	readonly fixed?: ParamOverrides | undefined;
	/**
	 * Backtests per combination. Default 30 (the numbers of each settle well within it), 15 per searched number
	 * beyond two (cars on, carried and dated: k, half-life, kCar, carCarry get 60).
	 */
	readonly maxEvaluations?: number | undefined;
	/** Score only the races from this day on (backtest.ts); the ratings replay from the first race. */
	readonly scoreFrom?: string | undefined;
}

/** Systems whose forgetting (the φ of pl-elo.ts) and car part (its `cars`) are choices. */
const FORGETTING = new Set(['endure', 'speed']);
const CARS = FORGETTING;
const CHOICE_EVALUATIONS = 30;
const CHOICE_EVALUATIONS_PER_DIMENSION = 15;

/** Every combination the history allows, in a fixed order. */
export function choicesFor(systemId: string, races: readonly Race[]): Choices[] {
	const dated = races.length > 0 && races.every((race) => race.date !== undefined);
	const retired = races.some((race) => race.entries.some((entry) => entry.status === 'DNF'));
	const readings: readonly RetirementReading[] = retired ? RETIREMENT_READINGS : ['ordered'];
	const resets = dated ? (['none', 'yearly'] as const) : (['none'] as const);
	const carChoices = CARS.has(systemId) && historyHasCars(races) ? (['off', 'on'] as const) : (['n/a'] as const);
	const out: Choices[] = [];
	for (const cars of carChoices) {
		for (const retirements of readings) {
			for (const reset of resets) {
				// Forgetting is searched only with ratings carried across seasons (calibration-space.ts).
				const forgetting =
					FORGETTING.has(systemId) && dated && reset === 'none' ? (['on', 'off'] as const) : (['n/a'] as const);
				for (const f of forgetting) out.push({ retirements, reset, forgetting: f, cars });
			}
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
	const dated = races.length > 0 && races.every((race) => race.date !== undefined);
	const cars = historyHasCars(races);
	const results = choicesFor(system.id, races).map((choices): ChoiceResult => {
		const withCars = choices.cars === 'n/a' ? fixed : { ...fixed, cars: choices.cars === 'on' };
		const reset = choices.reset === 'yearly' ? 'yearly' : undefined;
		const searched = searchSpace(system.id, system.params(withCars) as object, { dated, reset, cars }).dimensions.map(
			(d) => d.name,
		);
		// With forgetting off, φ stays 1: the other numbers are searched.
		const only = choices.forgetting === 'off' ? searched.filter((name) => name !== 'halfLifeDays') : undefined;
		const dimensions = only?.length ?? searched.length;
		const calibration = calibrate(system, races, {
			fixed: choices.forgetting === 'off' ? { ...withCars, phi: 1 } : withCars,
			reset,
			retirements: choices.retirements,
			scoreFrom: options.scoreFrom,
			maxEvaluations:
				options.maxEvaluations ?? CHOICE_EVALUATIONS + CHOICE_EVALUATIONS_PER_DIMENSION * Math.max(0, dimensions - 2),
			...(only !== undefined && { only }),
		});
		return { choices, calibration };
	});
	return results
		.map((r, i) => ({ r, i }))
		.sort((a, b) => b.r.calibration.bestLogLikelihood - a.r.calibration.bestLogLikelihood || a.i - b.i)
		.map(({ r }) => r);
}
