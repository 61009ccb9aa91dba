import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import { ImportError } from '../../src/formats/import-table.js';
import { importZakstunts } from '../../src/formats/import-zakstunts.js';
import { rankRace } from '../../src/ratings/race.js';

const source = readFileSync(new URL('../fixtures/zakstunts/zakstunts-race-positions.csv', import.meta.url), 'utf8');

describe('importZakstunts on the real file (elo-zs exclusion rules, shared/data/zakstunts/PROVENANCE.md)', () => {
	const { races, notes } = importZakstunts(source);
	const entries = races.flatMap((race) => race.entries);

	it('keeps 293 races, 4052 entries and 249 racers', () => {
		expect(races).toHaveLength(293);
		expect(entries).toHaveLength(4052);
		expect(new Set(entries.map((e) => e.player)).size).toBe(249);
	});

	it('keeps the chronological file order C1..C14, P1, C15, P2, C16, P3, C17..C290, without dates', () => {
		expect(races.slice(13, 20).map((r) => r.id)).toEqual(['C14', 'P1', 'C15', 'P2', 'C16', 'P3', 'C17']);
		expect(races.at(-1)!.id).toBe('C290');
		expect(races.every((r) => r.date === undefined)).toBe(true);
	});

	it('drops ghosts and every non-empty Status except MSC, and notes each drop', () => {
		expect(notes).toContain('dropped 62 row(s): status EX2');
		expect(notes).toContain('dropped 116 row(s): status EX3');
		expect(notes.some((n) => n.includes('MSC'))).toBe(false);
		const dropped = notes.reduce((sum, note) => sum + Number(/dropped (\d+)/.exec(note)![1]), 0);
		expect(dropped).toBe(4387 - 4052);
	});

	it('keeps tied ranks as equal positions: 25 tie groups remain after filtering, field sizes 6..24', () => {
		let groups = 0;
		for (const race of races) {
			const ranks = rankRace(race).map((e) => e.rank);
			groups += new Set(ranks.filter((r, i) => ranks.indexOf(r) !== i)).size;
		}
		expect(groups).toBe(25);
		const sizes = races.map((r) => r.entries.length);
		expect(Math.min(...sizes)).toBe(6);
		expect(Math.max(...sizes)).toBe(24);
		expect(entries.some((e) => e.player === 'Böbszlee')).toBe(true);
	});

	it('equals the shipped sample league data/sample-league.csv', () => {
		const sample = readFileSync(new URL('../../data/sample-league.csv', import.meta.url), 'utf8');
		expect(sample).toBe(writeHistoryCsv(races));
		expect(parseHistoryCsv(sample)).toEqual(races);
	});

	it('rejects a file without the expected columns or with a non-contiguous track', () => {
		expect(() => importZakstunts('Track,Racer\nC1,A\n', 'z.csv')).toThrow(
			new ImportError('z.csv:1: missing column(s) Rank, Ghost, Status'),
		);
		expect(() => importZakstunts('Track,Racer,Rank,Ghost,Status\nC1,A,1,0,\nC2,A,1,0,\nC1,B,2,0,\n', 'z.csv')).toThrow(
			'z.csv:4: track C1 is not contiguous',
		);
	});
});
