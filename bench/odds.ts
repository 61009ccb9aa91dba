/**
 * Odds engine benchmark (src/ratings/odds/odds.ts):
 * - for each performance kind and n = 5, 12, 20, 100, 1000: our exact P(win) (winProbabilities) and P(win) +
 *   P(top 3) + expected position (fieldOdds) against openskill.js `predictWin` (Weng-Lin, v5) on a field of the same
 *   size, timed interleaved in one process (batches of calls, median of 31 rounds), and the ratio ours/openskill;
 * - the full place distribution at 100 (target < 50 ms);
 * - how far predictWin (an average of pairwise Φ's, not P(win)) is from the exact P(win) of the same ratings, read
 *   as N(μ, σ² + β²), β = 25/6 (openskill's default).
 * Fields are seeded (mulberry32), so every run times the same inputs. Run alone with `npx tsx bench/odds.ts`.
 */
import { fileURLToPath } from 'node:url';
import { predictWin, rating } from 'openskill';
import { fieldOdds, positionDistribution, winProbabilities } from '../src/ratings/odds/odds.js';
import type { Performance } from '../src/ratings/types.js';
import { fmtMs, medianMs } from './timing.js';
import { mulberry32 } from '../test/support/mulberry32.js';

const TARGET_PLACES_100_MS = 50;
const OPENSKILL_BETA = 25 / 6;

type Kind = Performance['kind'];
const KINDS: Kind[] = ['exp-longest', 'exp-shortest', 'gamma3-shortest', 'normal-highest'];

/**
 * A realistic field: endure/speed ratings R ~ N(0, 1.5²) (the spec's middle rating spread), Folyami rates
 * exp(cα(R - 1500)) with a spread of 0.75 in log-rate, Glicko-like N(1500 ± 200, RD 50..350 plus β 200).
 */
function makeField(kind: Kind, n: number, seed: number): Performance[] {
	const u = mulberry32(seed);
	const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
	return Array.from({ length: n }, (): Performance => {
		switch (kind) {
			case 'exp-longest':
				return { kind, rate: Math.exp(-1.5 * gauss()) };
			case 'exp-shortest':
				return { kind, rate: Math.exp(1.5 * gauss()) };
			case 'gamma3-shortest':
				return { kind, rate: Math.exp(0.75 * gauss()) };
			case 'normal-highest':
				return { kind, mean: 1500 + 200 * gauss(), sd: Math.hypot(50 + 300 * u(), 200) };
		}
	});
}

function verdict(ms: number, target: number): string {
	return `(target < ${target} ms: ${ms < target ? 'met' : 'MISSED'})`;
}

const RATIO_SIZES = [5, 12, 20, 100, 1000];
/** Repetitions of the interleaved timing (ours, openskill, ours, ...): the medians are over these. */
const ROUNDS = 31;

/** openskill ratings for a field of n, seeded (the same fields every run). */
function openskillTeams(n: number): ReturnType<typeof rating>[][] {
	const u = mulberry32(500 + n);
	return Array.from({ length: n }, () => [rating({ mu: 25 + 6 * (u() + u() + u() - 1.5), sigma: 1 + 7.33 * u() })]);
}

/** Calls per timed batch, so that a batch takes about 0.5 ms (hrtime resolution and call overhead vanish). */
function batchSize(run: () => unknown): number {
	let k = 1;
	for (;;) {
		const start = process.hrtime.bigint();
		for (let i = 0; i < k; i++) run();
		const ms = Number(process.hrtime.bigint() - start) / 1e6;
		if (ms > 0.5 || k >= 1 << 16) return k;
		k *= 2;
	}
}

function batchMs(run: () => unknown, k: number): number {
	const start = process.hrtime.bigint();
	for (let i = 0; i < k; i++) run();
	return Number(process.hrtime.bigint() - start) / 1e6 / k;
}

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)]!;
}

/**
 * Interleaved timing of several functions in one process: each round times one batch of each, in turn, so that
 * machine noise hits all of them alike; returns each one's median per-call time (ms).
 */
function interleaved(fns: (() => unknown)[]): number[] {
	// Warm-up: about 30 ms of calls each, so that every function runs optimized code before it is timed.
	for (const f of fns) {
		const start = process.hrtime.bigint();
		while (Number(process.hrtime.bigint() - start) < 30e6) batchMs(f, 16);
	}
	const sizes = fns.map(batchSize);
	const times: number[][] = fns.map(() => []);
	for (let r = 0; r < ROUNDS; r++) fns.forEach((f, i) => times[i]!.push(batchMs(f, sizes[i]!)));
	return times.map(median);
}

function fmtUs(ms: number): string {
	return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

export async function runOddsBench(): Promise<void> {
	console.log(
		'\n== odds vs openskill.js predictWin, interleaved in one process, medians of 31 batches (seeded fields)',
	);
	console.log('  ratio = ours / predictWin on a field of the same size (< 1: faster)');
	console.log(
		`  ${'kind'.padEnd(16)}${'n'.padStart(5)}${'predictWin'.padStart(12)}${'P(win)'.padStart(11)}${'ratio'.padStart(7)}` +
			`${'fieldOdds'.padStart(12)}${'ratio'.padStart(7)}`,
	);
	for (const kind of KINDS) {
		for (const n of RATIO_SIZES) {
			const teams = openskillTeams(n);
			const field = makeField(kind, n, 1000 + n);
			const [theirs, win, odds] = interleaved([
				() => predictWin(teams),
				() => winProbabilities(field),
				() => fieldOdds(field),
			]);
			console.log(
				`  ${kind.padEnd(16)}${String(n).padStart(5)}${fmtUs(theirs!).padStart(12)}${fmtUs(win!).padStart(11)}` +
					`${(win! / theirs!).toFixed(2).padStart(7)}${fmtUs(odds!).padStart(12)}${(odds! / theirs!).toFixed(2).padStart(7)}`,
			);
		}
	}

	console.log('\n== odds: full place distribution (n × n) at n = 100, median ms');
	for (const kind of KINDS) {
		const field100 = makeField(kind, 100, 7);
		const places = medianMs(() => positionDistribution(field100), { warmup: 3, runs: 15 });
		console.log(`  ${kind.padEnd(16)} ${fmtMs(places).padStart(10)} ${verdict(places, TARGET_PLACES_100_MS)}`);
	}

	console.log('\n== openskill predictWin against the exact P(win) on its own fields, N(μ, σ² + β²)');
	for (const n of [20, 100, 1000]) {
		const teams = openskillTeams(n);
		const field: Performance[] = teams.map(([r]) => ({
			kind: 'normal-highest',
			mean: r!.mu,
			sd: Math.hypot(r!.sigma, OPENSKILL_BETA),
		}));
		const exact = winProbabilities(field);
		const approx = predictWin(teams);
		let maxDiff = 0;
		for (let i = 0; i < n; i++) maxDiff = Math.max(maxDiff, Math.abs(exact[i]! - approx[i]!));
		console.log(`  n = ${String(n).padEnd(5)} max |P_openskill - P_exact| ${maxDiff.toExponential(2)}`);
	}
	await Promise.resolve();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runOddsBench();
