import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { endure, endureScoreInfo } from '../../src/ratings/endure.js';
import { speed, speedParamSpecs, speedRounds, speedScoreInfo, type SpeedState } from '../../src/ratings/speed.js';
import { rankRace } from '../../src/ratings/race.js';
import oracle from '../fixtures/endure/single_race_updates.json' with { type: 'json' };
import { expectAllClose, expectClose } from '../support/close.js';
import { fieldOf } from '../support/fields.js';

// Oracle: shared/oracles/endure/single_race_updates.json, the `speed` half of the base cases (Powell, JQAS 19(3),
// eq. 49-50; see test/fixtures/endure/PROVENANCE.md). Tolerance 1e-9 relative, 1e-12 against the 25-digit strings.

const base = speed.params();
const stateOf = (rating: number, k = base.k, races = 3): SpeedState => ({ rating, k, races });

/** A field in finishing order: ratings, per-racer k and non-decreasing ranks with random tie groups. */
const fieldArb = fc
	.array(
		fc.tuple(
			fc.double({ min: -10, max: 10, noNaN: true }),
			fc.double({ min: 0.001, max: 5, noNaN: true }),
			fc.boolean(),
		),
		{ minLength: 1, maxLength: 40 },
	)
	.map((rows) => {
		const ranks: number[] = [];
		rows.forEach(([, , tied], i) => ranks.push(i > 0 && tied ? ranks[i - 1]! : i + 1));
		return { R: rows.map(([r]) => r), ks: rows.map(([, k]) => k), ranks };
	});

describe('speed oracle: base version (k = 0.36)', () => {
	for (const c of oracle.base) {
		describe(c.name, () => {
			const R = c.R_pre_in_finishing_order;

			it('score and info', () => {
				const { score, info } = speedScoreInfo(R);
				expectAllClose(score, c.speed.score, 1e-9, 'score');
				expectAllClose(info, c.speed.info, 1e-9, 'info');
			});

			it('R_post (1e-9; 1e-12 against the 25-digit values) and zero sum', () => {
				const post = speed
					.rateRace(fieldOf(R.map((r) => stateOf(r, c.k))), speed.params({ k: c.k }))
					.map((s) => s.rating);
				expectAllClose(post, c.speed.R_post, 1e-9, 'R_post');
				expectAllClose(post, c.speed.R_post_25.map(Number), 1e-12, 'R_post_25');
				expect(Math.abs(post.reduce((sum, r, i) => sum + r - R[i]!, 0))).toBeLessThan(1e-12);
			});

			const rounds = c.speed.rounds;
			if (rounds) {
				it('per-round selection probabilities', () => {
					const actual = speedRounds(R);
					expect(actual).toHaveLength(rounds.length);
					rounds.forEach((expected, r) => {
						expect(actual[r]!.alive).toEqual(expected.alive);
						expect(actual[r]!.selected).toEqual([expected.selected]);
						expectAllClose(actual[r]!.pSelect, expected.p_select, 1e-9, `round ${expected.round} p_select`);
					});
				});
			}
		});
	}
});

describe('speed is the mirror of endure', () => {
	it('three equal-rated racers: +0.24, +0.06, -0.30 (spec example, k = 0.36)', () => {
		const post = speed.rateRace(fieldOf([stateOf(0), stateOf(0), stateOf(0)]), base);
		expectAllClose(
			post.map((s) => s.rating),
			[0.24, 0.06, -0.3],
			1e-12,
			'R_post',
		);
	});

	it('speed_update(R, order) = -endure_update(-R, reversed(order)), ties included (score and info)', () => {
		fc.assert(
			fc.property(fieldArb, ({ R, ranks }) => {
				const m = R.length;
				const s = speedScoreInfo(R, ranks);
				const e = endureScoreInfo(R.map((r) => -r).reverse(), ranks.map((r) => m + 1 - r).reverse());
				R.forEach((_, i) => {
					expect(s.score[i]).toBeCloseTo(-e.score[m - 1 - i]!, 12);
					expect(s.info[i]).toBeCloseTo(e.info[m - 1 - i]!, 12);
				});
			}),
			{ numRuns: 150 },
		);
	});

	it('the identity holds through rateRace, base and extended (per-racer k)', () => {
		fc.assert(
			fc.property(fieldArb, fc.boolean(), ({ R, ks, ranks }, extended) => {
				const m = R.length;
				const pSpeed = speed.params({ extended });
				const pEndure = endure.params({ extended });
				const pre = R.map((r, i) => stateOf(r, extended ? ks[i]! : base.k));
				const sp = speed.rateRace(fieldOf(pre, ranks), pSpeed);
				const mirrored = [...pre].reverse().map((s) => ({ ...s, rating: -s.rating }));
				const en = endure.rateRace(fieldOf(mirrored, ranks.map((r) => m + 1 - r).reverse()), pEndure);
				sp.forEach((s, i) => {
					const mirror = en[m - 1 - i]!;
					expect(s.rating - pre[i]!.rating).toBeCloseTo(-(mirror.rating - mirrored[m - 1 - i]!.rating), 12);
					expect(s.k).toBeCloseTo(mirror.k, 12);
				});
			}),
			{ numRuns: 150 },
		);
	});
});

describe('speed invariants', () => {
	it('a one-racer race changes nothing', () => {
		const state = stateOf(-0.4, 0.8, 1);
		expect(speed.rateRace(fieldOf([state]), base)).toEqual([state]);
		expect(speed.rateRace(fieldOf([state]), speed.params({ extended: true }))).toEqual([state]);
	});

	it('an equal-rated tie changes nothing', () => {
		const post = speed.rateRace(fieldOf([stateOf(1), stateOf(1)], [1.5, 1.5]), base);
		expect(post.map((s) => s.rating)).toEqual([1, 1]);
	});

	it('input order does not matter when positions are given (through rankRace)', () => {
		const entries = [
			{ player: 'ann', position: 2, status: 'finished' as const },
			{ player: 'bob', position: 1, status: 'finished' as const },
			{ player: 'cat', position: 2, status: 'finished' as const },
			{ player: 'dan', position: 1, status: 'DNF' as const },
		];
		const ratings: Record<string, number> = { ann: 0.2, bob: -0.1, cat: 0.6, dan: 0.9 };
		const rate = (list: typeof entries): Map<string, number> => {
			const field = rankRace({ id: 'r', entries: list }).map((e) => ({ ...e, state: stateOf(ratings[e.player]!) }));
			return new Map(speed.rateRace(field, base).map((s, i) => [field[i]!.player, s.rating]));
		};
		const reference = rate(entries);
		const reversed = rate([...entries].reverse());
		for (const [player, r] of reference) expect(reversed.get(player)).toBe(r);
		// dan retired: classified last, so he loses; bob won: he gains.
		expect(reference.get('dan')).toBeLessThan(0.9);
		expect(reference.get('bob')).toBeGreaterThan(-0.1);
	});

	it('base updates sum to zero; outputs finite for arbitrary valid fields (m <= 40, R in [-10, 10])', () => {
		fc.assert(
			fc.property(fieldArb, fc.boolean(), ({ R, ks, ranks }, extended) => {
				const params = speed.params({ extended });
				const pre = R.map((r, i) => stateOf(r, extended ? ks[i]! : base.k));
				const post = speed.rateRace(fieldOf(pre, ranks), params);
				post.forEach((s, i) => {
					expect(Number.isFinite(s.rating)).toBe(true);
					expect(s.k).toBeGreaterThan(0);
					expect(s.k).toBeLessThanOrEqual(pre[i]!.k);
				});
				if (!extended) expect(Math.abs(post.reduce((sum, s, i) => sum + s.rating - R[i]!, 0))).toBeLessThan(1e-9);
			}),
			{ numRuns: 150 },
		);
	});
});

describe('speed system surface', () => {
	it('shares the endure parameter table and forgetting', () => {
		expect(speedParamSpecs.map((s) => s.name)).toEqual(Object.keys(base));
		const params = speed.params({ extended: true, phi: 0.98, kInf: 0.6 });
		const s = speed.elapse({ rating: -0.2, k: 0.2, races: 3 }, 3, params);
		expectClose(s.rating, -0.1882384, 1e-12, 'R'); // oracle m5_ext_forgetting R_pre[1]
		expectClose(s.k, 0.24566304765440006, 1e-12, 'k'); // oracle m5_ext_forgetting k_pre[1]
	});

	it('performance: exp-shortest with rate e^R', () => {
		expect(speed.performance(stateOf(0.5), base)).toEqual({ kind: 'exp-shortest', rate: Math.exp(0.5) });
	});
});
