/** Head-to-head records, counted by hand from the races below. */
import { describe, expect, it } from 'vitest';
import { headToHead } from '../../src/league/head-to-head.js';
import type { Race, RaceEntry } from '../../src/ratings/types.js';

const entry = (player: string, position: number, status: RaceEntry['status'] = 'finished'): RaceEntry => ({
	player,
	position,
	status,
});

const races: Race[] = [
	{ id: 'R1', date: '2026-01-01', entries: [entry('#1', 1), entry('#2', 2), entry('#3', 3)] }, // #1 ahead
	{ id: 'R2', date: '2026-01-08', entries: [entry('#2', 1), entry('#1', 2)] }, // #2 ahead
	{ id: 'R3', date: '2026-01-15', entries: [entry('#1', 1), entry('#3', 2)] }, // #2 absent
	{ id: 'R4', date: '2026-01-22', entries: [entry('#1', 1), entry('#2', 1), entry('#3', 3)] }, // tie
	{ id: 'R5', date: '2026-01-29', entries: [entry('#3', 1), entry('#2', 2), entry('#1', 3, 'DNF')] }, // #1 retired
	{ id: 'R6', date: '2026-02-05', entries: [entry('#1', 1), entry('#2', 2, 'DNS')] }, // #2 did not start
];

describe('headToHead', () => {
	it('counts wins, losses and ties in races both were rated in', () => {
		expect(headToHead(races, '#1', '#2')).toEqual({
			races: 4,
			wins: 1,
			losses: 2,
			ties: 1,
			last: { race: 'R5', date: '2026-01-29', outcome: 'lost' },
		});
		// The same record from the other side.
		expect(headToHead(races, '#2', '#1')).toMatchObject({ races: 4, wins: 2, losses: 1, ties: 1 });
	});

	it('follows the league’s reading of retirements: left out, a retirement is no race between them', () => {
		expect(headToHead(races, '#1', '#2', 'excluded')).toEqual({
			races: 3,
			wins: 1,
			losses: 1,
			ties: 1,
			last: { race: 'R4', date: '2026-01-22', outcome: 'tied' },
		});
	});

	it('is empty for players who never met', () => {
		expect(headToHead(races, '#1', '#9')).toEqual({ races: 0, wins: 0, losses: 0, ties: 0 });
	});
});
