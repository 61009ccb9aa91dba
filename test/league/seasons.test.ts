import { describe, expect, it } from 'vitest';
import type { LeagueConfig, LeagueEventBody, RaceInput } from '../../src/league/league-events.js';
import { createLeagueLog, type LeagueLog, type LeagueLogSnapshot } from '../../src/league/race-log.js';
import { findSeason, racesOfSeason, seasonsOf } from '../../src/league/seasons.js';

const config: LeagueConfig = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
const race = (date: string | undefined, ...names: string[]): RaceInput => ({
	...(date !== undefined && { date }),
	entries: names.map((player, i) => ({ player, position: i + 1, status: 'finished' as const })),
});
const submit = (date: string | undefined): LeagueEventBody => ({
	type: 'race-submitted',
	race: race(date, 'Ann', 'Bob'),
});
const start = (name: string, day: string, races?: number): LeagueEventBody => ({
	type: 'season-started',
	name,
	start: day,
	...(races !== undefined && { races }),
});

function build(bodies: readonly LeagueEventBody[], first: LeagueConfig = config): LeagueLog {
	const log = createLeagueLog();
	[{ type: 'league-configured', config: first } as const, ...bodies].forEach((body, seq) =>
		log.apply({ ...body, by: 'u1', at: '2026-01-01T10:00:00.000Z', seq }),
	);
	return log;
}
const check = (log: LeagueLog, body: LeagueEventBody) => () =>
	log.check({ ...body, by: 'u1', at: '2026-01-01T10:00:00.000Z' });
const apply = (log: LeagueLog, body: LeagueEventBody) =>
	log.apply({ ...body, by: 'u1', at: '2026-01-01T10:00:00.000Z', seq: log.seq() + 1 });

describe('the log keeps named seasons', () => {
	it('a season starts, the next one ends it the day before, and an end closes the open one', () => {
		const log = build([start('Winter Cup', '2026-01-10', 8), start('Spring', '2026-03-01')]);
		expect(log.seasons().map((s) => [s.name, s.start, s.end, s.plannedRaces, s.seq])).toEqual([
			['Winter Cup', '2026-01-10', '2026-02-28', 8, 1],
			['Spring', '2026-03-01', undefined, undefined, 2],
		]);
		apply(log, { type: 'season-ended', end: '2026-05-31' });
		expect(log.seasons()[1]!.end).toBe('2026-05-31');
		// Leap years: the day before 1 March 2028 is 29 February.
		apply(log, start('Leap', '2028-03-01'));
		apply(log, start('After', '2028-03-02'));
		expect(log.seasons()[2]!.end).toBe('2028-03-01');
	});

	it('refuses a taken name (any case), a bad name or day, a start not after the previous one, bad planned races', () => {
		const log = build([start('Winter Cup', '2026-01-10')]);
		expect(check(log, start('winter CUP', '2026-05-01'))).toThrow('already has a season named "Winter Cup"');
		expect(check(log, start('  ', '2026-05-01'))).toThrow('season name is empty');
		expect(check(log, start('#3', '2026-05-01'))).toThrow('may not start with #');
		expect(check(log, start('Spring', '2026-02-30'))).toThrow('"2026-02-30" is not a calendar day');
		expect(check(log, start('Spring', '2026-01-10'))).toThrow('starts after Winter Cup, which started on 2026-01-10');
		expect(check(log, start('Spring', '2025-12-01'))).toThrow('starts after Winter Cup');
		expect(check(log, start('Spring', '2026-05-01', 0))).toThrow('planned races must be a whole number from 1');
		expect(check(log, start('Spring', '2026-05-01', 2.5))).toThrow('planned races must be a whole number');
		expect(check(log, start('Spring', '2026-05-01', 1001))).toThrow('from 1 to 1000');
		expect(check(log, start('Spring', '2026-05-01', 1000))).not.toThrow();
	});

	it('season-ended needs an open season and an end on or after its start; a new season starts after that end', () => {
		const empty = build([]);
		expect(check(empty, { type: 'season-ended', end: '2026-01-01' })).toThrow('no season is open');
		const log = build([start('Winter Cup', '2026-01-10')]);
		expect(check(log, { type: 'season-ended', end: '2026-01-09' })).toThrow(
			'Winter Cup started on 2026-01-10: it cannot end before that day',
		);
		expect(check(log, { type: 'season-ended', end: '2026-13-01' })).toThrow('is not a calendar day');
		apply(log, { type: 'season-ended', end: '2026-01-10' }); // a one-day season
		expect(check(log, { type: 'season-ended', end: '2026-02-01' })).toThrow('no season is open');
		expect(check(log, start('Spring', '2026-01-10'))).toThrow('starts after Winter Cup');
		expect(check(log, start('Spring', '2026-01-11'))).not.toThrow();
	});

	it('a refused event changes nothing; the snapshot carries the seasons and old snapshots load without them', () => {
		const log = build([start('Winter Cup', '2026-01-10'), submit('2026-01-12')]);
		expect(() => apply(log, start('Winter cup', '2026-05-01'))).toThrow();
		expect(log.seasons()).toHaveLength(1);
		const copy = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		expect(copy.seasons()).toEqual(log.seasons());
		const old = { ...log.snapshot(), seasons: undefined };
		expect(createLeagueLog(old).seasons()).toEqual([]);
		expect(build([submit('2026-01-12')]).snapshot()).not.toHaveProperty('seasons');
	});

	it('starting a season under carry moves no rating; under restart or soft ratings replay from the first race it moves', () => {
		const races = [submit('2026-01-05'), submit('2026-02-05'), submit(undefined), submit('2026-03-05')];
		const carry = build([start('One', '2026-01-01'), ...races]);
		expect(carry.check({ ...start('Two', '2026-02-01'), by: 'u', at: 't' }).retroFrom).toBeUndefined();
		const soft = build([start('One', '2026-01-01'), ...races], {
			...config,
			seasonReset: { mode: 'soft', share: 0.3 },
		});
		// From R2, the first race dated on or after the new start, in rating order: R1 keeps its rating.
		const from = soft.check({ ...start('Two', '2026-02-01'), by: 'u', at: 't' }).retroFrom!;
		expect(from).toBeGreaterThan(soft.positionOf('R1')!);
		expect(from).toBeLessThanOrEqual(soft.positionOf('R2')!);
		// After every race: no race moves, but kept replays are made again with the new start.
		const after = soft.check({ ...start('Two', '2026-06-01'), by: 'u', at: 't' }).retroFrom!;
		expect(after).toBeGreaterThan(soft.positionOf('R4')!);
		// The first named season replaces the calendar years: from the first race.
		const first = build(races, { ...config, seasonReset: { mode: 'restart' } });
		expect(first.check({ ...start('One', '2026-06-01'), by: 'u', at: 't' }).retroFrom).toBeLessThanOrEqual(
			first.positionOf('R1')!,
		);
		apply(soft, start('Two', '2026-02-01'));
		expect(soft.touchedSince(soft.seq() - 1)).toBe(from);
		// An end moves no boundary: no replay.
		expect(soft.check({ type: 'season-ended', end: '2026-12-31', by: 'u', at: 't' }).retroFrom).toBeUndefined();
	});

	it('a change of the season reset replays from the first race; the setting is checked', () => {
		const log = build([submit('2026-01-05')]);
		const configure = (seasonReset: LeagueConfig['seasonReset']) =>
			log.check({ type: 'league-configured', config: { ...config, seasonReset }, by: 'u', at: 't' });
		expect(configure({ mode: 'soft', share: 0.25 }).retroFrom).toBe(log.positionOf('R1'));
		expect(() => configure({ mode: 'soft' })).toThrow('a soft season reset needs a share from 0 % to 100 %');
		expect(() => configure({ mode: 'soft', share: 1.5 })).toThrow('needs a share');
		expect(() => configure({ mode: 'restart', share: 0.5 })).toThrow('a restart season reset has no share');
		expect(() => configure({ mode: 'hard' as 'restart' })).toThrow('carry, restart or soft');
	});
});

describe('seasons.ts', () => {
	it('a league without named seasons has one implicit season per calendar year with a dated confirmed race', () => {
		const log = build([submit('2025-11-01'), submit(undefined), submit('2026-01-05'), submit('2026-02-01')]);
		apply(log, { type: 'race-voided', race: 'R1', reason: 'test' });
		apply(log, submit('2024-06-01'));
		expect(seasonsOf(log)).toEqual([
			{ name: '2024', start: '2024-01-01', end: '2024-12-31', implicit: true },
			{ name: '2026', start: '2026-01-01', end: '2026-12-31', implicit: true },
		]);
		expect(findSeason(log, undefined, '2026-03-01')?.name).toBe('2026');
		// No season contains 2025: the latest started by then.
		expect(findSeason(log, undefined, '2025-03-01')?.name).toBe('2024');
		expect(racesOfSeason(log, findSeason(log, '2026', '2026-03-01')!).map((r) => r.id)).toEqual(['R3', 'R4']);
	});

	it('named seasons replace the calendar years; races belong to the season whose days contain their date', () => {
		const log = build([
			submit('2025-12-20'),
			start('Winter Cup', '2026-01-10', 3),
			submit('2026-01-10'),
			submit('2026-02-28'),
			submit(undefined),
		]);
		apply(log, { type: 'season-ended', end: '2026-02-28' });
		apply(log, submit('2026-03-15')); // between two seasons
		apply(log, start('Spring Series', '2026-04-01'));
		apply(log, submit('2026-01-20')); // dated in Winter Cup, confirmed late
		apply(log, submit('2026-04-01'));
		const seasons = seasonsOf(log);
		expect(seasons).toEqual([
			{ name: 'Winter Cup', start: '2026-01-10', end: '2026-02-28', plannedRaces: 3, implicit: false },
			{ name: 'Spring Series', start: '2026-04-01', implicit: false },
		]);
		// In rating order (by date), a race confirmed late included.
		expect(racesOfSeason(log, seasons[0]!).map((r) => r.id)).toEqual(['R2', 'R6', 'R3']);
		expect(racesOfSeason(log, seasons[1]!).map((r) => r.id)).toEqual(['R7']);
		expect(findSeason(log, 'spring series', '2026-01-01')?.name).toBe('Spring Series');
		expect(findSeason(log, 'Summer', '2026-01-01')).toBeUndefined();
		expect(findSeason(log, undefined, '2026-02-01')?.name).toBe('Winter Cup');
		// Between the two: the latest started by then; before any: the first; after: the open one.
		expect(findSeason(log, undefined, '2026-03-15')?.name).toBe('Winter Cup');
		expect(findSeason(log, undefined, '2025-01-01')?.name).toBe('Winter Cup');
		expect(findSeason(log, undefined, '2030-01-01')?.name).toBe('Spring Series');
		expect(findSeason(log, '  ', '2026-02-01')?.name).toBe('Winter Cup');
	});

	it('a league without races or seasons has none', () => {
		const log = build([submit(undefined)]);
		expect(seasonsOf(log)).toEqual([]);
		expect(findSeason(log, undefined, '2026-01-01')).toBeUndefined();
	});
});
