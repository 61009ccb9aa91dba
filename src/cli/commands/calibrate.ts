import {
	dayArg,
	noExtraPositionals,
	paramOverrides,
	parseCommandArgs,
	required,
	resetArg,
	retirementsArg,
	systemArg,
	UsageError,
} from '../args.js';
import { loadHistory, num, type CliCommand } from '../command.js';
import {
	calibrate,
	DEFAULT_MAX_EVALUATIONS,
	EVALUATIONS_PER_DIMENSION,
	type CalibrationResult,
} from '../../analysis/calibrate.js';
import { calibrateChoices, type ChoiceResult } from '../../analysis/calibrate-choices.js';
import type { AnyRatingSystem } from '../../ratings/types.js';

const options = {
	input: { type: 'string' },
	system: { type: 'string' },
	reset: { type: 'string' },
	retirements: { type: 'string' },
	'score-from': { type: 'string' },
	choices: { type: 'boolean' },
	param: { type: 'string', multiple: true },
	'max-evaluations': { type: 'string' },
	search: { type: 'string' },
	json: { type: 'boolean' },
} as const;

/** A number for the table: 4 significant digits, or a word for the infinite half-life of "no forgetting". */
function show(value: number | undefined): string {
	if (value === undefined) return '';
	if (value === Infinity) return '∞ (off)';
	return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}

/** How many races were scored, and from when with --score-from (the ratings replayed from the first race). */
function scoredRaces(result: CalibrationResult): string {
	if (result.scoreFrom === undefined) return `${result.races} races scored`;
	const first = result.firstScoredDate ? `, the first on ${result.firstScoredDate}` : '';
	return `${result.races} races scored from ${result.scoreFrom}${first}; rated from the first race`;
}

function table(result: CalibrationResult, input: string, reset: string | undefined): string {
	const lines = [
		`calibrate ${result.system} on ${input} (${scoredRaces(result)}${reset ? `, reset ${reset}` : ''}): ` +
			`${result.evaluations} backtests (cap ${result.maxEvaluations})`,
	];
	const width = Math.max(24, ...result.dimensions.map((d) => d.name.length));
	for (const d of result.dimensions) {
		lines.push(`  ${d.name.padEnd(width)} ${show(result.defaultPoint[d.name])} → ${show(result.bestPoint[d.name])}`);
	}
	const perRace = result.races > 0 ? `, ${(result.gain / result.races).toFixed(4)} per race` : '';
	lines.push(
		`  ${'winner log-likelihood'.padEnd(width)} ${result.defaultLogLikelihood.toFixed(2)} → ` +
			`${result.bestLogLikelihood.toFixed(2)} (gain +${result.gain.toFixed(2)} nats${perRace})`,
	);
	// The gain's noise: /league calibrate proposes only a gain over twice it.
	if (result.gain > 0) {
		lines.push(
			`  ${'gain standard error'.padEnd(width)} ${result.gainStandardError.toFixed(2)} nats (paired over the races: ` +
				`a gain within 2 of these is within the noise)`,
		);
	}
	for (const note of result.notes) lines.push(`  note: ${note}`);
	if (result.races === 0) lines.push('  note: no race was scored (the system could not rate any race of this history)');
	return lines.join('\n');
}

/** The settings of a league that reproduce a combination: `/league config` options and parameters. */
function settingsOf(system: AnyRatingSystem, result: ChoiceResult): string {
	const parameters = Object.entries(result.calibration.bestOverrides)
		.map(([name, value]) => `${system.id}.${name}=${typeof value === 'number' ? num(value) : String(value)}`)
		.join(' ');
	const { retirements, reset } = result.choices;
	return `reset:${reset} retirements:${retirements}${parameters === '' ? '' : ` parameters:${parameters}`}`;
}

function choicesTable(system: AnyRatingSystem, results: readonly ChoiceResult[], input: string): string {
	const best = results[0]!;
	const from = best.calibration.scoreFrom === undefined ? '' : ` (scored from ${best.calibration.scoreFrom})`;
	const lines = [
		`calibrate ${system.id} on ${input}${from}: ${results.length} combinations of the choices, each calibrated on its numbers`,
		`  ${'retirements'.padEnd(11)} ${'reset'.padEnd(6)} ${'forgetting'.padEnd(10)} ${'cars'.padEnd(4)} ` +
			`${'races'.padStart(5)} ${'LL'.padStart(9)}  best numbers`,
	];
	for (const { choices, calibration } of results) {
		const numbers = Object.entries(calibration.bestPoint)
			.map(([name, value]) => `${name}=${show(value)}`)
			.join(' ');
		lines.push(
			`  ${choices.retirements.padEnd(11)} ${choices.reset.padEnd(6)} ${choices.forgetting.padEnd(10)} ` +
				`${choices.cars.padEnd(4)} ${String(calibration.races).padStart(5)} ` +
				`${calibration.bestLogLikelihood.toFixed(2).padStart(9)}  ${numbers || '-'}`,
		);
	}
	const next = results[1];
	lines.push(
		`best: ${best.choices.retirements} retirements, ${best.choices.reset === 'yearly' ? 'a yearly reset' : 'no reset'}` +
			(best.choices.forgetting === 'n/a' ? '' : `, forgetting ${best.choices.forgetting}`) +
			(best.choices.cars === 'n/a' ? '' : `, cars ${best.choices.cars}`) +
			(next === undefined
				? ''
				: ` (${(best.calibration.bestLogLikelihood - next.calibration.bestLogLikelihood).toFixed(2)} nats ahead of the next)`),
		`settings (for /league config): ${settingsOf(system, best)}`,
		'  note: a reading of retirements that leaves them out scores fewer or other races only when a race is all retirements;',
		'  the log-likelihoods compare the same races otherwise.',
	);
	return lines.join('\n');
}

export default {
	name: 'calibrate',
	summary: 'tune a system’s main parameters on a history by the backtest’s winner log-likelihood',
	usage: `pitwall calibrate --input <history.csv> --system <id> [--reset yearly] [--retirements ordered|tied|excluded]
                  [--score-from YYYY-MM-DD] [--param name=value ...] [--max-evaluations N] [--search name,...] [--json]
       pitwall calibrate --input <history.csv> --system <id> --choices [--score-from YYYY-MM-DD] [--param name=value ...]

Searches the system's main parameters (folyami k; glicko initialRd and, with dates, c; endure/speed k, or kInf
with --param extended=true, and with dates and without --reset the forgetting half-life, phi = 2^(-1/days); with
--param cars=true, where results name cars, the car's step kCar and, with dates and without --reset, carCarry, the
share a car keeps at a new year) to maximise the backtest's winner log-likelihood, with at most --max-evaluations
backtests (the defaults' included; default ${DEFAULT_MAX_EVALUATIONS}, ${EVALUATIONS_PER_DIMENSION} per searched number beyond two).
Prints the defaults → best, the gain, then the best parameters as --param lines (or JSON with --json).
--param name=value    fixed parameters; a searched one is also the starting point.
--search name,...     search only these (names as printed, e.g. k or halfLifeDays).
--reset yearly        restart every rating at the first race of each calendar year (needs dates).
--retirements R       read retirements (DNF) in their order (ordered, the default), tied at the back, or excluded.
--score-from DAY      score only the races dated on or after DAY (the ratings still replay from the first race), as
                      backtest --score-from does: tune on a window of a longer history.
--choices             also search the choices that are not numbers: every reading of retirements (when the history
                      has any), yearly reset or not (with dates), and for endure/speed forgetting on or off and, where
                      results name cars, cars on or off; each combination calibrated on its numbers (at most 30
                      backtests each, 15 more per searched number beyond two), best first.`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const system = systemArg(required(values.system, 'system'));
		const fixed = paramOverrides(values.param ?? [], [system]).get(system) ?? {};
		system.params(fixed); // ParamError on a bad value, before reading the history
		const reset = resetArg(values.reset);
		let maxEvaluations: number | undefined;
		if (values['max-evaluations'] !== undefined) {
			maxEvaluations = Number(values['max-evaluations']);
			if (!Number.isInteger(maxEvaluations) || maxEvaluations < 1) {
				throw new UsageError(`--max-evaluations must be a positive integer, got "${values['max-evaluations']}"`);
			}
		}
		const only = values.search
			?.split(',')
			.map((name) => name.trim())
			.filter((name) => name !== '');
		const retirements = retirementsArg(values.retirements);
		const scoreFrom = dayArg(values['score-from'], 'score-from');
		const input = required(values.input, 'input');
		const races = loadHistory(input, io);
		if (scoreFrom !== undefined && !races.some((race) => race.date !== undefined)) {
			throw new UsageError('--score-from needs dated races; no race of the history has a date');
		}
		if (values.choices) {
			if (reset !== undefined || retirements !== undefined || only !== undefined) {
				throw new UsageError('--choices searches --reset and --retirements itself, and every number: leave those out');
			}
			io.out(choicesTable(system, calibrateChoices(system, races, { fixed, scoreFrom }), input) + '\n');
			return 0;
		}
		if (reset !== undefined) {
			const undated = races.find((race) => race.date === undefined);
			if (undated) throw new UsageError(`--reset yearly needs dated races; race ${undated.id} has no date`);
		}
		const result = calibrate(system, races, { fixed, reset, retirements, maxEvaluations, only, scoreFrom });
		// The form `/league config parameters:` takes (param-text.ts), which `--param` takes too: fixed
		// overrides included, so the league reproduces the best log-likelihood.
		const parameters = Object.entries(result.bestOverrides)
			.map(([name, value]) => `${system.id}.${name}=${typeof value === 'number' ? num(value) : String(value)}`)
			.join(' ');
		const paramLines = parameters === '' ? [] : parameters.split(' ').map((item) => `--param ${item}`);
		if (values.json) {
			const { trace, ...summary } = result;
			const finite = (point: Readonly<Record<string, number>>) =>
				Object.fromEntries(Object.entries(point).map(([k, v]) => [k, Number.isFinite(v) ? v : String(v)]));
			const report = {
				...summary,
				defaultPoint: finite(result.defaultPoint),
				bestPoint: finite(result.bestPoint),
				gainStandardError: Number.isFinite(result.gainStandardError)
					? result.gainStandardError
					: String(result.gainStandardError),
				parameters,
				paramArgs: paramLines,
				trace: trace.map((step) => ({
					...step,
					point: finite(step.point),
					logLikelihood: Number.isFinite(step.logLikelihood) ? step.logLikelihood : String(step.logLikelihood),
				})),
			};
			io.out(JSON.stringify(report, null, 2) + '\n');
			return 0;
		}
		io.out(table(result, input, reset) + '\n');
		io.out(
			parameters !== ''
				? `parameters (for /league config parameters:, or each as --param):\n${parameters}\n`
				: Object.keys(result.bestParams).length === 0
					? '(nothing to search)\n'
					: '(the defaults are best: no parameters to set)\n',
		);
		return 0;
	},
} satisfies CliCommand;
