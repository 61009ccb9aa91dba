import { describe, expect, it } from 'vitest';
import type { LeagueEvent, LeagueEventBody, LoggedEvent, RaceInput } from '../../src/league/league-events.js';
import {
	createLeagueLog,
	foldEvents,
	LeagueError,
	type LeagueLog,
	type LeagueLogSnapshot,
} from '../../src/league/race-log.js';

const config = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
const race = (...names: string[]): RaceInput => ({
	date: '2024-05-01',
	entries: names.map((player, i) => ({ player, position: i + 1, status: 'finished' as const })),
});

/** A log with the events applied in order (seq 0, 1, …), and the list of logged events. */
function build(...bodies: LeagueEventBody[]): { log: LeagueLog; events: LoggedEvent[] } {
	const log = createLeagueLog();
	const events = [{ type: 'league-configured', config } as const, ...bodies].map((body, seq) => ({
		...body,
		by: 'u1',
		at: '2024-05-01T10:00:00.000Z',
		seq,
	}));
	events.forEach((e) => log.apply(e));
	return { log, events };
}
const next = (log: LeagueLog, body: LeagueEventBody) =>
	log.apply({ ...body, by: 'u2', at: '2024-05-02T10:00:00.000Z', seq: log.seq() + 1 });
const names = (log: LeagueLog, raceId: string) => log.race(raceId)!.entries.map((e) => log.resolve(e.player)!.name);

describe('race log: submissions and players', () => {
	it('the first event must configure the league', () => {
		const log = createLeagueLog();
		const submit = { type: 'race-submitted', race: race('A'), by: 'u', at: 't' } as LeagueEvent;
		expect(() => log.check(submit)).toThrow(/must configure/);
	});

	it('new names become players #1, #2, … in order of first appearance; names match case-insensitively', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'race-submitted', race: race('bob ', 'Cy') },
		);
		expect(log.players().map((p) => [p.id, p.name])).toEqual([
			['#1', 'Ann'],
			['#2', 'Bob'],
			['#3', 'Cy'],
		]);
		expect(log.race('R2')!.entries.map((e) => e.player)).toEqual(['#2', '#3']);
		expect(log.races().map((r) => [r.id, r.seq, r.status, r.submittedBy])).toEqual([
			['R1', 1, 'confirmed', 'u1'],
			['R2', 2, 'confirmed', 'u1'],
		]);
	});

	it('refuses a player twice in one race, bad positions, bad dates, an empty race, an unknown id', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann', 'Bob') });
		const check = (r: RaceInput) => () => log.check({ type: 'race-submitted', race: r, by: 'u', at: 't' });
		expect(check(race('Ann', 'ANN'))).toThrow(/appears twice/);
		expect(check(race('New', 'new'))).toThrow(/appears twice/);
		expect(check(race('Ann', '#1'))).toThrow(/appears twice/);
		expect(check({ entries: [{ player: 'Ann', position: 0, status: 'finished' }] })).toThrow(/position/);
		expect(check({ date: '2024-13-01', entries: race('Ann').entries })).toThrow(/YYYY-MM-DD/);
		// Shaped like a date but not a calendar day: refused by the log itself, whatever the service checked.
		expect(check({ date: '2026-02-30', entries: race('Ann').entries })).toThrow(
			/date "2026-02-30" is not a calendar day written YYYY-MM-DD/,
		);
		expect(check({ date: '2024-02-29', entries: race('Ann').entries })).not.toThrow();
		expect(check({ entries: [] })).toThrow(/no entries/);
		expect(check(race('#9'))).toThrow(/unknown player id/);
		expect(check({ entries: [{ player: 'Ann', position: 1, status: 'finished', time: Number.NaN }] })).toThrow(/time/);
		expect(log.seq()).toBe(1); // check changes nothing
		expect(log.players()).toHaveLength(2);
	});

	it('refuses an unknown headline system or bad parameters in the configuration', () => {
		const log = createLeagueLog();
		const configure = (c: object) => () =>
			log.check({ type: 'league-configured', config: { ...config, ...c }, by: 'u', at: 't' });
		expect(configure({ headline: 'nope' })).toThrow(LeagueError);
		expect(configure({ params: { glicko: { nope: 1 } } })).toThrow(/^parameters of glicko: unknown parameter "nope"/);
	});
});

describe('race log: new names meet the scoreboard rules, stored ones still replay', () => {
	const long = 'L'.repeat(52);
	const check = (log: LeagueLog, body: LeagueEventBody) => () => log.check({ ...body, by: 'u', at: 't' });

	it('refuses a rename, an alias, a new racer or a league name that the scoreboard would refuse', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann', 'Bob') });
		const cases: [string, RegExp][] = [
			['An\nna', /^the player name contains the character U\+000A: control and invisible formatting/],
			['An\u202Ena', /^the player name contains the character U\+202E/],
			['An\u200Bna', /^the player name contains the character U\+200B/],
			['An\u200Ena', /^the player name contains the character U\+200E/],
			[long, /^the player name "L+" is 52 characters long: at most 32$/],
		];
		for (const [name, message] of cases) {
			expect(check(log, { type: 'player-renamed', player: '#1', name })).toThrow(message);
			expect(check(log, { type: 'alias-added', player: '#1', alias: name })).toThrow(/^the alias /);
			expect(check(log, { type: 'race-submitted', race: race('Ann', name) })).toThrow(message);
			expect(check(log, { type: 'league-imported', races: [race(name)], source: 'x' })).toThrow(/already has 1 race/);
			expect(check(log, { type: 'league-configured', config: { ...config, name } })).toThrow(/^the league name /);
		}
		expect(() =>
			createLeagueLog().check({ type: 'league-configured', config: { ...config, name: long }, by: 'u', at: 't' }),
		).toThrow(/^the league name "L+" is 52 characters long/);
		expect(check(log, { type: 'player-renamed', player: '#1', name: 'A'.repeat(32) })).not.toThrow();
	});

	it('a log written under the older rules (a 52-character name, a zero-width space) still opens and changes', () => {
		const legacy = { ...config, name: long };
		const log = createLeagueLog();
		const stored: LeagueEventBody[] = [
			{ type: 'league-configured', config: legacy },
			{ type: 'race-submitted', race: race(long, 'Bo\u200Bb') },
			{ type: 'player-renamed', player: '#1', name: `${long}!` },
		];
		stored.forEach((body, seq) => log.apply({ ...body, by: 'u', at: 't', seq }));
		expect(log.players().map((p) => p.name)).toEqual([`${long}!`, 'Bo\u200Bb']);
		// Known names are not new: a race with them, and a config change keeping the league's name, are taken.
		expect(check(log, { type: 'race-submitted', race: race(`${long}!`, 'bo\u200Bb', 'Cy') })).not.toThrow();
		expect(check(log, { type: 'league-configured', config: { ...legacy, headline: 'endure' } })).not.toThrow();
	});
});

describe('race log: race names', () => {
	it('a race keeps the name it was submitted with, also through an edit; a bad name is refused', () => {
		const { log } = build({ type: 'race-submitted', race: { ...race('Ann', 'Bob'), name: 'Round 4 — Monza' } });
		expect(log.race('R1')!.name).toBe('Round 4 — Monza');
		next(log, { type: 'race-edited', race: 'R1', reason: 'swap', changes: race('Bob', 'Ann') });
		expect(log.race('R1')!.name).toBe('Round 4 — Monza');
		const check = (name: string) => () =>
			log.check({ type: 'race-submitted', race: { ...race('Ann'), name }, by: 'u', at: 't' });
		expect(check('')).toThrow(/race name is 1 to 100 characters/);
		expect(check('x'.repeat(101))).toThrow(/race name is 1 to 100 characters/);
		expect(check('two\nlines')).toThrow(/without line breaks/);
		expect(check('x'.repeat(100))).not.toThrow();
	});
});

describe('race log: restoring a voided race', () => {
	it('counts it again from its own place in rating order, and refuses a race that is not voided', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'race-submitted', race: race('Bob', 'Cid') },
		);
		expect(() => next(log, { type: 'race-restored', race: 'R1', reason: 'r' })).toThrow(/race R1 is not voided/);
		expect(() => next(log, { type: 'race-restored', race: 'R9', reason: 'r' })).toThrow(/unknown race R9/);
		next(log, { type: 'race-voided', race: 'R1', reason: 'dup' });
		const voidedAt = log.seq();
		expect(log.ratedRaces().map((r) => r.race.id)).toEqual(['R2']);
		expect(() => next(log, { type: 'race-restored', race: 'R1', reason: '' })).toThrow(/reason is required/);
		const result = next(log, { type: 'race-restored', race: 'R1', reason: 'not a duplicate' });
		expect(result).toMatchObject({ race: 'R1', retroFrom: log.positionOf('R1') });
		expect(log.ratedRaces().map((r) => r.race.id)).toEqual(['R1', 'R2']);
		expect(log.race('R1')!.edits.map((e) => [e.kind, e.reason])).toEqual([
			['voided', 'dup'],
			['restored', 'not a duplicate'],
		]);
		expect(log.touchedSince(voidedAt)).toBe(log.positionOf('R1')); // ratings replay from R1
		expect(names(log, 'R1')).toEqual(['Ann', 'Bob']);
	});
});

describe('race log: yearly reset needs dated races', () => {
	// The replay refuses an undated race under a yearly reset; the log must never store an event the replay refuses.
	it('a yearly-reset league refuses an undated submission or edit; turning the reset on with an undated race is refused', () => {
		const { log } = build(
			{ type: 'race-submitted', race: { entries: race('Ann', 'Bob').entries } },
			{ type: 'race-submitted', race: race('Ann', 'Cy') },
		);
		const yearly = { type: 'league-configured', config: { ...config, reset: 'yearly' }, by: 'u', at: 't' } as const;
		expect(() => log.check(yearly)).toThrow(/race R1 needs a date/);
		next(log, { type: 'race-voided', race: 'R1', reason: 'no date' });
		next(log, { type: 'league-configured', config: { ...config, reset: 'yearly' } });
		const undated = { entries: race('Ann', 'Bob').entries };
		expect(() => log.check({ type: 'race-submitted', race: undated, by: 'u', at: 't' })).toThrow(/R3 needs a date/);
		expect(() =>
			log.check({ type: 'race-edited', race: 'R2', reason: 'x', changes: undated, by: 'u', at: 't' }),
		).toThrow(/R2 needs a date/);
		expect(() => log.check({ type: 'race-submitted', race: race('Ann', 'Bob'), by: 'u', at: 't' })).not.toThrow();
	});
});

describe('race log: void and edit', () => {
	it('a void keeps the race with status voided and the reason; it is not rated; it cannot be voided twice', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('A', 'B') },
			{ type: 'race-submitted', race: race('B', 'C') },
		);
		const result = next(log, { type: 'race-voided', race: 'R1', reason: 'wrong track' });
		expect(result.retroFrom).toBe(log.positionOf('R1'));
		expect(log.race('R1')).toMatchObject({
			status: 'voided',
			edits: [{ kind: 'voided', reason: 'wrong track', by: 'u2', seq: 3 }],
		});
		expect(log.ratedRaces().map((r) => r.race.id)).toEqual(['R2']);
		expect(() => next(log, { type: 'race-voided', race: 'R1', reason: 'again' })).toThrow(/voided/);
		expect(() => next(log, { type: 'race-voided', race: 'R2', reason: ' ' })).toThrow(/reason/);
	});

	it('an edit replaces the content, keeps id and place, records the edit; touchedSince reports it', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('A', 'B') },
			{ type: 'race-submitted', race: race('B', 'C') },
		);
		expect(log.touchedSince(2)).toBe(Infinity);
		next(log, { type: 'race-edited', race: 'R1', reason: 'swapped', changes: race('B', 'A', 'D') });
		expect(names(log, 'R1')).toEqual(['B', 'A', 'D']);
		expect(log.race('R1')).toMatchObject({
			seq: 1,
			status: 'confirmed',
			edits: [{ kind: 'edited', reason: 'swapped' }],
		});
		expect(log.ratedRaces().map((r) => r.race.id)).toEqual(['R1', 'R2']);
		expect(log.touchedSince(2)).toBe(log.positionOf('R1'));
		expect(log.touchedSince(3)).toBe(Infinity);
	});
});

describe('race log: rename, alias, link, merge', () => {
	it('rename keeps the old name as an alias; a name taken by another player is refused', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann', 'Bob') });
		next(log, { type: 'player-renamed', player: '#1', name: 'Anna' });
		expect(log.resolve('anna')?.id).toBe('#1');
		expect(log.resolve('Ann')?.id).toBe('#1');
		expect(log.resolve('#1')).toMatchObject({ name: 'Anna', aliases: ['Ann'] });
		expect(() => next(log, { type: 'player-renamed', player: '#1', name: 'bob' })).toThrow(/taken by Bob$/);
		expect(log.touchedSince(1)).toBe(Infinity); // names never change ratings
	});

	it('an alias resolves to its player and must be free', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann', 'Bob') });
		next(log, { type: 'alias-added', player: '#2', alias: 'Bobby' });
		next(log, { type: 'race-submitted', race: race('bobby', 'Ann') });
		expect(log.race('R2')!.entries.map((e) => e.player)).toEqual(['#2', '#1']);
		expect(() => next(log, { type: 'alias-added', player: '#1', alias: 'BOBBY' })).toThrow('"BOBBY" already names Bob');
	});

	it('a Discord user links to one player at a time; null unlinks', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann', 'Bob') });
		next(log, { type: 'player-linked', player: 'Ann', user: '42' });
		expect(log.playerByUser('42')?.id).toBe('#1');
		expect(() => next(log, { type: 'player-linked', player: 'Bob', user: '42' })).toThrow(/already linked to Ann/);
		next(log, { type: 'player-linked', player: 'Ann', user: null });
		expect(log.playerByUser('42')).toBeUndefined();
	});

	it("merge: the two players' races become one player's, names become aliases, the old id resolves to the survivor", () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'race-submitted', race: race('Cy', 'Ann2') },
			{ type: 'race-submitted', race: race('Ann', 'Cy') },
		);
		const result = next(log, { type: 'players-merged', from: 'Ann2', into: 'Ann' });
		expect(result.retroFrom).toBe(log.positionOf('R2'));
		expect(log.race('R2')!.entries.map((e) => e.player)).toEqual(['#3', '#1']);
		expect(log.players().map((p) => p.id)).toEqual(['#1', '#2', '#3']);
		expect(log.resolve('ann2')?.id).toBe('#1');
		expect(log.resolve('#4')?.id).toBe('#1');
		expect(log.resolve('#1')?.aliases).toEqual(['Ann2']);
	});

	it('merge is refused, with the races named, when both players raced in the same race', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'race-submitted', race: race('Bob', 'Ann') },
		);
		expect(() => next(log, { type: 'players-merged', from: 'Bob', into: 'Ann' })).toThrow(
			'cannot merge Bob into Ann: both raced in R1, R2',
		);
		expect(() => next(log, { type: 'players-merged', from: 'Bob', into: 'bob' })).toThrow(/same player/);
	});
});

describe('race log: snapshots', () => {
	it('a JSON snapshot, restored and continued, equals the continuous fold', () => {
		const bodies: LeagueEventBody[] = [
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'player-renamed', player: '#1', name: 'Anna' },
			{ type: 'race-submitted', race: race('Cy', 'Dee') },
			{ type: 'race-voided', race: 'R1', reason: 'x' },
			{ type: 'players-merged', from: 'Dee', into: 'Bob' },
			{ type: 'race-submitted', race: race('anna', 'bob', 'Eve') },
		];
		const { log, events } = build(...bodies);
		for (let cut = 0; cut < events.length; cut++) {
			const head = foldEvents(events.slice(0, cut + 1));
			const restored = foldEvents(
				events.slice(cut + 1),
				JSON.parse(JSON.stringify(head.snapshot())) as LeagueLogSnapshot,
			);
			expect(restored.snapshot()).toEqual(log.snapshot());
		}
	});

	it('a merge confirmed from a preview keeps its id, through a snapshot too, and the log refuses it twice', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'race-submitted', race: race('Anne', 'Cy') },
			{ type: 'players-merged', from: 'Anne', into: 'Ann', preview: 'm1' },
		);
		const restored = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		for (const l of [log, restored]) {
			expect(l.storedPreview('m1')).toEqual({ kind: 'merged', from: '#3', into: '#1' });
			expect(l.playerById('#3')).toMatchObject({ name: 'Anne', mergedInto: '#1', mergePreview: 'm1' });
			expect(l.resolve('#3')?.name).toBe('Ann');
			expect(() =>
				l.check({ type: 'players-merged', from: 'Bob', into: 'Cy', preview: 'm1', by: 'u', at: 't' }),
			).toThrow('this preview was already confirmed: player #3 was merged into #1');
		}
	});

	it('refuses a gap in the log', () => {
		const { log } = build();
		expect(() => log.apply({ type: 'race-submitted', race: race('A'), by: 'u', at: 't', seq: 5 })).toThrow(/gap/);
	});
});

describe('race log: a league-imported event', () => {
	const imported = (...races: RaceInput[]): LeagueEventBody => ({ type: 'league-imported', races, source: 'h.csv' });
	const named = (name: string, date: string | undefined, ...players: string[]): RaceInput => ({
		...race(...players),
		name,
		date,
	});

	it('applies as one race-submitted per race: ids R1..RN, players by first appearance, all at the event seq', () => {
		const batch = build(imported(named('Monza', '2024-05-01', 'Ann', 'Bob'), named('Spa', undefined, 'bob', 'Cy')));
		const oneByOne = build(
			{ type: 'race-submitted', race: named('Monza', '2024-05-01', 'Ann', 'Bob') },
			{ type: 'race-submitted', race: named('Spa', undefined, 'bob', 'Cy') },
		);
		const { log } = batch;
		expect(log.seq()).toBe(1);
		expect(log.races().map((r) => [r.id, r.name, r.seq, r.date, r.status])).toEqual([
			['R1', 'Monza', 1, '2024-05-01', 'confirmed'],
			['R2', 'Spa', 1, undefined, 'confirmed'],
		]);
		expect(log.players()).toEqual(oneByOne.log.players());
		// What is rated of each race (the rated race is its record, whose seq differs: one event against two).
		const rated = (l: LeagueLog) =>
			l.ratedRaces().map(({ race: { id, date, mode, entries } }) => ({ id, date, mode, entries }));
		expect(rated(log)).toEqual(rated(oneByOne.log));
		expect(log.ratedRacesSince(0)).toHaveLength(2);
		expect(log.ratedRacesSince(1)).toHaveLength(0);
	});

	it('is refused whole when any race is bad, naming the race; nothing of it is applied', () => {
		const { log } = build();
		const check =
			(...races: RaceInput[]) =>
			() =>
				log.check({ ...imported(...races), by: 'u', at: 't' });
		expect(check()).toThrow('the import has no races');
		expect(check(named('A', undefined, 'Ann'), named('B', undefined, 'Ann', 'ann'))).toThrow(
			'race R2 ("B"), ann: this player appears twice',
		);
		expect(check(named('A', undefined, 'Ann'), named('B', undefined, '#9'))).toThrow(/unknown player id/);
		expect(log.seq()).toBe(0);
		expect(log.players()).toEqual([]);
		expect(log.races()).toEqual([]);
	});

	it('goes into a league without races only', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann') });
		expect(() => log.check({ ...imported(race('Bob')), by: 'u', at: 't' })).toThrow(
			'this league already has 1 race: import into a new league',
		);
	});

	it('in a yearly-reset league, an undated race refuses the import with the organizer message', () => {
		const log = createLeagueLog();
		log.apply({ type: 'league-configured', config: { ...config, reset: 'yearly' }, by: 'u', at: 't', seq: 0 });
		expect(() =>
			log.check({ ...imported(named('A', '2024-01-01', 'Ann'), named('B', undefined, 'Ann')), by: 'u', at: 't' }),
		).toThrow('race R2 ("B") needs a date: this league resets ratings every calendar year');
	});

	it('imported races void, edit and merge as submitted ones; the snapshot continues the fold', () => {
		const { log } = build(
			imported(named('A', '2024-05-01', 'Ann', 'Bob'), named('B', '2024-05-02', 'Cy', 'Bob'), race('Ann', 'Cy')),
		);
		const mid = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		const more: LeagueEventBody[] = [
			{ type: 'race-voided', race: 'R2', reason: 'wrong track' },
			{ type: 'race-edited', race: 'R3', reason: 'typo', changes: race('Cy', 'Ann', 'Dee') },
			{ type: 'race-submitted', race: race('Dee', 'Ann') },
		];
		for (const body of more) {
			const result = next(log, body);
			next(mid, body);
			if (body.type === 'race-voided' || body.type === 'race-edited') {
				expect(result.retroFrom).toBe(log.positionOf(body.race));
			}
		}
		// The edit dates R3 (undated: sorting by R2's date) 2024-05-01: it moves before R2, after R1 of that date.
		expect(log.touchedSince(1)).toBe(log.positionOf('R3'));
		expect(log.positionOf('R3')).toBeLessThan(log.positionOf('R2')!);
		expect(log.positionOf('R3')).toBeGreaterThan(log.positionOf('R1')!);
		expect(log.race('R2')!.status).toBe('voided');
		expect(names(log, 'R3')).toEqual(['Cy', 'Ann', 'Dee']);
		expect(log.races().map((r) => [r.id, r.seq])).toEqual([
			['R1', 1],
			['R2', 1],
			['R3', 1],
			['R4', 4],
		]);
		expect(log.ratedRaces().map((r) => r.race.id)).toEqual(['R1', 'R3', 'R4']);
		expect(mid.snapshot()).toEqual(log.snapshot());
	});
});

describe("race log: the sims' driver ids", () => {
	const STEAM_ANN = 'steam:76561198000000001';
	const STEAM_BOB = 'steam:76561198000000002';

	it('a race gives its racers their ids, new players included; the id then finds the player by any name', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann') });
		next(log, {
			type: 'race-submitted',
			race: race('Ann', 'Bob'),
			simIds: [
				{ player: 'Ann', simId: STEAM_ANN },
				{ player: 'bob', simId: STEAM_BOB },
			],
		});
		expect(log.playerBySimId(STEAM_ANN)).toMatchObject({ id: '#1', simIds: [STEAM_ANN] });
		expect(log.playerBySimId(STEAM_BOB)).toMatchObject({ id: '#2', name: 'Bob', simIds: [STEAM_BOB] });
		// A race that names the player by id (the service does, for a driver who renamed in the sim) is theirs.
		next(log, { type: 'race-submitted', race: race('#2', 'Ann'), simIds: [{ player: '#2', simId: STEAM_BOB }] });
		expect(names(log, 'R3')).toEqual(['Bob', 'Ann']);
		expect(log.playerBySimId(STEAM_BOB)!.simIds).toEqual([STEAM_BOB]); // given once
	});

	it('refuses an id that belongs to another player, or that is no sim id; nothing is applied', () => {
		const { log } = build({
			type: 'race-submitted',
			race: race('Ann', 'Bob'),
			simIds: [{ player: 'Ann', simId: STEAM_ANN }],
		});
		const seq = log.seq();
		expect(() =>
			next(log, { type: 'race-submitted', race: race('Bob', 'Cy'), simIds: [{ player: 'Bob', simId: STEAM_ANN }] }),
		).toThrow(new LeagueError('the sim id steam:76561198000000001 already belongs to Ann'));
		expect(() =>
			next(log, { type: 'race-submitted', race: race('Bob', 'Cy'), simIds: [{ player: 'Bob', simId: '7656' }] }),
		).toThrow(/"7656" is not a sim id: expected a sim and its id, like steam:76561198000000000/);
		expect(() =>
			next(log, { type: 'race-submitted', race: race('Bob'), simIds: [{ player: 'Dee', simId: STEAM_BOB }] }),
		).toThrow('sim id steam:76561198000000002: no racer "Dee" in the race');
		expect(log.seq()).toBe(seq);
		expect(log.resolve('Cy')).toBeUndefined();
	});

	it('an organizer sets and takes back an id; a link, a rename and a merge keep the ids', () => {
		const { log } = build({ type: 'race-submitted', race: race('Ann') }, { type: 'race-submitted', race: race('Bob') });
		next(log, { type: 'sim-id-set', player: 'Ann', simId: STEAM_ANN });
		next(log, { type: 'player-linked', player: 'Ann', user: '42' });
		next(log, { type: 'player-renamed', player: 'Ann', name: 'Anna' });
		expect(log.playerBySimId(STEAM_ANN)).toMatchObject({ name: 'Anna', user: '42', simIds: [STEAM_ANN] });
		next(log, { type: 'sim-id-set', player: 'Bob', simId: STEAM_BOB });
		next(log, { type: 'players-merged', from: 'Bob', into: 'Anna' });
		expect(log.playerBySimId(STEAM_BOB)?.name).toBe('Anna');
		expect(log.resolve('Anna')!.simIds).toEqual([STEAM_ANN, STEAM_BOB]);
		next(log, { type: 'sim-id-set', player: 'Anna', simId: STEAM_BOB, remove: true });
		expect(log.playerBySimId(STEAM_BOB)).toBeUndefined();
		expect(log.resolve('Anna')!.simIds).toEqual([STEAM_ANN]);
		expect(() => next(log, { type: 'sim-id-set', player: 'Anna', simId: STEAM_BOB, remove: true })).toThrow(
			'Anna has no sim id steam:76561198000000002',
		);
		// The ids survive a snapshot.
		const again = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as LeagueLogSnapshot);
		expect(again.playerBySimId(STEAM_ANN)?.name).toBe('Anna');
	});
});

describe('race log: the rated races every replay reads', () => {
	it('are the same objects while nothing changes them, and new ones for a race edited since', () => {
		const { log } = build(
			{ type: 'race-submitted', race: race('Ann', 'Bob') },
			{ type: 'race-submitted', race: race('Bob', 'Cid') },
		);
		const first = log.ratedRaces();
		const again = log.ratedRaces();
		expect(again).not.toBe(first); // a new list each time: callers may keep or change it
		expect(again[0]).toBe(first[0]);
		expect(again[1]!.race).toBe(first[1]!.race);
		next(log, { type: 'race-edited', race: 'R1', reason: 'swap', changes: race('Bob', 'Ann') });
		const edited = log.ratedRaces();
		expect(edited[0]).not.toBe(first[0]);
		expect(edited[0]!.race.entries.map((e) => log.resolve(e.player)!.name)).toEqual(['Bob', 'Ann']);
		expect(edited[1]).toBe(first[1]);
	});
});

describe('race log: copies', () => {
	const dated = (date: string, ...names: string[]): RaceInput => ({ ...race(...names), date });
	const history = () =>
		build(
			{ type: 'race-submitted', race: dated('2024-05-03', 'Ann', 'Bob') },
			{ type: 'race-submitted', race: dated('2024-05-01', 'Bob', 'Cy') },
			{ type: 'race-submitted', race: { ...race('Cy', 'Ann'), date: undefined } },
			{ type: 'race-voided', race: 'R1', reason: 'wrong track' },
			{ type: 'race-restored', race: 'R1', reason: 'right after all' },
		).log;

	it('a copy is the log its snapshot folds into: the same races in the same rating order, the same answers', () => {
		const log = history();
		for (const copy of [log.copy(), log.copyLater()()]) {
			const folded = createLeagueLog(log.snapshot());
			expect(copy.snapshot()).toStrictEqual(folded.snapshot());
			expect(copy.ratedRaces()).toStrictEqual(folded.ratedRaces());
			expect(copy.ratedRaces().map((r) => r.race.id)).toEqual(['R2', 'R1', 'R3']);
			expect(copy.touchedSince(-1)).toBe(folded.touchedSince(-1));
			expect(copy.resolve('cy')?.id).toBe(folded.resolve('cy')?.id);
		}
	});

	it("a copy's indexes answer as the log its snapshot folds into: names, aliases, merges, sim ids, previews", () => {
		const { log } = build(
			{ type: 'race-submitted', race: dated('2024-05-03', 'Ann', 'Bob'), preview: 'p1' },
			{ type: 'player-renamed', player: 'Ann', name: 'Anna' },
			{ type: 'alias-added', player: 'Bob', alias: 'Bobby' },
			{ type: 'race-submitted', race: dated('2024-05-01', 'Cy', 'Dee') },
			{ type: 'players-merged', from: 'Dee', into: 'Bob', preview: 'm1' },
			{ type: 'sim-id-set', player: 'Cy', simId: 'steam:1' },
			{ type: 'sim-id-set', player: 'Cy', simId: 'steam:2' },
			{ type: 'sim-id-set', player: 'Cy', simId: 'steam:1', remove: true },
			{ type: 'race-edited', race: 'R2', reason: 'typo', changes: dated('2024-05-02', 'Cy', 'Bob'), preview: 'e1' },
		);
		const folded = createLeagueLog(log.snapshot());
		for (const copy of [log.copy(), log.copyLater()()]) {
			for (const name of ['Ann', 'anna', 'Bob', 'bobby', 'Cy', 'Dee', '#4', 'Eve'])
				expect(copy.resolve(name)?.id, name).toBe(folded.resolve(name)?.id);
			for (const simId of ['steam:1', 'steam:2'])
				expect(copy.playerBySimId(simId)).toEqual(folded.playerBySimId(simId));
			for (const preview of ['p1', 'm1', 'e1', 'none'])
				expect(copy.storedPreview(preview)).toEqual(folded.storedPreview(preview));
			for (const id of ['R1', 'R2', 'R3']) expect(copy.positionOf(id)).toBe(folded.positionOf(id));
			// An undated race sorts by the latest date stored.
			const undated = { type: 'race-submitted', race: { ...race('Eve', 'Cy'), date: undefined } } as const;
			expect(next(copy, undated)).toEqual(next(createLeagueLog(log.snapshot()), undated));
			expect(copy.positionOf('R3')).toBe(copy.positionOf('R1')! + 2);
		}
	});

	it('a copy moves on by itself: neither the log nor the copy sees the other’s later events', () => {
		const log = history();
		const later = log.copyLater(); // taken now, built after the log has moved on
		const copy = log.copy();
		next(copy, { type: 'race-voided', race: 'R2', reason: 'what if' });
		next(log, { type: 'race-submitted', race: dated('2024-04-01', 'Dee', 'Ann') });
		expect(log.race('R2')!.status).toBe('confirmed');
		expect(copy.race('R4')).toBeUndefined();
		expect(copy.ratedRaces().map((r) => r.race.id)).toEqual(['R1', 'R3']);
		expect(log.ratedRaces().map((r) => r.race.id)).toEqual(['R4', 'R2', 'R1', 'R3']);
		const before = later();
		expect(before.seq()).toBe(5);
		expect(before.ratedRaces().map((r) => r.race.id)).toEqual(['R2', 'R1', 'R3']);
		expect(before.resolve('Dee')).toBeUndefined();
	});

	it('a copy taken for later is built once: the log built takes what was copied, and a second build is refused', () => {
		const later = history().copyLater();
		const built = later();
		next(built, { type: 'race-voided', race: 'R2', reason: 'what if' });
		expect(() => later()).toThrow(/built once/);
		expect(built.ratedRaces().map((r) => r.race.id)).toEqual(['R1', 'R3']);
	});
});
