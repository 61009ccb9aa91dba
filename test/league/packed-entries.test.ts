import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import type { LeagueEventBody, RaceInput } from '../../src/league/league-events.js';
import { packEntries, racersOf } from '../../src/league/packed-entries.js';
import { createLeagueLog, type LeagueLog, type RaceRecord } from '../../src/league/race-log.js';
import type { RaceEntry } from '../../src/ratings/types.js';

/** The ZakStunts history (data/sample-league.csv): 293 races, names, places, DNFs, no times. */
const zakstunts = parseHistoryCsv(readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8'));

const record = (entries: readonly RaceEntry[], extra: Partial<RaceRecord> = {}): RaceRecord => ({
	id: 'R1',
	seq: 3,
	date: '2024-05-01',
	mode: 'tt',
	entries,
	submittedBy: 'u1',
	submittedAt: '2024-05-01T10:00:00.000Z',
	status: 'confirmed',
	edits: [],
	...extra,
});

/** Whether the record's entries are read through packed columns (a getter), not held as objects. */
const isPacked = (r: object) => typeof Object.getOwnPropertyDescriptor(r, 'entries')?.get === 'function';

/** Everything a reader can see of a value: its JSON, and its keys in order at every level. */
const seen = (value: unknown): string => JSON.stringify(value) + JSON.stringify(keysOf(value));
const keysOf = (value: unknown): unknown =>
	Array.isArray(value)
		? value.map(keysOf)
		: typeof value === 'object' && value !== null
			? Object.entries(value).map(([k, v]) => [k, keysOf(v)])
			: typeof value;

describe('a race’s entries kept by column', () => {
	const entries: RaceEntry[] = [
		{ player: '#1', position: 1, status: 'finished', time: 83.456 },
		{ player: '#2', position: 2, status: 'finished', time: 0.1 + 0.2, team: 'Red', car: 'GT3 Ferrari' },
		{ player: '#3', position: 2, status: 'finished', time: -0, car: 'GT3 Audi' },
		{ player: '#4', position: 4, status: 'DNF', team: 'Blue' },
		{ player: '#5', position: 5, status: 'DNS' },
		{ player: '#6', position: 6, status: 'DSQ', time: 1e-300 },
		{ player: '#7', position: 2 ** 40, status: 'finished', time: Number.MAX_VALUE },
	];

	it('reads back exactly what was stored: values (bit for bit), keys and their order, through spread and JSON', () => {
		const stored = record(entries, { name: 'Round 4', preview: undefined });
		const packed = packEntries(stored);
		expect(isPacked(packed)).toBe(true);
		expect(packed).toStrictEqual(stored);
		expect(seen(packed)).toBe(seen(stored));
		expect(seen({ ...packed })).toBe(seen(stored));
		expect(Object.keys(packed)).toEqual(Object.keys(stored));
		expect(Object.is(packed.entries[2]!.time, -0)).toBe(true);
		expect(packed.entries[1]!.time).toBe(0.1 + 0.2);
		expect(racersOf(packed)).toEqual(entries.map((e) => e.player));
		expect(racersOf(stored)).toEqual(entries.map((e) => e.player));
	});

	it('every race of the ZakStunts history packs and reads back as it was', () => {
		for (const race of zakstunts) {
			const stored = record(race.entries, { id: race.id });
			const packed = packEntries(stored);
			expect(isPacked(packed), race.id).toBe(true);
			expect(seen(packed)).toBe(seen(stored));
		}
	});

	it('is idempotent, and a spread of a packed record is a plain record that packs again', () => {
		const packed = packEntries(record(entries));
		expect(packEntries(packed)).toBe(packed);
		const voided = { ...packed, status: 'voided' as const };
		expect(isPacked(voided)).toBe(false);
		expect(voided.entries).toStrictEqual(entries);
		expect(seen(packEntries(voided))).toBe(seen(voided));
	});

	it('keeps a race as it is when its entries are not of the log’s exact form', () => {
		const odd: RaceEntry[][] = [
			[{ position: 1, player: '#1', status: 'finished' }], // keys in another order
			[{ player: '#1', position: 1, status: 'finished', time: undefined }], // a key set to undefined
			[{ player: '#1', position: 1.5, status: 'finished' }],
			[{ player: '#1', position: -1, status: 'finished' }],
			[{ player: '#1', position: 1, status: 'retired' as 'DNF' }],
			[{ player: '#1', position: 1, status: 'finished', car: 'A', team: 'B' }], // team after car
			[{ player: '#1', position: 1, status: 'finished', lap: 3 } as RaceEntry],
			[{ player: '#1', position: 1, status: 'finished', time: '83.4' as unknown as number }],
			[Object.assign(Object.create(null) as object, { player: '#1', position: 1, status: 'finished' }) as RaceEntry],
		];
		for (const list of odd) {
			const stored = record(list);
			expect(packEntries(stored)).toBe(stored);
		}
		const notAList = record('#1' as unknown as RaceEntry[]);
		expect(packEntries(notAList)).toBe(notAList);
	});
});

describe('the log keeps every race packed', () => {
	const config = { guildId: 'g', name: 'Main', headline: 'glicko', params: {}, timezone: 'UTC' };
	const race = (date: string, ...names: string[]): RaceInput => ({
		date,
		entries: names.map((player, i) => ({ player, position: i + 1, status: 'finished' as const, time: 60 + i / 3 })),
	});
	const history = (): LeagueLog => {
		const log = createLeagueLog();
		const bodies: LeagueEventBody[] = [
			{ type: 'league-configured', config },
			{ type: 'race-submitted', race: race('2024-05-01', 'Ann', 'Bob', 'Cy') },
			{ type: 'race-submitted', race: race('2024-05-08', 'Bob', 'Cy', 'Dee') },
			{ type: 'race-voided', race: 'R1', reason: 'wrong track' },
			{ type: 'race-restored', race: 'R1', reason: 'right after all' },
			{ type: 'race-edited', race: 'R2', reason: 'order', changes: race('2024-05-08', 'Cy', 'Bob', 'Dee') },
			{ type: 'penalty-given', race: 'R2', player: 'Cy', kind: 'time', seconds: 5, reason: 'track limits' },
			{ type: 'players-merged', from: 'Dee', into: 'Ann' },
		];
		bodies.forEach((body, seq) => log.apply({ ...body, by: 'u1', at: '2024-05-09T10:00:00.000Z', seq }));
		return log;
	};

	it('after submissions, a void and a restore, an edit, a time penalty and a merge', () => {
		const log = history();
		expect(log.races().map((r) => [r.id, isPacked(r)])).toEqual([
			['R1', true],
			['R2', true],
		]);
		expect(log.race('R2')!.entries.map((e) => [log.resolve(e.player)!.name, e.position, e.time])).toEqual([
			['Bob', 1, 60 + 1 / 3],
			['Ann', 2, 60 + 2 / 3],
			['Cy', 3, 60 + 5],
		]);
		expect(log.ratedRaces().every((r) => isPacked(r.race))).toBe(true);
	});

	it('an imported history is packed, as each of its races is planned', () => {
		const log = createLeagueLog();
		log.apply({ type: 'league-configured', config, by: 'u1', at: '2024-05-09T10:00:00.000Z', seq: 0 });
		const races = [race('2024-05-01', 'Ann', 'Bob'), race('2024-05-08', 'Bob', 'Cy')];
		log.apply({ type: 'league-imported', races, source: 'test', by: 'u1', at: '2024-05-09T10:00:00.000Z', seq: 1 });
		expect(log.races().map(isPacked)).toEqual([true, true]);
		expect(log.race('R2')!.entries.map((e) => [log.resolve(e.player)!.name, e.position, e.time])).toEqual([
			['Bob', 1, 60],
			['Cy', 2, 60 + 1 / 3],
		]);
	});

	it('a snapshot written as JSON and read back folds into the same log, its races packed', () => {
		const log = history();
		const read = createLeagueLog(JSON.parse(JSON.stringify(log.snapshot())) as ReturnType<LeagueLog['snapshot']>);
		expect(read.snapshot()).toStrictEqual(log.snapshot());
		expect(seen(read.snapshot())).toBe(seen(log.snapshot()));
		expect(read.races().every(isPacked)).toBe(true);
	});
});
