/**
 * The README's "How good are the predictions": every race system backtested on each history we have, as
 * `/league stats` does a league's own (the same createBacktest and prediction stats), printed as Markdown tables, and
 * the reliability chart of F1 with the yearly reset written to docs/images/reliability-f1-dark.png.
 *
 *   npx tsx scripts/prediction-stats.ts [--f1 <f1db_csv dir>]     (default ../shared/data/f1, beside the project)
 *
 * A history whose files are absent is skipped, with the reason. Race for Kicks is not read here (scripts/league-defaults.ts
 * reads it, through src/formats/import-r4k.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBacktest } from '../src/analysis/backtest.js';
import { createPredictionStats } from '../src/analysis/prediction-stats.js';
import type { ReliabilityChart } from '../src/charts/chart-types.js';
import { drawChart } from '../src/charts/draw-chart.js';
import { readErgastDir } from '../src/cli/read-ergast-dir.js';
import { parseHistoryCsv } from '../src/formats/history-csv.js';
import { raceSystems } from '../src/ratings/index.js';
import type { Race } from '../src/ratings/types.js';
import { rankSystems, type SystemStats } from '../src/services/calibration/league-stats-service.js';
import { defaultF1Dir, F1_FILES, f1SkippedText } from './shared-data.js';

interface History {
	readonly name: string;
	readonly races: readonly Race[];
	readonly reset?: 'yearly' | undefined;
}

type Scored = SystemStats;

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({ options: { f1: { type: 'string', default: defaultF1Dir(root) } } });

function score(history: History): Scored[] {
	return raceSystems.map((system) => {
		const run = createBacktest(system, system.params(), { reset: history.reset });
		const stats = createPredictionStats();
		for (const race of history.races) {
			const prediction = run.score(race);
			if (prediction !== undefined) stats.add(prediction);
		}
		return { system: system.id, backtest: run.result(), stats: stats.result() };
	});
}

/** Best first, as /league stats ranks them: most races scored, then winner log-likelihood. */
const byLikelihood = (scored: readonly Scored[]) => rankSystems(scored).filter((s) => s.backtest.races > 0);

function table(history: History, scored: readonly Scored[]): string {
	const lines = [
		`**${history.name}** (${history.races.length} races, default parameters)`,
		'',
		'| system | races scored | winner log-likelihood | Brier | winners picked |',
		'| --- | ---: | ---: | ---: | ---: |',
		...byLikelihood(scored).map(
			(s) =>
				`| ${s.system} | ${s.backtest.races} | ${s.backtest.winner_log_likelihood.toFixed(1)} | ${s.backtest.brier_winner!.toFixed(3)} | ${(s.stats.winnersPickedShare! * 100).toFixed(1)}% |`,
		),
	];
	const unscored = scored.filter((s) => s.backtest.races === 0).map((s) => s.system);
	if (unscored.length > 0) lines.push('', `Not scored (no race they can rate): ${unscored.join(', ')}.`);
	return lines.join('\n');
}

/** One system's deciles: predictions, mean predicted, observed, SE and how many SE apart. */
function reliabilityTable(s: Scored): string {
	const rows = s.stats.reliability
		.filter((b) => b.count > 0)
		.map((b) => {
			const z = (b.observed! - b.meanPredicted!) / b.standardError!;
			const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
			return `| ${b.from.toFixed(1)}–${b.to.toFixed(1)} | ${b.count} | ${pct(b.meanPredicted!)} | ${pct(b.observed!)} | ${pct(b.standardError!)} | ${z >= 0 ? '+' : '−'}${Math.abs(z).toFixed(1)} |`;
		});
	return [
		`${s.system}, by decile of predicted P(win):`,
		'',
		'| predicted | predictions | mean predicted | observed | SE | (observed − predicted) / SE |',
		'| --- | ---: | ---: | ---: | ---: | ---: |',
		...rows,
	].join('\n');
}

const histories: History[] = [
	{
		name: 'ZakStunts',
		races: parseHistoryCsv(readFileSync(join(root, 'data', 'sample-league.csv'), 'utf8'), 'sample'),
	},
];
const f1Dir = values.f1;
const f1Files = F1_FILES.map((f) => join(f1Dir, f));
if (f1Files.every((f) => existsSync(f))) {
	const f1 = readErgastDir(f1Dir, { from: 1970, to: 2021 }).races;
	histories.push({ name: 'F1 1970–2021, ratings carried across seasons', races: f1 });
	histories.push({ name: 'F1 1970–2021, yearly reset', races: f1, reset: 'yearly' });
} else {
	console.log(`${f1SkippedText(f1Dir)}\n`);
}

for (const history of histories) {
	const started = performance.now();
	const scored = score(history);
	console.log(`${table(history, scored)}\n`);
	const endure = scored.find((s) => s.system === 'endure')!;
	console.log(`${reliabilityTable(endure)}\n`);
	console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
	if (history.reset === 'yearly') {
		const chart: ReliabilityChart = {
			league: 'F1 1970–2021, yearly reset',
			system: 'calibration',
			asOf: history.races.at(-1)?.date ?? '',
			series: byLikelihood(scored)
				.slice(0, 3)
				.map((s) => ({
					system: s.system,
					points: s.stats.reliability
						.filter((b) => b.count > 0)
						.map((b) => ({
							predicted: b.meanPredicted!,
							observed: b.observed!,
							count: b.count,
							standardError: b.standardError!,
						})),
				})),
		};
		const path = join(root, 'docs', 'images', 'reliability-f1-dark.png');
		writeFileSync(path, (await drawChart({ kind: 'reliability', chart, theme: 'dark' })).png);
		console.log(`wrote ${path}\n`);
	}
}
