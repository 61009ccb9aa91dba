import { describe, expect, it } from 'vitest';
import { championship, resultPoints, type PointsDeduction } from '../../src/league/championship.js';
import type { Race, RaceEntry } from '../../src/ratings/types.js';

/** Championship tables counted by hand (docs/championship.md). */

const fin = (player: string, position: number, team?: string): RaceEntry => ({
	player,
	position,
	status: 'finished',
	...(team !== undefined && { team }),
});
const out = (player: string, position: number, status: RaceEntry['status']): RaceEntry => ({
	player,
	position,
	status,
});
const race = (id: string, entries: RaceEntry[]): Race => ({ id, entries });

// Points 10-6-4-3. Per driver, per race:
//   A: 10, 6, 6       B: 6, 10, 4       C: 4, DNS, 10       D: DNF (0), 4, 3
const season: Race[] = [
	race('R1', [fin('A', 1), fin('B', 2), fin('C', 3), out('D', 4, 'DNF')]),
	race('R2', [fin('B', 1), fin('A', 2), out('C', 3, 'DNS'), fin('D', 3)]),
	race('R3', [fin('C', 1), fin('A', 2), fin('B', 3), fin('D', 4)]),
];
const points = [10, 6, 4, 3];

const summary = (rows: readonly { player: string; place: number; points: number; shared: boolean }[]) =>
	rows.map((r) => `${r.place}${r.shared ? '=' : ''} ${r.player} ${r.points}`);

describe('championship: the drivers’ table', () => {
	it('reads a result as the forecast does: a finisher scores the table’s points, a DNF 0, DNS and DSQ are none', () => {
		expect(resultPoints(fin('A', 2), points)).toBe(6);
		expect(resultPoints(fin('A', 9), points)).toBe(0); // beyond the table
		expect(resultPoints(out('A', 1, 'DNF'), points)).toBe(0);
		expect(resultPoints(out('A', 1, 'DNS'), points)).toBeUndefined();
		expect(resultPoints(out('A', 1, 'DSQ'), points)).toBeUndefined();
	});

	it('counts every result without dropped results', () => {
		const table = championship({ races: season, points });
		// A 22, B 20, C 14, D 7.
		expect(summary(table.drivers)).toEqual(['1 A 22', '2 B 20', '3 C 14', '4 D 7']);
		const c = table.drivers.find((r) => r.player === 'C')!;
		expect([c.races, c.wins, c.podiums]).toEqual([2, 1, 2]); // the DNS is no race entered
		const d = table.drivers.find((r) => r.player === 'D')!;
		expect([d.races, d.wins, d.podiums]).toEqual([3, 0, 1]); // the DNF is a race entered
	});

	it('keeps each driver’s best 2 results, shows the dropped ones, and breaks a tie on points by count-back', () => {
		const table = championship({ races: season, points, bestResults: 2 });
		// A: 10 + 6 (R2's 6 kept, R3's equal 6 dropped: the later one) = 16.  B: 10 + 6 = 16 (R3's 4 dropped).
		// C: 4 + 10 = 14 (two results, nothing dropped).  D: 4 + 3 = 7 (the DNF's 0 dropped).
		// A and B: one win each; A has two second places, B one: A ahead (count-back reads dropped results too).
		expect(summary(table.drivers)).toEqual(['1 A 16', '2 B 16', '3 C 14', '4 D 7']);
		const a = table.drivers[0]!;
		expect(a.results.map((r) => `${r.race}:${r.points}${r.dropped ? ' dropped' : ''}`)).toEqual([
			'R1:10',
			'R2:6',
			'R3:6 dropped',
		]);
		expect([a.counted, a.droppedPoints, a.wins, a.podiums]).toEqual([16, 6, 1, 3]);
		expect(table.drivers[1]!.droppedPoints).toBe(4);
		expect(table.drivers[3]!.results.filter((r) => r.dropped).map((r) => r.race)).toEqual(['R1']);
	});

	it('shares the place of drivers equal on points and on every place count (1, 1, 3)', () => {
		const even = [
			race('R1', [fin('A', 1), fin('B', 2), fin('C', 3)]),
			race('R2', [fin('B', 1), fin('A', 2), fin('C', 3)]),
		];
		const table = championship({ races: even, points: [10, 6] });
		// A and B: 16 each, one win and one second each. C: 0 (third place scores nothing here).
		expect(summary(table.drivers)).toEqual(['1= A 16', '1= B 16', '3 C 0']);
	});

	it('takes a points deduction off the total after the drops, and ignores one of a race not in the list', () => {
		const deductions: PointsDeduction[] = [
			{ id: 'P1', race: 'R2', player: 'B', points: 3, reason: 'unsafe rejoin' },
			{ id: 'P2', race: 'R9', player: 'A', points: 50, reason: 'another season' },
		];
		const table = championship({ races: season, points, bestResults: 2, deductions });
		// B: 16 - 3 = 13, now behind C's 14.
		expect(summary(table.drivers)).toEqual(['1 A 16', '2 C 14', '3 B 13', '4 D 7']);
		const b = table.drivers.find((r) => r.player === 'B')!;
		expect([b.counted, b.deducted, b.points]).toEqual([16, 3, 13]);
		expect(b.deductions.map((d) => d.id)).toEqual(['P1']);
	});

	it('lists a driver penalised without a result in the races, below zero if it comes to that', () => {
		const deductions: PointsDeduction[] = [{ id: 'P1', race: 'R2', player: 'C', points: 20, reason: 'x' }];
		const table = championship({ races: season, points, deductions });
		expect(table.drivers.find((r) => r.player === 'C')!.points).toBe(-6); // 14 - 20
	});
});

describe('championship: the teams’ table', () => {
	it('sums the team’s drivers’ points per race: the entry’s team, else the driver’s team then', () => {
		// R1: A 10 (entry: Red), B 6 (Blue by teamOf), C 4 (entry: "RED", the same team), D 3 (no team).
		// R2: B 10 (entry: Red: B drove for Red that day), A 6 (Red by teamOf), D 4 (no team), C DNF 0 (Red).
		const races = [
			race('R1', [fin('A', 1, 'Red'), fin('B', 2), fin('C', 3, 'RED'), fin('D', 4)]),
			race('R2', [fin('B', 1, 'Red'), fin('A', 2), fin('D', 3), out('C', 4, 'DNF')]),
		];
		const teamOf = (player: string) => ({ A: 'Red', B: 'Blue', C: 'Red' })[player];
		const deductions: PointsDeduction[] = [{ id: 'P1', race: 'R2', player: 'A', points: 2, reason: 'x' }];
		const table = championship({ races, points, teamOf, deductions });
		// Red: R1 10 + 4 = 14, R2 10 + 6 + 0 = 16, less A's 2 = 28. Blue: R1 6 = 6.
		expect(table.teams.map((t) => `${t.place} ${t.team} ${t.points}`)).toEqual(['1 Red 28', '2 Blue 6']);
		const red = table.teams[0]!;
		expect(red.perRace).toEqual([14, 16]);
		expect([red.deducted, red.wins, red.podiums]).toEqual([2, 2, 4]);
		expect(red.drivers).toEqual(['A', 'B', 'C']); // 16, 10, 4 points for Red
		expect(table.teams[1]!.perRace).toEqual([6, 0]);
		// A driver's team in the table: the latest result's.
		expect(table.drivers.find((r) => r.player === 'B')!.team).toBe('Red');
		expect(table.drivers.find((r) => r.player === 'D')!.team).toBeUndefined();
	});

	it('has no teams’ table when no result has a team', () => {
		expect(championship({ races: season, points }).teams).toEqual([]);
	});
});
