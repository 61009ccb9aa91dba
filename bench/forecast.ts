/**
 * The championship forecast: `npx tsx bench/forecast.ts`.
 * (a) Time of 100,000 seasons for 30 drivers and 10 races left, each performance kind (median of 3 runs), and the
 *     longest slice the bot's service runs between two yields.
 * (b) F1 1970-2021 (the Ergast dump in ../shared/data/f1; skipped with a message when absent): in every season, a
 *     forecast with five races left, against the season's actual champion.
 */
import { fileURLToPath } from 'node:url';
import { createForecastRun, forecastChampionship } from '../src/analysis/forecast.js';
import { forecastSetup } from '../src/analysis/forecast-setup.js';
import { F1_ABSENT, f1Races } from './f1-history.js';
import { F1_POINTS } from '../src/formats/points-table.js';
import { yearOf } from '../src/league/dates.js';
import { createReplay } from '../src/league/replay.js';
import { getSystem } from '../src/ratings/index.js';
import type { ParamOverrides, Performance, Race } from '../src/ratings/types.js';

const FIELD = 30;
const RACES_LEFT = 10;
const SEASONS = 100_000;
/** Seasons per F1 forecast: 52 forecasts of 100,000 would take a minute; 20,000 keep the MC error of P ≤ 0.0036. */
const F1_SEASONS = 20_000;
const LAST_RACES = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function fieldOf(kind: Performance['kind']): Performance[] {
	// A spread field: ratings 0.1 apart in the systems' natural units (sd 0.8 of a step for the normal kind).
	return Array.from({ length: FIELD }, (_, i): Performance => {
		if (kind === 'normal-highest') return { kind, mean: 1500 - 25 * i, sd: 200 };
		return { kind, rate: kind === 'exp-longest' ? Math.exp(0.1 * i) : Math.exp(-0.1 * i) };
	});
}

function timing(): void {
	console.log(
		`\n== Championship forecast: ${SEASONS.toLocaleString('en-US')} seasons, ${FIELD} drivers, ${RACES_LEFT} races left (median of 3)`,
	);
	const kinds: Performance['kind'][] = ['exp-longest', 'exp-shortest', 'gamma3-shortest', 'normal-highest'];
	for (const kind of kinds) {
		const input = {
			field: fieldOf(kind),
			results: Array.from({ length: FIELD }, () => []),
			racesLeft: RACES_LEFT,
			points: F1_POINTS,
			seasons: SEASONS,
		};
		const times: number[] = [];
		for (let i = 0; i < 3; i++) {
			const start = performance.now();
			forecastChampionship({ ...input, seed: i + 1 });
			times.push(performance.now() - start);
		}
		// The service's slice: 60,000 samples (racers × races) per step, i.e. 200 seasons here.
		const run = createForecastRun({ ...input, seed: 1 });
		let slowest = 0;
		while (run.remaining > 0) {
			const start = performance.now();
			run.step(200);
			slowest = Math.max(slowest, performance.now() - start);
		}
		console.log(
			`  ${kind.padEnd(16)} ${median(times).toFixed(0).padStart(6)} ms   (slowest 200-season step ${slowest.toFixed(1)} ms)`,
		);
	}
}

/** Points of each driver over `races` under the modern table (finishers by position; no drops). */
function championOf(races: readonly Race[]): Map<string, number> {
	const totals = new Map<string, number>();
	for (const race of races) {
		for (const e of race.entries) {
			if (e.status !== 'finished' && e.status !== 'DNF') continue;
			const p = e.status === 'finished' ? (F1_POINTS[e.position - 1] ?? 0) : 0;
			totals.set(e.player, (totals.get(e.player) ?? 0) + p);
		}
	}
	return totals;
}

function f1Check(systemId: 'endure' | 'glicko' | 'folyami', overrides?: ParamOverrides, label = 'defaults'): void {
	const history = f1Races()!;
	const system = getSystem(systemId);
	const params: unknown = system.params(overrides);
	const replay = createReplay(system, params);
	const byYear = new Map<number, Race[]>();
	for (const race of history) {
		const year = yearOf(race.date!);
		byYear.set(year, [...(byYear.get(year) ?? []), race]);
	}
	let next = 0;
	let seasons = 0;
	let sumP = 0;
	let logLik = 0;
	let favouriteWon = 0;
	let leaderWon = 0;
	let zeros = 0;
	const rows: string[] = [];
	const start = performance.now();
	for (const [year, races] of byYear) {
		if (races.length <= LAST_RACES) continue;
		const cut = races.length - LAST_RACES;
		const asOf = races[cut - 1]!.date!;
		// Carried across seasons: every race before the last five of this season.
		while (next < history.length && history[next] !== races[cut]) replay.advance(history[next++]!);
		const so = races.slice(0, cut);
		const { season, input } = forecastSetup({
			races: so,
			asOf,
			racesLeft: LAST_RACES,
			points: F1_POINTS,
			seasons: F1_SEASONS,
			seed: year,
			performanceOf: (player) => system.performance(replay.stateAt(player, asOf), params),
		});
		const result = forecastChampionship(input);
		const totals = championOf(races);
		const best = Math.max(...totals.values());
		const champions = [...totals].filter(([, p]) => p === best).map(([player]) => player);
		// A shared title: the forecast is scored on the champions' summed probability.
		const pOf = (player: string) => {
			const i = season.contenders.indexOf(player);
			return i < 0 ? 0 : result.rows[i]!.pTitle;
		};
		const p = champions.reduce((s, c) => s + pOf(c), 0);
		const favourite = season.contenders[result.rows.reduce((b, r, i, all) => (r.pTitle > all[b]!.pTitle ? i : b), 0)]!;
		const leader =
			season.contenders[result.rows.reduce((b, r, i, all) => (r.pointsNow > all[b]!.pointsNow ? i : b), 0)]!;
		seasons++;
		sumP += p;
		if (p === 0) zeros++;
		// P = 0 means below ~1/N: scored as 0.5/N so that one miss does not make the sum -∞ (counted apart).
		logLik += Math.log(Math.max(p, 0.5 / F1_SEASONS));
		if (champions.includes(favourite)) favouriteWon++;
		if (champions.includes(leader)) leaderWon++;
		rows.push(
			`  ${year}  ${champions.join(' & ').slice(0, 24).padEnd(24)} ${(p * 100).toFixed(1).padStart(6)}%   favourite ${favourite.slice(0, 22)}`,
		);
	}
	const ms = performance.now() - start;
	console.log(
		`\n== F1 1970-2021, ${systemId} (${label}, carried across seasons): forecasts with ${LAST_RACES} races left, modern points`,
	);
	if (process.argv.includes('--seasons-table')) for (const row of rows) console.log(row);
	console.log(`  seasons forecast                        ${seasons}`);
	console.log(`  mean P(title) of the actual champion    ${(sumP / seasons).toFixed(3)}`);
	console.log(
		`  forecast favourite won                  ${favouriteWon}/${seasons} (${((favouriteWon / seasons) * 100).toFixed(0)}%)`,
	);
	console.log(
		`  points leader at the cut won            ${leaderWon}/${seasons} (${((leaderWon / seasons) * 100).toFixed(0)}%)`,
	);
	console.log(
		`  log-likelihood Σ ln P(champion)         ${logLik.toFixed(1)} (${zeros} champions given P = 0, scored at 0.5/N)`,
	);
	console.log(
		`  time                                    ${(ms / 1000).toFixed(1)} s (${F1_SEASONS.toLocaleString('en-US')} seasons each)`,
	);
}

export function runForecastBench(): void {
	timing();
	if (f1Races(2021, 2021) === undefined) {
		console.log(`\n== F1 forecast check skipped: ${F1_ABSENT}`);
		return;
	}
	for (const system of ['endure', 'glicko', 'folyami'] as const) f1Check(system);
	// Calibrated on this history, carried across seasons (README "Calibration"): in-sample parameters.
	f1Check('endure', { k: 0.14, phi: 0.999672 }, 'calibrated k 0.140, half-life 2116 days');
	f1Check('glicko', { initialRd: 41.5, c: 2.07 }, 'calibrated initialRd 41.5, c 2.07');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runForecastBench();
