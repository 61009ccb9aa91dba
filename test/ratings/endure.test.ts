import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	endure,
	endureParamSpecs,
	endureRounds,
	endureScoreInfo,
	type EndureParams,
	type EndureState,
} from '../../src/ratings/endure.js';
import { forget } from '../../src/ratings/pl-elo.js';
import { rankRace } from '../../src/ratings/race.js';
import { ParamError, type EntryStatus, type ParamOverrides, type Race } from '../../src/ratings/types.js';
import oracle from '../fixtures/endure/single_race_updates.json' with { type: 'json' };
import { expectAllClose, expectClose } from '../support/close.js';
import { fieldOf } from '../support/fields.js';

// Oracle: shared/oracles/endure/single_race_updates.json (Python/mpmath re-implementation of Powell, JQAS 19(3),
// section 2 and eq. 46-47; see test/fixtures/endure/PROVENANCE.md). Tolerance: 1e-9 relative (specs/endure-elo.md),
// 1e-12 against the 25-digit strings.

const base = endure.params();
const stateOf = (rating: number, k = base.k, races = 3): EndureState => ({ rating, k, races });

describe('endure oracle: base version (k = 0.36)', () => {
	for (const c of oracle.base) {
		describe(c.name, () => {
			const R = c.R_pre_in_finishing_order;
			const params = endure.params({ k: c.k });

			it('score and info (O(m) form)', () => {
				const { score, info } = endureScoreInfo(R);
				expectAllClose(score, c.endure.score, 1e-9, 'score');
				expectAllClose(info, c.endure.info, 1e-9, 'info');
			});

			it('R_post (1e-9; 1e-12 against the 25-digit values) and zero sum', () => {
				const post = endure.rateRace(fieldOf(R.map((r) => stateOf(r, c.k))), params).map((s) => s.rating);
				expectAllClose(post, c.endure.R_post, 1e-9, 'R_post');
				expectAllClose(post, c.endure.R_post_25.map(Number), 1e-12, 'R_post_25');
				const change = post.reduce((sum, r, i) => sum + r - R[i]!, 0);
				expect(Math.abs(change)).toBeLessThan(1e-12);
			});

			const rounds = c.endure.rounds;
			if (rounds) {
				it('per-round elimination probabilities', () => {
					const actual = endureRounds(R);
					expect(actual).toHaveLength(rounds.length);
					rounds.forEach((expected, r) => {
						const round = actual[r]!;
						expect(round.alive).toEqual(expected.alive);
						expect(round.eliminated).toEqual([expected.eliminated]);
						expectAllClose(round.pElim, expected.p_elim, 1e-9, `round ${expected.round} p_elim`);
					});
				});
			}
		});
	}
});

describe('endure oracle: extended version (per-racer k, forgetting)', () => {
	for (const c of oracle.extended) {
		describe(c.name, () => {
			const f = 'forgetting' in c ? c.forgetting : undefined;
			// The oracle's h is in the forgetting step's time unit, which is our day.
			const overrides: ParamOverrides = f ? { extended: true, phi: f.phi, kInf: f.k_inf } : { extended: true };
			const posterior = endure.params(overrides);
			const prior = endure.params({ ...overrides, kStep: 'prior' });
			const pre = c.R_stored.map((rating, i) => {
				const stored: EndureState = { rating, k: c.k_stored[i]!, races: 4 };
				if (!f) return stored;
				return f.newcomer[i] ? endure.newcomer(posterior) : endure.elapse(stored, f.h[i]!, posterior);
			});

			if (f) {
				it('forgetting and newcomers give R_pre and k_pre', () => {
					expectAllClose(
						pre.map((s) => s.rating),
						f.R_pre,
						1e-9,
						'R_pre',
					);
					expectAllClose(
						pre.map((s) => s.k),
						f.k_pre,
						1e-9,
						'k_pre',
					);
				});
			}

			it('score and info at the pre-race R', () => {
				const { score, info } = endureScoreInfo(pre.map((s) => s.rating));
				expectAllClose(score, c.score, 1e-9, 'score');
				expectAllClose(info, c.info, 1e-9, 'info');
			});

			it('posterior k step (default): k_post, R_post (1e-12 against 25 digits)', () => {
				const post = endure.rateRace(fieldOf(pre), posterior);
				expectAllClose(
					post.map((s) => s.k),
					c.k_post,
					1e-9,
					'k_post',
				);
				expectAllClose(
					post.map((s) => s.rating),
					c.R_post_posterior_k,
					1e-9,
					'R_post_posterior_k',
				);
				expectAllClose(
					post.map((s) => s.rating),
					c.R_post_posterior_k_25.map(Number),
					1e-12,
					'R_post_posterior_k_25',
				);
			});

			it('prior k step (kStep = prior)', () => {
				const post = endure.rateRace(fieldOf(pre), prior);
				expectAllClose(
					post.map((s) => s.k),
					c.k_post,
					1e-9,
					'k_post',
				);
				expectAllClose(
					post.map((s) => s.rating),
					c.R_post_prior_k,
					1e-9,
					'R_post_prior_k',
				);
			});
		});
	}
});

describe('endure invariants', () => {
	it('a one-racer race changes nothing', () => {
		for (const params of [base, endure.params({ extended: true })]) {
			const state = stateOf(0.7, 0.4, 2);
			expect(endure.rateRace(fieldOf([state]), params)).toEqual([state]);
		}
	});

	it('three equal-rated racers: +0.30, -0.06, -0.24 (spec example, k = 0.36)', () => {
		const post = endure.rateRace(fieldOf([stateOf(0), stateOf(0), stateOf(0)]), base);
		expectAllClose(
			post.map((s) => s.rating),
			[0.3, -0.06, -0.24],
			1e-12,
			'R_post',
		);
	});

	it('an equal-rated tie changes nothing (two racers; a whole field)', () => {
		for (const m of [2, 4]) {
			const states = Array.from({ length: m }, () => stateOf(0.25));
			const post = endure.rateRace(fieldOf(states, Array<number>(m).fill((m + 1) / 2)), base);
			expect(post.map((s) => s.rating)).toEqual(states.map((s) => s.rating));
		}
	});

	it('ties: score is the gradient and info the curvature of the Breslow partial likelihood', () => {
		// log L = Σ_groups [Σ_{j∈D} −R_j − d·log Σ_{l at risk} e^−R_l], groups eliminated from last place up.
		const logLik = (R: readonly number[], ranks: readonly number[]): number => {
			let ll = 0;
			for (const g of new Set(ranks)) {
				const risk = R.filter((_, i) => ranks[i]! <= g);
				const group = R.filter((_, i) => ranks[i] === g);
				ll += group.reduce((s, r) => s - r, 0) - group.length * Math.log(risk.reduce((s, r) => s + Math.exp(-r), 0));
			}
			return ll;
		};
		const R = [0.4, -0.3, 0.9, 0.1, -0.8, 0.2, 0.0];
		const ranks = [1.5, 1.5, 3, 5, 5, 5, 7];
		const { score, info } = endureScoreInfo(R, ranks);
		R.forEach((_, j) => {
			const at = (delta: number): number =>
				logLik(
					R.map((r, i) => (i === j ? r + delta : r)),
					ranks,
				);
			const h = 1e-5;
			expect(score[j]).toBeCloseTo((at(h) - at(-h)) / (2 * h), 7);
			const h2 = 1e-3;
			expect(info[j]).toBeCloseTo(-(at(h2) - 2 * at(0) + at(-h2)) / (h2 * h2), 5);
		});
		// The O(m) form agrees with the rounds one by one: score_j = Σ_rounds (d·P(elim) − 1(elim)).
		const rounds = endureRounds(R, ranks);
		expect(rounds.map((r) => r.eliminated)).toEqual([[6], [3, 4, 5], [2], [0, 1]]);
		R.forEach((_, j) => {
			let fromRounds = 0;
			for (const round of rounds) {
				const at = round.alive.indexOf(j);
				if (at >= 0) fromRounds += round.eliminated.length * round.pElim[at]! - (round.eliminated.includes(j) ? 1 : 0);
			}
			expectClose(score[j], fromRounds, 1e-12, `score[${j}]`);
		});
	});

	it('ties: the result does not depend on the order inside a tie group', () => {
		const R = [0.4, -0.3, 0.9, 0.1, -0.8];
		const ranks = [1, 2.5, 2.5, 4.5, 4.5];
		const a = endureScoreInfo(R, ranks);
		const b = endureScoreInfo([0.4, 0.9, -0.3, -0.8, 0.1], ranks);
		for (const [i, j] of [
			[0, 0],
			[1, 2],
			[2, 1],
			[3, 4],
			[4, 3],
		] as const) {
			expectClose(a.score[i], b.score[j]!, 1e-13, 'score');
			expectClose(a.info[i], b.info[j]!, 1e-13, 'info');
		}
	});

	it('input order does not matter when positions are given (through rankRace)', () => {
		const entries = [
			{ player: 'ann', position: 1, status: 'finished' as const },
			{ player: 'bob', position: 2, status: 'finished' as const },
			{ player: 'cat', position: 2, status: 'finished' as const },
			{ player: 'dan', position: 4, status: 'finished' as const },
			{ player: 'eve', position: 5, status: 'DNF' as const },
			{ player: 'fay', position: 6, status: 'DNS' as const },
		];
		const ratings: Record<string, number> = { ann: -0.2, bob: 0.5, cat: 0.1, dan: 0.3, eve: -0.4, fay: 0 };
		const rate = (order: readonly number[]): Map<string, number> => {
			const ranked = rankRace({ id: 'r', entries: order.map((i) => entries[i]!) });
			const field = ranked.map((e) => ({ ...e, state: stateOf(ratings[e.player]!) }));
			const post = endure.rateRace(field, base);
			return new Map(field.map((e, i) => [e.player, post[i]!.rating]));
		};
		const reference = rate([0, 1, 2, 3, 4, 5]);
		expect([...reference.keys()].sort()).toEqual(['ann', 'bob', 'cat', 'dan', 'eve']);
		for (const order of [
			[5, 4, 3, 2, 1, 0],
			[2, 0, 4, 1, 5, 3],
			[3, 5, 1, 0, 2, 4],
		]) {
			const result = rate(order);
			for (const [player, r] of reference) expect(result.get(player)).toBe(r);
		}
	});

	it('the winner gains and the last-placed racer loses, whatever the ratings', () => {
		fc.assert(
			fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 2, maxLength: 40 }), (R) => {
				const post = endure.rateRace(fieldOf(R.map((r) => stateOf(r))), base);
				expect(post[0]!.rating).toBeGreaterThan(R[0]!);
				expect(post.at(-1)!.rating).toBeLessThan(R.at(-1)!);
			}),
			{ numRuns: 100 },
		);
	});

	it('base updates sum to zero', () => {
		fc.assert(
			fc.property(fieldArb, ({ R, ranks }) => {
				const post = endure.rateRace(
					fieldOf(
						R.map((r) => stateOf(r)),
						ranks,
					),
					base,
				);
				const change = post.reduce((sum, s, i) => sum + s.rating - R[i]!, 0);
				expect(Math.abs(change)).toBeLessThan(1e-9);
			}),
			{ numRuns: 150 },
		);
	});

	it('finite outputs and 0 < k_post <= k for arbitrary valid fields (m <= 40, R in [-10, 10], ties)', () => {
		fc.assert(
			fc.property(
				fieldArb,
				fc.array(fc.double({ min: 0.001, max: 5, noNaN: true }), { minLength: 40, maxLength: 40 }),
				fc.boolean(),
				fc.constantFrom('posterior', 'prior'),
				({ R, ranks }, ks, extended, kStep) => {
					const params = endure.params({ extended, kStep });
					const pre = R.map((r, i) => stateOf(r, extended ? ks[i]! : base.k));
					const post = endure.rateRace(fieldOf(pre, ranks), params);
					post.forEach((s, i) => {
						expect(Number.isFinite(s.rating)).toBe(true);
						expect(s.k).toBeGreaterThan(0);
						expect(s.k).toBeLessThanOrEqual(pre[i]!.k);
						expect(s.races).toBe(R.length > 1 ? 4 : 3);
					});
				},
			),
			{ numRuns: 150 },
		);
	});

	it('re-running from stored state equals a continuous run (race by race, with forgetting)', () => {
		for (const overrides of [{}, { extended: true, phi: 0.99 }, { phi: 0.995 }] as ParamOverrides[]) {
			const params = endure.params(overrides);
			fc.assert(
				fc.property(seasonArb, fc.nat(), (gaps, cut) => {
					let day = 0;
					const season = gaps.map(({ gap, entries }) => ({ day: (day += gap), entries }));
					const split = cut % (season.length + 1);
					const continuous = replay(params, season);
					const stored = JSON.parse(JSON.stringify([...replay(params, season.slice(0, split))])) as [string, Book][];
					const resumed = replay(params, season.slice(split), new Map(stored));
					expect(resumed).toEqual(continuous);
				}),
				{ numRuns: 40 },
			);
		}
	});
});

describe('endure forgetting (elapse)', () => {
	const params = endure.params({ extended: true, phi: 0.98, kInf: 0.6 });

	it('eq. 7-8 for one step (checked by hand: phi = 0.98, h = 1)', () => {
		const s = endure.elapse({ rating: 0.3, k: 0.5, races: 1 }, 1, params);
		expectClose(s.rating, 0.294, 1e-12, 'R');
		expectClose(s.k, 0.5 + (1 - 0.98 ** 2) * 0.1, 1e-12, 'k');
	});

	it('is composable: elapse h1 then h2 = elapse h1 + h2', () => {
		fc.assert(
			fc.property(
				fc.double({ min: -10, max: 10, noNaN: true }),
				fc.double({ min: 0.001, max: 3, noNaN: true }),
				fc.double({ min: 0, max: 400, noNaN: true }),
				fc.double({ min: 0, max: 400, noNaN: true }),
				fc.double({ min: 0.5, max: 1, noNaN: true }),
				fc.boolean(),
				(rating, k, h1, h2, phi, extended) => {
					const p = endure.params({ phi, extended, kInf: 0.6 });
					const state = { rating, k, races: 2 };
					const twoSteps = endure.elapse(endure.elapse(state, h1, p), h2, p);
					const oneStep = endure.elapse(state, h1 + h2, p);
					expect(twoSteps.rating).toBeCloseTo(oneStep.rating, 12);
					expect(twoSteps.k).toBeCloseTo(oneStep.k, 12);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('phi = 1 (default) forgets nothing; the base version shrinks R and keeps its global k', () => {
		const state = { rating: 1.2, k: 0.36, races: 3 };
		expect(endure.elapse(state, 365, base)).toEqual(state);
		const shrunk = forget(state, 10, endure.params({ phi: 0.99 }));
		expectClose(shrunk.rating, 1.2 * 0.99 ** 10, 1e-12, 'R');
		expect(shrunk.k).toBe(0.36);
		expect(endure.elapse(state, 0, params)).toEqual(state);
	});
});

describe('endure system surface', () => {
	it('params: documented defaults, typed errors', () => {
		const p: EndureParams = endure.params();
		expect(p).toEqual({
			k: 0.36,
			extended: false,
			kStep: 'posterior',
			kInf: 1,
			phi: 1,
			provisionalFraction: 0.5,
			provisionalRaces: 5,
			cars: false,
			kCar: 0.3,
			carCarry: 0.57,
		});
		expect(endureParamSpecs.map((s) => s.name)).toEqual(Object.keys(p));
		expect(() => endure.params({ q: 1 })).toThrow(ParamError);
		expect(() => endure.params({ k: -1 })).toThrow(ParamError);
		expect(() => endure.params({ kStep: 'newton' })).toThrow(ParamError);
		expect(() => endure.params({ carCarry: 1.5 })).toThrow(ParamError);
	});

	it('newcomer: R = 0, k = kInf (extended) or the global k (base)', () => {
		expect(endure.newcomer(base)).toEqual({ rating: 0, k: 0.36, races: 0 });
		expect(endure.newcomer(endure.params({ extended: true, kInf: 0.6 }))).toEqual({ rating: 0, k: 0.6, races: 0 });
	});

	it('provisional: races < provisionalRaces (base); k > provisionalFraction * kInf (extended)', () => {
		expect(endure.summary(stateOf(0.5, 0.36, 4), base).provisional).toBe(true);
		expect(endure.summary(stateOf(0.5, 0.36, 5), base)).toEqual({
			rating: 0.5,
			uncertainty: 0.36,
			races: 5,
			provisional: false,
		});
		const ext = endure.params({ extended: true, kInf: 0.6 });
		expect(endure.summary(stateOf(0, 0.31, 1), ext).provisional).toBe(true);
		expect(endure.summary(stateOf(0, 0.29, 1), ext).provisional).toBe(false);
	});

	it('performance: exp-longest with rate e^-R', () => {
		expect(endure.performance(stateOf(0.5), base)).toEqual({ kind: 'exp-longest', rate: Math.exp(-0.5) });
	});
});

// --- generators and a tiny replay for the invariants ---

/** A field in finishing order: ratings and non-decreasing ranks with random tie groups. */
const fieldArb = fc
	.array(fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.boolean()), { minLength: 1, maxLength: 40 })
	.map((rows) => {
		const ranks: number[] = [];
		rows.forEach(([, tiedWithPrevious], i) => ranks.push(i > 0 && tiedWithPrevious ? ranks[i - 1]! : i + 1));
		return { R: rows.map(([r]) => r), ranks };
	});

const players = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal'];
const statuses: EntryStatus[] = ['finished', 'finished', 'finished', 'DNF', 'DNS', 'DSQ'];

/** A season of dated races over a small pool: random subsets, positions with ties, every status. */
const seasonArb = fc.array(
	fc.record({
		gap: fc.integer({ min: 0, max: 30 }),
		entries: fc.uniqueArray(
			fc.record({
				player: fc.constantFrom(...players),
				position: fc.integer({ min: 1, max: 6 }),
				status: fc.constantFrom(...statuses),
			}),
			{ selector: (e) => e.player, maxLength: players.length },
		),
	}),
	{ maxLength: 12 },
);

interface Book {
	readonly state: EndureState;
	readonly day: number;
}

function replay(
	params: EndureParams,
	season: readonly { day: number; entries: Race['entries'] }[],
	start = new Map<string, Book>(),
): Map<string, Book> {
	const book = new Map(start);
	for (const [n, { day, entries }] of season.entries()) {
		const field = rankRace({ id: `r${n}`, entries }).map((e) => {
			const seen = book.get(e.player);
			return { ...e, state: seen ? endure.elapse(seen.state, day - seen.day, params) : endure.newcomer(params) };
		});
		const post = endure.rateRace(field, params);
		field.forEach((e, i) => book.set(e.player, { state: post[i]!, day }));
	}
	return book;
}
