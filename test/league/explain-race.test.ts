import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import endureOracle from '../fixtures/endure/single_race_updates.json' with { type: 'json' };
import folyamiOracle from '../fixtures/folyami/small_cases.json' with { type: 'json' };
import glickoOracle from '../fixtures/glicko/glicko_oracles.json' with { type: 'json' };
import stkOracle from '../fixtures/stk/G1_single_races.json' with { type: 'json' };
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { explainRace, expectedRanks, type RacerExplanation } from '../../src/league/explain-race.js';
import { createReplay } from '../../src/league/replay.js';
import { fieldOdds } from '../../src/ratings/odds/odds.js';
import { rankRace } from '../../src/ratings/race.js';
import { systems } from '../../src/ratings/index.js';
import type { AnyRatingSystem, FieldEntry, ParamOverrides, Race } from '../../src/ratings/types.js';

/** Σ parts of an explanation: base + opponents' deltas, or k·(observed − expected) rounds. */
function partsSum(e: RacerExplanation): number | undefined {
	if (e.parts.kind === 'opponents') return e.opponents.reduce((sum, o) => sum + (o.delta ?? 0), e.parts.base);
	if (e.parts.kind === 'rounds') return e.parts.k * (e.parts.observed - e.parts.expected);
	return undefined;
}

const sample = parseHistoryCsv(readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8'));

const configurations: [string, AnyRatingSystem, ParamOverrides][] = [
	['folyami', systems.folyami, {}],
	['glicko period', systems.glicko, {}],
	['glicko fics', systems.glicko, { form: 'fics' }],
	['endure base', systems.endure, {}],
	['endure extended posterior', systems.endure, { extended: true }],
	['endure extended prior', systems.endure, { extended: true, kStep: 'prior' }],
	['speed base', systems.speed, {}],
	['speed extended', systems.speed, { extended: true }],
];

describe('explainRace on the ZakStunts sample league (every race, every racer)', () => {
	it.each(configurations)('%s: the parts add up to the change, within 1e-9', (_, system, overrides) => {
		const params: unknown = system.params(overrides);
		const replay = createReplay<unknown, unknown>(system, params);
		let checked = 0;
		for (const race of sample) {
			const prepared = replay.prepare(race);
			const outcome = replay.commit(prepared);
			const after = prepared.field.map((entry): unknown => replay.player(entry.player)!.state);
			const explained = explainRace(system, params, prepared.field, after, { mode: race.mode });
			explained.forEach((e, i) => {
				const change = outcome.changes[i]!;
				expect(e.player).toBe(change.player);
				expect(e.change).toBe(change.after.rating - change.before.rating);
				expect(e.parts.kind).not.toBe('total');
				expect(Math.abs(partsSum(e)! - e.change)).toBeLessThan(1e-9);
				checked++;
			});
		}
		expect(checked).toBe(sample.reduce((n, r) => n + rankRace(r).length, 0));
	});

	it("expected places are fieldOdds' expectedPosition; opponents come by pre-race rating", () => {
		const system = systems.folyami;
		const params = system.params();
		const replay = createReplay(system, params);
		for (const race of sample.slice(0, 60)) replay.apply(race);
		const race = sample[60]!;
		const prepared = replay.prepare(race);
		replay.commit(prepared);
		const after = prepared.field.map((entry) => replay.player(entry.player)!.state);
		const explained = explainRace(system, params, prepared.field, after);
		const odds = fieldOdds(prepared.field.map((entry) => system.performance(entry.state, params)));
		expect(explained.map((e) => e.expectedRank)).toEqual(odds.expectedPosition);
		const ratingOf = new Map(prepared.field.map((entry) => [entry.player, entry.state.rating]));
		for (const e of explained) {
			expect(e.opponents).toHaveLength(prepared.field.length - 1);
			expect(e.opponents.map((o) => o.rating)).toEqual(e.opponents.map((o) => ratingOf.get(o.player)));
			for (let i = 1; i < e.opponents.length; i++) {
				expect(e.opponents[i - 1]!.rating).toBeGreaterThanOrEqual(e.opponents[i]!.rating);
			}
			for (const o of e.opponents) {
				expect(o.outcome).toBe(e.rank < o.rank ? 'beat' : e.rank > o.rank ? 'lost' : 'tied');
			}
		}
	});
});

describe('explainRace against the oracle fixtures', () => {
	it("folyami: each opponent's term is the reference engine's pair delta (elo-zs, tie and newcomer)", () => {
		const params = systems.folyami.params();
		for (const c of folyamiOracle.cases.filter((c) => c.kind === 'single_race')) {
			const known = new Map(c.pre_race!.map((p) => [p.racer, { rating: p.rating, entries: p.entries }]));
			const race: Race = {
				id: c.name,
				entries: c.race!.map((r) => ({ player: r.racer, position: r.raw_position, status: 'finished' })),
			};
			const field = rankRace(race).map((entry) => ({
				...entry,
				state: known.get(entry.player) ?? systems.folyami.newcomer(params),
			}));
			const after = systems.folyami.rateRace(field, params);
			const explained = explainRace(systems.folyami, params, field, after);
			const byName = new Map(explained.map((e) => [e.player, e]));
			for (const pair of c.pairs!) {
				const x = byName.get(pair.x)!.opponents.find((o) => o.player === pair.y)!;
				const y = byName.get(pair.y)!.opponents.find((o) => o.player === pair.x)!;
				expect(x.delta).toBeCloseTo(pair.delta_x, 12);
				expect(y.delta).toBeCloseTo(pair.delta_y, 12);
			}
			for (const e of explained) expect(Math.abs(partsSum(e)! - e.change)).toBeLessThan(1e-9);
		}
	});

	it("glicko: Glickman's worked example, the three terms add up to 1464.06 − 1500", () => {
		const ex = glickoOracle.glickman_paper_example;
		const params = systems.glicko.params();
		// The player of the example between its three opponents: beat 1400, lost to 1550 and 1700.
		const field: FieldEntry<{ rating: number; rd: number; races: number }>[] = [
			{ player: 'c', rank: 1, status: 'finished', state: { rating: 1700, rd: 300, races: 5 } },
			{ player: 'b', rank: 2, status: 'finished', state: { rating: 1550, rd: 100, races: 5 } },
			{ player: 'me', rank: 3, status: 'finished', state: { rating: ex.input.r, rd: ex.input.RD, races: 5 } },
			{ player: 'a', rank: 4, status: 'finished', state: { rating: 1400, rd: 30, races: 5 } },
		];
		const after = systems.glicko.rateRace(field, params);
		const me = explainRace(systems.glicko, params, field, after).find((e) => e.player === 'me')!;
		expect(me.change).toBeCloseTo(ex.exact.r_new - ex.input.r, 9);
		expect(Math.abs(partsSum(me)! - (ex.exact.r_new - ex.input.r))).toBeLessThan(1e-9);
		const beatA = me.opponents.find((o) => o.player === 'a')!;
		expect(beatA.outcome).toBe('beat');
		expect(beatA.delta!).toBeGreaterThan(0);
		expect(me.opponents.filter((o) => o.outcome === 'lost').every((o) => o.delta! < 0)).toBe(true);
	});

	it("endure and speed: observed − expected rounds is the oracle's score, k·(it) the change", () => {
		for (const c of endureOracle.base) {
			const field: FieldEntry<{ rating: number; k: number; races: number }>[] = c.R_pre_in_finishing_order.map(
				(rating, i) => ({ player: `p${i}`, rank: i + 1, status: 'finished', state: { rating, k: c.k, races: 3 } }),
			);
			for (const id of ['endure', 'speed'] as const) {
				const params = systems[id].params({ k: c.k });
				const after = systems[id].rateRace(field, params);
				const explained = explainRace(systems[id], params, field, after);
				explained.forEach((e, i) => {
					if (e.parts.kind !== 'rounds') throw new Error('rounds expected');
					expect(e.parts.observed - e.parts.expected).toBeCloseTo(c[id].score[i]!, 12);
					expect(Math.abs(partsSum(e)! - e.change)).toBeLessThan(1e-9);
				});
				// The winner survives every elimination round; the last place wins no selection round.
				const first = explained[0]!.parts;
				const last = explained.at(-1)!.parts;
				if (id === 'endure' && first.kind === 'rounds') expect(first.observed).toBe(c.m - 1);
				if (id === 'speed' && last.kind === 'rounds') expect(last.observed).toBe(0);
			}
		}
	});

	it('stk: base points plus the pair exchanges add up to the G1 code’s change', () => {
		const params = systems.stk.params({ preset: 'stk-2019' });
		for (const c of stkOracle.cases) {
			const finishers = c.players.filter((p) => !p.quit).sort((a, b) => a.time - b.time);
			const race: Race = {
				id: c.name,
				mode: c.time_trial ? 'tt' : 'items',
				entries: c.players.map((p) => ({
					player: String(p.id),
					position: p.quit ? finishers.length + 1 : finishers.findIndex((f) => f.time === p.time) + 1,
					time: p.quit ? undefined : p.time,
					status: p.quit ? 'DNF' : 'finished',
				})),
			};
			const pre = new Map(c.players.map((p) => [String(p.id), p]));
			const field = rankRace(race).map((entry) => {
				const p = pre.get(entry.player)!;
				return { ...entry, state: { score: p.pre.score, maxScore: p.pre.max_score, races: p.pre.races } };
			});
			const after = systems.stk.rateRace(field, params, { mode: race.mode });
			for (const e of explainRace(systems.stk, params, field, after, { mode: race.mode })) {
				const p = pre.get(e.player)!;
				expect(Math.abs(partsSum(e)! - (p.post.score - p.pre.score))).toBeLessThan(1e-9);
			}
		}
	});
});

describe('expected places the odds engine cannot give', () => {
	it('are NaN for the whole field (the explanation leaves them out), and the parts still add up', () => {
		const params = systems.speed.params();
		// e^R overflows to Infinity: the odds engine refuses a rate that is not finite.
		const field: FieldEntry<{ rating: number; k: number; races: number }>[] = [800, 0].map((rating, i) => ({
			player: `p${i}`,
			rank: i + 1,
			status: 'finished',
			state: { rating, k: params.k, races: 9 },
		}));
		expect(expectedRanks(systems.speed, params, field).every(Number.isNaN)).toBe(true);
		const after = systems.speed.rateRace(field, params);
		for (const e of explainRace(systems.speed, params, field, after)) {
			expect(Number.isNaN(e.expectedRank)).toBe(true);
			expect(Math.abs(partsSum(e)! - e.change)).toBeLessThan(1e-9);
		}
	});
});
