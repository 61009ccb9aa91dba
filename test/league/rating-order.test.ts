import { describe, expect, it } from 'vitest';
import type { LeagueEventBody, RaceInput } from '../../src/league/league-events.js';
import { createLeagueLog, type LeagueLog, type LeagueLogSnapshot } from '../../src/league/race-log.js';
import {
	inRatingOrder,
	movedRacesText,
	raceRuns,
	ratingOrderOf,
	ratingPosition,
	sortDates,
} from '../../src/league/rating-order.js';

/** Races rated in date order, confirmation order within a date; undated ones after the races before them. */

const dated = (id: string, date?: string) => ({ id, ...(date !== undefined && { date }) });
const ids = (races: readonly { id: string }[]) => races.map((r) => r.id);

describe('rating order (pure)', () => {
	it('is date order, confirmation order within a date', () => {
		const races = [
			dated('R1', '2026-03-01'),
			dated('R2', '2026-03-08'),
			dated('R3', '2026-03-01'), // a second race of 1 March, confirmed after R2
			dated('R4', '2026-02-22'), // a make-up race
			dated('R5', '2026-03-08'),
		];
		expect(ids(inRatingOrder(races))).toEqual(['R4', 'R1', 'R3', 'R2', 'R5']);
		expect(ratingOrderOf(races)).toEqual([3, 0, 2, 1, 4]);
	});

	it('an undated race takes the latest date of the races before it (first when none): rated after all of them', () => {
		const races = [
			dated('U1'),
			dated('R2', '2026-03-08'),
			dated('R3', '2026-03-01'),
			dated('U4'), // sorts as 2026-03-08, after R2 (confirmed before it)
			dated('R5', '2026-03-08'), // the same day, confirmed after U4
			dated('R6', '2026-03-05'),
		];
		expect(sortDates(races)).toEqual(['', '2026-03-08', '2026-03-01', '2026-03-08', '2026-03-08', '2026-03-05']);
		expect(ids(inRatingOrder(races))).toEqual(['U1', 'R3', 'R6', 'R2', 'U4', 'R5']);
	});

	it('a league without dates is rated in confirmation order; a history already in order is left as it is', () => {
		const undated = ['A', 'B', 'C'].map((id) => dated(id));
		expect(ids(inRatingOrder(undated))).toEqual(['A', 'B', 'C']);
		const mixed = [dated('R1', '2026-01-01'), dated('U2'), dated('R3', '2026-01-01'), dated('R4', '2026-02-01')];
		const once = inRatingOrder(mixed);
		expect(ids(once)).toEqual(['R1', 'U2', 'R3', 'R4']);
		expect(ids(inRatingOrder(once))).toEqual(ids(once)); // an export written in rating order reads back the same
	});

	it('positions order as (date, confirmation index), and are exact integers over the calendar', () => {
		expect(ratingPosition('', 5)).toBeLessThan(ratingPosition('0001-01-01', 0));
		expect(ratingPosition('2026-03-01', 7)).toBeLessThan(ratingPosition('2026-03-01', 8));
		expect(ratingPosition('2026-03-01', 2 ** 24 - 1)).toBeLessThan(ratingPosition('2026-03-02', 0));
		expect(Number.isSafeInteger(ratingPosition('9999-12-31', 2 ** 24 - 1))).toBe(true);
		expect(() => ratingPosition('2026-03-01', 2 ** 24)).toThrow(RangeError);
	});

	it("the preview's wording names the races, runs as ranges, long lists clipped", () => {
		expect(movedRacesText('2026-11-10', ['R14', 'R15', 'R16', 'R17'])).toBe(
			'Dated 2026-11-10, before R14–R17 already rated: their ratings will be recomputed.',
		);
		expect(movedRacesText('2026-11-10', ['R9'], true)).toBe(
			'Dated 2026-11-10, before R9 already rated: its ratings were recomputed.',
		);
		expect(raceRuns(['R3', 'R5', 'R6', 'R7', 'R4'])).toBe('R3, R5–R7 and R4');
		const many = Array.from({ length: 40 }, (_, i) => `R${2 * i + 1}`); // no two consecutive: 40 runs
		expect(raceRuns(many)).toBe('R1, R3, R5, R7, R9, R11 and 34 more races');
	});
});

const config = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
const race = (date: string | undefined, ...names: string[]): RaceInput => ({
	...(date !== undefined && { date }),
	entries: names.map((player, i) => ({ player, position: i + 1, status: 'finished' as const })),
});
function build(...bodies: LeagueEventBody[]): LeagueLog {
	const log = createLeagueLog();
	[{ type: 'league-configured', config } as const, ...bodies].forEach((body, seq) =>
		log.apply({ ...body, by: 'u', at: '2026-01-01T00:00:00.000Z', seq }),
	);
	return log;
}
const next = (log: LeagueLog, body: LeagueEventBody) =>
	log.apply({ ...body, by: 'u', at: '2026-01-01T00:00:00.000Z', seq: log.seq() + 1 });
const rated = (log: LeagueLog) => log.ratedRaces().map((r) => r.race.id);

describe('the log rates in date order', () => {
	it('a make-up race is rated before the races dated after it, and records where rated history changed', () => {
		const log = build(
			{ type: 'race-submitted', race: race('2026-03-01', 'Ann', 'Bob') },
			{ type: 'race-submitted', race: race('2026-03-08', 'Bob', 'Cy') },
		);
		const basis = log.seq();
		expect(log.ratedAfterDate('2026-03-08').map((r) => r.race.id)).toEqual([]); // same day: after R2
		expect(log.ratedAfterDate('2026-03-05').map((r) => r.race.id)).toEqual(['R2']);
		// A race dated today (the last date) is appended: nothing rated changes, caches apply it on top.
		expect(next(log, { type: 'race-submitted', race: race('2026-03-09', 'Ann', 'Cy') }).retroFrom).toBeUndefined();
		expect(log.touchedSince(basis)).toBe(Infinity);
		const result = next(log, { type: 'race-submitted', race: race('2026-03-05', 'Cy', 'Ann') });
		expect(rated(log)).toEqual(['R1', 'R4', 'R2', 'R3']);
		expect(result.retroFrom).toBe(log.positionOf('R4'));
		expect(log.touchedSince(basis)).toBe(log.positionOf('R4'));
		expect(log.ratedRaces(log.positionOf('R1')).map((r) => r.race.id)).toEqual(['R4', 'R2', 'R3']);
		expect(log.ratedRacesSince(basis).map((r) => r.race.id)).toEqual(['R4', 'R3']);
		// Since before the first race: every confirmed race in rating order, the same records ratedRaces gives.
		next(log, { type: 'race-voided', race: 'R2', reason: 'x' });
		expect(log.ratedRacesSince(-1).map((r) => r.race.id)).toEqual(['R1', 'R4', 'R3']);
		expect(log.ratedRacesSince(-1)).toStrictEqual(log.ratedRaces());
	});

	it('an edit of the date moves the race; a void and a restore change history from its place', () => {
		const log = build(
			{ type: 'race-submitted', race: race('2026-03-01', 'Ann', 'Bob') },
			{ type: 'race-submitted', race: race('2026-03-08', 'Bob', 'Cy') },
			{ type: 'race-submitted', race: race('2026-03-15', 'Cy', 'Ann') },
		);
		const before = log.seq();
		const edited = next(log, {
			type: 'race-edited',
			race: 'R3',
			reason: 'wrong day',
			changes: race('2026-02-20', 'Cy', 'Ann'),
		});
		expect(rated(log)).toEqual(['R3', 'R1', 'R2']);
		expect(edited.retroFrom).toBe(log.positionOf('R3'));
		expect(log.touchedSince(before)).toBe(log.positionOf('R3'));
		const voided = next(log, { type: 'race-voided', race: 'R1', reason: 'dup' });
		expect(voided.retroFrom).toBe(log.positionOf('R1'));
		expect(rated(log)).toEqual(['R3', 'R2']);
		const restored = next(log, { type: 'race-restored', race: 'R1', reason: 'not a dup' });
		expect(restored.retroFrom).toBe(log.positionOf('R1'));
		expect(rated(log)).toEqual(['R3', 'R1', 'R2']);
		// The order survives a snapshot (JSON round trip) and goes on the same.
		const copy = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		next(copy, { type: 'race-submitted', race: race('2026-03-02', 'Ann', 'Cy') });
		next(log, { type: 'race-submitted', race: race('2026-03-02', 'Ann', 'Cy') });
		expect(rated(copy)).toEqual(['R3', 'R1', 'R4', 'R2']);
		expect(copy.snapshot()).toEqual(log.snapshot());
	});

	it('an undated race edited to a date moves the undated races that sorted by its date, from the earliest place', () => {
		const log = build(
			{ type: 'race-submitted', race: race('2026-03-01', 'Ann', 'Bob') },
			{ type: 'race-submitted', race: race('2026-03-08', 'Bob', 'Cy') },
			{ type: 'race-submitted', race: race(undefined, 'Cy', 'Ann') }, // sorts as 2026-03-08
		);
		expect(rated(log)).toEqual(['R1', 'R2', 'R3']);
		const before = log.positionOf('R2')!;
		const basis = log.seq();
		next(log, { type: 'race-edited', race: 'R2', reason: 'day', changes: race('2026-02-01', 'Bob', 'Cy') });
		// R3 now sorts as 2026-03-01 (the latest date before it), after R1 of that day.
		expect(rated(log)).toEqual(['R2', 'R1', 'R3']);
		expect(log.touchedSince(basis)).toBe(log.positionOf('R2'));
		expect(log.positionOf('R3')).toBeLessThan(before);
	});

	it('a log snapshot written before date order is read as if its retro events changed everything', () => {
		const log = build(
			{ type: 'race-submitted', race: race('2026-03-01', 'Ann', 'Bob') },
			{ type: 'race-voided', race: 'R1', reason: 'x' },
		);
		const legacy = createLeagueLog({ ...log.snapshot(), order: undefined, retro: [{ seq: 2, from: 1 }] });
		expect(legacy.touchedSince(1)).toBe(-1);
		expect(legacy.touchedSince(2)).toBe(Infinity);
		expect(legacy.snapshot().order).toBe('date');
	});
});
