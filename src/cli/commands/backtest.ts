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
import { loadHistory, type CliCommand } from '../command.js';
import { backtest, type BacktestResult } from '../../analysis/backtest.js';

const options = {
	input: { type: 'string' },
	systems: { type: 'string' },
	param: { type: 'string', multiple: true },
	reset: { type: 'string' },
	retirements: { type: 'string' },
	'score-from': { type: 'string' },
} as const;

/** What a backtest from a day scored, for a reader of the terminal (the JSON has the same). */
function scoredWindow(systemId: string, scoreFrom: string, result: BacktestResult): string {
	const first = result.first_scored;
	if (first === null || first === undefined) {
		return `backtest ${systemId}: no race scored from ${scoreFrom} (${result.replayed_before ?? 0} races replayed before it)`;
	}
	return (
		`backtest ${systemId}: ${result.races} races scored from ${scoreFrom} (the first: ${first.race}` +
		`${first.date === null ? '' : `, ${first.date}`}); the ${result.replayed_before ?? 0} races before it only rated`
	);
}

export default {
	name: 'backtest',
	summary: 'score each system’s pre-race winner predictions over a history',
	usage: `pitwall backtest --input <history.csv> --systems endure,speed,... [--reset yearly]
                 [--retirements ordered|tied|excluded] [--score-from YYYY-MM-DD] [--param [system.]name=value ...]

Before each race, each system predicts P(win) for the race's rated field from pre-race ratings (after idle-time
growth). Prints JSON per system: races, skipped, winner_log_likelihood (Σ ln P(actual winner)), p_winner_quartiles
and brier_winner (mean multi-class Brier score). Tied winners count as one outcome (their P summed).
--param system.name=value targets one system; name=value applies to every selected system that knows it.
--reset yearly restarts every rating at the first race of each calendar year (needs dates).
--retirements R       read retirements (DNF) in their order (ordered, the default), tied at the back, or excluded
                      from the rating (the prediction is still over every starter), as calibrate does.
--score-from DAY      the ratings replay from the first race, but only the races dated on or after DAY are scored
                      (from the first of them on; undated races before it are not): an out-of-sample check of a
                      setting tuned on the races before DAY. The JSON adds score_from, first_scored (race, date) and
                      replayed_before (races that only rated); a line on stderr says the same.`,
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
		const retirements = retirementsArg(values.retirements);
		const scoreFrom = dayArg(values['score-from'], 'score-from');
		const races = loadHistory(required(values.input, 'input'), io);
		if (reset !== undefined) {
			const undated = races.find((race) => race.date === undefined);
			if (undated) throw new UsageError(`--reset yearly needs dated races; race ${undated.id} has no date`);
		}
		if (scoreFrom !== undefined && !races.some((race) => race.date !== undefined)) {
			throw new UsageError('--score-from needs dated races; no race of the history has a date');
		}
		const results = selected.map((system, i) => backtest(system, params[i], races, { reset, retirements, scoreFrom }));
		const report = Object.fromEntries(selected.map((system, i) => [system.id, results[i]]));
		io.out(JSON.stringify(report, null, 2) + '\n');
		if (scoreFrom !== undefined) {
			selected.forEach((system, i) => io.err(scoredWindow(system.id, scoreFrom, results[i]!) + '\n'));
		}
		return 0;
	},
} satisfies CliCommand;
