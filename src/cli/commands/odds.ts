import {
	noExtraPositionals,
	parseCommandArgs,
	required,
	resetArg,
	seasonOptions,
	seasonsArg,
	resolveSystemParams,
	systemArg,
	UsageError,
} from '../args.js';
import { loadHistoryAsOf, num, type CliCommand } from '../command.js';
import { csvLine } from '../../formats/csv.js';
import { replayHistory } from '../../league/replay.js';
import { fieldOdds } from '../../ratings/odds/odds.js';

const options = {
	system: { type: 'string' },
	input: { type: 'string' },
	players: { type: 'string' },
	param: { type: 'string', multiple: true },
	reset: { type: 'string' },
	...seasonOptions,
	'as-of': { type: 'string' },
} as const;

export default {
	name: 'odds',
	summary: 'win, podium and expected-position odds for a field after a history',
	usage: `pitwall odds --system <id> --input <history.csv> --players "A,B,C" [--param name=value ...] [--reset yearly]
                   [--as-of YYYY-MM-DD] [--season-reset carry|restart|soft [--season-share N] [--season-starts D1,...]]

Replays the races dated on or before --as-of (default: the latest race date), grows every player's state over
their idle days up to that day (as the bot's /odds does on that day), and prints CSV
player,p_win,p_top3,expected_position for the field. A name never seen in the history is rated as a newcomer
(with a warning on stderr).`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const system = systemArg(required(values.system, 'system'));
		const params = resolveSystemParams(system, values.param ?? []);
		const players = required(values.players, 'players')
			.split(',')
			.map((name) => name.trim());
		if (players.some((name) => name === '')) throw new UsageError('--players has an empty name');
		const duplicate = players.find((name, i) => players.indexOf(name) !== i);
		if (duplicate !== undefined) throw new UsageError(`--players names ${duplicate} twice`);
		const { races, asOf } = loadHistoryAsOf(required(values.input, 'input'), values['as-of'], io);
		const replay = replayHistory(system, params, races, { reset: resetArg(values.reset), seasons: seasonsArg(values) });
		for (const name of players) {
			if (replay.player(name) === undefined)
				io.err(`warning: ${name} has no rated race in the history; rated as a newcomer\n`);
		}
		const odds = fieldOdds(players.map((name) => system.performance(replay.stateAt(name, asOf), params)));
		const lines = ['player,p_win,p_top3,expected_position'];
		players.forEach((name, i) => {
			lines.push(csvLine([name, num(odds.pWin[i]), num(odds.pTop3[i]), num(odds.expectedPosition[i])]));
		});
		io.out(lines.join('\n') + '\n');
		return 0;
	},
} satisfies CliCommand;
