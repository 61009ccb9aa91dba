import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import cases from '../fixtures/folyami/small_cases.json' with { type: 'json' };
import {
	computeFolyamiC,
	ELO_ALPHA,
	FOLYAMI_C,
	folyami,
	folyamiExpected,
	folyamiFitError,
	folyamiPair,
	provisionalBase,
	remotenessWeight,
	type FolyamiState,
} from '../../src/ratings/folyami.js';
import { rankRace } from '../../src/ratings/race.js';
import type { Race } from '../../src/ratings/types.js';
import { expectRel } from '../support/close.js';
import { raceOf } from '../support/fields.js';

const fixtures = join(import.meta.dirname, '../fixtures/folyami');
const params = folyami.params();

type States = Map<string, FolyamiState>;

/** The tiny replay loop of the tests: rankRace, fill newcomers, rateRace, store. Tracks the engine's lastRace. */
function replay(races: readonly Race[], start: States = new Map(), lastRace = new Map<string, number>()): States {
	const states = new Map(start);
	races.forEach((race, index) => {
		const field = rankRace(race).map((entry) => ({
			...entry,
			state: states.get(entry.player) ?? folyami.newcomer(params),
		}));
		const next = folyami.rateRace(field, params);
		field.forEach((entry, i) => {
			states.set(entry.player, next[i]!);
			if (field.length > 1) lastRace.set(entry.player, index + 1);
		});
	});
	return states;
}

describe('folyami constants (specs/folyami.md steps 5-6)', () => {
	it('computes c as the minimiser of ∫₀¹ (E3(W(w; c)) − w)² dw and reproduces the engine value to 1e-12', () => {
		const c = computeFolyamiC();
		expectRel(c, 0.5187786501420857, 1e-12);
		expectRel(c * ELO_ALPHA, cases.constants.c_times_alpha, 1e-12);
		// A minimum, not just a stationary point; and not the seed document's older closed form 0.5187680762542679.
		expect(folyamiFitError(c)).toBeLessThan(folyamiFitError(c - 1e-4));
		expect(folyamiFitError(c)).toBeLessThan(folyamiFitError(c + 1e-4));
		expect(Math.abs(c - 0.5187680762542679)).toBeGreaterThan(1e-6);
	});

	it('default c is the engine constant of the oracle file', () => {
		expect(params.c).toBe(cases.constants.c_gamma_correction);
		expect(FOLYAMI_C).toBe(cases.constants.c_gamma_correction);
	});

	it('solves b from b(b^12 − 1)/(b − 1) = 12·1.5 = 18', () => {
		expectRel(provisionalBase(12, 1.5), cases.constants.b_smooth_factor, 1e-12);
		expectRel(params.b, cases.constants.b_smooth_factor, 1e-12);
		expectRel(Math.pow(params.b, 12), 2.0343676260730947, 1e-12);
		expect(provisionalBase(12, 1)).toBe(1);
	});

	it('params table: defaults, overrides, and rejections', () => {
		expect([
			params.k,
			params.initialRating,
			params.provisionalRaces,
			params.provisionalAverage,
			params.remotenessN,
		]).toEqual([18, 1500, 12, 1.5, 22]);
		expect(folyami.params({ k: '24' }).k).toBe(24);
		expect(() => folyami.params({ nope: 1 })).toThrow(/unknown parameter/);
		expect(() => folyami.params({ provisionalRaces: 2.5 })).toThrow(/integer/);
		expect(() => folyami.params({ provisionalAverage: 0.5 })).toThrow(/at least 1/);
	});
});

describe('folyami oracle: small_cases.json (elo-zs engine @ 1246eb2)', () => {
	for (const oracle of cases.cases.filter((c) => c.kind === 'single_race')) {
		it(`${oracle.name}: tidy positions, every pair's E, q, k, delta, and the post-race states`, () => {
			const race = raceOf(
				oracle.name,
				oracle.race!.map((r) => [r.racer, r.raw_position] as const),
			);
			const ranked = rankRace(race);
			const rankOf = new Map(ranked.map((entry) => [entry.player, entry.rank]));
			for (const tidy of oracle.tidy_positions!) expect(rankOf.get(tidy.racer)).toBe(tidy.position);

			const pre = new Map<string, FolyamiState>(
				oracle.pre_race!.map((p) => [p.racer, { rating: p.rating, entries: p.entries }]),
			);
			for (const name of oracle.newcomers!) expect(pre.has(name)).toBe(false);
			const stateOf = (name: string): FolyamiState => pre.get(name) ?? folyami.newcomer(params);

			expect(oracle.pairs!.length).toBe((ranked.length * (ranked.length - 1)) / 2);
			for (const pair of oracle.pairs!) {
				const x = stateOf(pair.x);
				const y = stateOf(pair.y);
				expect(x.rating - y.rating).toBe(pair.gap_Rx_minus_Ry);
				expect(Math.abs(rankOf.get(pair.x)! - rankOf.get(pair.y)!)).toBe(pair.position_distance);
				const got = folyamiPair(x, rankOf.get(pair.x)!, y, rankOf.get(pair.y)!, params);
				expect(got.score).toBe({ Win: 1, Draw: 0.5, Loss: 0 }[pair.outcome_for_x]);
				expectRel(got.expected, pair.expected_x);
				expectRel(got.remoteness, pair.remoteness_weight);
				expectRel(got.kX, pair.k_x);
				expectRel(got.kY, pair.k_y);
				expectRel(got.deltaX, pair.delta_x);
				expectRel(got.deltaY, pair.delta_y);
			}

			const field = ranked.map((entry) => ({ ...entry, state: stateOf(entry.player) }));
			const post = folyami.rateRace(field, params);
			expect(post.length).toBe(oracle.post_race!.length);
			for (const want of oracle.post_race!) {
				const i = field.findIndex((entry) => entry.player === want.racer);
				expectRel(post[i]!.rating, want.rating);
				expectRel(post[i]!.rating - stateOf(want.racer).rating, want.delta);
				expect(post[i]!.entries).toBe(want.entries);
			}
		});
	}

	for (const oracle of cases.cases.filter((c) => c.kind === 'race_sequence_from_empty')) {
		it(`${oracle.name}: replayed race by race from an empty state`, () => {
			const races = oracle.races!.map((rows, i) =>
				raceOf(
					`r${i + 1}`,
					rows.map((r) => [r.racer, r.raw_position] as const),
				),
			);
			const lastRace = new Map<string, number>();
			const final = replay(races, new Map(), lastRace);
			expect(final.size).toBe(oracle.final!.length);
			expect(races.length).toBe(oracle.final_race_index);
			for (const want of oracle.final!) {
				expectRel(final.get(want.racer)!.rating, want.rating);
				expect(final.get(want.racer)!.entries).toBe(want.entries);
				expect(lastRace.get(want.racer)).toBe(want.last_race_index);
			}
		});
	}
});

/** Rows of a whitespace table whose first cell is ΔR; `decimals` picks the value columns. */
function parseTable(text: string, decimals: number): { dP: number[]; rows: Map<number, string[]> } {
	const value = `\\d+\\.\\d{${decimals}}`;
	const rowPattern = new RegExp(`^\\s*(-?\\d+)((?:\\s+${value}){5})\\s*$`);
	const rows = new Map<number, string[]>();
	for (const line of text.split('\n')) {
		const match = rowPattern.exec(line);
		if (match) rows.set(Number(match[1]), match[2]!.trim().split(/\s+/));
	}
	return { dP: [1, 3, 6, 10, 15], rows };
}

/** Points gained by the winner of a match between settled racers, ΔR = winner − loser, ΔP apart. */
function pointsGained(dR: number, dP: number): number {
	const settled = params.provisionalRaces;
	return folyamiPair({ rating: 1500 + dR, entries: settled }, 1, { rating: 1500, entries: settled }, 1 + dP, params)
		.deltaX;
}

describe('folyami oracle: the seed document appendix "points gained"', () => {
	const computed = parseTable(readFileSync(join(fixtures, 'appendix_table.txt'), 'utf8'), 4);
	const published = parseTable(readFileSync(join(fixtures, 'appendix_published.md'), 'utf8'), 1);
	const typo = { dR: 50, dP: 6 };

	it('reproduces all 75 cells of the 4-decimal table in appendix_table.txt', () => {
		expect(computed.rows.size).toBe(15);
		for (const [dR, cells] of computed.rows) {
			computed.dP.forEach((dP, j) => expect(pointsGained(dR, dP).toFixed(4), `ΔR=${dR} ΔP=${dP}`).toBe(cells[j]));
		}
	});

	it('reproduces 74 of the 75 published one-decimal cells (all but the documented typo)', () => {
		expect(published.rows.size).toBe(15);
		let checked = 0;
		for (const [dR, cells] of published.rows) {
			published.dP.forEach((dP, j) => {
				if (dR === typo.dR && dP === typo.dP) return;
				expect(pointsGained(dR, dP).toFixed(1), `ΔR=${dR} ΔP=${dP}`).toBe(cells[j]);
				checked++;
			});
		}
		expect(checked).toBe(74);
	});

	it('documented exception: ΔR=+50, ΔP=6 computes to 4.4675 (4.5), the document prints 4.7', () => {
		expect(published.rows.get(typo.dR)![published.dP.indexOf(typo.dP)]).toBe('4.7');
		expect(computed.rows.get(typo.dR)![computed.dP.indexOf(typo.dP)]).toBe('4.4675');
		expect(pointsGained(typo.dR, typo.dP).toFixed(4)).toBe('4.4675');
	});

	it.skip('ΔR=+50, ΔP=6 equals the published 4.7 [KNOWN DIVERGENCE: typo in the seed document; the engine gives 4.4675]', () => {
		expect(pointsGained(typo.dR, typo.dP).toFixed(1)).toBe('4.7');
	});

	it('victory probabilities: Folyami and Elo expected scores never differ by more than 0.01 (seed claim)', () => {
		let worst = 0;
		for (let gap = -2000; gap <= 2000; gap++) {
			const elo = 1 / (1 + Math.pow(10, -gap / 400));
			worst = Math.max(worst, Math.abs(folyamiExpected(gap) - elo));
		}
		expect(worst).toBeLessThan(0.01);
		expect(worst).toBeGreaterThan(0.005); // the curves do differ: it is not the Elo curve
	});
});

describe('folyami pure helpers', () => {
	it('remoteness weight: 1 for a tie, a witch of Agnesi in ΔP', () => {
		expect(remotenessWeight(0)).toBe(1);
		expectRel(remotenessWeight(22 / Math.PI), 0.5);
	});
	it('expected score: 0.5 at equal ratings, symmetric', () => {
		expect(folyamiExpected(0)).toBe(0.5);
		expectRel(folyamiExpected(137) + folyamiExpected(-137), 1, 1e-15);
	});
	it('performance: gamma3-shortest with rate exp(c·α·(R − 1500))', () => {
		expect(folyami.performance({ rating: 1500, entries: 3 }, params)).toEqual({ kind: 'gamma3-shortest', rate: 1 });
		const perf = folyami.performance({ rating: 1700, entries: 3 }, params);
		expect(perf.kind).toBe('gamma3-shortest');
		if (perf.kind === 'gamma3-shortest') expectRel(perf.rate, Math.exp(cases.constants.c_times_alpha * 200));
	});
	it('summary: no uncertainty, provisional below 12 rated races', () => {
		expect(folyami.summary({ rating: 1600, entries: 11 }, params)).toEqual({
			rating: 1600,
			uncertainty: undefined,
			races: 11,
			provisional: true,
		});
		expect(folyami.summary({ rating: 1600, entries: 12 }, params).provisional).toBe(false);
	});
	it('elapse changes nothing (no decay in the engine)', () => {
		const state = { rating: 1611, entries: 4 };
		expect(folyami.elapse(state, 400, params)).toEqual(state);
	});
});

describe('folyami invariants (STYLE.md 11)', () => {
	const rate = (race: Race, states: States): Map<string, FolyamiState> => replay([race], states);

	it('a one-racer race changes nothing, not even entries', () => {
		const start: States = new Map([['A', { rating: 1623, entries: 3 }]]);
		expect(rate(raceOf('solo', [['A', 1]]), start).get('A')).toEqual({ rating: 1623, entries: 3 });
		expect(rate(raceOf('solo', [['N', 1]]), new Map()).get('N')).toEqual(folyami.newcomer(params));
	});

	it('an equal-rated tie changes no rating (settled or provisional); entries still count', () => {
		for (const entries of [0, 5, 30]) {
			const start: States = new Map([
				['A', { rating: 1580, entries }],
				['B', { rating: 1580, entries }],
			]);
			const after = rate(
				raceOf('tie', [
					['A', 1],
					['B', 1],
				]),
				start,
			);
			expect(after.get('A')).toEqual({ rating: 1580, entries: entries + 1 });
			expect(after.get('B')).toEqual({ rating: 1580, entries: entries + 1 });
		}
	});

	it('the winner gains and the last-placed racer loses', () => {
		const start: States = new Map([
			['A', { rating: 1400, entries: 20 }],
			['B', { rating: 1700, entries: 2 }],
			['C', { rating: 1500, entries: 13 }],
			['D', { rating: 1300, entries: 0 }],
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

	it('zero-sum between settled racers (no provisional factor involved)', () => {
		const start: States = new Map(['A', 'B', 'C', 'D'].map((p, i) => [p, { rating: 1450 + 40 * i, entries: 12 + i }]));
		const after = rate(
			raceOf('r', [
				['C', 1],
				['A', 2],
				['D', 2],
				['B', 4],
			]),
			start,
		);
		const total = (s: States): number => [...s.values()].reduce((sum, x) => sum + x.rating, 0);
		expect(Math.abs(total(after) - total(start))).toBeLessThan(1e-9);
	});

	it('input order does not matter when positions are given', () => {
		const rows = [
			['E', 3],
			['A', 1],
			['C', 2],
			['B', 2],
			['D', 5],
		] as const;
		const start: States = new Map([
			['A', { rating: 1550, entries: 4 }],
			['B', { rating: 1490, entries: 15 }],
		]);
		const one = rate(raceOf('r', rows), start);
		const two = rate(raceOf('r', [...rows].reverse()), start);
		const three = rate(raceOf('r', [rows[2], rows[4], rows[0], rows[3], rows[1]]), start);
		for (const player of ['A', 'B', 'C', 'D', 'E']) {
			expect(two.get(player)).toEqual(one.get(player));
			expect(three.get(player)).toEqual(one.get(player));
		}
	});

	it('re-running from stored state equals a continuous run', () => {
		const history = [
			raceOf('1', [
				['A', 1],
				['B', 2],
				['C', 3],
			]),
			raceOf('2', [
				['B', 1],
				['D', 2],
				['A', 2],
			]),
			raceOf('3', [
				['C', 1],
				['D', 2],
				['E', 3],
				['A', 4],
			]),
			raceOf('4', [['E', 1]]),
			raceOf('5', [
				['A', 1],
				['E', 2],
				['B', 3],
				['C', 3],
				['D', 5],
			]),
		];
		const continuous = replay(history);
		const stored = JSON.parse(JSON.stringify([...replay(history.slice(0, 2))])) as [string, FolyamiState][];
		const resumed = replay(history.slice(2), new Map(stored));
		expect([...resumed].sort()).toEqual([...continuous].sort());
	});

	it('fast-check: finite ratings and counted entries for arbitrary valid fields', () => {
		const entry = fc.record({
			rating: fc.double({ min: 0, max: 3500, noNaN: true }),
			entries: fc.nat({ max: 60 }),
			position: fc.integer({ min: 1, max: 12 }),
			dnf: fc.boolean(),
		});
		fc.assert(
			fc.property(fc.array(entry, { minLength: 1, maxLength: 14 }), (rows) => {
				const start: States = new Map(rows.map((r, i) => [`p${i}`, { rating: r.rating, entries: r.entries }]));
				const race: Race = {
					id: 'fuzz',
					entries: rows.map((r, i) => ({ player: `p${i}`, position: r.position, status: r.dnf ? 'DNF' : 'finished' })),
				};
				const after = rate(race, start);
				for (const [player, before] of start) {
					const now = after.get(player)!;
					expect(Number.isFinite(now.rating)).toBe(true);
					expect(Math.abs(now.rating - before.rating)).toBeLessThan(40 * rows.length);
					expect(now.entries).toBe(before.entries + (rows.length > 1 ? 1 : 0));
				}
			}),
			{ numRuns: 200 },
		);
	});
});
