import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import oracle from '../fixtures/stk/G1_single_races.json' with { type: 'json' };
import { rankRace } from '../../src/ratings/race.js';
import {
	stk,
	stkBasePoints,
	stkExpected,
	stkParamSpecs,
	stkRankingFactor,
	STK_PERFORMANCE_SD,
	type StkParams,
	type StkState,
} from '../../src/ratings/stk.js';
import { ParamError, UnratableRaceError, type FieldEntry, type Race, type RaceEntry } from '../../src/ratings/types.js';

// Oracle: shared/oracles/stk/G1_single_races.json, produced by the verbatim stk-code G1 ranking functions
// (github.com/supertuxkart/stk-code server_lobby.cpp @ e2d5e350) compiled with g++ 12.2;
// see test/fixtures/stk/PROVENANCE.md.
interface OraclePlayer {
	id: number;
	time: number;
	quit: boolean;
	handicap: boolean;
	pre: { score: number; max_score: number; races: number };
	post: { score: number; max_score: number; races: number };
}
interface OracleCase {
	name: string;
	description: string;
	time_trial: boolean;
	players: OraclePlayer[];
}
const cases = oracle.cases as OracleCase[];

const preset = stk.params({ preset: 'stk-2019' });
const seed = stk.params();

function relClose(actual: number, expected: number, tolerance = 1e-12): void {
	const scale = Math.max(Math.abs(expected), 1e-300);
	expect(Math.abs(actual - expected) / scale, `${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

function toRace(c: OracleCase): Race {
	// Positions from times (quitters last); STK itself never reads them.
	const finishers = c.players.filter((p) => !p.quit).sort((a, b) => a.time - b.time);
	return {
		id: c.name,
		mode: c.time_trial ? 'tt' : 'items',
		entries: c.players.map((p): RaceEntry => {
			const position = p.quit ? finishers.length + 1 : finishers.findIndex((f) => f.time === p.time) + 1;
			return { player: String(p.id), position, time: p.quit ? undefined : p.time, status: p.quit ? 'DNF' : 'finished' };
		}),
	};
}

function preState(p: OraclePlayer): StkState {
	return { score: p.pre.score, maxScore: p.pre.max_score, races: p.pre.races };
}

/** The oracle's kart order: the field in the order the reference sums it. */
function kartOrderField(c: OracleCase): FieldEntry<StkState>[] {
	return c.players.map((p) => ({
		player: String(p.id),
		rank: 0, // unused by stk
		time: p.quit ? undefined : p.time,
		status: p.quit ? 'DNF' : 'finished',
		state: preState(p),
	}));
}

/** The production path: rankRace's finishing order. */
function rateViaRankRace(c: OracleCase, params: StkParams): Map<string, StkState> {
	const race = toRace(c);
	const byId = new Map(c.players.map((p) => [String(p.id), preState(p)]));
	const field = rankRace(race).map((entry) => ({ ...entry, state: byId.get(entry.player)! }));
	const post = stk.rateRace(field, params, { mode: race.mode });
	return new Map(field.map((entry, i) => [entry.player, post[i]!]));
}

describe('stk G1 oracle (stk-2019 preset, relative 1e-12)', () => {
	it('has the 9 documented cases', () => {
		expect(cases).toHaveLength(9);
	});

	for (const c of cases) {
		it(`${c.name} in kart order`, () => {
			const post = stk.rateRace(kartOrderField(c), preset, { mode: c.time_trial ? 'tt' : 'items' });
			c.players.forEach((p, i) => {
				relClose(post[i]!.score, p.post.score);
				relClose(post[i]!.maxScore, p.post.max_score);
				expect(post[i]!.races).toBe(p.post.races);
			});
		});

		it(`${c.name} through rankRace (finishing order)`, () => {
			const post = rateViaRankRace(c, preset);
			for (const p of c.players) {
				const state = post.get(String(p.id))!;
				relClose(state.score, p.post.score);
				relClose(state.maxScore, p.post.max_score);
				expect(state.races).toBe(p.post.races);
			}
		});
	}
});

describe('stk parameters', () => {
	it('documents every parameter with a default', () => {
		for (const spec of stkParamSpecs) expect(spec.doc.length).toBeGreaterThan(20);
		expect(Object.keys(seed).sort()).toEqual(stkParamSpecs.map((spec) => spec.name).sort());
	});

	it('seed defaults follow the seed document, the preset follows the code', () => {
		expect(seed).toMatchObject({
			factorCombination: 'multiply',
			itemsSpread: 1,
			basePointsRaces: 45,
			float32Times: false,
		});
		expect(preset).toMatchObject({
			factorCombination: 'max',
			itemsSpread: 1.4,
			basePointsRaces: 46,
			float32Times: true,
		});
	});

	it('explicit parameters override the preset', () => {
		expect(stk.params({ preset: 'stk-2019', factorCombination: 'multiply' }).factorCombination).toBe('multiply');
		expect(stk.params({ preset: 'stk-2019', factorCombination: 'multiply' }).itemsSpread).toBe(1.4);
	});

	it('rejects unknown names and values', () => {
		expect(() => stk.params({ preset: 'stk-1999' })).toThrow(ParamError);
		expect(() => stk.params({ factorCombination: 'min' })).toThrow(/multiply, max/);
		expect(() => stk.params({ nope: 1 })).toThrow(/unknown parameter "nope"/);
	});

	it('base points add up to 2082 under the seed (45 races) and 2090 under the code (n ≤ 45)', () => {
		const total = (params: StkParams): number => {
			let sum = 0;
			for (let n = 0; n < 200; n++) sum += stkBasePoints(n, params);
			return sum;
		};
		expect(total(seed)).toBe(2082);
		expect(total(preset)).toBe(2090);
		expect(stkBasePoints(0, seed)).toBe(90);
		expect(stkBasePoints(44, seed)).toBe(8);
		expect(stkBasePoints(45, seed)).toBe(0);
		expect(stkBasePoints(45, preset)).toBe(8);
		expect(stkBasePoints(46, preset)).toBe(0);
	});

	it('ranking factor: score thresholds inclusive, race-count thresholds strict', () => {
		expect(stkRankingFactor(3999.99, 50)).toBe(1.0);
		expect(stkRankingFactor(3999.99, 51)).toBe(0.8);
		expect(stkRankingFactor(4000, 0)).toBe(0.8);
		expect(stkRankingFactor(2000, 100)).toBe(0.8);
		expect(stkRankingFactor(2000, 101)).toBe(0.7);
		expect(stkRankingFactor(5000, 0)).toBe(0.7);
		expect(stkRankingFactor(2000, 251)).toBe(0.6);
		expect(stkRankingFactor(6000, 0)).toBe(0.6);
		expect(stkRankingFactor(2000, 501)).toBe(0.5);
		expect(stkRankingFactor(7000, 0)).toBe(0.5);
		expect(stkRankingFactor(8000, 10_000)).toBe(0.4);
	});

	it('multiply (seed) vs max (code): a pair with factors 1.0 and 0.8 exchanges 0.8× as much', () => {
		// A fresh racer (factor 1.0) against one whose max score reached 4000 (factor 0.8): max gives 1.0, the product 0.8.
		const field: FieldEntry<StkState>[] = [
			{ player: 'new', rank: 1, time: 100, status: 'finished', state: { score: 2000, maxScore: 2000, races: 0 } },
			{ player: 'old', rank: 2, time: 101, status: 'finished', state: { score: 3900, maxScore: 4000, races: 60 } },
		];
		const byMax = stk.rateRace(field, preset);
		const byProduct = stk.rateRace(field, stk.params({ preset: 'stk-2019', factorCombination: 'multiply' }));
		const base = [90, 0];
		field.forEach((entry, i) => {
			const changeMax = byMax[i]!.score - entry.state.score - base[i]!;
			const changeProduct = byProduct[i]!.score - entry.state.score - base[i]!;
			expect(Math.abs(changeMax)).toBeGreaterThan(1);
			relClose(changeProduct, 0.8 * changeMax, 1e-9);
		});
	});

	it('seed defaults reproduce the oracle where seed and code agree (time trial, factors 1.0, no races yet)', () => {
		for (const name of ['two_fresh_tt_within_window', 'two_fresh_tt_beyond_window']) {
			const c = cases.find((x) => x.name === name)!;
			const post = stk.rateRace(kartOrderField(c), seed, { mode: 'tt' });
			c.players.forEach((p, i) => relClose(post[i]!.score, p.post.score));
		}
	});

	it('items spread: the seed keeps 2000 as the denominator, the code uses 2800', () => {
		const gap = 1000;
		expect(stkExpected(3000, 2000, seed.itemsSpread)).toBeCloseTo(1 / (1 + 10 ** (-gap / 2000)), 15);
		expect(stkExpected(3000, 2000, preset.itemsSpread)).toBeCloseTo(1 / (1 + 10 ** (-gap / 2800)), 15);
		// The seed's worked example: a 2000-point advantage is an expected result of ~0.909.
		expect(stkExpected(4000, 2000, 1)).toBeCloseTo(0.909, 3);
		// And a race with items then differs between the two readings.
		const c = cases.find((x) => x.name === 'equal_times_3p_items')!;
		const bySeedSpread = stk.rateRace(kartOrderField(c), stk.params({ preset: 'stk-2019', itemsSpread: 1 }), {
			mode: 'items',
		});
		expect(Math.abs(bySeedSpread[0]!.score - c.players[0]!.post.score)).toBeGreaterThan(0.01);
	});

	it('a race without mode is time trial', () => {
		const c = cases.find((x) => x.name === 'factor_thresholds_8p_tt')!;
		const post = stk.rateRace(kartOrderField(c), preset);
		c.players.forEach((p, i) => relClose(post[i]!.score, p.post.score));
	});
});

describe('stk invariants', () => {
	const fresh = (): StkState => stk.newcomer(preset);

	it('newcomer is 2000 / 2000 / 0, provisional', () => {
		expect(fresh()).toEqual({ score: 2000, maxScore: 2000, races: 0 });
		expect(stk.summary(fresh(), preset)).toEqual({ rating: 2000, uncertainty: undefined, races: 0, provisional: true });
	});

	it('provisional while base points are still due (races < basePointsRaces)', () => {
		const at = (races: number, params: StkParams): boolean =>
			stk.summary({ score: 3000, maxScore: 3000, races }, params).provisional;
		expect(at(45, preset)).toBe(true);
		expect(at(46, preset)).toBe(false);
		expect(at(44, seed)).toBe(true);
		expect(at(45, seed)).toBe(false);
	});

	it('a lone racer exchanges nothing but, as in the code, gets its base points and race count', () => {
		const lone = (state: StkState): StkState =>
			stk.rateRace([{ player: 'a', rank: 1, time: 90, status: 'finished', state }], preset)[0]!;
		expect(lone(fresh())).toEqual({ score: 2000 + 2 * 45, maxScore: 2000 + 2 * 45, races: 1 });
		const settled = { score: 5000.25, maxScore: 6000, races: 80 };
		expect(lone(settled)).toEqual({ ...settled, races: 81 });
		expect(stk.rateRace([], preset)).toEqual([]);
	});

	it('two quitters exchange nothing between themselves', () => {
		const state = { score: 5000, maxScore: 5000, races: 100 };
		const post = stk.rateRace(
			[
				{ player: 'a', rank: 1, status: 'DNF', state },
				{ player: 'b', rank: 1, status: 'DNF', state: { ...state, score: 3000 } },
			],
			preset,
		);
		expect(post.map((s) => s.score)).toEqual([5000, 3000]);
	});

	it('rejects a race with a finisher without a time, naming the racers', () => {
		const field: FieldEntry<StkState>[] = [
			{ player: 'alice', rank: 1, time: 100, status: 'finished', state: fresh() },
			{ player: 'bob', rank: 2, status: 'finished', state: fresh() },
			{ player: 'carol', rank: 3, time: Number.NaN, status: 'finished', state: fresh() },
			{ player: 'dave', rank: 4, status: 'DNF', state: fresh() },
		];
		expect(() => stk.rateRace(field, preset)).toThrow(UnratableRaceError);
		expect(() => stk.rateRace(field, preset)).toThrow(
			'stk needs a positive finish time for every finisher; missing for bob, carol',
		);
	});

	it('input order does not matter when positions are given', () => {
		const c = cases.find((x) => x.name === 'short_race_12p_items_random')!;
		const race = toRace(c);
		const byId = new Map(c.players.map((p) => [String(p.id), preState(p)]));
		const rate = (entries: readonly RaceEntry[]): Map<string, StkState> => {
			const field = rankRace({ ...race, entries }).map((entry) => ({ ...entry, state: byId.get(entry.player)! }));
			const post = stk.rateRace(field, preset, { mode: race.mode });
			return new Map(field.map((entry, i) => [entry.player, post[i]!]));
		};
		const reference = rate(race.entries);
		fc.assert(
			fc.property(fc.shuffledSubarray([...race.entries], { minLength: race.entries.length }), (entries) => {
				expect(rate(entries)).toEqual(reference);
			}),
			{ numRuns: 50 },
		);
	});

	it('elapse is the identity', () => {
		const state = { score: 4321.5, maxScore: 5000, races: 77 };
		expect(stk.elapse(state, 365, preset)).toEqual(state);
	});

	it('performance: a normal whose pairwise probability tracks the logistic expected result within 0.025', () => {
		const normalCdf = (x: number): number => {
			// Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7).
			const z = Math.abs(x) / Math.SQRT2;
			const t = 1 / (1 + 0.3275911 * z);
			const erf =
				1 -
				((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
					t *
					Math.exp(-z * z);
			return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
		};
		const settled = { maxScore: 6000, races: 300 };
		for (let gap = -6000; gap <= 6000; gap += 250) {
			const a = stk.performance({ score: 4000 + gap, ...settled }, preset);
			const b = stk.performance({ score: 4000, ...settled }, preset);
			if (a.kind !== 'normal-highest' || b.kind !== 'normal-highest') throw new Error('kind');
			const p = normalCdf((a.mean - b.mean) / Math.hypot(a.sd, b.sd));
			expect(Math.abs(p - stkExpected(4000 + gap, 4000, 1))).toBeLessThan(0.025);
		}
		// Variance matching: 2·sd² = π²·(2000/ln 10)²/3.
		relClose(2 * STK_PERFORMANCE_SD ** 2, (Math.PI ** 2 * (2000 / Math.LN10) ** 2) / 3);
		// The mean includes the base points the next race pays.
		expect(stk.performance(fresh(), preset)).toMatchObject({ mean: 2090 });
	});

	const stateArb = fc.record({
		score: fc.double({ min: -5000, max: 20_000, noNaN: true }),
		maxScore: fc.double({ min: 0, max: 20_000, noNaN: true }),
		races: fc.integer({ min: 0, max: 2000 }),
	});
	const entryArb = fc.record({
		state: stateArb,
		time: fc.double({ min: 0.5, max: 3000, noNaN: true }),
		quit: fc.boolean(),
	});

	it('fast-check: finite outputs, races + 1, max score never falls, exchange zero-sum up to rounding', () => {
		fc.assert(
			fc.property(
				fc.array(entryArb, { minLength: 1, maxLength: 12 }),
				fc.constantFrom<'tt' | 'items'>('tt', 'items'),
				fc.constantFrom(seed, preset),
				(entries, mode, params) => {
					const field: FieldEntry<StkState>[] = entries.map((e, i) => ({
						player: `p${i}`,
						rank: i + 1,
						time: e.quit ? undefined : e.time,
						status: e.quit ? 'DNF' : 'finished',
						state: e.state,
					}));
					const post = stk.rateRace(field, params, { mode });
					let exchanged = 0;
					let magnitude = 0;
					field.forEach((entry, i) => {
						const s = post[i]!;
						expect(Number.isFinite(s.score) && Number.isFinite(s.maxScore)).toBe(true);
						expect(s.races).toBe(entry.state.races + 1);
						expect(s.maxScore).toBeGreaterThanOrEqual(entry.state.maxScore);
						expect(s.maxScore).toBeGreaterThanOrEqual(s.score);
						const change = s.score - entry.state.score - stkBasePoints(entry.state.races, params);
						exchanged += change;
						magnitude += Math.abs(s.score) + 1;
					});
					expect(Math.abs(exchanged)).toBeLessThan(1e-12 * magnitude * field.length);
				},
			),
			{ numRuns: 200 },
		);
	});
});
