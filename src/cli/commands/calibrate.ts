import {
	noExtraPositionals,
	paramOverrides,
	parseCommandArgs,
	required,
	resetArg,
	systemArg,
	UsageError,
} from '../args.js';
import { loadHistory, num, type CliCommand } from '../command.js';
import { calibrate, DEFAULT_MAX_EVALUATIONS, type CalibrationResult } from '../../analysis/calibrate.js';

const options = {
	input: { type: 'string' },
	system: { type: 'string' },
	reset: { type: 'string' },
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

function table(result: CalibrationResult, input: string, reset: string | undefined): string {
	const lines = [
		`calibrate ${result.system} on ${input} (${result.races} races scored${reset ? `, reset ${reset}` : ''}): ` +
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
	for (const note of result.notes) lines.push(`  note: ${note}`);
	if (result.races === 0) lines.push('  note: no race was scored (the system could not rate any race of this history)');
	return lines.join('\n');
}

export default {
	name: 'calibrate',
	summary: 'tune a system’s main parameters on a history by the backtest’s winner log-likelihood',
	usage: `pitwall calibrate --input <history.csv> --system <id> [--reset yearly] [--param name=value ...]
                  [--max-evaluations ${DEFAULT_MAX_EVALUATIONS}] [--search name,...] [--json]

Searches the system's main parameters (folyami k; glicko initialRd and, with dates, c; endure/speed k, or kInf
with --param extended=true, and with dates and without --reset the forgetting half-life, phi = 2^(-1/days)) to
maximise the backtest's winner log-likelihood, with at most --max-evaluations backtests (the defaults' included).
Prints the defaults → best, the gain, then the best parameters as --param lines (or JSON with --json).
--param name=value    fixed parameters; a searched one is also the starting point.
--search name,...     search only these (names as printed, e.g. k or halfLifeDays).
--reset yearly        restart every rating at the first race of each calendar year (needs dates).`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const system = systemArg(required(values.system, 'system'));
		const fixed = paramOverrides(values.param ?? [], [system]).get(system) ?? {};
		system.params(fixed); // ParamError on a bad value, before reading the history
		const reset = resetArg(values.reset);
		let maxEvaluations = DEFAULT_MAX_EVALUATIONS;
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
		const input = required(values.input, 'input');
		const races = loadHistory(input, io);
		if (reset !== undefined) {
			const undated = races.find((race) => race.date === undefined);
			if (undated) throw new UsageError(`--reset yearly needs dated races; race ${undated.id} has no date`);
		}
		const result = calibrate(system, races, { fixed, reset, maxEvaluations, only });
		// The form `/league config parameters:` takes (param-text.ts), which `--param` takes too (issue 8 §1): fixed
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
