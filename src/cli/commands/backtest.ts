import {
	noExtraPositionals,
	paramOverrides,
	parseCommandArgs,
	required,
	resetArg,
	systemArg,
	UsageError,
} from '../args.js';
import { loadHistory, type CliCommand } from '../command.js';
import { backtest } from '../../analysis/backtest.js';

const options = {
	input: { type: 'string' },
	systems: { type: 'string' },
	param: { type: 'string', multiple: true },
	reset: { type: 'string' },
} as const;

export default {
	name: 'backtest',
	summary: 'score each system’s pre-race winner predictions over a history',
	usage: `pitwall backtest --input <history.csv> --systems endure,speed,... [--reset yearly] [--param [system.]name=value ...]

Before each race, each system predicts P(win) for the race's rated field from pre-race ratings (after idle-time
growth). Prints JSON per system: races, skipped, winner_log_likelihood (Σ ln P(actual winner)), p_winner_quartiles
and brier_winner (mean multi-class Brier score). Tied winners count as one outcome (their P summed).
--param system.name=value targets one system; name=value applies to every selected system that knows it.
--reset yearly restarts every rating at the first race of each calendar year (needs dates).`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const ids = required(values.systems, 'systems')
			.split(',')
			.map((id) => id.trim());
		const selected = ids.map(systemArg);
		if (new Set(selected).size !== selected.length) throw new UsageError('--systems names a system twice');
		const overrides = paramOverrides(values.param ?? [], selected);
		const params = selected.map((system) => system.params(overrides.get(system)) as unknown);
		const reset = resetArg(values.reset);
		const races = loadHistory(required(values.input, 'input'), io);
		if (reset !== undefined) {
			const undated = races.find((race) => race.date === undefined);
			if (undated) throw new UsageError(`--reset yearly needs dated races; race ${undated.id} has no date`);
		}
		const report = Object.fromEntries(
			selected.map((system, i) => [system.id, backtest(system, params[i], races, { reset })]),
		);
		io.out(JSON.stringify(report, null, 2) + '\n');
		return 0;
	},
} satisfies CliCommand;
