/** Standings as of a day: growth over idle days, the one definition, and the fast path equal to it. */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { daysBetween } from '../../src/league/dates.js';
import { createReplay, replayHistory, type ReplaySnapshot } from '../../src/league/replay.js';
import { happenedBy, latestRaceDate, readingDay, standingsAsOf, standingsOnDays } from '../../src/league/standings.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { raceSystems } from '../../src/ratings/index.js';
import { endure } from '../../src/ratings/endure.js';
import { glicko } from '../../src/ratings/glicko.js';
import type { AnyRatingSystem, Race } from '../../src/ratings/types.js';
import type { GlickoState } from '../../src/ratings/glicko.js';

const race = (id: string, date: string | undefined, order: string[]): Race => ({
	id,
	date,
	entries: order.map((player, i) => ({ player, position: i + 1, status: 'finished' as const })),
});

/** The ZakStunts history (data/sample-league.csv has no dates): race i dated 30·i days after 2001-01-01, for growth. */
const zakstunts = parseHistoryCsv(readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8')).map(
	(r, i): Race => ({ ...r, date: new Date(Date.UTC(2001, 0, 1 + 30 * i)).toISOString().slice(0, 10) }),
);

describe('an idle player grows day by day', () => {
	const params = glicko.params();
	const history = [race('R1', '2026-01-01', ['A', 'B', 'C']), race('R2', '2026-02-01', ['B', 'C'])];

	it('Glicko RD rises with every idle day, exactly elapse() of the last race state, and turns provisional', () => {
		const replay = replayHistory(glicko, params, history);
		const atRace = replay.player('A')!.state;
		let previous = 0;
		let provisionalFrom: number | undefined;
		for (const day of ['2026-01-01', '2026-01-02', '2026-03-01', '2026-10-18', '2027-06-01', '2029-01-01']) {
			const a = replay.standings(day).find((s) => s.player === 'A')!;
			const days = daysBetween('2026-01-01', day);
			expect(a.idleDays).toBe(days);
			expect(a.lastDate).toBe('2026-01-01');
			expect(a.uncertainty).toBe(days === 0 ? atRace.rd : glicko.elapse(atRace, days, params).rd);
			expect(a.atLastRace.uncertainty).toBe(atRace.rd);
			expect(a.rating).toBe(atRace.rating);
			expect(a.uncertainty!).toBeGreaterThanOrEqual(previous);
			previous = a.uncertainty!;
			if (a.provisional && provisionalFrom === undefined) provisionalFrom = days;
		}
		expect(provisionalFrom).toBeDefined();
		expect(replay.standings('2029-01-01').find((s) => s.player === 'A')!.uncertainty).toBe(params.maxRd);
	});

	it('an established Glicko player becomes provisional again after a long idle time, as the RD rule says', () => {
		// Fifteen daily races of four bring A's RD to about 63 (established below RD 110).
		const daily = Array.from({ length: 15 }, (_, i) => {
			const order = ['A', 'B', 'C', 'D'].map((_, j, all) => all[(j + i) % 4]!);
			return race(`R${i + 1}`, `2026-01-${String(i + 1).padStart(2, '0')}`, order);
		});
		const replay = replayHistory(glicko, params, daily);
		const a = (day: string) => replay.standings(day).find((s) => s.player === 'A')!;
		expect(a('2026-01-15')).toMatchObject({ provisional: false, idleDays: 0 });
		expect(a('2026-01-15').uncertainty!).toBeLessThan(params.provisionalRd);
		let day = '2026-01-15';
		let n = 0;
		while (!a(day).provisional) day = new Date(Date.UTC(2026, 0, 15 + ++n)).toISOString().slice(0, 10);
		// The first provisional day is the first whose grown RD exceeds the threshold.
		const atRace = replay.player('A')!.state;
		expect(glicko.elapse(atRace, n, params).rd).toBeGreaterThan(params.provisionalRd);
		expect(glicko.elapse(atRace, n - 1, params).rd).toBeLessThanOrEqual(params.provisionalRd);
		expect(a(day).atLastRace.provisional).toBe(false);
	});

	it('endure with forgetting fades a rating toward the mean and grows k', () => {
		const p = endure.params({ extended: true, phi: 2 ** (-1 / 365) });
		const replay = replayHistory(endure, p, [
			race('R1', '2026-01-01', ['A', 'B']),
			race('R2', '2026-01-01', ['A', 'B']),
		]);
		const at = replay.player('A')!.state;
		const later = replay.standings('2027-01-01').find((s) => s.player === 'A')!;
		expect(Math.abs(later.rating)).toBeLessThan(Math.abs(at.rating));
		expect(later.rating).toBeCloseTo(at.rating / 2, 12); // a half-life of 365 days
		expect(later.uncertainty!).toBeGreaterThan(at.k);
		expect(later.atLastRace).toMatchObject({ rating: at.rating, uncertainty: at.k });
	});

	it('a player never in a dated race is not grown; the day of their last race is idle day 0', () => {
		const replay = replayHistory(glicko, params, [race('R1', undefined, ['A', 'B'])]);
		for (const row of replay.standings('2030-01-01')) {
			expect(row).toMatchObject({ idleDays: 0, lastDate: undefined });
			expect(row.uncertainty).toBe(row.atLastRace.uncertainty);
		}
	});

	it('a race dated before an earlier-rated one does not move its racers’ idle time backwards', () => {
		const replay = replayHistory(glicko, params, [
			race('R1', '2026-05-01', ['A', 'B']),
			race('R2', '2026-03-01', ['A', 'B']),
		]);
		expect(replay.player('A')!.lastDate).toBe('2026-05-01');
		expect(replay.snapshot().lastDate).toBe('2026-05-01');
		expect(replay.standings('2026-05-11')[0]!.idleDays).toBe(10);
	});
});

describe('standings as of a day: one definition', () => {
	it('counts the races dated on or before the day and the undated ones', () => {
		expect(happenedBy(race('R', '2026-01-02', ['A']), '2026-01-02')).toBe(true);
		expect(happenedBy(race('R', '2026-01-03', ['A']), '2026-01-02')).toBe(false);
		expect(happenedBy(race('R', undefined, ['A']), '2026-01-02')).toBe(true);
		expect(latestRaceDate([race('a', '2026-03-01', []), race('b', undefined, []), race('c', '2026-01-01', [])])).toBe(
			'2026-03-01',
		);
		expect(readingDay('2026-03-01', '2026-03-04')).toBe('2026-03-04');
		expect(readingDay('2026-03-05', '2026-03-04')).toBe('2026-03-05');
		expect(readingDay('2026-03-05', undefined)).toBe('2026-03-05');
	});

	it('ZakStunts: on the last race day every system equals a plain replay grown to that day', () => {
		const last = latestRaceDate(zakstunts)!;
		for (const system of raceSystems) {
			const params: unknown = system.params();
			expect(standingsAsOf(system, params, zakstunts, last)).toEqual(
				replayHistory(system, params, zakstunts).standings(last),
			);
		}
	});

	it('ZakStunts: mid-history days equal a replay of exactly the races before them', () => {
		const params = glicko.params();
		const day = zakstunts[150]!.date!;
		const before = zakstunts.filter((r) => r.date! <= day);
		expect(before.length).toBeGreaterThan(150);
		expect(standingsAsOf(glicko, params, zakstunts, day)).toEqual(replayHistory(glicko, params, before).standings(day));
	});

	it('standingsOnDays equals standingsAsOf day by day, in date order or not, for every system', () => {
		const players = ['A', 'B', 'C', 'D', 'E'];
		const raceArb = fc.record({
			date: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined, freq: 6 }),
			order: fc.shuffledSubarray(players, { minLength: 2 }),
		});
		const day = (n: number) =>
			`2026-${String(1 + Math.floor(n / 28)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
		fc.assert(
			fc.property(
				fc.array(raceArb, { minLength: 1, maxLength: 12 }),
				fc.uniqueArray(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 6 }),
				fc.boolean(),
				(specs, dayNumbers, sorted) => {
					const list = specs.map((s, i) => race(`R${i + 1}`, s.date === undefined ? undefined : day(s.date), s.order));
					if (sorted) list.sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''));
					const days = dayNumbers.map(day);
					for (const system of [glicko, endure] as AnyRatingSystem[]) {
						const params: unknown = system === endure ? endure.params({ extended: true, phi: 0.99 }) : glicko.params();
						const fast = standingsOnDays(system, params, list, days);
						for (const d of days) expect(fast.get(d)).toEqual(standingsAsOf(system, params, list, d));
					}
				},
			),
			{ numRuns: 150 },
		);
	});

	it('a snapshot round trip gives the same grown standings', () => {
		const params = glicko.params();
		const replay = replayHistory(glicko, params, zakstunts.slice(0, 100));
		const copy = createReplay(
			glicko,
			params,
			{},
			JSON.parse(JSON.stringify(replay.snapshot())) as ReplaySnapshot<GlickoState>,
		);
		expect(copy.standings('2026-11-24')).toEqual(replay.standings('2026-11-24'));
	});
});
