import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import { importR4k, type R4kRaceFiles } from '../../src/formats/import-r4k.js';
import { ImportError } from '../../src/formats/import-table.js';
import { rankRace } from '../../src/ratings/race.js';

const dir = join(import.meta.dirname, '../fixtures/r4k');
const read = (folder: string, name: string): string | undefined => {
	try {
		return readFileSync(join(dir, folder, name), 'utf8');
	} catch {
		return undefined;
	}
};
const folders: R4kRaceFiles[] = readdirSync(dir, { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.map(({ name }) => ({ folder: name, scoreboard: read(name, 'thisrace.sb')!, config: read(name, 'thisrace.cfg') }));

describe('importR4k on the real files (elo-zs R4K/Results.hs reading, test/fixtures/r4k/PROVENANCE.md)', () => {
	const { races, notes } = importR4k(folders);
	const entries = races.flatMap((race) => race.entries);
	const race = (id: string) => races.find((r) => r.id === id)!;
	const field = (id: string) => race(id).entries.map((e) => [e.player, e.position, e.time]);

	it('reads 21 races 2017-01..2020-06 in folder order: 119 entries, 19 racers, 304 replays of which 133 compete', () => {
		expect(races.map((r) => r.id)).toEqual(folders.map((f) => f.folder).sort());
		expect(races[0]!.id).toBe('2017-01');
		expect(races.at(-1)!.id).toBe('2020-06');
		expect(entries).toHaveLength(119);
		expect(new Set(entries.map((e) => e.player)).size).toBe(19);
		expect(notes).toContain('dropped 133 replay(s) with a competing key');
		// 304 sections − 133 dropped = 171 kept replays for 119 (race, racer) pairs.
		expect(notes).toContain("kept each racer's best lap: 52 slower or repeated replay(s) set aside");
	});

	it('2019-03 by hand: Seeker1982 36.40 (best of his laps without a competing key), Overdrijf 36.75, … dreadnaut 39.63', () => {
		// thisrace.sb: Seeker1982 posted 3640 (kept), 3652 and 3661 (competing=no: dropped) and 3669 (kept, slower).
		expect(field('2019-03')).toEqual([
			['Seeker1982', 1, 36.4],
			['Overdrijf', 2, 36.75],
			['Duplode', 3, 37.29],
			['Cas', 4, 37.65],
			['KaoS', 5, 37.73],
			['dreadnaut', 6, 39.63],
		]);
		expect(race('2019-03').date).toBe('2019-05-26'); // deadline=2019-05-26 in thisrace.cfg
	});

	it('2017-01 by hand: two racers, Duplode 34.13 ahead of dreadnaut 34.20, dated by the deadline 2017-02-16', () => {
		expect(field('2017-01')).toEqual([
			['Duplode', 1, 34.13],
			['dreadnaut', 2, 34.2],
		]);
		expect(race('2017-01').date).toBe('2017-02-16');
	});

	it('equal laps tie: 2020-01 Seeker1982 and Duplode both 3658 share first place, and rankRace scores them as a tie (1.5 each)', () => {
		expect(field('2020-01').slice(0, 3)).toEqual([
			['Seeker1982', 1, 36.58],
			['Duplode', 1, 36.58],
			['Overdrijf', 3, 37.81],
		]);
		expect(
			rankRace(race('2020-01'))
				.map((e) => e.rank)
				.slice(0, 3),
		).toEqual([1.5, 1.5, 3]);
	});

	it('2020-05 and 2020-06 have no thisrace.cfg: dated by their latest posted replay, and noted', () => {
		expect(race('2020-05').date).toBe('2020-11-25');
		expect(race('2020-06').date).toBe('2020-12-25');
		expect(notes).toContain('2020-06: no thisrace.cfg, dated by its latest posted replay (2020-12-25)');
		expect(races.every((r, i) => i === 0 || r.date! >= races[i - 1]!.date!)).toBe(true);
		expect(race('2020-06').entries).toHaveLength(12);
	});

	it('every field is sorted by lap with positions from 1, and the history CSV reads back to the same races', () => {
		for (const r of races) {
			const times = r.entries.map((e) => e.time!);
			expect(times).toEqual([...times].sort((a, b) => a - b));
			expect(r.entries[0]!.position).toBe(1);
			expect(new Set(r.entries.map((e) => e.player)).size).toBe(r.entries.length);
		}
		expect(parseHistoryCsv(writeHistoryCsv(races))).toEqual(races);
	});

	it('does not depend on the order the folders are given in', () => {
		expect(importR4k([...folders].reverse())).toEqual(importR4k(folders));
	});
});

describe('importR4k on bad input', () => {
	it('names the file and line of a section without a lap, and a .cfg without a deadline', () => {
		expect(() => importR4k([{ folder: 'x', scoreboard: '[1]\nname=A\nlap=abc\n' }])).toThrow(
			new ImportError('x/thisrace.sb:1: expected a name and a lap in hundredths of a second (> 0)'),
		);
		expect(() => importR4k([{ folder: 'x', scoreboard: '[1]\nname=A\nlap=100\n', config: 'track=t\n' }])).toThrow(
			'x/thisrace.cfg: expected deadline=YYYY-MM-DD, got ""',
		);
		expect(() => importR4k([{ folder: 'x', scoreboard: '[1]\nname A\n' }])).toThrow(
			'x/thisrace.sb:2: expected [section] or key=value, got "name A"',
		);
	});

	it('skips a race whose every replay has a competing key, and notes it', () => {
		const { races, notes } = importR4k([{ folder: 'x', scoreboard: '[1]\nname=A\nlap=100\ncompeting=yes\n' }]);
		expect(races).toEqual([]);
		expect(notes).toContain('x: no competing replay, race skipped');
	});
});
