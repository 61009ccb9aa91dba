import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import oracles from '../fixtures/glicko/glicko_oracles.json' with { type: 'json' };
import {
	cForReturnToMax,
	ficsGame,
	ficsServerRdGrowth,
	GLICKO_BETA,
	GLICKO_C_PER_DAY,
	GLICKO_P,
	GLICKO_Q,
	glicko,
	glickoExpected,
	glickoG,
	glickoPeriod,
	pTrueRatingGreater,
	rdGrowth,
	rdGrowthVariance,
	roundHalfAwayFromZero,
	type GlickoParams,
	type GlickoState,
} from '../../src/ratings/glicko.js';
import { rankRace } from '../../src/ratings/race.js';
import type { FieldEntry, Race } from '../../src/ratings/types.js';
import { expectRel } from '../support/close.js';
import { raceOf } from '../support/fields.js';

const period = glicko.params();
const fics = glicko.params({ form: 'fics' });

type States = Map<string, GlickoState>;

/** A two-player field for rateRace: score 1 / 0.5 / 0 for player 1 becomes ranks. */
function duel(p1: GlickoState, p2: GlickoState, w: number): FieldEntry<GlickoState>[] {
	const [r1, r2] = w === 1 ? [1, 2] : w === 0 ? [2, 1] : [1.5, 1.5];
	return [
		{ player: 'p1', rank: r1, status: 'finished', state: p1 },
		{ player: 'p2', rank: r2, status: 'finished', state: p2 },
	];
}

/**
 * The tiny replay loop of the tests: before each race, every participant's RD grows by the days since their last
 * race (elapse), then rankRace + rateRace. `day` is the race's day number.
 */
function replay(
	races: readonly { race: Race; day: number }[],
	params: GlickoParams,
	start: States = new Map(),
	lastDay: Map<string, number> = new Map(),
): States {
	const states = new Map(start);
	for (const { race, day } of races) {
		const field = rankRace(race).map((entry) => {
			const known = states.get(entry.player);
			const state = known
				? glicko.elapse(known, day - (lastDay.get(entry.player) ?? day), params)
				: glicko.newcomer(params);
			return { ...entry, state };
		});
		const next = glicko.rateRace(field, params);
		field.forEach((entry, i) => {
			states.set(entry.player, next[i]!);
			lastDay.set(entry.player, day);
		});
	}
	return states;
}

describe('glicko constants and params', () => {
	it('q and p as in the oracle file', () => {
		expect(GLICKO_Q).toBe(oracles.meta.q);
		expectRel(GLICKO_P, oracles.meta.p, 1e-15);
	});

	it('defaults: 1500 / RD 350, c per day returns RD 50 to 350 after 730 days, form period', () => {
		expect([
			period.initialRating,
			period.initialRd,
			period.maxRd,
			period.form,
			period.kFloor,
			period.provisionalRd,
		]).toEqual([1500, 350, 350, 'period', 16, 110]);
		expectRel(period.c, Math.sqrt((350 ** 2 - 50 ** 2) / 730), 1e-15);
		expect(GLICKO_C_PER_DAY).toBe(period.c);
		expectRel(rdGrowth(50, period.c, 730), 350, 1e-12);
		expect(rdGrowth(50, period.c, 729)).toBeLessThan(350);
		expect(() => glicko.params({ form: 'elo' })).toThrow(/one of period, fics/);
		expect(() => glicko.params({ initialRd: 400 })).toThrow(/maxRd/);
		expect(() => glicko.params({ c: -1 })).toThrow(/at least 0/);
	});
});

describe('glicko oracle: glicko.pdf step 2 (glickman_paper_example, glickman_batch_example_2)', () => {
	for (const key of ['glickman_paper_example', 'glickman_batch_example_2'] as const) {
		const example = oracles[key];
		it(`${key}: g, E, d², r', RD' at 1e-9 relative to 'exact'`, () => {
			const { r, RD, games } = example.input;
			games.forEach((game, j) => {
				expectRel(glickoG(game.RD_j), example.exact.g[j]!);
				expectRel(glickoExpected(r, game.r_j, game.RD_j), example.exact.E[j]!);
			});
			const result = glickoPeriod(
				r,
				RD,
				games.map((game) => ({ rating: game.r_j, rd: game.RD_j, score: game.s_j })),
			);
			expectRel(result.d2, example.exact.d2);
			expectRel(result.rating, example.exact.r_new);
			expectRel(result.rd, example.exact.RD_new);
		});
	}

	it('glickman_paper_example: 40-digit values, and the published (rounded) 1464 / 151.4 / d² ≈ 53670.85', () => {
		const example = oracles.glickman_paper_example;
		const result = glickoPeriod(
			1500,
			200,
			example.input.games.map((game) => ({ rating: game.r_j, rd: game.RD_j, score: game.s_j })),
		);
		expectRel(result.rating, Number(example.exact_mpmath_40digits.r_new), 1e-13);
		expectRel(result.rd, Number(example.exact_mpmath_40digits.RD_new), 1e-13);
		expectRel(result.d2, Number(example.exact_mpmath_40digits.d2), 1e-12);
		expect(Math.abs(result.rating - example.published.r_new)).toBeLessThan(example.tolerances.r_new_vs_published);
		expect(Math.abs(result.rd - example.published.RD_new)).toBeLessThan(example.tolerances.RD_new_vs_published);
		// The published d² used rounded g and E: 0.03 % off, so only a loose check.
		expect(Math.abs(result.d2 / example.published.d2 - 1)).toBeLessThan(5e-4);
		// Not Glicko-2 (npm glicko2 gives 1464.0507 / 151.5165 on this example).
		expect(Math.abs(result.rd - 151.5165)).toBeGreaterThan(0.1);
	});

	it('glickman_batch_example_2 through rateRace: the race reads as that period when ranks give those scores', () => {
		// Player 1700/80 ties 1650/50, beats 1800/120 and 1720/350, loses to 1500/300 — one race, form 'period'.
		const ex = oracles.glickman_batch_example_2;
		const opp = ex.input.games;
		const st = (rating: number, rd: number): GlickoState => ({ rating, rd, races: 5 });
		const field: FieldEntry<GlickoState>[] = [
			{ player: 'c', rank: 1, status: 'finished', state: st(opp[2]!.r_j, opp[2]!.RD_j) },
			{ player: 'a', rank: 2.5, status: 'finished', state: st(opp[0]!.r_j, opp[0]!.RD_j) },
			{ player: 'me', rank: 2.5, status: 'finished', state: st(ex.input.r, ex.input.RD) },
			{ player: 'b', rank: 4.5, status: 'finished', state: st(opp[1]!.r_j, opp[1]!.RD_j) },
			{ player: 'd', rank: 4.5, status: 'finished', state: st(opp[3]!.r_j, opp[3]!.RD_j) },
		];
		// b and d tie with each other, which does not concern 'me'.
		const after = glicko.rateRace(field, period)[2]!;
		expectRel(after.rating, ex.exact.r_new);
		expectRel(after.rd, ex.exact.RD_new);
		expect(after.races).toBe(6);
	});

	it('glickman_empty_period: r unchanged, RD ← min(√(RD² + c²t), 350)', () => {
		const { c, cases } = oracles.glickman_empty_period;
		const params = glicko.params({ c });
		for (const k of cases) {
			const empty = glickoPeriod(k.r, k.RD, []);
			expect([empty.rating, empty.rd]).toEqual([k.r, k.RD]);
			expectRel(rdGrowth(k.RD, c, k.periods), k.RD_new);
			const grown = glicko.elapse({ rating: k.r, rd: k.RD, races: 3 }, k.periods, params);
			expect(grown.rating).toBe(k.r);
			expectRel(grown.rd, k.RD_new);
		}
	});
});

describe('glicko oracle: fics_single_game (FICS help "glicko", lasker server cross-checked)', () => {
	for (const game of oracles.fics_single_game.games) {
		it(`${game.name}: both sides, K floor flags, deltas, integer rounding`, () => {
			for (const side of [game.player1, game.player2]) {
				const got = ficsGame({ rating: side.r, rd: side.RD }, { rating: side.opp_r, rd: side.opp_RD }, side.w);
				expectRel(got.f, side.f_opp);
				expectRel(got.expected, side.E);
				expectRel(got.kRaw, side.K_raw);
				expectRel(got.kUsed, side.K_used);
				expect(got.kFloorApplied).toBe(side.K_floor_applied);
				expectRel(got.delta, side.delta);
				expectRel(got.deltaNoFloor, side.delta_nofloor);
				expectRel(got.rating, side.rating_new);
				expectRel(got.rd, side.RD_new);
				expect(roundHalfAwayFromZero(got.delta)).toBe(side.int_delta_with_floor);
				expect(roundHalfAwayFromZero(got.deltaNoFloor)).toBe(side.int_delta_nofloor_lasker_server);
			}
		});

		it(`${game.name}: a two-racer race in form 'fics' equals the FICS single game exactly`, () => {
			const p1 = { rating: game.player1.r, rd: game.player1.RD, races: 7 };
			const p2 = { rating: game.player2.r, rd: game.player2.RD, races: 7 };
			const [a, b] = glicko.rateRace(duel(p1, p2, game.player1.w), fics);
			const g1 = ficsGame(p1, p2, game.player1.w);
			const g2 = ficsGame(p2, p1, game.player2.w);
			expect(a).toEqual({ rating: g1.rating, rd: g1.rd, races: 8 });
			expect(b).toEqual({ rating: g2.rating, rd: g2.rd, races: 8 });
			expectRel(a!.rating, game.player1.rating_new);
			expectRel(b!.rd, game.player2.RD_new);
		});

		it(`${game.name}: without the floor, a FICS game is a Glicko-1 period with one game`, () => {
			const s = game.player1;
			const one = glickoPeriod(s.r, s.RD, [{ rating: s.opp_r, rd: s.opp_RD, score: s.w }]);
			expectRel(one.rating - s.r, s.delta_nofloor, 1e-9);
			expectRel(one.rd, s.RD_new, 1e-12);
		});
	}

	it('rounding is half away from zero (lasker Round())', () => {
		expect([2.5, -2.5, 0.49, -0.5, 1720 + 162.5].map(roundHalfAwayFromZero)).toEqual([3, -3, 0, -1, 1883]);
	});

	it('games_with_time_inflation: RDs grown by the server log formula, then the game', () => {
		for (const game of oracles.fics_single_game.games_with_time_inflation) {
			const sides = [game.player1, game.player2] as const;
			const pregame = sides.map((s) => ficsServerRdGrowth(s.RD_stored, s.idle_seconds));
			sides.forEach((s, i) => expectRel(pregame[i]!, s.RD_pregame));
			const [p1, p2] = sides.map((s, i) => ({ rating: s.r, rd: pregame[i]! }));
			const results = [ficsGame(p1!, p2!, 0), ficsGame(p2!, p1!, 1)];
			sides.forEach((s, i) => {
				const got = results[i]!;
				expectRel(got.f, s.f_opp);
				expectRel(got.expected, s.E);
				expectRel(got.kRaw, s.K_raw);
				expectRel(got.kUsed, s.K);
				expectRel(got.delta, s.delta);
				expectRel(got.rating, s.rating_new);
				expectRel(got.rd, s.rd_new);
			});
			// The oracle's scores: player 1 lost (delta < 0), player 2 won.
			expect(game.player1.delta).toBeLessThan(0);
			expect(game.player2.delta).toBeGreaterThan(0);
		}
	});
});

describe('glicko oracle: rd_growth', () => {
	const growth = oracles.rd_growth;

	it('choosing c: RD_typical returns to 350 after T periods', () => {
		for (const ex of growth.choosing_c.examples) expectRel(cForReturnToMax(ex.RD_typical, ex.T), ex.c);
	});

	for (const key of ['glickman_c2t', 'glickman_c2t_c30'] as const) {
		it(`${key}: min(√(RD0² + c²t), 350), also through elapse`, () => {
			const { c, cases } = growth[key];
			const params = glicko.params({ c });
			for (const k of cases) {
				expectRel(rdGrowth(k.RD0, c, k.t), k.RD_t);
				expectRel(glicko.elapse({ rating: 1600, rd: k.RD0, races: 2 }, k.t, params).rd, k.RD_t);
			}
		});
	}

	it('fics_help_linear: c is a variance per second (Gv = 0.187²/60)', () => {
		const { c_per_second: v, cases } = growth.fics_help_linear;
		expectRel(v, 0.187 ** 2 / 60, 1e-12);
		for (const k of cases) expectRel(rdGrowthVariance(k.RD0, v, k.t_seconds), k.RD_t);
	});

	it('fics_server_log: min(√(RD² + 1.483² ln(1 + t/60)), 350), t in seconds', () => {
		for (const k of growth.fics_server_log.cases) expectRel(ficsServerRdGrowth(k.RD0, k.t_seconds), k.RD_t);
	});
});

describe('glicko oracle: p_true_rating_greater', () => {
	for (const k of oracles.p_true_rating_greater.cases) {
		it(`r1=${k.r1}/${k.s1} vs r2=${k.r2}/${k.s2}`, () => {
			expectRel(Math.hypot(k.s1, k.s2), k.s_comb, 1e-15);
			expectRel(glickoG(k.s_comb), k.f);
			const p = pTrueRatingGreater(k.r1, k.s1, k.r2, k.s2);
			expectRel(p, k.P);
			expectRel(p, Number(k.P_mpmath), 1e-12);
		});
	}
});

/** Standard normal CDF via erf (Abramowitz & Stegun 7.1.26, |error| < 1.5e-7). */
function normalCdf(z: number): number {
	const x = Math.abs(z) / Math.SQRT2;
	const t = 1 / (1 + 0.3275911 * x);
	const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
	const erf = 1 - poly * Math.exp(-x * x);
	return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

describe('glicko summary and performance', () => {
	it('performance: normal-highest, mean r, sd² = π²/(6q²) + RD²', () => {
		expectRel(GLICKO_BETA ** 2, Math.PI ** 2 / (6 * GLICKO_Q ** 2), 1e-14);
		const perf = glicko.performance({ rating: 1650, rd: 80, races: 4 }, period);
		expect(perf.kind).toBe('normal-highest');
		if (perf.kind === 'normal-highest') {
			expect(perf.mean).toBe(1650);
			expectRel(perf.sd, Math.sqrt(GLICKO_BETA ** 2 + 80 ** 2), 1e-15);
		}
	});

	// A normal with the logistic's variance differs from the logistic CDF by at most ≈ 0.0228, hence 0.025.
	it('performance model: P(X1 > X2) tracks the Glicko expected score (normal vs logistic, within 0.025)', () => {
		for (const [r1, rd1, r2, rd2] of [
			[1700, 50, 1500, 60],
			[1500, 350, 1800, 40],
			[2000, 100, 1400, 200],
			[1600, 30, 1590, 30],
		] as const) {
			const a = glicko.performance({ rating: r1, rd: rd1, races: 1 }, period);
			const b = glicko.performance({ rating: r2, rd: rd2, races: 1 }, period);
			if (a.kind !== 'normal-highest' || b.kind !== 'normal-highest') throw new Error('kind');
			const pNormal = normalCdf((a.mean - b.mean) / Math.hypot(a.sd, b.sd));
			expect(Math.abs(pNormal - pTrueRatingGreater(r1, rd1, r2, rd2))).toBeLessThan(0.025);
		}
	});

	it('summary: RD is the uncertainty; provisional while RD > 110', () => {
		expect(glicko.summary({ rating: 1520, rd: 110, races: 9 }, period)).toEqual({
			rating: 1520,
			uncertainty: 110,
			races: 9,
			provisional: false,
		});
		expect(glicko.summary({ rating: 1520, rd: 110.01, races: 9 }, period).provisional).toBe(true);
		expect(glicko.summary(glicko.newcomer(period), period).provisional).toBe(true);
	});
});

describe('glicko elapse (RD growth)', () => {
	it('composes: growing t1 then t2 equals t1 + t2, including across the 350 cap', () => {
		fc.assert(
			fc.property(
				fc.double({ min: 1, max: 350, noNaN: true }),
				fc.double({ min: 0, max: 1000, noNaN: true }),
				fc.double({ min: 0, max: 1000, noNaN: true }),
				(rd, t1, t2) => {
					const s = { rating: 1500, rd, races: 1 };
					const stepwise = glicko.elapse(glicko.elapse(s, t1, period), t2, period).rd;
					expectRel(stepwise, glicko.elapse(s, t1 + t2, period).rd, 1e-12);
					expect(stepwise).toBeLessThanOrEqual(350);
				},
			),
			{ numRuns: 200 },
		);
		// Explicitly across the cap: 700 days reach it only in sum.
		const s = { rating: 1500, rd: 50, races: 1 };
		expect(glicko.elapse(s, 700, period).rd).toBeLessThan(350);
		expect(glicko.elapse(glicko.elapse(s, 700, period), 100, period).rd).toBe(350);
		expect(glicko.elapse(s, 800, period).rd).toBe(350);
	});

	it('zero days change nothing; negative days are an error', () => {
		const s = { rating: 1500, rd: 77, races: 1 };
		expect(glicko.elapse(s, 0, period)).toEqual(s);
		expect(() => glicko.elapse(s, -1, period)).toThrow(RangeError);
	});
});

describe('glicko invariants (STYLE.md 11), both forms', () => {
	for (const params of [period, fics]) {
		const form = params.form;
		const rate = (race: Race, states: States): States => replay([{ race, day: 0 }], params, states, new Map());

		it(`[${form}] a one-racer race changes nothing`, () => {
			const start: States = new Map([['A', { rating: 1623, rd: 88, races: 3 }]]);
			expect(rate(raceOf('solo', [['A', 1]]), start).get('A')).toEqual({ rating: 1623, rd: 88, races: 3 });
		});

		it(`[${form}] an equal-rated tie leaves ratings unchanged; RDs shrink`, () => {
			const start: States = new Map([
				['A', { rating: 1580, rd: 60, races: 9 }],
				['B', { rating: 1580, rd: 200, races: 1 }],
				['C', { rating: 1580, rd: 350, races: 0 }],
			]);
			const after = rate(
				raceOf('tie', [
					['A', 1],
					['B', 1],
					['C', 1],
				]),
				start,
			);
			for (const [player, before] of start) {
				expect(after.get(player)!.rating).toBe(1580);
				expect(after.get(player)!.rd).toBeLessThan(before.rd);
				expect(after.get(player)!.races).toBe(before.races + 1);
			}
		});

		it(`[${form}] the winner gains and the last-placed racer loses`, () => {
			const start: States = new Map([
				['A', { rating: 1400, rd: 60, races: 20 }],
				['B', { rating: 1700, rd: 120, races: 2 }],
				['C', { rating: 1500, rd: 50, races: 13 }],
				['D', { rating: 1300, rd: 350, races: 0 }],
			]);
			const after = rate(
				raceOf('r', [
					['A', 1],
					['B', 2],
					['C', 3],
					['D', 4],
				]),
				start,
			);
			expect(after.get('A')!.rating).toBeGreaterThan(1400);
			expect(after.get('D')!.rating).toBeLessThan(1300);
		});

		it(`[${form}] input order does not matter when positions are given`, () => {
			const rows = [
				['E', 3],
				['A', 1],
				['C', 2],
				['B', 2],
				['D', 5],
			] as const;
			const start: States = new Map([
				['A', { rating: 1550, rd: 70, races: 4 }],
				['B', { rating: 1490, rd: 150, races: 15 }],
			]);
			const one = rate(raceOf('r', rows), start);
			const two = rate(raceOf('r', [...rows].reverse()), start);
			const three = rate(raceOf('r', [rows[2], rows[4], rows[0], rows[3], rows[1]]), start);
			for (const player of ['A', 'B', 'C', 'D', 'E']) {
				expect(two.get(player)).toEqual(one.get(player));
				expect(three.get(player)).toEqual(one.get(player));
			}
		});

		it(`[${form}] re-running from stored state equals a continuous run (with idle-time growth)`, () => {
			const history = [
				{
					race: raceOf('1', [
						['A', 1],
						['B', 2],
						['C', 3],
					]),
					day: 0,
				},
				{
					race: raceOf('2', [
						['B', 1],
						['D', 2],
						['A', 2],
					]),
					day: 14,
				},
				{
					race: raceOf('3', [
						['C', 1],
						['D', 2],
						['E', 3],
						['A', 4],
					]),
					day: 30,
				},
				{ race: raceOf('4', [['E', 1]]), day: 31 },
				{
					race: raceOf('5', [
						['A', 1],
						['E', 2],
						['B', 3],
						['C', 3],
						['D', 5],
					]),
					day: 400,
				},
			];
			const continuous = replay(history, params);
			const lastDay = new Map<string, number>();
			const firstHalf = replay(history.slice(0, 3), params, new Map(), lastDay);
			const stored = JSON.parse(JSON.stringify([...firstHalf])) as [string, GlickoState][];
			const resumed = replay(history.slice(3), params, new Map(stored), lastDay);
			expect([...resumed].sort()).toEqual([...continuous].sort());
		});

		it(`[${form}] fast-check: finite ratings, RD in (0, 350] and not above its pre-race value`, () => {
			const entry = fc.record({
				rating: fc.double({ min: 0, max: 3500, noNaN: true }),
				rd: fc.double({ min: 1e-3, max: 350, noNaN: true }),
				races: fc.nat({ max: 100 }),
				position: fc.integer({ min: 1, max: 12 }),
				dnf: fc.boolean(),
			});
			fc.assert(
				fc.property(fc.array(entry, { minLength: 1, maxLength: 14 }), (rows) => {
					const start: States = new Map(rows.map((r, i) => [`p${i}`, { rating: r.rating, rd: r.rd, races: r.races }]));
					const race: Race = {
						id: 'fuzz',
						entries: rows.map((r, i) => ({
							player: `p${i}`,
							position: r.position,
							status: r.dnf ? 'DNF' : 'finished',
						})),
					};
					const after = rate(race, start);
					for (const [player, before] of start) {
						const now = after.get(player)!;
						expect(Number.isFinite(now.rating)).toBe(true);
						expect(now.rd).toBeGreaterThan(0);
						expect(now.rd).toBeLessThanOrEqual(Math.min(before.rd, 350));
						expect(now.races).toBe(before.races + (rows.length > 1 ? 1 : 0));
					}
				}),
				{ numRuns: 150 },
			);
		});
	}

	it('[fics] several games in one race: deltas summed (each with its own floored K), RD from the combined information', () => {
		const a = { rating: 1800, rd: 50, races: 30 };
		const b = { rating: 1790, rd: 45, races: 30 };
		const c = { rating: 1500, rd: 300, races: 1 };
		const field: FieldEntry<GlickoState>[] = [
			{ player: 'a', rank: 1, status: 'finished', state: a },
			{ player: 'b', rank: 2, status: 'finished', state: b },
			{ player: 'c', rank: 3, status: 'finished', state: c },
		];
		const [after] = glicko.rateRace(field, fics);
		const ab = ficsGame(a, b, 1);
		const ac = ficsGame(a, c, 1);
		expect(ab.kFloorApplied).toBe(true);
		expectRel(after!.rating, 1800 + ab.delta + ac.delta, 1e-14);
		expectRel(after!.rd, 1 / Math.sqrt(1 / 50 ** 2 + ab.information + ac.information), 1e-14);
		// It is not the Glicko-1 period (different K per game, and the floor).
		const asPeriod = glicko.rateRace(field, period)[0]!;
		expect(Math.abs(asPeriod.rating - after!.rating)).toBeGreaterThan(1);
		expectRel(asPeriod.rd, after!.rd, 1e-12); // the RD update is the same information sum
	});
});
