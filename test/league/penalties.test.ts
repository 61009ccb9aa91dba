import { describe, expect, it } from 'vitest';
import type { LeagueEventBody, RaceInput } from '../../src/league/league-events.js';
import { createLeagueLog, foldEvents, type LeagueLog, type LeagueLogSnapshot } from '../../src/league/race-log.js';
import { addTime, teamAt } from '../../src/league/penalties.js';
import type { RaceEntry } from '../../src/ratings/types.js';

/** Penalties in the race log (penalties.ts, penalty-fold.ts): orders counted by hand. */

const config = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
const timed = (...racers: [string, number][]): RaceInput => ({
	date: '2026-05-01',
	entries: racers.map(([player, time], i) => ({ player, position: i + 1, status: 'finished' as const, time })),
});

function build(...bodies: LeagueEventBody[]): LeagueLog {
	const log = createLeagueLog();
	[{ type: 'league-configured', config } as const, ...bodies].forEach((body, seq) =>
		log.apply({ ...body, by: 'u1', at: '2026-05-02T10:00:00.000Z', seq }),
	);
	return log;
}
const next = (log: LeagueLog, body: LeagueEventBody) =>
	log.apply({ ...body, by: 'u2', at: '2026-05-03T10:00:00.000Z', seq: log.seq() + 1 });
const order = (log: LeagueLog, race = 'R1') =>
	log
		.race(race)!
		.entries.map((e) => `${e.position} ${log.resolve(e.player)!.name}${e.time === undefined ? '' : ` ${e.time}`}`);

// Ann 100, Bob 102, Cy 104.5, Dan 110, Eve DNF.
const R1: RaceInput = {
	...timed(['Ann', 100], ['Bob', 102], ['Cy', 104.5], ['Dan', 110]),
	entries: [
		...timed(['Ann', 100], ['Bob', 102], ['Cy', 104.5], ['Dan', 110]).entries,
		{ player: 'Eve', position: 5, status: 'DNF' },
	],
};

describe('a time penalty', () => {
	it('adds the seconds and moves the racer past every finisher now faster (a dead heat goes against them)', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		// Ann 100 + 4.5 = 104.5: passes Bob (102) and Cy (104.5, equal: the penalised racer loses it), not Dan.
		const result = next(log, {
			type: 'penalty-given',
			race: 'R1',
			player: 'Ann',
			kind: 'time',
			seconds: 4.5,
			reason: 'track limits',
		});
		expect(result.retroFrom).toBeDefined();
		expect(order(log)).toEqual(['1 Bob 102', '2 Cy 104.5', '3 Ann 104.5', '4 Dan 110', '5 Eve']);
		expect(log.penalties().map((p) => [p.id, p.player, p.kind, p.seconds])).toEqual([['P1', '#1', 'time', 4.5]]);
		const race = log.race('R1')!;
		expect(race.classified!.map((e) => e.player)).toEqual(['#1', '#2', '#3', '#4', '#5']);
		expect(race.edits.at(-1)).toMatchObject({
			kind: 'penalty',
			penalty: 'P1',
			reason: 'P1 +4.5 s for Ann: track limits',
		});
	});

	it('moves nobody when no finisher behind is passed, and applies two penalties in the order given', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		next(log, { type: 'penalty-given', race: 'R1', player: 'Cy', kind: 'time', seconds: 5, reason: 'a' });
		expect(order(log)).toEqual(['1 Ann 100', '2 Bob 102', '3 Cy 109.5', '4 Dan 110', '5 Eve']);
		// Then Bob + 10 = 112: past Cy (109.5) and Dan (110).
		next(log, { type: 'penalty-given', race: 'R1', player: 'Bob', kind: 'time', seconds: 10, reason: 'b' });
		expect(order(log)).toEqual(['1 Ann 100', '2 Cy 109.5', '3 Dan 110', '4 Bob 112', '5 Eve']);
		// Withdrawing P1 applies P2 alone to the race as classified: Bob 112 past Cy 104.5 and Dan 110.
		next(log, { type: 'penalty-withdrawn', penalty: 'p1', reason: 'review' });
		expect(order(log)).toEqual(['1 Ann 100', '2 Cy 104.5', '3 Dan 110', '4 Bob 112', '5 Eve']);
	});

	it('is withdrawn back to exactly the entries as classified', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		const before = log.race('R1')!.entries;
		next(log, { type: 'penalty-given', race: 'R1', player: 'Ann', kind: 'time', seconds: 30, reason: 'x' });
		const result = next(log, { type: 'penalty-withdrawn', penalty: 'P1', reason: 'appeal upheld' });
		expect(result.retroFrom).toBeDefined();
		expect(log.race('R1')!.entries).toEqual(before);
		expect(log.race('R1')!.classified).toBeUndefined();
		expect(log.penalties()[0]!.withdrawn).toMatchObject({ reason: 'appeal upheld', by: 'u2' });
		expect(log.race('R1')!.edits.map((e) => e.kind)).toEqual(['penalty', 'penalty-withdrawn']);
		expect(() => log.check({ type: 'penalty-withdrawn', penalty: 'P1', reason: 'again', by: 'u', at: 't' })).toThrow(
			'penalty P1 was already withdrawn on 2026-05-03',
		);
	});

	it('keeps other finishers’ ties and numbers positions again by competition ranking', () => {
		const entries: RaceEntry[] = [
			{ player: 'A', position: 1, status: 'finished', time: 60 },
			{ player: 'B', position: 2, status: 'finished', time: 61 },
			{ player: 'C', position: 2, status: 'finished', time: 61 },
			{ player: 'D', position: 4, status: 'finished', time: 70 },
		];
		// A 60 + 5 = 65: past B and C (tied at 61), not D. B and C stay tied, now first; A third.
		expect(addTime(entries, 'A', 5).map((e) => `${e.position} ${e.player}`)).toEqual(['1 B', '1 C', '3 A', '4 D']);
	});

	it('is refused, saying why, for a racer without a time, a non-finisher, someone not in the race, a bad amount', () => {
		const log = build({
			type: 'race-submitted',
			race: { entries: [...R1.entries, { player: 'Fay', position: 6, status: 'finished' }], date: '2026-05-01' },
		});
		const check = (body: Partial<LeagueEventBody> & Record<string, unknown>) => () =>
			log.check({
				type: 'penalty-given',
				race: 'R1',
				kind: 'time',
				seconds: 5,
				reason: 'r',
				...body,
				by: 'u',
				at: 't',
			} as never);
		expect(check({ player: 'Fay' })).toThrow(
			'R1 has no finish time for Fay: a time penalty adds seconds to a finish time',
		);
		expect(check({ player: 'Eve' })).toThrow('Eve did not finish R1 (DNF)');
		expect(check({ player: 'Ann', race: 'R9' })).toThrow('unknown race R9');
		expect(check({ player: 'Nobody' })).toThrow('unknown player "Nobody"');
		expect(check({ player: 'Ann', seconds: 0 })).toThrow('more than 0');
		expect(check({ player: 'Ann', seconds: -3 })).toThrow('more than 0');
		expect(check({ player: 'Ann', reason: ' ' })).toThrow('a reason is required');
		expect(check({ player: 'Ann', kind: 'points', seconds: undefined, points: 0 })).toThrow('more than 0');
		next(log, { type: 'race-submitted', race: timed(['Gus', 90], ['Hal', 91]) });
		expect(check({ player: 'Gus' })).toThrow('Gus did not race in R1');
		next(log, { type: 'race-voided', race: 'R1', reason: 'x' });
		expect(check({ player: 'Ann' })).toThrow('race R1 is voided');
	});

	it('keeps a race’s results from a correction while in force; a new date alone is fine', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		next(log, { type: 'penalty-given', race: 'R1', player: 'Ann', kind: 'time', seconds: 5, reason: 'x' });
		const { entries: penalised, classified } = log.race('R1')!;
		const edit = (changes: RaceInput) => () =>
			log.check({ type: 'race-edited', race: 'R1', reason: 'fix', changes, by: 'u', at: 't' });
		expect(edit(R1)).toThrow('R1 has time penalty P1 in force: withdraw them (/race penalty-withdraw)');
		next(log, { type: 'race-edited', race: 'R1', reason: 'date', changes: { entries: penalised, date: '2026-05-02' } });
		expect(log.race('R1')!.date).toBe('2026-05-02');
		expect(log.race('R1')!.classified).toEqual(classified); // P1 still in force on the same results
		expect(log.race('R1')!.entries).toEqual(penalised);
	});

	it('is a preview’s once: the same preview id is refused a second time', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		const body = {
			type: 'penalty-given',
			race: 'R1',
			player: 'Ann',
			kind: 'time',
			seconds: 5,
			reason: 'x',
			preview: 'pv1',
		} as const;
		next(log, body);
		expect(log.storedPreview('pv1')).toEqual({ kind: 'penalty', penalty: 'P1', race: 'R1' });
		expect(() => log.check({ ...body, by: 'u', at: 't' })).toThrow(
			'this preview was already confirmed as penalty P1 of R1',
		);
	});
});

describe('a points deduction', () => {
	it('changes no race and no rating', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		const before = log.race('R1');
		const result = next(log, {
			type: 'penalty-given',
			race: 'R1',
			player: 'Eve',
			kind: 'points',
			points: 5,
			reason: 'x',
		});
		expect(result.retroFrom).toBeUndefined();
		expect(log.race('R1')).toBe(before);
		expect(log.penalties()[0]).toMatchObject({ id: 'P1', kind: 'points', points: 5, player: '#5' });
	});
});

describe('penalties through snapshots and merges', () => {
	it('a snapshot carries them; an old snapshot without them loads', () => {
		const log = build({ type: 'race-submitted', race: R1 });
		next(log, {
			type: 'penalty-given',
			race: 'R1',
			player: 'Ann',
			kind: 'time',
			seconds: 5,
			reason: 'x',
			preview: 'pv',
		});
		const copy = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		expect(copy.penalties()).toEqual(log.penalties());
		expect(copy.race('R1')).toEqual(log.race('R1'));
		expect(copy.storedPreview('pv')).toEqual({ kind: 'penalty', penalty: 'P1', race: 'R1' });
		const old = { ...log.snapshot(), penalties: undefined };
		expect(createLeagueLog(old).penalties()).toEqual([]);
	});

	it('a merge moves the penalty and the classified entries to the player kept', () => {
		const log = build({ type: 'race-submitted', race: R1 }, { type: 'race-submitted', race: timed(['Zed', 1]) });
		next(log, { type: 'penalty-given', race: 'R1', player: 'Ann', kind: 'time', seconds: 5, reason: 'x' });
		next(log, { type: 'players-merged', from: 'Ann', into: 'Zed' });
		expect(log.penalties()[0]!.player).toBe('#6');
		expect(log.race('R1')!.classified![0]!.player).toBe('#6');
		next(log, { type: 'penalty-withdrawn', penalty: 'P1', reason: 'x' });
		expect(log.race('R1')!.entries[0]).toMatchObject({ player: '#6', position: 1, time: 100 });
	});
});

describe('teams', () => {
	it('/player team keeps each change; a race’s team is the one set before it, else the first one set', () => {
		const log = build({ type: 'race-submitted', race: R1 }, { type: 'team-set', player: 'Ann', team: 'Red' });
		next(log, { type: 'race-submitted', race: timed(['Ann', 1]) });
		next(log, { type: 'team-set', player: 'Ann', team: 'Blue' });
		next(log, { type: 'race-submitted', race: timed(['Ann', 1]) });
		const ann = log.resolve('Ann')!;
		expect(ann.team).toBe('Blue');
		const seqs = log.races().map((r) => r.seq);
		expect(seqs.map((seq) => teamAt(ann.teams, seq))).toEqual(['Red', 'Red', 'Blue']);
		next(log, { type: 'team-set', player: 'Ann', team: null });
		expect(log.resolve('Ann')!.team).toBeUndefined();
		expect(teamAt(log.resolve('Ann')!.teams, 999)).toBeUndefined();
		expect(() => log.check({ type: 'team-set', player: 'Ann', team: null, by: 'u', at: 't' })).toThrow(
			'Ann has no team',
		);
		next(log, { type: 'player-linked', player: 'Ann', user: '42' });
		expect(log.resolve('Ann')!.teams).toHaveLength(3); // a link keeps the team history
		expect(foldEvents([]).penalties()).toEqual([]);
	});
});
