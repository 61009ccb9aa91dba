import { describe, expect, it } from 'vitest';
import { createForecastRun, forecastChampionship, ForecastInputError } from '../../src/analysis/forecast.js';
import { fillKeys } from '../../src/analysis/race-draws.js';
import { createSeededRandom, seedState } from '../../src/analysis/seeded-random.js';
import { F1_POINTS } from '../../src/formats/points-table.js';
import { normalCdf } from '../../src/ratings/special.js';
import type { Performance } from '../../src/ratings/types.js';

/** the championship forecast against closed forms and invariants. */

const SEASONS = 200_000;

/** |estimate - exact| within 4.5 standard errors of N Bernoulli(exact) trials (seeded: the run is fixed). */
const withinMc = (estimate: number, exact: number, seasons = SEASONS) => {
	const se = Math.sqrt((exact * (1 - exact)) / seasons);
	expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(4.5 * se + 1e-12);
};

const twoDrivers = (field: Performance[], results: number[][], racesLeft: number, points = F1_POINTS) =>
	forecastChampionship({ field, results, racesLeft, points, seasons: SEASONS, seed: 7 });

describe('seeded random', () => {
	it('repeats its stream for a seed, differs for another, and is uniform on (0, 1)', () => {
		const a = createSeededRandom(42);
		const b = createSeededRandom(42);
		const c = createSeededRandom(43);
		const xs = Array.from({ length: 100_000 }, () => a.uniform());
		expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b.uniform()));
		expect(xs.slice(0, 5)).not.toEqual(Array.from({ length: 5 }, () => c.uniform()));
		expect(Math.min(...xs)).toBeGreaterThan(0);
		expect(Math.max(...xs)).toBeLessThan(1);
		const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
		const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
		// Uniform: mean 1/2 (se 0.0009), variance 1/12.
		expect(Math.abs(mean - 0.5)).toBeLessThan(0.004);
		expect(Math.abs(variance - 1 / 12)).toBeLessThan(0.002);
	});
});

describe("the forecast's draws (race-draws.ts inlines the generator's step for speed)", () => {
	it('draw from exactly the stream of createSeededRandom, for every kind', () => {
		const n = 7;
		const reference = (seed: number) => {
			const random = createSeededRandom(seed);
			const word = () => random.uniform() * 2 ** 32 - 0.5; // the generator's own word, exactly
			return { uniform: () => random.uniform(), signed: () => ((word() | 0) + 0.5) * 2 ** -31 };
		};
		const scale = Float64Array.from({ length: n }, (_, j) => 1 + j / 4);
		const mean = Float64Array.from({ length: n }, (_, j) => 10 * j);
		for (const kind of [0, 1, 2, 3] as const) {
			const state = seedState(11 + kind);
			const key = new Float64Array(n);
			let spare = NaN;
			const ref = reference(11 + kind);
			let refSpare = NaN;
			for (let race = 0; race < 3; race++) {
				spare = fillKeys(kind, n, mean, scale, key, state, spare);
				const expected = Array.from({ length: n }, (_, j) => {
					if (kind === 3) {
						if (refSpare === refSpare) {
							const z = refSpare;
							refSpare = NaN;
							return mean[j]! + scale[j]! * z;
						}
						for (;;) {
							const p = ref.signed();
							const q = ref.signed();
							const w = p * p + q * q;
							if (w >= 1) continue;
							const f = Math.sqrt((-2 * Math.log(w)) / w);
							refSpare = q * f;
							return mean[j]! + scale[j]! * p * f;
						}
					}
					let u = ref.uniform();
					if (kind === 2) for (let d = 0; d < 2; d++) u *= ref.uniform(); // in the draws' order: ((u1·u2)·u3)
					const e = -Math.log(u);
					return kind === 0 ? e * scale[j]! : scale[j]! / e;
				});
				expect(Array.from(key), `kind ${kind}, race ${race}`).toEqual(expected);
			}
		}
	});
});

describe('forecastChampionship', () => {
	it('exp-shortest, 1 race left, 2 drivers: P(title) = P(A wins the race) = a/(a+b), halved on a tied total', () => {
		const field: Performance[] = [
			{ kind: 'exp-shortest', rate: 3 },
			{ kind: 'exp-shortest', rate: 1 },
		];
		// Level on points: the race winner takes the title.
		withinMc(twoDrivers(field, [[], []], 1).rows[0]!.pTitle, 3 / 4);
		// B 7 ahead: A's win gives 25 against 18 + 7, a tie that splits the title.
		withinMc(twoDrivers(field, [[], [7]], 1).rows[0]!.pTitle, 3 / 8);
		// B 8 ahead: out of reach.
		expect(twoDrivers(field, [[], [8]], 1).rows[0]!.pTitle).toBe(0);
	});

	it('exp-longest, 2 races left, B 3 ahead: A needs both wins, P = (λB/(λA+λB))²', () => {
		// A wins both: 50 against 39; one each: 43 against 46.
		const field: Performance[] = [
			{ kind: 'exp-longest', rate: 0.5 },
			{ kind: 'exp-longest', rate: 1 },
		];
		const r = twoDrivers(field, [[], [3]], 2);
		withinMc(r.rows[0]!.pTitle, (1 / 1.5) ** 2);
		// Expected points: 2 races of 25·p + 18·(1 - p), plus the 3 B had.
		const p = 1 / 1.5;
		expect(Math.abs(r.rows[0]!.expectedPoints - 2 * (25 * p + 18 * (1 - p)))).toBeLessThan(0.05);
		expect(Math.abs(r.rows[1]!.expectedPoints - (3 + 2 * (25 * (1 - p) + 18 * p)))).toBeLessThan(0.05);
	});

	it('normal-highest, 1 race left: P(A ahead) = Φ((μA - μB)/√(σA² + σB²))', () => {
		const field: Performance[] = [
			{ kind: 'normal-highest', mean: 1600, sd: 120 },
			{ kind: 'normal-highest', mean: 1500, sd: 200 },
		];
		withinMc(twoDrivers(field, [[], []], 1).rows[0]!.pTitle, normalCdf(100 / Math.sqrt(120 ** 2 + 200 ** 2)));
	});

	it('gamma3-shortest, 1 race left: A first iff at least 3 of the first 5 events of the merged processes are A’s', () => {
		const field: Performance[] = [
			{ kind: 'gamma3-shortest', rate: 2 },
			{ kind: 'gamma3-shortest', rate: 1 },
		];
		const p = 2 / 3;
		const exact = 10 * p ** 3 * (1 - p) ** 2 + 5 * p ** 4 * (1 - p) + p ** 5;
		withinMc(twoDrivers(field, [[], []], 1).rows[0]!.pTitle, exact);
	});

	it('P(title) sums to 1 and P(top 3) to 3, with ties frequent (few scoring places)', () => {
		const field: Performance[] = Array.from({ length: 12 }, (_, i) => ({ kind: 'exp-shortest', rate: 1 + (i % 4) }));
		const results = field.map((_, i) => (i < 3 ? [3] : []));
		const r = forecastChampionship({ field, results, racesLeft: 3, points: [3, 1], seasons: 20_000, seed: 3 });
		const titles = r.rows.reduce((s, row) => s + row.pTitle, 0);
		expect(Math.abs(titles - 1)).toBeLessThan(1e-9);
		// Ties for third put more than three drivers in the top 3 of some seasons: at least 3 in all.
		expect(r.rows.reduce((s, row) => s + row.pTop3, 0)).toBeGreaterThanOrEqual(3 - 1e-9);
		for (const row of r.rows) expect(row.pTop3).toBeGreaterThanOrEqual(row.pTitle);
	});

	it('with 0 races left the points leader is champion for sure; a tie for first splits the title', () => {
		const field: Performance[] = Array.from({ length: 4 }, () => ({ kind: 'exp-longest', rate: 1 }));
		const leader = forecastChampionship({ field, results: [[10], [25], [5], [1]], racesLeft: 0, points: F1_POINTS });
		expect(leader.rows.map((r) => r.pTitle)).toEqual([0, 1, 0, 0]);
		expect(leader.rows.map((r) => r.pTop3)).toEqual([1, 1, 1, 0]);
		expect(leader.rows.map((r) => r.pTitleError)).toEqual([0, 0, 0, 0]);
		const tied = forecastChampionship({ field, results: [[25], [25], [5], [5]], racesLeft: 0, points: F1_POINTS });
		expect(tied.rows.map((r) => r.pTitle)).toEqual([0.5, 0.5, 0, 0]);
		// Tied for third: both are in the top 3.
		expect(tied.rows.map((r) => r.pTop3)).toEqual([1, 1, 1, 1]);
	});

	it('two identical drivers get the same P(title) within Monte Carlo error', () => {
		const field: Performance[] = [
			{ kind: 'normal-highest', mean: 1500, sd: 100 },
			{ kind: 'normal-highest', mean: 1400, sd: 100 },
			{ kind: 'normal-highest', mean: 1500, sd: 100 },
			{ kind: 'normal-highest', mean: 1450, sd: 150 },
		];
		const r = forecastChampionship({ field, results: [[], [], [], []], racesLeft: 5, points: F1_POINTS, seed: 11 });
		const [a, , c] = r.rows;
		expect(Math.abs(a!.pTitle - c!.pTitle)).toBeLessThan(4.5 * Math.hypot(a!.pTitleError, c!.pTitleError));
		expect(a!.pTitle).toBeGreaterThan(r.rows[1]!.pTitle);
	});

	it('the same seed gives the same result, in one go or in slices; another seed another result', () => {
		const field: Performance[] = Array.from({ length: 6 }, (_, i) => ({ kind: 'gamma3-shortest', rate: 1 + i / 5 }));
		const input = { field, results: field.map(() => []), racesLeft: 4, points: F1_POINTS, seasons: 5_000 };
		const once = forecastChampionship({ ...input, seed: 5 });
		const run = createForecastRun({ ...input, seed: 5 });
		while (run.remaining > 0) run.step(777);
		expect(run.result()).toEqual(once);
		expect(forecastChampionship({ ...input, seed: 6 }).rows).not.toEqual(once.rows);
	});

	it('dropped results: only the best N race scores count, before and after the simulated races', () => {
		// A 18,18,18,18 and B 25,25,1,1. Best 2: A 36, B 50; A's win makes 43 against B's 50: B is champion either
		// way. Every result counting: A 72, B 52, 20 ahead with one race (7 at stake) left: A is champion.
		const field: Performance[] = [
			{ kind: 'exp-shortest', rate: 1 },
			{ kind: 'exp-shortest', rate: 1 },
		];
		const results = [
			[18, 18, 18, 18],
			[25, 25, 1, 1],
		];
		const dropped = forecastChampionship({ field, results, racesLeft: 1, points: F1_POINTS, bestResults: 2 });
		expect(dropped.rows.map((r) => r.pointsNow)).toEqual([36, 50]);
		expect(dropped.rows.map((r) => r.pTitle)).toEqual([0, 1]);
		// A: 43 when winning (probability 1/2), else 36; B keeps 50 (a 25 or 18 never beats the two 25s).
		expect(Math.abs(dropped.rows[0]!.expectedPoints - 39.5)).toBeLessThan(0.05);
		expect(dropped.rows[1]!.expectedPoints).toBe(50);
		const all = forecastChampionship({ field, results, racesLeft: 1, points: F1_POINTS });
		expect(all.rows.map((r) => r.pointsNow)).toEqual([72, 52]);
		expect(all.rows.map((r) => r.pTitle)).toEqual([1, 0]);
	});

	it('refuses bad input with a specific message', () => {
		const field: Performance[] = [{ kind: 'exp-shortest', rate: 1 }];
		const base = { field, results: [[]], racesLeft: 1, points: F1_POINTS };
		expect(() => forecastChampionship({ ...base, racesLeft: -1 })).toThrow(/races left/);
		expect(() => forecastChampionship({ ...base, points: [] })).toThrow(ForecastInputError);
		expect(() => forecastChampionship({ ...base, seasons: 0 })).toThrow(/seasons/);
		expect(() => forecastChampionship({ ...base, bestResults: 0 })).toThrow(/best results/);
		expect(() =>
			forecastChampionship({
				...base,
				field: [...field, { kind: 'exp-longest', rate: 1 }],
				results: [[], []],
			}),
		).toThrow(/mixed performance kinds/);
	});
});
