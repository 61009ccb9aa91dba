/**
 * odds that integrate over each rating's uncertainty, against odds that take the rating as exact, on
 * ZakStunts and F1 1970-2021 (read from ../shared/data/f1; skipped with a message when absent). Prints each
 * history's winner log-likelihood and the calibration of favourites (every racer given P(win) ≥ 0.4: mean predicted
 * against observed win rate, with its standard error).
 *
 * - Glicko: the engine's normal performance is N(r, β² + RD²), the rating uncertainty integrated exactly (a normal
 *   convolved with a normal); "as exact" is N(r, β²).
 * - endure / speed extended: k_i is the variance of R_i (the Laplace posterior of specs/endure-elo.md, extended
 *   form). Integrated: R_i ~ N(R_i, c·k_i), T_i | R_i exponential as in the engine; P(win) by quadrature over log t
 *   (step 0.02 on [-30, 30]) of mixtures over R (trapezoid in z on [-8, 8], step 0.25), checked against the exact
 *   engine at k = 0 (printed). c = 1 is the paper's reading; smaller c are printed to show the trend.
 * The product keeps the engine's odds (Glicko with RD, endure and speed as exact): see the README, "Odds that know
 * how sure they are".
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createReplay } from '../src/league/replay.js';
import { parseHistoryCsv } from '../src/formats/history-csv.js';
import { F1_ABSENT, f1Races } from './f1-history.js';
import { GLICKO_BETA } from '../src/ratings/glicko.js';
import { getSystem } from '../src/ratings/index.js';
import { winProbabilities } from '../src/ratings/odds/odds.js';
import type { ParamOverrides, Performance, Race } from '../src/ratings/types.js';

const samplePath = fileURLToPath(new URL('../data/sample-league.csv', import.meta.url));

/** Nodes and weights of E[g(Z)], Z ~ N(0, 1): the trapezoid rule on [-8, 8] (spectrally accurate here). */
const Z: number[] = [];
const W: number[] = [];
for (let i = -32; i <= 32; i++) {
	Z.push(i / 4);
	W.push(Math.exp(-(i * i) / 32));
}
const wSum = W.reduce((a, b) => a + b, 0);
for (let i = 0; i < W.length; i++) W[i] = W[i]! / wSum;

/**
 * P(win) when racer j's log-rate is uncertain: endure (longest time wins, rate e^-R) or speed (shortest wins, rate
 * e^R), R_j ~ N(mu_j, variance_j). ∫ f_i(t) Π_{j≠i} P(j behind at t) dt, in s = log t.
 */
function integratedWin(mu: readonly number[], variance: readonly number[], longest: boolean): number[] {
	const n = mu.length;
	const p = new Array<number>(n).fill(0);
	const density = new Float64Array(n);
	const behind = new Float64Array(n);
	const h = 0.02;
	for (let s = -30; s <= 30; s += h) {
		const t = Math.exp(s);
		for (let j = 0; j < n; j++) {
			let d = 0;
			let survive = 0;
			const sd = Math.sqrt(variance[j]!);
			for (let m = 0; m < Z.length; m++) {
				const r = mu[j]! + sd * Z[m]!;
				const rate = longest ? Math.exp(-r) : Math.exp(r);
				const e = Math.exp(-rate * t);
				d += W[m]! * rate * t * e;
				survive += W[m]! * e;
			}
			density[j] = d;
			behind[j] = longest ? 1 - survive : survive;
		}
		for (let i = 0; i < n; i++) {
			let others = 1;
			for (let j = 0; j < n; j++) if (j !== i) others *= behind[j]!;
			p[i]! += density[i]! * others * h;
		}
	}
	return p;
}

interface Score {
	ll: number;
	favourites: number;
	predicted: number;
	won: number;
}
const blank = (): Score => ({ ll: 0, favourites: 0, predicted: 0, won: 0 });

function score(s: Score, field: readonly { rank: number }[], p: readonly number[]): void {
	const winning = field[0]!.rank;
	let pWinner = 0;
	field.forEach((entry, i) => {
		const won = entry.rank === winning ? 1 : 0;
		pWinner += won * p[i]!;
		if (p[i]! >= 0.4) {
			s.favourites++;
			s.predicted += p[i]!;
			s.won += won;
		}
	});
	s.ll += Math.log(pWinner);
}

const show = (label: string, s: Score) => {
	const observed = s.won / s.favourites;
	const se = Math.sqrt((observed * (1 - observed)) / s.favourites);
	return (
		`    ${label.padEnd(26)} LL ${s.ll.toFixed(2).padStart(9)}   favourites n=${String(s.favourites).padStart(3)} ` +
		`predicted ${(s.predicted / s.favourites).toFixed(3)} observed ${observed.toFixed(3)} ± ${se.toFixed(3)}`
	);
};

type Variant = { readonly label: string; readonly odds: (states: readonly Record<string, number>[]) => number[] };

function compare(title: string, races: readonly Race[], id: string, overrides: ParamOverrides, variants: Variant[]) {
	const system = getSystem(id);
	const params: unknown = system.params(overrides);
	const replay = createReplay<unknown, unknown>(system, params);
	const scores = variants.map(blank);
	for (const race of races) {
		const prepared = replay.prepare(race);
		replay.commit(prepared);
		if (prepared.field.length < 2) continue;
		const states = prepared.field.map((entry) => entry.state as Record<string, number>);
		variants.forEach((v, k) => score(scores[k]!, prepared.field, v.odds(states)));
	}
	const set = Object.entries(overrides).map(([k, v]) => `${k}=${String(v)}`);
	console.log(`  ${title}, ${id}${set.length > 0 ? ` (${set.join(', ')})` : ''}`);
	variants.forEach((v, k) => console.log(show(v.label, scores[k]!)));
}

const engine = (id: string, overrides: ParamOverrides) => {
	const system = getSystem(id);
	const params: unknown = system.params(overrides);
	return (states: readonly unknown[]) => winProbabilities(states.map((s) => system.performance(s, params)));
};

const glickoVariants = (overrides: ParamOverrides): Variant[] => [
	{ label: 'RD integrated (engine)', odds: engine('glicko', overrides) },
	{
		label: 'rating as exact',
		odds: (states) =>
			winProbabilities(
				states.map((s): Performance => ({ kind: 'normal-highest', mean: s['rating']!, sd: GLICKO_BETA })),
			),
	},
];

const plVariants = (id: 'endure' | 'speed', overrides: ParamOverrides, scales: readonly number[]): Variant[] => [
	{ label: 'rating as exact (engine)', odds: engine(id, overrides) },
	...scales.map((c): Variant => ({
		label: `k integrated, variance ${c}·k`,
		odds: (states) =>
			integratedWin(
				states.map((s) => s['rating']!),
				states.map((s) => c * s['k']!),
				id === 'endure',
			),
	})),
];

export function runUncertaintyBench(): void {
	console.log('\n== Odds that integrate over the rating uncertainty, winner log-likelihood and favourites');
	// The quadrature against the exact engine at k = 0 (a field of 8 spread endure ratings).
	const mu = [-1.2, -0.6, -0.1, 0, 0.2, 0.5, 0.9, 1.6];
	const exact = winProbabilities(mu.map((r): Performance => ({ kind: 'exp-longest', rate: Math.exp(-r) })));
	const quad = integratedWin(mu, new Array<number>(mu.length).fill(0), true);
	console.log(
		`  quadrature check at k = 0: max |P - P_engine| ${Math.max(...quad.map((p, i) => Math.abs(p - exact[i]!))).toExponential(2)}`,
	);
	const zak = parseHistoryCsv(readFileSync(samplePath, 'utf8'), samplePath);
	const ext: ParamOverrides = { extended: true };
	compare('ZakStunts', zak, 'glicko', {}, glickoVariants({}));
	compare('ZakStunts', zak, 'endure', ext, plVariants('endure', ext, [1, 0.2]));
	const f1 = f1Races();
	if (f1 === undefined) {
		console.log(`  F1 skipped: ${F1_ABSENT}`);
		return;
	}
	const calibrated: ParamOverrides = { initialRd: 41.52, c: 2.068 }; // `pitwall calibrate`, F1 carried (README)
	compare('F1 1970-2021 carried', f1, 'glicko', {}, glickoVariants({}));
	compare('F1 1970-2021 carried', f1, 'glicko', calibrated, glickoVariants(calibrated));
	compare('F1 1970-2021 carried', f1, 'endure', ext, plVariants('endure', ext, [1, 0.2]));
	compare('F1 1970-2021 carried', f1, 'speed', ext, plVariants('speed', ext, [1]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runUncertaintyBench();
