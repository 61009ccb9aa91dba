import { fileURLToPath } from 'node:url';
import { noExtraPositionals, parseCommandArgs } from '../args.js';
import { loadHistory, type CliCommand } from '../command.js';
import { replayHistory } from '../../league/replay.js';
import { raceSystems } from '../../ratings/index.js';
import { fieldOdds } from '../../ratings/odds.js';

const SAMPLE_LEAGUE = fileURLToPath(new URL('../../../data/sample-league.csv', import.meta.url));
const TOP = 10;

const options = { input: { type: 'string' }, top: { type: 'string' } } as const;

const fixed = (value: number | undefined, digits: number): string =>
	value === undefined ? '-' : value.toFixed(digits);

export default {
	name: 'demo',
	summary: 'replay the sample league (ZakStunts 2001-2025) under every system and show standings and odds',
	usage: `pitwall demo [--input <history.csv>] [--top N]

Replays a history (default: data/sample-league.csv, the ZakStunts history) under every race system, prints each
system's top N (default ${TOP}) and the odds of a race between the top five of the headline system (folyami).`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const top = values.top === undefined ? TOP : Math.max(1, Math.trunc(Number(values.top)) || TOP);
		const input = values.input ?? SAMPLE_LEAGUE;
		const races = loadHistory(input, io);
		io.out(`Replaying ${input}: ${races.length} races.\n`);
		for (const system of raceSystems) {
			const params: unknown = system.params();
			const replay = replayHistory(system, params, races);
			const skipped = replay.snapshot().skipped.length;
			io.out(`\n${system.id}: ${system.raceModel}\n`);
			if (skipped === races.length) {
				io.out(
					`  no race of this history can be rated by ${system.id} (${replay.snapshot().skipped[0]?.reason ?? ''})\n`,
				);
				continue;
			}
			io.out(`  ${'#'.padStart(3)}  ${'player'.padEnd(24)} ${'rating'.padStart(10)} ${'uncert.'.padStart(8)} races\n`);
			replay
				.standings()
				.slice(0, top)
				.forEach((row, i) => {
					const flag = row.provisional ? ' (provisional)' : '';
					io.out(
						`  ${String(i + 1).padStart(3)}  ${row.player.padEnd(24)} ${fixed(row.rating, 3).padStart(10)} ${fixed(row.uncertainty, 3).padStart(8)} ${String(row.races).padStart(5)}${flag}\n`,
					);
				});
			if (system.id === 'folyami') {
				const field = replay.standings().slice(0, 5);
				const odds = fieldOdds(field.map((row) => system.performance(replay.stateAt(row.player, undefined), params)));
				io.out(`  odds of a race between these five: P(win), P(top 3), expected position\n`);
				field.forEach((row, i) => {
					io.out(
						`    ${row.player.padEnd(24)} ${fixed(odds.pWin[i], 4)}  ${fixed(odds.pTop3[i], 4)}  ${fixed(odds.expectedPosition[i], 3)}\n`,
					);
				});
			}
		}
		io.out('\nTry: npm run -s pitwall -- replay --system glicko --input data/sample-league.csv\n');
		return 0;
	},
} satisfies CliCommand;
