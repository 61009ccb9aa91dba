/**
 * Odds engine benchmark (src/ratings/odds.ts): median times, after warm-up, of
 * - P(win) for all racers of fields of 20, 100 and 1000, for each performance kind (targets: < 0.2 ms at 20,
 *   < 10 ms at 1000);
 * - the full place distribution at 100 (target < 50 ms) and fieldOdds (P(win), P(top 3), expected position);
 * - the same-process comparison with openskill.js `predictWin` (Weng-Lin, v5) on the same fields: its ratings
 *   (μ, σ) are our normal-highest performances N(μ, σ² + β²), β = 25/6 (openskill's default). predictWin is the
 *   average of pairwise Φ's, not the exact P(win); the largest difference from the exact value is printed too.
 * Fields are seeded (mulberry32), so every run times the same inputs. Run alone with `npx tsx bench/odds.ts`.
 */
import { fileURLToPath } from 'node:url';
import { predictWin, rating } from 'openskill';
import { fieldOdds, positionDistribution, winProbabilities } from '../src/ratings/odds.js';
import type { Performance } from '../src/ratings/types.js';
import { fmtMs, medianMs } from './timing.js';
import { mulberry32 } from '../test/support/mulberry32.js';

const TARGET_20_MS = 0.2;
const TARGET_1000_MS = 10;
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

function runs(n: number): { warmup: number; runs: number } {
	return n >= 1000 ? { warmup: 5, runs: 31 } : { warmup: 20, runs: 201 };
}

function verdict(ms: number, target: number): string {
	return `(target < ${target} ms: ${ms < target ? 'met' : 'MISSED'})`;
}

export async function runOddsBench(): Promise<void> {
	console.log('\n== odds: exact P(win) for every racer of one field, median ms');
	console.log(`  ${'kind'.padEnd(16)}${['n = 20', 'n = 100', 'n = 1000'].map((s) => s.padStart(14)).join('')}`);
	for (const kind of KINDS) {
		const cells: string[] = [];
		const notes: string[] = [];
		for (const n of [20, 100, 1000]) {
			const field = makeField(kind, n, 1000 + n);
			const ms = medianMs(() => winProbabilities(field), runs(n));
			cells.push(fmtMs(ms).padStart(14));
			if (n === 20) notes.push(`20: ${verdict(ms, TARGET_20_MS)}`);
			if (n === 1000) notes.push(`1000: ${verdict(ms, TARGET_1000_MS)}`);
		}
		console.log(`  ${kind.padEnd(16)}${cells.join('')}   ${notes.join(' ')}`);
	}

	console.log('\n== odds: full place distribution (n × n) and fieldOdds (P(win), P(top 3), E[position]), median ms');
	for (const kind of KINDS) {
		const field100 = makeField(kind, 100, 7);
		const places = medianMs(() => positionDistribution(field100), { warmup: 3, runs: 15 });
		const odds100 = medianMs(() => fieldOdds(field100), { warmup: 5, runs: 31 });
		const field1000 = makeField(kind, 1000, 8);
		const odds1000 = medianMs(() => fieldOdds(field1000), { warmup: 2, runs: 9 });
		console.log(
			`  ${kind.padEnd(16)} places n=100 ${fmtMs(places).padStart(10)} ${verdict(places, TARGET_PLACES_100_MS)}` +
				`   fieldOdds n=100 ${fmtMs(odds100).padStart(10)}   n=1000 ${fmtMs(odds1000).padStart(10)}`,
		);
	}

	console.log('\n== odds vs openskill.js predictWin (same process, same fields: N(μ, σ² + β²)), median ms');
	for (const n of [20, 100, 1000]) {
		const u = mulberry32(500 + n);
		const ratings = Array.from({ length: n }, () =>
			rating({ mu: 25 + 6 * (u() + u() + u() - 1.5), sigma: 1 + 7.33 * u() }),
		);
		const teams = ratings.map((r) => [r]);
		const field: Performance[] = ratings.map((r) => ({
			kind: 'normal-highest',
			mean: r.mu,
			sd: Math.hypot(r.sigma, OPENSKILL_BETA),
		}));
		const opts = runs(n);
		const ours = medianMs(() => winProbabilities(field), opts);
		const theirs = medianMs(() => predictWin(teams), n >= 1000 ? { warmup: 2, runs: 9 } : opts);
		const exact = winProbabilities(field);
		const approx = predictWin(teams);
		let maxDiff = 0;
		for (let i = 0; i < n; i++) maxDiff = Math.max(maxDiff, Math.abs(exact[i]! - approx[i]!));
		console.log(
			`  n = ${String(n).padEnd(5)} exact ${fmtMs(ours).padStart(11)}   openskill predictWin ${fmtMs(theirs).padStart(11)}` +
				`   ratio openskill/ours ${(theirs / ours).toFixed(1).padStart(7)}x   max |P_openskill - P_exact| ${maxDiff.toExponential(2)}`,
		);
	}
	await Promise.resolve();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runOddsBench();
