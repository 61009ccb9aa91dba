import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { createReplay, replayHistory, type SeasonBoundaries } from '../../src/league/replay.js';
import { replayOptionsOf, replaySettingsKey } from '../../src/league/replay-options.js';
import type { SeasonRecord } from '../../src/league/season-fold.js';
import { glicko } from '../../src/ratings/glicko.js';
import { endure } from '../../src/ratings/endure.js';
import { systems } from '../../src/ratings/index.js';
import type { AnyRatingSystem, ParamOverrides, Race } from '../../src/ratings/types.js';

const race = (id: string, date: string, order: string[]): Race => ({
	id,
	date,
	entries: order.map((player, i) => ({ player, position: i + 1, status: 'finished' })),
});

const sample = parseHistoryCsv(readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8'));
/**
 * The ZakStunts history, dated one week apart from 2001-01-01 (about 390 races over 7½ years), each finisher timed a
 * second behind the one before (stk rates timed races only).
 */
const dated: Race[] = sample.map((r, i) => ({
	...r,
	date: new Date((11323 + 7 * i) * 86400000).toISOString().slice(0, 10),
	entries: r.entries.map((e) => (e.status === 'finished' ? { ...e, time: 100 + e.position } : e)),
}));
/** Three named seasons over the history (the first starts after some races: those count in no season). */
const STARTS = ['2002-03-01', '2004-06-15', '2006-01-01'];
const LAST = dated.at(-1)!.date!;

const overridesOf = (system: AnyRatingSystem): ParamOverrides =>
	system.id === 'endure' || system.id === 'speed' ? { extended: true, phi: 0.999 } : {};

describe.each(Object.values(systems) as AnyRatingSystem[])('season carry-over with $id', (system) => {
	const params = system.params(overridesOf(system)) as unknown;

	it('carry gives today’s numbers bit for bit, and a league under carry gets today’s replay options', () => {
		const today = replayHistory(system, params, dated).snapshot();
		const carry = replayHistory(system, params, dated, { seasons: { starts: STARTS, mode: 'carry' } }).snapshot();
		expect(carry).toEqual(today);
		const seasons = STARTS.map((start, seq): SeasonRecord => ({ name: `S${seq}`, start, seq }));
		const config = { guildId: 'g', name: 'L', headline: system.id, params: {}, timezone: 'UTC' };
		expect(replayOptionsOf({ ...config, seasonReset: { mode: 'carry' } }, seasons)).toEqual({
			reset: undefined,
			retirements: undefined,
		});
		// The settings key of a league under carry is the one it always had (the change cache stores it).
		expect(replaySettingsKey(config, system.id, seasons)).toBe(JSON.stringify([{}, null, null]));
	});

	it('restart: the standings at the end equal a fresh replay of the last season’s races', () => {
		const restart = replayHistory(system, params, dated, { seasons: { starts: STARTS, mode: 'restart' } });
		const fresh = replayHistory(
			system,
			params,
			dated.filter((r) => r.date! >= STARTS.at(-1)!),
		);
		expect(restart.standings(LAST)).toEqual(fresh.standings(LAST));
		expect(restart.snapshot().players).toEqual(fresh.snapshot().players);
	});

	it('the yearly reset is the restart at each calendar year, bit for bit', () => {
		const yearly = replayHistory(system, params, dated, { reset: 'yearly' }).snapshot();
		const years = replayHistory(system, params, dated, {
			seasons: { starts: 'calendar-years', mode: 'restart' },
		}).snapshot();
		expect(years).toEqual(yearly);
	});

	it('soft: at each season’s first race the mean rating is unchanged and every distance to it shrinks by 1 − s', () => {
		const share = 0.3;
		const seasons: SeasonBoundaries = { starts: STARTS, mode: 'soft', share };
		const replay = createReplay(system, params, { seasons });
		let boundaries = 0;
		for (const r of dated) {
			const before = new Map(replay.standings().map((s) => [s.player, s.rating]));
			const states = replay.snapshot().players;
			const prepared = replay.prepare(r);
			replay.commit(prepared);
			if (prepared.moved === undefined) continue;
			boundaries++;
			const ratings = [...before.values()];
			const mean = ratings.reduce((a, b) => a + b, 0) / ratings.length;
			const moved = [...prepared.moved].map(([player, record]) => ({
				player,
				rating: system.summary(record.state, params).rating,
			}));
			expect(moved).toHaveLength(before.size);
			const movedMean = moved.reduce((a, m) => a + m.rating, 0) / moved.length;
			const scale = Math.max(1, Math.abs(mean));
			expect(Math.abs(movedMean - mean) / scale).toBeLessThan(1e-12);
			for (const m of moved) {
				const r0 = before.get(m.player)!;
				expect(Math.abs(m.rating - mean - (1 - share) * (r0 - mean)) / scale).toBeLessThan(1e-12);
			}
			// The uncertainty is left as it was.
			for (const [player, record] of prepared.moved) {
				const old = system.summary(states[player]!.state, params);
				expect(system.summary(record.state, params).uncertainty).toBe(old.uncertainty);
				expect(record.races).toBe(states[player]!.races);
			}
		}
		// One boundary per named season (the first season begins after races of no season).
		expect(boundaries).toBe(STARTS.length);
	});
});

describe('soft carry-over, checked by hand', () => {
	const seasons: SeasonBoundaries = { starts: ['2026-01-01', '2026-02-01'], mode: 'soft', share: 0.3 };

	it('glicko: A beat B as newcomers; the next season moves both 30 % back toward 1500, RD untouched', () => {
		const params = glicko.params();
		// glicko.pdf step 2 for one game between two newcomers (r = 1500, RD = 350), s = 1 and 0, E = 1/2.
		const q = Math.LN10 / 400;
		const g = 1 / Math.sqrt(1 + (3 * q * q * 350 * 350) / (Math.PI * Math.PI));
		const d2 = 1 / (q * q * g * g * 0.25);
		const gain = (q / (1 / (350 * 350) + 1 / d2)) * g * 0.5;
		expect(gain).toBeCloseTo(162.2, 1);
		const soft = createReplay(glicko, params, { seasons });
		const carry = createReplay(glicko, params);
		for (const replay of [soft, carry]) replay.apply(race('R1', '2026-01-10', ['A', 'B']));
		expect(soft.player('A')!.state.rating).toBeCloseTo(1500 + gain, 9);
		const next = race('R2', '2026-02-10', ['B', 'A']);
		const [a, b] = [soft.apply(next), carry.apply(next)];
		const beforeOf = (outcome: typeof a, player: string) => outcome.changes.find((c) => c.player === player)!.before;
		// The mean of A and B is 1500: A stands at 1500 + 0.7·gain, B at 1500 − 0.7·gain when R2 begins the season.
		expect(beforeOf(a, 'A').rating).toBeCloseTo(1500 + 0.7 * gain, 9);
		expect(beforeOf(a, 'B').rating).toBeCloseTo(1500 - 0.7 * gain, 9);
		// RD grew over the 31 idle days exactly as without the move.
		expect(beforeOf(a, 'A').uncertainty).toBe(beforeOf(b, 'A').uncertainty);
		expect(beforeOf(a, 'A').races).toBe(1);
		expect(a.changes.every((c) => !c.newcomer)).toBe(true);
	});

	it('endure (base): R = ±0.36·½ after one race, then 0.18 + 0.36·σ(−0.18); soft moves R 30 % toward the mean 0', () => {
		const params = endure.params();
		const soft = createReplay(endure, params, { seasons });
		soft.apply(race('R1', '2026-01-10', ['A', 'B']));
		// Two racers at R = 0: the loser is eliminated first with probability ½; ∂logL/∂R_A = ½, k = 0.36.
		expect(soft.player('A')!.state.rating).toBeCloseTo(0.18, 12);
		soft.apply(race('R2', '2026-01-20', ['A', 'C']));
		// A (0.18) beats C (0): ∂logL/∂R_A = e^−0.18 / (e^−0.18 + 1) = σ(−0.18) = 0.4551211...
		const sigma = 1 / (1 + Math.exp(0.18));
		const rA = 0.18 + 0.36 * sigma;
		const rC = -0.36 * sigma;
		expect(soft.player('A')!.state.rating).toBeCloseTo(rA, 12);
		expect(soft.player('C')!.state.rating).toBeCloseTo(rC, 12);
		// Base endure is zero-sum: the mean is 0 and each R becomes 0.7·R. φ = 1: no forgetting over idle days.
		const outcome = soft.apply(race('R3', '2026-02-05', ['C', 'B']));
		const before = new Map(outcome.changes.map((c) => [c.player, c.before.rating]));
		expect(before.get('C')).toBeCloseTo(0.7 * rC, 12);
		expect(before.get('B')).toBeCloseTo(0.7 * -0.18, 12);
		expect(soft.player('A')!.state.rating).toBeCloseTo(0.7 * rA, 12);
		expect(soft.player('A')!.state.k).toBe(0.36);
	});

	it('an undated race begins no season; a share of 0 changes nothing; a system without shrinkToward carries over', () => {
		const params = glicko.params();
		const races = [race('R1', '2026-01-10', ['A', 'B']), { ...race('R2', '', ['A', 'B']), date: undefined }];
		const soft = replayHistory(glicko, params, races, { seasons: { ...seasons, starts: ['2026-01-05'] } });
		expect(soft.snapshot()).toEqual(replayHistory(glicko, params, races).snapshot());
		const all = [...races, race('R3', '2026-02-10', ['B', 'A'])];
		const none = replayHistory(glicko, params, all, { seasons: { ...seasons, share: 0 } }).snapshot();
		expect(none).toEqual(replayHistory(glicko, params, all).snapshot());
		const bare = { ...glicko, shrinkToward: undefined };
		const carried = replayHistory(bare, params, all, { seasons }).snapshot();
		expect(carried.players).toEqual(replayHistory(glicko, params, all).snapshot().players);
	});
});
