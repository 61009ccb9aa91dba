/**
 * Calibration benchmark: the time of one backtest (median of 5) and of `calibrate` (default cap of 60 backtests)
 * for every race system, on the ZakStunts history (data/sample-league.csv) and on F1 1970-2021 imported in process
 * from ../shared/data/f1 (the Ergast dump is not redistributed with pitwall: skipped with a message when absent),
 * with `--reset yearly` (as the endure-Elo paper does) and carried across seasons (forgetting searched); then F1
 * 2012-2021, a 10-year league, carried. Prints the winner log-likelihood under the defaults and calibrated.
 * Run alone with `npx tsx bench/calibrate.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { F1_ABSENT, f1Races } from './f1-history.js';
import { fmtMs, medianMs } from './timing.js';
import { backtest } from '../src/analysis/backtest.js';
import { calibrate, type CalibrationResult } from '../src/analysis/calibrate.js';
import { parseHistoryCsv } from '../src/formats/history-csv.js';
import { getSystem, raceSystems } from '../src/ratings/index.js';
import type { ParamOverrides, Race } from '../src/ratings/types.js';

const samplePath = fileURLToPath(new URL('../data/sample-league.csv', import.meta.url));

function point(values: Readonly<Record<string, number>>): string {
	const parts = Object.entries(values).map(([name, v]) => `${name}=${v === Infinity ? '∞' : Number(v.toPrecision(4))}`);
	return parts.join(' ') || '-';
}

function row(label: string, backtestMs: number, ms: number, result: CalibrationResult): string {
	return (
		`  ${label.padEnd(16)} backtest ${fmtMs(backtestMs).padStart(10)}  calibrate ${fmtMs(ms).padStart(11)} ` +
		`${String(result.evaluations).padStart(3)} evals  LL ${result.defaultLogLikelihood.toFixed(2).padStart(9)} → ` +
		`${result.bestLogLikelihood.toFixed(2).padStart(9)} (+${result.gain.toFixed(2)})  ${point(result.defaultPoint)} → ${point(result.bestPoint)}`
	);
}

function benchHistory(
	title: string,
	races: readonly Race[],
	reset: 'yearly' | undefined,
	runs: readonly { id: string; label?: string; fixed?: ParamOverrides }[],
): void {
	const entries = races.reduce((sum, race) => sum + race.entries.length, 0);
	console.log(`\n== Calibration: ${title} (${races.length} races, ${entries} entries${reset ? ', reset yearly' : ''})`);
	for (const { id, label, fixed } of runs) {
		const system = getSystem(id);
		const params: unknown = system.params(fixed);
		let scored = 0;
		const backtestMs = medianMs(() => (scored = backtest(system, params, races, { reset }).races), {
			warmup: 1,
			runs: 5,
		});
		if (scored === 0) {
			console.log(
				`  ${(label ?? id).padEnd(16)} backtest ${fmtMs(backtestMs).padStart(10)}  no race scored (needs finish times)`,
			);
			continue;
		}
		const start = process.hrtime.bigint();
		const result = calibrate(system, races, { reset, fixed });
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		console.log(row(label ?? id, backtestMs, ms, result));
		if (result.dimensions.length === 0) console.log(`    (${result.notes.join('; ')}; ${scored} races scored)`);
	}
}

const everySystem = raceSystems.map((system) => ({ id: system.id }));
const extended = [
	{ id: 'endure', label: 'endure extended', fixed: { extended: 'true' } },
	{ id: 'speed', label: 'speed extended', fixed: { extended: 'true' } },
];

export async function runCalibrateBench(): Promise<void> {
	const zak = parseHistoryCsv(readFileSync(samplePath, 'utf8'), samplePath);
	benchHistory('ZakStunts (no dates: no forgetting, no RD growth)', zak, undefined, [...everySystem, ...extended]);
	const f1 = f1Races();
	if (f1 === undefined) {
		console.log(`\n== Calibration on F1 skipped: ${F1_ABSENT}`);
		return;
	}
	benchHistory('F1 1970-2021', f1, 'yearly', [...everySystem, ...extended]);
	benchHistory('F1 1970-2021, carried across seasons', f1, undefined, [...everySystem, ...extended]);
	const decade = f1Races(2012, 2021)!;
	benchHistory('F1 2012-2021 (a 10-year league), carried', decade, undefined, everySystem);
	await Promise.resolve();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCalibrateBench();
