import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import { importErgast } from '../../src/formats/import-ergast.js';

/** The Ergast dump has no redistribution licence: it is read from ../shared/data/f1 beside the repository. */
const dir = join(import.meta.dirname, '../../../shared/data/f1');
const present = existsSync(join(dir, 'results.csv'));
const files = present
	? {
			races: readFileSync(join(dir, 'races.csv'), 'utf8'),
			results: readFileSync(join(dir, 'results.csv'), 'utf8'),
			drivers: readFileSync(join(dir, 'drivers.csv'), 'utf8'),
		}
	: undefined;

describe('importErgast on the real dump (shared/data/f1/PROVENANCE.md)', () => {
	it.skipIf(!present)(
		'1970-2021: 873 races, 21,280 result rows minus the raceId 540 duplicate [needs ../shared/data/f1]',
		() => {
			const { races, notes } = importErgast(files!, { from: 1970, to: 2021 });
			expect(races).toHaveLength(873);
			expect(races.reduce((n, r) => n + r.entries.length, 0)).toBe(21_280 - 1);
			expect(notes).toEqual([
				'raceId 540 (1978-14 Italian Grand Prix): Harald Ertl entered twice; kept positionOrder 26, dropped 29',
			]);
			expect(races[0]!.id).toBe('1970-01 South African Grand Prix');
			expect(races[0]!.date).toBe('1970-03-07');
			expect(races.at(-1)!.id).toBe('2021-22 Abu Dhabi Grand Prix');
			for (let i = 1; i < races.length; i++) expect(races[i]!.date! >= races[i - 1]!.date!).toBe(true);
			// the history CSV accepts the result (dates in order, contiguous races, no duplicate players)
			expect(parseHistoryCsv(writeHistoryCsv(races))).toEqual(races);
		},
	);

	it.skipIf(!present)(
		'orders by positionOrder and marks non-classified entries DNF below the classified ones [needs ../shared/data/f1]',
		() => {
			const { races } = importErgast(files!, { from: 2019, to: 2019 });
			expect(races).toHaveLength(21);
			const australia = races[0]!;
			expect(australia.id).toBe('2019-01 Australian Grand Prix');
			expect(australia.entries.slice(0, 3).map((e) => [e.player, e.position, e.status])).toEqual([
				['Valtteri Bottas', 1, 'finished'],
				['Lewis Hamilton', 2, 'finished'],
				['Max Verstappen', 3, 'finished'],
			]);
			expect(australia.entries.map((e) => e.position)).toEqual(australia.entries.map((_, i) => i + 1));
			for (const race of races) {
				const firstDnf = race.entries.findIndex((e) => e.status === 'DNF');
				if (firstDnf >= 0) expect(race.entries.slice(firstDnf).every((e) => e.status === 'DNF')).toBe(true);
			}
			expect(australia.entries[0]!.time).toBe(5127.325);
		},
	);
});

describe('importErgast on a small hand-made dump', () => {
	const races =
		'raceId,year,round,circuitId,name,date\n2,2001,2,1,"B GP","2001-04-01",\\N\n1,2001,1,1,"A GP","2001-03-01"\n3,2002,1,1,"C GP","2002-03-01"\n';
	const drivers =
		'driverId,driverRef,number,code,forename,surname\n1,"smith_a",\\N,\\N,"John","Smith"\n2,"smith_b",\\N,\\N,"John","Smith"\n3,"doe",\\N,\\N,"Jane","Doe"\n';
	const results =
		'resultId,raceId,driverId,positionText,positionOrder,milliseconds\n' +
		'1,1,3,"R",3,\\N\n2,1,1,"1",1,100000\n3,1,2,"2",2,\\N\n4,2,3,"1",1,\\N\n5,2,1,"F",2,\\N\n6,2,1,"F",3,\\N\n';

	it('disambiguates shared names with driverRef, orders races by date and keeps the better duplicate entry', () => {
		const { races: imported, notes } = importErgast({ races, results, drivers });
		expect(imported).toEqual([
			{
				id: '2001-01 A GP',
				date: '2001-03-01',
				entries: [
					{ player: 'John Smith (smith_a)', position: 1, time: 100, status: 'finished' },
					{ player: 'John Smith (smith_b)', position: 2, status: 'finished' },
					{ player: 'Jane Doe', position: 3, status: 'DNF' },
				],
			},
			{
				id: '2001-02 B GP',
				date: '2001-04-01',
				entries: [
					{ player: 'Jane Doe', position: 1, status: 'finished' },
					{ player: 'John Smith (smith_a)', position: 2, status: 'DNF' },
				],
			},
		]);
		expect(notes).toEqual([
			'raceId 2 (2001-02 B GP): John Smith (smith_a) entered twice; kept positionOrder 2, dropped 3',
		]);
	});

	it('filters seasons with from/to', () => {
		expect(importErgast({ races, results, drivers }, { from: 2002 }).races).toEqual([]);
		expect(importErgast({ races, results, drivers }, { to: 2001 }).races.map((r) => r.id)).toEqual([
			'2001-01 A GP',
			'2001-02 B GP',
		]);
	});
});
