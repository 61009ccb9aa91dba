import { join } from 'node:path';
import { noExtraPositionals, parseCommandArgs } from '../args.js';
import { loadHistory, type CliCommand } from '../command.js';
import { replayHistory } from '../../league/replay.js';
import { raceSystems } from '../../ratings/index.js';
import { fieldOdds } from '../../ratings/odds/odds.js';
import { fmtPct, fmtPosition, fmtRating } from '../../formats/number-text.js';
import { ratingScale, shownSummary } from '../../formats/rating-scale.js';
import { LEAGUE_DEFAULTS } from '../../league/league-defaults.js';
import { PROJECT_ROOT } from '../../project-root.js';

const SAMPLE_LEAGUE = join(PROJECT_ROOT, 'data', 'sample-league.csv');
const TOP = 10;

const options = { input: { type: 'string' }, top: { type: 'string' }, raw: { type: 'boolean' } } as const;

const fixed = (value: number | undefined, digits: number): string =>
	value === undefined ? '-' : value.toFixed(digits);

/** `k=20` of a system's new-league overrides; empty when it keeps the reference. */
const overridesText = (system: string): string =>
	Object.entries(LEAGUE_DEFAULTS[system] ?? {})
		.map(([name, value]) => `${name}=${String(value)}`)
		.join(' ');

export default {
	name: 'demo',
	summary: 'the sample league (ZakStunts 2001-2025) as the bot shows it: every system\u2019s standings and odds',
	usage: `pitwall demo [--input <history.csv>] [--top N] [--raw]

Replays a history (default: data/sample-league.csv, the ZakStunts history the console's sample league holds) under
every race system with the parameters a new league starts with (src/league/league-defaults.ts, as the console's
sample league has them), and prints each system's top N (default ${TOP}) and the odds of a race between the top five
of the headline system (folyami), with the numbers the bot shows: endure and speed as Elo-like points (1500 +
R\u00b7400/ln 10, src/formats/rating-scale.ts), ratings to one decimal, odds in percent.
--raw   the numbers as computed (endure and speed in natural-log units, k their variance), to three decimals, as
        \`pitwall replay --scale raw\` prints them.`,
	run(argv, io) {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals);
		const top = values.top === undefined ? TOP : Math.max(1, Math.trunc(Number(values.top)) || TOP);
		const raw = values.raw === true;
		const input = values.input ?? SAMPLE_LEAGUE;
		const races = loadHistory(input, io);
		io.out(`Replaying ${input}: ${races.length} races.\n`);
		io.out(
			`Parameters: a new league's (${raceSystems
				.map((s) => [s.id, overridesText(s.id)] as const)
				.filter(([, text]) => text !== '')
				.map(([id, text]) => `${id} ${text}`)
				.join(', ')}; the others their reference). ` +
				(raw ? 'Numbers as computed (--raw).\n' : 'Numbers as the bot shows them (--raw: as computed).\n'),
		);
		for (const system of raceSystems) {
			const params: unknown = system.params(LEAGUE_DEFAULTS[system.id]);
			const scale = ratingScale(system.id, params);
			const replay = replayHistory(system, params, races);
			const skipped = replay.snapshot().skipped.length;
			io.out(`\n${system.id}: ${system.raceModel}\n`);
			if (skipped === races.length) {
				io.out(
					`  no race of this history can be rated by ${system.id} (${replay.snapshot().skipped[0]?.reason ?? ''})\n`,
				);
				continue;
			}
			// The bot shows no uncertainty where the system has none per player (folyami, stk, endure's base form).
			const uncertainty = raw ? 'uncert.' : scale.uncertaintyName;
			const column = (value: number | undefined, digits: number) =>
				uncertainty === undefined ? '' : ` ${fixed(value, digits).padStart(8)}`;
			io.out(
				`  ${'#'.padStart(3)}  ${'player'.padEnd(24)} ${'rating'.padStart(10)}${uncertainty === undefined ? '' : ` ${uncertainty.padStart(8)}`} races\n`,
			);
			replay
				.standings()
				.slice(0, top)
				.forEach((standing, i) => {
					const row = raw ? standing : shownSummary(scale, standing);
					const flag = row.provisional ? ' (provisional)' : '';
					const digits = raw ? 3 : 1;
					io.out(
						`  ${String(i + 1).padStart(3)}  ${row.player.padEnd(24)} ${fixed(row.rating, digits).padStart(10)}${column(row.uncertainty, digits)} ${String(row.races).padStart(5)}${flag}\n`,
					);
				});
			if (system.id === 'folyami') {
				const field = replay.standings().slice(0, 5);
				const odds = fieldOdds(field.map((row) => system.performance(replay.stateAt(row.player, undefined), params)));
				io.out(`  odds of a race between these five (as /odds shows them, favourites first):\n`);
				field
					.map((row, i) => ({ row, win: odds.pWin[i]!, top3: odds.pTop3[i]!, position: odds.expectedPosition[i]! }))
					.sort((a, b) => b.win - a.win)
					.forEach(({ row, win, top3, position }) => {
						io.out(
							raw
								? `    ${row.player.padEnd(24)} ${fixed(win, 4)}  ${fixed(top3, 4)}  ${fixed(position, 3)}\n`
								: `    ${row.player} (${fmtRating(scale.rating(row.rating))}): win ${fmtPct(win)} \u00b7 top 3 ${fmtPct(top3)} \u00b7 expected position ${fmtPosition(position)}\n`,
						);
					});
			}
		}
		io.out(
			`\nTry: npm run -s pitwall -- replay --system endure --param phi=${String(LEAGUE_DEFAULTS['endure']?.['phi'] ?? 1)} --scale shown --input data/sample-league.csv\n`,
		);
		return 0;
	},
} satisfies CliCommand;
