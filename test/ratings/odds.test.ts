import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	fieldOdds,
	headToHead,
	OddsInputError,
	positionDistribution,
	positionDistributionWithStep,
	top3WithStep,
	winProbabilities,
	winProbabilitiesWithStep,
} from '../../src/ratings/odds/odds.js';
import { fieldModel, gamma3Cdf } from '../../src/ratings/odds/models.js';
import { GAMMA3_CLOSED_MAX } from '../../src/ratings/odds/closed-forms.js';
import { stepsPerOctave } from '../../src/ratings/odds/endure-win.js';
import type { Performance } from '../../src/ratings/types.js';
import endureOracle from '../fixtures/endure/win_probabilities.json' with { type: 'json' };
import reference from '../fixtures/odds/reference.json' with { type: 'json' };
import { mulberry32 } from '../support/mulberry32.js';

// Oracles:
// - test/fixtures/endure/win_probabilities.json: endure P(win) by exact inclusion-exclusion (mpmath, 40 digits), speed
//   P(win) = μ/Σμ, and integer-λ cases as exact rationals (shared/oracles/endure, specs/endure-elo.md).
// - test/fixtures/odds/reference.json: full place distributions of all four kinds by mpmath tanh-sinh quadrature at
//   30 digits (generate_reference.py; see test/fixtures/odds/PROVENANCE.md).
// Tolerance: 1e-12 absolute (the engine's exactness target).

const TOL = 1e-12;

type Kind = Performance['kind'];

function maxAbsDiff(a: readonly number[], b: readonly number[]): number {
	expect(a.length).toBe(b.length);
	let m = 0;
	for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
	return m;
}

const endureField = (R: readonly number[]): Performance[] =>
	R.map((r) => ({ kind: 'exp-longest', rate: Math.exp(-r) }));
const speedField = (R: readonly number[]): Performance[] => R.map((r) => ({ kind: 'exp-shortest', rate: Math.exp(r) }));

/** An exact rational "p/q" as the nearest-ish double (error < 2^-60 relative), via BigInt. */
function rationalToNumber(fraction: string): number {
	const [p, q] = fraction.split('/').map((s) => BigInt(s.trim())) as [bigint, bigint];
	const scale = 2n ** 70n;
	return Number((p * scale) / q) / 2 ** 70;
}

function parseList<T>(v: T[] | string): T[] {
	return typeof v === 'string' ? (JSON.parse(v.replace(/'/g, '"')) as T[]) : v;
}

describe('endure / speed oracle (win_probabilities.json)', () => {
	for (const c of endureOracle.cases) {
		it(`${c.name}: endure P(win) by quadrature, place matrix and fieldOdds match inclusion-exclusion at 1e-12`, () => {
			const field = endureField(c.R);
			expect(maxAbsDiff(winProbabilities(field), c.endure_P)).toBeLessThan(TOL);
			expect(maxAbsDiff(fieldOdds(field).pWin, c.endure_P)).toBeLessThan(TOL);
			const firstPlace = positionDistribution(field).map((row) => row[0]!);
			expect(maxAbsDiff(firstPlace, c.endure_P)).toBeLessThan(TOL);
		});
		it(`${c.name}: speed P(win) (closed form, and the place integral) matches`, () => {
			const field = speedField(c.R);
			expect(maxAbsDiff(winProbabilities(field), c.speed_P)).toBeLessThan(TOL);
			const firstPlace = positionDistribution(field).map((row) => row[0]!);
			expect(maxAbsDiff(firstPlace, c.speed_P)).toBeLessThan(TOL);
			expect(maxAbsDiff(winProbabilitiesWithStep(field, 0.1), c.speed_P)).toBeLessThan(TOL);
		});
	}

	for (const c of endureOracle.integer_lambda_exact_rationals.cases) {
		const lam = parseList<number>(c.lam);
		it(`integer λ = [${lam.slice(0, 5).join(', ')}${lam.length > 5 ? ', ...' : ''}] (n = ${lam.length}) matches the exact rationals`, () => {
			const exact = parseList<string>(c.P_fraction as string[] | string).map(rationalToNumber);
			expect(exact).toHaveLength(lam.length);
			const field: Performance[] = lam.map((l) => ({ kind: 'exp-longest', rate: l }));
			expect(maxAbsDiff(winProbabilities(field), exact)).toBeLessThan(TOL);
		});
	}

	it('λ = [1, 2, 3] gives exactly [7/12, 4/15, 3/20]', () => {
		const p = winProbabilities([1, 2, 3].map((rate) => ({ kind: 'exp-longest', rate })));
		expect(maxAbsDiff(p, [7 / 12, 4 / 15, 3 / 20])).toBeLessThan(TOL);
	});
});

describe('mpmath reference place distributions (reference.json)', () => {
	for (const f of reference.fields) {
		const field = f.performances.map((p) => ({ kind: f.kind, ...p }) as Performance);
		const n = field.length;
		it(`${f.name} (${f.kind}, n = ${n}): every place, P(win), P(top 3), expected position at 1e-12`, () => {
			const pos = positionDistribution(field);
			for (let i = 0; i < n; i++) expect(maxAbsDiff(pos[i]!, f.places[i]!)).toBeLessThan(TOL);
			const odds = fieldOdds(field);
			const refWin = f.places.map((r) => r[0]!);
			const refTop3 = f.places.map((r) => r[0]! + (r[1] ?? 0) + (r[2] ?? 0));
			const refExp = f.places.map((r) => r.reduce((a, v, c) => a + v * (c + 1), 0));
			expect(maxAbsDiff(winProbabilities(field), refWin)).toBeLessThan(TOL);
			expect(maxAbsDiff(odds.pWin, refWin)).toBeLessThan(TOL);
			expect(maxAbsDiff(odds.pTop3, refTop3)).toBeLessThan(TOL);
			expect(maxAbsDiff(odds.expectedPosition, refExp)).toBeLessThan(1e-11);
		});
	}
});

// ---------------------------------------------------------------------------------------------------------------
// Seeded Monte Carlo

function randomField(kind: Kind, n: number, u: () => number): Performance[] {
	const gauss = () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
	return Array.from({ length: n }, (): Performance => {
		switch (kind) {
			case 'normal-highest':
				return { kind, mean: 1500 + 150 * gauss(), sd: 60 + 200 * u() };
			case 'gamma3-shortest':
				return { kind, rate: Math.exp(0.6 * gauss()) };
			default:
				return { kind, rate: Math.exp(gauss()) };
		}
	});
}

/** A "score" where larger is better: one draw of each racer's performance. */
function drawScore(p: Performance, u: () => number): number {
	switch (p.kind) {
		case 'exp-longest':
			return -Math.log(u()) / p.rate;
		case 'exp-shortest':
			return Math.log(u()) / p.rate; // -T
		case 'gamma3-shortest':
			return Math.log(u() * u() * u()) / p.rate; // -(sum of three Exp(rate))
		case 'normal-highest':
			return p.mean + p.sd * Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
	}
}

describe('agreement with a seeded Monte Carlo simulation (200k races per field)', () => {
	// For a probability p estimated from N independent races, the standard error is √(p(1-p)/N) (binomial); with
	// p from the engine and a floor p(1-p) ≥ 1/N (so that a single stray count near p = 0 is within 5 SE). For the
	// expected position, SE = sd(position)/√N, with the variance from the engine's exact place distribution.
	const SAMPLES = 200_000;
	const kinds: Kind[] = ['exp-longest', 'exp-shortest', 'gamma3-shortest', 'normal-highest'];
	const sizes = [2, 5, 12];
	for (const kind of kinds) {
		it(`${kind}: P(win), P(top 3), expected position within 5 standard errors for n = ${sizes.join(', ')}`, () => {
			const u = mulberry32(kind.length * 7919 + 17);
			for (const n of sizes) {
				const field = randomField(kind, n, u);
				const odds = fieldOdds(field);
				const pos = positionDistribution(field);
				const wins = new Float64Array(n);
				const top3 = new Float64Array(n);
				const placeSum = new Float64Array(n);
				const scores = new Float64Array(n);
				const order = Array.from({ length: n }, (_, i) => i);
				for (let s = 0; s < SAMPLES; s++) {
					for (let i = 0; i < n; i++) scores[i] = drawScore(field[i]!, u);
					order.sort((a, b) => scores[b]! - scores[a]!);
					for (let place = 0; place < n; place++) {
						const i = order[place]!;
						if (place === 0) wins[i] = wins[i]! + 1;
						if (place < 3) top3[i] = top3[i]! + 1;
						placeSum[i] = placeSum[i]! + place + 1;
					}
				}
				const se = (p: number) => Math.sqrt(Math.max(p * (1 - p), 1 / SAMPLES) / SAMPLES);
				for (let i = 0; i < n; i++) {
					const label = `${kind} n=${n} racer ${i}`;
					const pw = odds.pWin[i]!;
					const pt = odds.pTop3[i]!;
					expect(Math.abs(wins[i]! / SAMPLES - pw), `${label} P(win)`).toBeLessThan(5 * se(pw));
					expect(Math.abs(top3[i]! / SAMPLES - pt), `${label} P(top3)`).toBeLessThan(5 * se(pt));
					const row = pos[i]!;
					const mean = odds.expectedPosition[i]!;
					const variance = row.reduce((a, v, c) => a + v * (c + 1 - mean) ** 2, 0);
					const seE = Math.sqrt(Math.max(variance, 1 / SAMPLES) / SAMPLES);
					expect(Math.abs(placeSum[i]! / SAMPLES - mean), `${label} E[position]`).toBeLessThan(5 * seE);
				}
			}
		});
	}
});

// ---------------------------------------------------------------------------------------------------------------
// Closed forms against the integrals

const rateArb = fc.double({ min: 0.02, max: 50, noNaN: true });
const perfArb = (kind: Kind): fc.Arbitrary<Performance> =>
	kind === 'normal-highest'
		? fc.record({
				kind: fc.constant(kind),
				mean: fc.double({ min: -500, max: 500, noNaN: true }),
				sd: fc.double({ min: 5, max: 300, noNaN: true }),
			})
		: fc.record({ kind: fc.constant(kind), rate: rateArb });
const fieldArb = (kind: Kind, maxLength = 12) => fc.array(perfArb(kind), { minLength: 1, maxLength });
const kindArb = fc.constantFrom<Kind>('exp-longest', 'exp-shortest', 'gamma3-shortest', 'normal-highest');
const anyFieldArb = (maxLength = 12) => kindArb.chain((kind) => fieldArb(kind, maxLength));

describe('closed forms against the integrals', () => {
	it('headToHead(a, b) equals P(a first) of the two-racer place integral, for every kind', () => {
		fc.assert(
			fc.property(
				kindArb.chain((k) => fc.tuple(perfArb(k), perfArb(k))),
				([a, b]) => {
					const pos = positionDistribution([a, b]);
					expect(Math.abs(headToHead(a, b) - pos[0]![0]!)).toBeLessThan(TOL);
					expect(Math.abs(headToHead(a, b) + headToHead(b, a) - 1)).toBeLessThan(1e-15);
				},
			),
			{ numRuns: 150 },
		);
	});

	it('gamma3 head-to-head: θa = θb gives 1/2, and θa = 2θb gives Σ C(2+k,k) (2/3)³ (1/3)^k = 64/81', () => {
		const g = (rate: number): Performance => ({ kind: 'gamma3-shortest', rate });
		expect(headToHead(g(1.7), g(1.7))).toBeCloseTo(0.5, 15);
		expect(Math.abs(headToHead(g(2), g(1)) - 64 / 81)).toBeLessThan(1e-15);
	});

	it('speed winner: closed form μ_i/Σμ equals the integral for fields up to 40', () => {
		fc.assert(
			fc.property(fieldArb('exp-shortest', 40), (field) => {
				const closed = winProbabilities(field);
				expect(maxAbsDiff(winProbabilitiesWithStep(field, 0.1), closed)).toBeLessThan(TOL);
			}),
			{ numRuns: 60 },
		);
	});

	it('closed forms (endure elimination n ≤ 10, Folyami P(win) n ≤ 85 and P(top 3) n ≤ 10, Plackett-Luce top 3) equal the integrals', () => {
		fc.assert(
			fc.property(
				fc
					.constantFrom<Kind>('exp-longest', 'gamma3-shortest', 'exp-shortest')
					.chain((k) => fieldArb(k, k === 'gamma3-shortest' ? GAMMA3_CLOSED_MAX : 10)),
				(field) => {
					const h = fieldModel(field).step(3) / 2;
					// winProbabilities takes the closed forms at these sizes; the walk integrates at half the step.
					expect(maxAbsDiff(winProbabilities(field), winProbabilitiesWithStep(field, h))).toBeLessThan(TOL);
					if (field.length > 3) {
						expect(maxAbsDiff(fieldOdds(field).pTop3, top3WithStep(field, h))).toBeLessThan(TOL);
					}
				},
			),
			{ numRuns: 90 },
		);
	});

	it("endure P(win) by its own pass (one product, exponentials by squaring) equals the walk's (fieldOdds) for 11 to 300 racers, hopeless racers included", () => {
		const u = mulberry32(4242);
		let smallest = 1;
		for (let run = 0; run < 40; run++) {
			const n = 11 + Math.floor(u() * (run < 30 ? 60 : 290));
			const spread = 1 + 5 * u();
			const field: Performance[] = Array.from({ length: n }, () => ({
				kind: 'exp-longest',
				rate: Math.exp(spread * (2 * u() - 1)),
			}));
			// Every other field has one racer far from the rest: 1e-30 to 1e30 of the others' rates.
			if (run % 2 === 1) field[0] = { kind: 'exp-longest', rate: Math.exp(69 * (2 * u() - 1)) };
			const pass = winProbabilities(field);
			const walked = fieldOdds(field).pWin;
			for (let i = 0; i < n; i++) {
				expect(Math.abs(pass[i]! - walked[i]!)).toBeLessThan(TOL);
				if (walked[i]! >= 1e-300) {
					expect(Math.abs(pass[i]! - walked[i]!) / walked[i]!).toBeLessThan(1e-10);
					smallest = Math.min(smallest, walked[i]!);
				}
			}
		}
		expect(smallest).toBeLessThan(1e-20); // the far racers were really compared
	});

	it('endure P(win) steps are ln 2/m, so that its pass squares its way up an octave in m nodes', () => {
		for (const n of [11, 12, 20, 21, 100, 148, 1000, 5000]) {
			const h = fieldModel(endureField(Array.from({ length: n }, (_, j) => Math.sin(j)))).step(1);
			const m = stepsPerOctave(h);
			expect(m).toBeGreaterThan(0);
			const studied = Math.min(n <= 20 ? 0.25 : 0.1, 0.5 / Math.log(n)); // the accuracy study's step
			expect(h).toBeLessThanOrEqual(studied);
			expect(Math.LN2 / (m - 1)).toBeGreaterThan(studied); // the largest such step
		}
		expect(stepsPerOctave(0.1)).toBe(0); // other steps take a fresh exponential at every node
		expect(stepsPerOctave(Math.LN2 / 7)).toBe(7);
	});

	it('expected position (pairwise closed forms) equals Σ place·P(place) of the place matrix', () => {
		fc.assert(
			fc.property(anyFieldArb(10), (field) => {
				const e = fieldOdds(field).expectedPosition;
				const fromPos = positionDistribution(field).map((row) => row.reduce((a, v, c) => a + v * (c + 1), 0));
				expect(maxAbsDiff(e, fromPos)).toBeLessThan(1e-11);
			}),
			{ numRuns: 80 },
		);
	});

	it('P(top 3) of fieldOdds equals the sum of the first three places', () => {
		fc.assert(
			fc.property(anyFieldArb(12), (field) => {
				const top3 = fieldOdds(field).pTop3;
				const fromPos = positionDistribution(field).map((row) => row[0]! + (row[1] ?? 0) + (row[2] ?? 0));
				expect(maxAbsDiff(top3, fromPos)).toBeLessThan(TOL);
			}),
			{ numRuns: 80 },
		);
	});
});

// ---------------------------------------------------------------------------------------------------------------
// Invariants

describe('invariants', () => {
	it('probabilities lie in [0, 1]; P(win) sums to 1, P(top 3) to min(n, 3), expected positions to n(n+1)/2', () => {
		fc.assert(
			fc.property(anyFieldArb(30), (field) => {
				const n = field.length;
				const { pWin, pTop3, expectedPosition } = fieldOdds(field);
				for (const p of [...pWin, ...pTop3]) {
					expect(p).toBeGreaterThanOrEqual(0);
					expect(p).toBeLessThanOrEqual(1);
				}
				for (let i = 0; i < n; i++) expect(pTop3[i]!).toBeGreaterThanOrEqual(pWin[i]! - 1e-15);
				expect(Math.abs(pWin.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(TOL);
				expect(Math.abs(pTop3.reduce((a, b) => a + b, 0) - Math.min(n, 3))).toBeLessThan(3 * TOL);
				expect(Math.abs(expectedPosition.reduce((a, b) => a + b, 0) - (n * (n + 1)) / 2)).toBeLessThan(1e-10);
			}),
			{ numRuns: 100 },
		);
	});

	it('every row and every column of the place matrix sums to 1', () => {
		fc.assert(
			fc.property(anyFieldArb(25), (field) => {
				const pos = positionDistribution(field);
				const n = field.length;
				for (let i = 0; i < n; i++) {
					expect(Math.abs(pos[i]!.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(TOL);
					expect(Math.abs(pos.reduce((a, row) => a + row[i]!, 0) - 1)).toBeLessThan(TOL);
					for (const v of pos[i]!) expect(v >= 0 && v <= 1).toBe(true);
				}
			}),
			{ numRuns: 100 },
		);
	});

	it('equal performances: every racer has P = 1/n for every place, for every kind', () => {
		const base: Performance[] = [
			{ kind: 'exp-longest', rate: 0.37 },
			{ kind: 'exp-shortest', rate: 2.5 },
			{ kind: 'gamma3-shortest', rate: 1.9 },
			{ kind: 'normal-highest', mean: 1500, sd: 120 },
		];
		for (const p of base) {
			for (const n of [1, 2, 7, 40]) {
				const field = Array.from({ length: n }, () => p);
				for (const v of winProbabilities(field)) expect(Math.abs(v - 1 / n)).toBeLessThan(TOL);
				for (const row of positionDistribution(field))
					for (const v of row) expect(Math.abs(v - 1 / n)).toBeLessThan(TOL);
				const { pTop3, expectedPosition } = fieldOdds(field);
				for (const v of pTop3) expect(Math.abs(v - Math.min(3, n) / n)).toBeLessThan(TOL);
				for (const v of expectedPosition) expect(Math.abs(v - (n + 1) / 2)).toBeLessThan(1e-12);
			}
		}
	});

	it('equal performances in large fields: P(win) = 1/n at n = 1000 and 5000 (the hardest case for the step)', () => {
		for (const p of [
			{ kind: 'exp-longest', rate: 1 },
			{ kind: 'gamma3-shortest', rate: 1 },
			{ kind: 'normal-highest', mean: 0, sd: 1 },
		] as Performance[]) {
			for (const n of [1000, 5000]) {
				const w = winProbabilities(Array.from({ length: n }, () => p));
				expect(Math.max(...w.map((v) => Math.abs(v - 1 / n))), `${p.kind} n=${n}`).toBeLessThan(TOL);
			}
		}
	});

	it('permutation equivariance: permuting the field permutes every output', () => {
		fc.assert(
			fc.property(
				anyFieldArb(15).chain((field) =>
					fc.tuple(
						fc.constant(field),
						fc.shuffledSubarray(
							field.map((_, i) => i),
							{ minLength: field.length },
						),
					),
				),
				([field, perm]) => {
					const permuted = perm.map((i) => field[i]!);
					const a = fieldOdds(field);
					const b = fieldOdds(permuted);
					const posA = positionDistribution(field);
					const posB = positionDistribution(permuted);
					perm.forEach((i, k) => {
						expect(Math.abs(a.pWin[i]! - b.pWin[k]!)).toBeLessThan(TOL);
						expect(Math.abs(a.pTop3[i]! - b.pTop3[k]!)).toBeLessThan(TOL);
						expect(Math.abs(a.expectedPosition[i]! - b.expectedPosition[k]!)).toBeLessThan(1e-11);
						expect(maxAbsDiff(posA[i]!, posB[k]!)).toBeLessThan(TOL);
					});
				},
			),
			{ numRuns: 60 },
		);
	});

	it('scale invariance of the rate models: multiplying every rate by a constant changes nothing', () => {
		fc.assert(
			fc.property(
				fc.constantFrom<Kind>('exp-longest', 'exp-shortest', 'gamma3-shortest').chain((k) => fieldArb(k, 15)),
				fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
				(field, c) => {
					const scaled = field.map((p) => ({ ...p, rate: (p as { rate: number }).rate * c }));
					expect(maxAbsDiff(winProbabilities(field), winProbabilities(scaled))).toBeLessThan(TOL);
				},
			),
			{ numRuns: 60 },
		);
	});

	it('a better racer has a higher P(win) and a lower expected position', () => {
		const f: Performance[] = [
			{ kind: 'gamma3-shortest', rate: 1 },
			{ kind: 'gamma3-shortest', rate: 1.4 },
			{ kind: 'gamma3-shortest', rate: 0.8 },
		];
		const { pWin, expectedPosition } = fieldOdds(f);
		expect(pWin[1]!).toBeGreaterThan(pWin[0]!);
		expect(pWin[0]!).toBeGreaterThan(pWin[2]!);
		expect(expectedPosition[1]!).toBeLessThan(expectedPosition[0]!);
	});
});

describe('Gamma(3) distribution function (the place matrix of Folyami)', () => {
	it('P(3, y) for y < 1 keeps 2e-15 relative accuracy with its shortened series (y from 1e-9 to 1)', () => {
		// Reference: e^{-y}·Σ_{m≥3} y^m/m! summed to 60 terms (positive terms, a few ulps). The engine keeps 6 to 17
		// terms by the size of y; a threshold set too high would show as an error of 1e-12 or more.
		const u = mulberry32(33);
		for (let k = 0; k < 20_000; k++) {
			const y = Math.exp(-Math.log(1e9) * u());
			let term = (y * y * y) / 6;
			let sum = 0;
			for (let m = 3; m < 63; m++) {
				sum += term;
				term *= y / (m + 1);
			}
			const ref = Math.exp(-y) * sum;
			expect(Math.abs(gamma3Cdf(y) - ref) / ref, `y = ${y}`).toBeLessThan(2e-15);
		}
	});
});

describe('quadrature step (accuracy study, docs/odds.md)', () => {
	it('halving the chosen step changes P(win) and P(top 3) by < 1e-13 on clustered fields of 5 to 2000', () => {
		// 5 and 12: the larger steps of small fields (endure up to 0.25, Folyami 0.15 and 0.2).
		const u = mulberry32(4242);
		for (const kind of ['exp-longest', 'gamma3-shortest', 'normal-highest'] as Kind[]) {
			for (const n of [5, 12, 20, 300, 2000]) {
				const field = randomField(kind, n, u).map((p) =>
					p.kind === 'normal-highest' ? { ...p, sd: 100, mean: 1500 + (p.mean - 1500) * 0.05 } : p,
				);
				const m = fieldModel(field);
				const h1 = m.step(1);
				const d1 = maxAbsDiff(winProbabilitiesWithStep(field, h1), winProbabilitiesWithStep(field, h1 / 2));
				expect(d1, `${kind} n=${n} P(win)`).toBeLessThan(1e-13);
				const h3 = m.step(3);
				const d3 = maxAbsDiff(top3WithStep(field, h3), top3WithStep(field, h3 / 2));
				expect(d3, `${kind} n=${n} P(top3)`).toBeLessThan(1e-13);
			}
		}
	});

	it('normal P(win) with the trimmed range (analytic top tail, log-concave bottom stop) matches the full grid at h/4', () => {
		// The full-grid reference: column 1 of the place matrix, integrated over [min(m - 9σ), max(m + 9σ)].
		const u = mulberry32(9090);
		const structures: ((j: number) => Performance)[] = [
			() => ({
				kind: 'normal-highest',
				mean: 25 + 6 * (u() + u() + u() - 1.5),
				sd: Math.hypot(1 + 7.33 * u(), 25 / 6),
			}),
			() => ({ kind: 'normal-highest', mean: 1500 + 150 * (u() - 0.5), sd: 60 + 400 * u() }),
			// one wide racer far below a tight pack, and one far above
			(j) => ({ kind: 'normal-highest', mean: j === 0 ? -40 : j === 1 ? 12 : u(), sd: j === 0 ? 8 : j === 1 ? 3 : 1 }),
			() => ({ kind: 'normal-highest', mean: 30 * u(), sd: 0.5 + 5 * u() * u() }),
		];
		for (const make of structures) {
			for (const n of [2, 7, 20, 60]) {
				const field = Array.from({ length: n }, (_, j) => make(j));
				const h = fieldModel(field).step(1);
				const ref = positionDistributionWithStep(field, h / 4).map((row) => row[0]!);
				expect(maxAbsDiff(winProbabilities(field), ref), `n=${n}`).toBeLessThan(TOL);
				expect(maxAbsDiff(winProbabilitiesWithStep(field, h), ref), `n=${n}`).toBeLessThan(1e-13);
			}
		}
	});

	it('halving the chosen step changes the place matrix by < 1e-13 for equal fields of 60', () => {
		for (const p of [
			{ kind: 'exp-longest', rate: 1 },
			{ kind: 'exp-shortest', rate: 1 },
			{ kind: 'gamma3-shortest', rate: 1 },
			{ kind: 'normal-highest', mean: 0, sd: 1 },
		] as Performance[]) {
			const field = Array.from({ length: 60 }, (_, i) => (i % 2 ? p : p));
			const h = fieldModel(field).step(60);
			const a = positionDistributionWithStep(field, h);
			const b = positionDistributionWithStep(field, h / 2);
			const d = Math.max(...a.map((row, i) => maxAbsDiff(row, b[i]!)));
			expect(d, p.kind).toBeLessThan(1e-13);
		}
	});
});

describe('inputs', () => {
	it('an empty field gives empty results; a one-racer field wins with probability 1', () => {
		expect(winProbabilities([])).toEqual([]);
		expect(positionDistribution([])).toEqual([]);
		expect(fieldOdds([])).toEqual({ pWin: [], pTop3: [], expectedPosition: [] });
		for (const p of [
			{ kind: 'exp-longest', rate: 3 },
			{ kind: 'exp-shortest', rate: 3 },
			{ kind: 'gamma3-shortest', rate: 3 },
			{ kind: 'normal-highest', mean: 1, sd: 2 },
		] as Performance[]) {
			expect(winProbabilities([p])).toEqual([1]);
			expect(positionDistribution([p])).toEqual([[1]]);
			expect(fieldOdds([p])).toEqual({ pWin: [1], pTop3: [1], expectedPosition: [1] });
		}
	});

	it('mixed kinds throw OddsInputError, in every entry point', () => {
		const mixed: Performance[] = [
			{ kind: 'exp-longest', rate: 1 },
			{ kind: 'exp-shortest', rate: 1 },
		];
		expect(() => winProbabilities(mixed)).toThrow(OddsInputError);
		expect(() => winProbabilities(mixed)).toThrow(/share one kind/);
		expect(() => fieldOdds(mixed)).toThrow(OddsInputError);
		expect(() => positionDistribution(mixed)).toThrow(OddsInputError);
		expect(() => headToHead(mixed[0]!, mixed[1]!)).toThrow(OddsInputError);
	});

	it('non-positive or non-finite parameters throw OddsInputError', () => {
		const bad: Performance[][] = [
			[
				{ kind: 'exp-longest', rate: 0 },
				{ kind: 'exp-longest', rate: 1 },
			],
			[
				{ kind: 'exp-shortest', rate: Number.NaN },
				{ kind: 'exp-shortest', rate: 1 },
			],
			[
				{ kind: 'gamma3-shortest', rate: -1 },
				{ kind: 'gamma3-shortest', rate: 1 },
			],
			[
				{ kind: 'normal-highest', mean: 0, sd: 0 },
				{ kind: 'normal-highest', mean: 0, sd: 1 },
			],
			[
				{ kind: 'normal-highest', mean: Number.POSITIVE_INFINITY, sd: 1 },
				{ kind: 'normal-highest', mean: 0, sd: 1 },
			],
		];
		for (const field of bad) {
			expect(() => winProbabilities(field)).toThrow(OddsInputError);
			expect(() => headToHead(field[0]!, field[1]!)).toThrow(OddsInputError);
		}
	});
});
