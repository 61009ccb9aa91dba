import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toy } from './toy-system.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { createReplay, replayHistory, ReplayError, type ReplaySnapshot } from '../../src/league/replay.js';
import { systems } from '../../src/ratings/index.js';
import type { AnyRatingSystem, ParamOverrides, Race } from '../../src/ratings/types.js';

const race = (id: string, date: string | undefined, order: string[], extra: Partial<Race> = {}): Race => ({
	id,
	...(date !== undefined && { date }),
	entries: order.map((player, i) => ({ player, position: i + 1, status: 'finished' })),
	...extra,
});

const params = toy.params();
const LN2 = Math.LN2;

describe('createReplay with the test-only system', () => {
	it('rates a race and keeps bookkeeping outside the system state', () => {
		const replay = createReplay(toy, params);
		const outcome = replay.apply(race('R1', '2021-01-01', ['A', 'B', 'C']));
		expect(outcome.changes.map((c) => [c.player, c.rank, c.before.rating, c.after.rating, c.newcomer])).toEqual([
			['A', 1, 0, LN2, true],
			['B', 2, 0, 0, true],
			['C', 3, 0, -LN2, true],
		]);
		expect(replay.player('A')).toEqual({ state: { rating: LN2, idle: 0 }, races: 1, lastDate: '2021-01-01' });
		expect(replay.player('Z')).toBeUndefined();
		expect(replay.standings().map((s) => [s.player, s.rating, s.races])).toEqual([
			['A', LN2, 1],
			['B', 0, 1],
			['C', -LN2, 1],
		]);
	});

	it('elapses each participant by the days since their own previous race, across months and leap days', () => {
		const replay = createReplay(toy, toy.params({ decay: 0.5 }));
		replay.apply(race('R1', '2024-02-27', ['A', 'B']));
		replay.apply(race('R2', '2024-03-01', ['B', 'C'])); // B idle 3 days (leap year)
		const outcome = replay.apply(race('R3', '2024-03-11', ['A', 'B', 'C']));
		// A: idle 2024-02-27 → 2024-03-11 = 13 days; B and C: 10 days.
		expect(replay.player('A')!.state.idle).toBe(13);
		expect(replay.player('B')!.state.idle).toBe(13);
		expect(replay.player('C')!.state.idle).toBe(10);
		const before = Object.fromEntries(outcome.changes.map((c) => [c.player, c.before.rating]));
		expect(before.A).toBe(LN2 * 0.5 ** 13);
		// B: -ln2 after R1, ×0.5^3 then +ln2 in R2, then ×0.5^10
		expect(before.B).toBe((-LN2 * 0.5 ** 3 + LN2) * 0.5 ** 10);
	});

	it('does not elapse when a race or the previous race has no date, and keeps the last known date', () => {
		const replay = createReplay(toy, toy.params({ decay: 0.5 }));
		replay.apply(race('R1', '2021-01-01', ['A', 'B']));
		replay.apply(race('R2', undefined, ['A', 'B']));
		expect(replay.player('A')).toEqual({ state: { rating: 2 * LN2, idle: 0 }, races: 2, lastDate: '2021-01-01' });
		replay.apply(race('R3', '2021-01-03', ['A', 'B']));
		expect(replay.player('A')!.state.idle).toBe(2);
		expect(replay.stateAt('A', '2021-01-13')).toEqual({ rating: (2 * LN2 * 0.25 + LN2) * 0.5 ** 10, idle: 12 });
		expect(replay.stateAt('nobody', '2021-01-13')).toEqual({ rating: 0, idle: 0 });
	});

	it('skips a race the system cannot rate (UnratableRaceError), counts and reports it', () => {
		const replay = createReplay(toy, params);
		replay.apply(race('R1', '2021-01-01', ['A', 'B']));
		const timed: Race = {
			id: 'T',
			date: '2021-02-01',
			entries: [{ player: 'A', position: 1, time: 60, status: 'finished' }],
		};
		const outcome = replay.apply(timed);
		expect(outcome).toEqual({ race: timed, skipped: 'toy cannot rate timed races', changes: [] });
		expect(replay.player('A')).toEqual({ state: { rating: LN2, idle: 0 }, races: 1, lastDate: '2021-01-01' });
		expect(replay.snapshot()).toMatchObject({
			racesApplied: 2,
			skipped: [{ race: 'T', reason: 'toy cannot rate timed races' }],
		});
	});

	it('excludes DNS and DSQ entries and ranks DNF below finishers (rankRace)', () => {
		const replay = createReplay(toy, params);
		const outcome = replay.apply({
			id: 'R1',
			entries: [
				{ player: 'A', position: 1, status: 'DNF' },
				{ player: 'B', position: 2, status: 'finished' },
				{ player: 'C', position: 3, status: 'DNS' },
				{ player: 'D', position: 4, status: 'DSQ' },
			],
		});
		expect(outcome.changes.map((c) => [c.player, c.rank, c.status])).toEqual([
			['B', 1, 'finished'],
			['A', 2, 'DNF'],
		]);
		expect(replay.player('C')).toBeUndefined();
	});

	it('resets every rating at the first race of each calendar year with reset yearly', () => {
		const replay = createReplay(toy, params, { reset: 'yearly' });
		replay.apply(race('R1', '2021-12-31', ['A', 'B']));
		replay.apply(race('R2', '2021-12-31', ['A', 'C']));
		expect(replay.player('A')!.races).toBe(2);
		const outcome = replay.apply(race('R3', '2022-01-01', ['B', 'A']));
		expect(outcome.changes.every((c) => c.newcomer && c.before.rating === 0)).toBe(true);
		expect(replay.player('C')).toBeUndefined();
		expect(replay.player('A')).toEqual({ state: { rating: -LN2, idle: 0 }, races: 1, lastDate: '2022-01-01' });
		expect(() => replay.apply(race('R4', undefined, ['A', 'B']))).toThrow(ReplayError);
	});

	it('under reset yearly, a race of an earlier season confirmed late counts in no rating and resets nothing', () => {
		const replay = createReplay(toy, params, { reset: 'yearly' });
		replay.apply(race('R1', '2026-03-01', ['A', 'B']));
		const before = replay.snapshot();
		const late = replay.apply(race('R2', '2021-12-20', ['B', 'A', 'C']));
		expect(late.changes).toEqual([]);
		expect(late.skipped).toBe(
			'it is dated 2021-12-20, in a season before the current one (2026), and ratings restart every year: it counts in no rating',
		);
		expect(replay.snapshot().players).toEqual(before.players);
		expect(replay.snapshot().racesApplied).toBe(2);
		// The season goes on from 2026: no second reset, A keeps its race of March.
		const next = replay.apply(race('R3', '2026-04-01', ['B', 'A']));
		expect(next.changes.map((c) => [c.player, c.newcomer])).toEqual([
			['B', false],
			['A', false],
		]);
		expect(replay.player('A')!.races).toBe(2);
		expect(replay.player('C')).toBeUndefined();
		// A race of the same season dated back is rated as before (in confirmation order).
		expect(replay.apply(race('R4', '2026-01-15', ['A', 'B'])).skipped).toBeUndefined();
		expect(replay.snapshot().skipped.map((s) => s.race)).toEqual(['R2']);
	});

	it('a fork starts as the replay stands and then goes its own way', () => {
		const replay = createReplay(toy, params);
		replay.apply(race('R1', '2021-01-01', ['A', 'B']));
		const fork = replay.fork();
		expect(fork.snapshot()).toEqual(replay.snapshot());
		fork.apply(race('R2', '2021-01-02', ['B', 'C']));
		replay.apply(race('R2', '2021-01-02', ['A', 'B']));
		expect(fork.player('C')?.races).toBe(1);
		expect(replay.player('C')).toBeUndefined();
		expect(fork.player('A')?.races).toBe(1);
		expect(replay.player('A')?.races).toBe(2);
		expect(fork.snapshot().racesApplied).toBe(2);
	});

	it('refuses to commit a race prepared before another race was applied', () => {
		const replay = createReplay(toy, params);
		const prepared = replay.prepare(race('R1', undefined, ['A', 'B']));
		replay.apply(race('R0', undefined, ['A', 'B']));
		expect(() => replay.commit(prepared)).toThrow(ReplayError);
	});
});

const sample = parseHistoryCsv(readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8'));
/** The ZakStunts history, dated one week apart from 2001-01-01 so that growth between races is exercised. */
const dated: Race[] = sample.map((r, i) => {
	const day = 978307200000 / 86400000 + 7 * i; // 2001-01-01 + 7i days, as a day number
	return { ...r, date: dateOf(day) };
});
function dateOf(dayNumber: number): string {
	return new Date(dayNumber * 86400000).toISOString().slice(0, 10);
}

describe.each(Object.values(systems) as AnyRatingSystem[])('replay of the ZakStunts history with $id', (system) => {
	const overrides: ParamOverrides =
		system.id === 'endure' || system.id === 'speed' ? { extended: true, phi: 0.999 } : {};
	const systemParams = system.params(overrides) as unknown;

	it('one call = race by race = continuing from a JSON snapshot, bit for bit', () => {
		const whole = replayHistory(system, systemParams, dated).snapshot();
		const stepwise = createReplay(system, systemParams);
		for (const r of dated) stepwise.apply(r);
		expect(stepwise.snapshot()).toEqual(whole);

		for (const k of [1, 100, 250]) {
			const first = replayHistory(system, systemParams, dated.slice(0, k));
			const stored = JSON.parse(JSON.stringify(first.snapshot())) as ReplaySnapshot<unknown>;
			const resumed = createReplay(system, systemParams, {}, stored);
			for (const r of dated.slice(k)) resumed.apply(r);
			expect(JSON.stringify(resumed.snapshot())).toBe(JSON.stringify(whole));
			const cloned = createReplay(system, systemParams, {}, structuredClone(first.snapshot()));
			for (const r of dated.slice(k)) cloned.apply(r);
			expect(cloned.snapshot()).toEqual(whole);
		}
		expect(whole.racesApplied).toBe(293);
		// stk needs finish times, which ZakStunts lacks: every race is skipped, as the contract says.
		expect(whole.skipped).toHaveLength(system.id === 'stk' ? 293 : 0);
		expect(Object.keys(whole.players)).toHaveLength(system.id === 'stk' ? 0 : 249);
	});

	it('standings read between races (kept rows) equal those of a fresh replay, across yearly resets, bit for bit', () => {
		// The history's 293 weekly races span 2001-2006: five resets. Three days are read in turn (more than the replay
		// keeps), so rows are reused, evicted and rebuilt.
		const live = createReplay(system, systemParams, { reset: 'yearly' });
		for (const [i, r] of dated.entries()) {
			live.apply(r);
			if (i % 7 !== 0 && i % 53 !== 1) continue;
			const days = [undefined, r.date, dateOf(Date.parse(r.date!) / 86400000 + 40), r.date];
			const fresh = createReplay(system, systemParams, { reset: 'yearly' }, structuredClone(live.snapshot()));
			for (const day of days) expect(live.standings(day)).toEqual(fresh.standings(day));
		}
	});

	it('standings in steps pause between rows, give the same rows bit for bit, and refuse a replay moved meanwhile', () => {
		const whole = createReplay(system, systemParams);
		const stepped = createReplay(system, systemParams);
		for (const r of dated) {
			whole.apply(r);
			stepped.apply(r);
		}
		const day = dateOf(Date.parse(dated.at(-1)!.date!) / 86400000 + 100);
		const steps = stepped.standingsInSteps(day);
		let pauses = 0;
		let next = steps.next();
		for (; next.done !== true; next = steps.next()) pauses++;
		// Every row computed anew (249 players; none under stk, which rates no race here): a pause every 50 rows.
		const rows = whole.standings(day).length;
		expect(pauses).toBe(Math.floor(rows / 50));
		expect(next.value).toStrictEqual(whole.standings(day));

		const moved = createReplay(system, systemParams);
		for (const r of dated.slice(0, -1)) moved.apply(r);
		const interrupted = moved.standingsInSteps(day);
		const paused = interrupted.next().done !== true;
		expect(paused).toBe(rows >= 50);
		moved.apply(dated.at(-1)!);
		if (paused) expect(() => interrupted.next()).toThrow(ReplayError);
	});
});
