/**
 * The championship through the services (standings-service.ts): the table of a season, penalties previewed and
 * confirmed, withdrawn, teams; numbers counted by hand, ratings compared with a league that never had the penalty.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportLeague } from '../../src/formats/league-export.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { addRace, eventCount, member, organizer, world, type World } from './helpers.js';

async function league(w: World = world()) {
	const info = await w.services.leagues.create(organizer, { name: 'Kart' });
	await w.services.leagues.configure(organizer, undefined, { points: '10,6,4,3' });
	// Times: Ann 100 s, Bob 102 s, Cy 104.5 s, Dan 110 s.
	await addRace(w, '1. Ann 1:40.000\n2. Bob 1:42.000\n3. Cy 1:44.500\n4. Dan 1:50.000', undefined, '2026-02-01');
	await addRace(w, '1. Bob\n2. Cy\n3. Ann\n4. Dan', undefined, '2026-02-08');
	return { w, id: info.id };
}

const rows = (table: { drivers: readonly { place: number; name: string; points: number }[] }) =>
	table.drivers.map((r) => `${r.place} ${r.name} ${r.points}`);

describe('the season’s table', () => {
	it('of a league whose races carry no dates: its whole history, as one table', async () => {
		const w = world();
		const info = await w.services.leagues.create(organizer, { name: 'Undated' });
		await w.services.leagues.configure(organizer, undefined, { points: '10,6,4,3' });
		const entry = (player: string, position: number) => ({ player, position, status: 'finished' as const });
		await w.repo.appendEvent(info.id, {
			type: 'league-imported',
			source: 'test',
			by: organizer.userId,
			races: [
				{ entries: [entry('Ann', 1), entry('Bob', 2), entry('Cy', 3)] },
				{ entries: [entry('Cy', 1), entry('Ann', 2), entry('Bob', 3)] },
			],
		});
		const table = await w.services.standings.table(member, {});
		expect(table.season.name).toBe('All races (undated)');
		expect(table.races).toBe(2);
		// Ann 10 + 6, Cy 4 + 10, Bob 6 + 4.
		expect(rows(table)).toEqual(['1 Ann 16', '2 Cy 14', '3 Bob 10']);
	});


	it('counts the season’s races by the league’s points, with each driver’s headline rating beside', async () => {
		const { w } = await league();
		const table = await w.services.standings.table(member, {});
		expect(table.season.name).toBe('2026');
		expect(table.pointsText).toBe('10,6,4,3');
		// Ann 10 + 4, Bob 6 + 10, Cy 4 + 6, Dan 3 + 3.
		expect(rows(table)).toEqual(['1 Bob 16', '2 Ann 14', '3 Cy 10', '4 Dan 6']);
		const board = await w.services.leaderboard.page(member, {});
		const bob = board.rows.find((r) => r.name === 'Bob')!;
		expect(table.drivers[0]!.rating).toBe(bob.rating); // glicko: shown as computed
		await expect(w.services.standings.table(member, { season: '2019' })).rejects.toThrow(
			'**Kart** has no season "2019": its seasons are 2026.',
		);
	});
});

describe('a time penalty', () => {
	it('is previewed (the new order, who moves), stored on Confirm, and rates as the race in that order would', async () => {
		const { w, id } = await league();
		const before = (await w.repo.ratingsAt(id, 'glicko')).standings;
		const events = await eventCount(w, id);
		const given = await w.services.standings.penalize(organizer, {
			race: 'R1',
			player: 'Ann',
			seconds: 5,
			reason: 'track limits',
		});
		if (!('preview' in given)) throw new Error('a time penalty is previewed');
		const { preview } = given;
		// Ann 105 s: past Bob (102) and Cy (104.5), not Dan (110).
		expect(preview.after.map((l) => `${l.position} ${l.name}`)).toEqual(['1 Bob', '2 Cy', '3 Ann', '4 Dan']);
		expect(preview.moves).toEqual([
			{ name: 'Bob', from: 2, to: 1 },
			{ name: 'Cy', from: 3, to: 2 },
			{ name: 'Ann', from: 1, to: 3 },
		]);
		expect(preview.effect.focus.map((m) => m.name).sort()).toEqual(['Ann', 'Bob', 'Cy', 'Dan']);
		expect(await eventCount(w, id)).toBe(events); // nothing stored yet
		await expect(w.services.standings.confirmPenalty(member, preview.id)).rejects.toThrow('Only league organizers');
		const done = await w.services.standings.confirmPenalty(organizer, preview.id);
		expect(done).toMatchObject({ already: false, name: 'Ann', penalty: { id: 'P1', kind: 'time', seconds: 5 } });
		expect((await w.services.standings.confirmPenalty(organizer, preview.id)).already).toBe(true);
		expect(await eventCount(w, id)).toBe(events + 1);

		// The same league with R1 submitted in the penalised order from the start: the same ratings.
		const other = world();
		await other.services.leagues.create(organizer, { name: 'Kart' });
		await other.services.leagues.configure(organizer, undefined, { points: '10,6,4,3' });
		await addRace(other, '1. Ann 1:40.000\n2. Bob 1:42.000\n3. Cy 1:44.500\n4. Dan 1:50.000', undefined, '2026-02-01');
		await addRace(other, '1. Bob\n2. Cy\n3. Ann\n4. Dan', undefined, '2026-02-08');
		const otherId = (await other.services.leagues.resolve(organizer, undefined)).id;
		const state = await w.repo.loadState(id);
		await other.repo.appendEvent(otherId, {
			type: 'race-edited',
			race: 'R1',
			reason: 'as penalised',
			changes: { date: '2026-02-01', entries: state.race('R1')!.entries },
			by: organizer.userId,
		});
		for (const system of ['glicko', 'folyami', 'endure', 'stk']) {
			const penalised = (await w.repo.ratingsAt(id, system)).standings;
			expect(penalised, system).toEqual((await other.repo.ratingsAt(otherId, system)).standings);
		}
		expect((await w.repo.ratingsAt(id, 'glicko')).standings).not.toEqual(before);
		// The table: R1 now Bob 10, Cy 6, Ann 4, Dan 3; R2 as before.
		expect(rows(await w.services.standings.table(member, {}))).toEqual(['1 Bob 20', '2 Cy 12', '3 Ann 8', '4 Dan 6']);

		// Withdrawn: exactly the ratings before it, every system.
		await w.services.standings.withdraw(organizer, { penalty: 'p1', reason: 'review: no advantage' });
		expect((await w.repo.ratingsAt(id, 'glicko')).standings).toEqual(before);
		expect(rows(await w.services.standings.table(member, {}))).toEqual(['1 Bob 16', '2 Ann 14', '3 Cy 10', '4 Dan 6']);
		const shown = await w.services.races.show(member, 'R1');
		expect(shown.race.edits.map((e) => e.kind)).toEqual(['penalty', 'penalty-withdrawn']);
	});

	it('is refused, nothing stored, for a racer without a time, both amounts, a member', async () => {
		const { w, id } = await league();
		const events = await eventCount(w, id);
		const give = (input: Partial<Parameters<typeof w.services.standings.penalize>[1]>, who = organizer) =>
			w.services.standings.penalize(who, { race: 'R2', player: 'Bob', reason: 'x', ...input });
		await expect(give({ seconds: 5 })).rejects.toThrow(
			'R2 has no finish time for Bob: a time penalty adds seconds to a finish time',
		);
		await expect(give({ seconds: 5, points: 2 })).rejects.toThrow('Give either seconds:');
		await expect(give({ points: 2 }, member)).rejects.toThrow('Only league organizers');
		await expect(give({ points: 2, player: 'Nobody' })).rejects.toThrow('There is no player "Nobody" in Kart.');
		await expect(give({ points: 2, race: 'R9' })).rejects.toThrow('Unknown race R9.');
		expect(await eventCount(w, id)).toBe(events);
	});
});

describe('a points deduction', () => {
	it('is stored at once and changes only the table; withdrawn, the table is as before', async () => {
		const { w, id } = await league();
		const before = (await w.repo.ratingsAt(id, 'glicko')).standings;
		const result = await w.services.standings.penalize(organizer, {
			race: 'R2',
			player: 'Bob',
			points: 7,
			reason: 'unsafe rejoin',
		});
		expect(result).toMatchObject({ given: { penalty: { id: 'P1', kind: 'points', points: 7 }, name: 'Bob' } });
		expect((await w.repo.ratingsAt(id, 'glicko')).standings).toEqual(before);
		const table = await w.services.standings.table(member, {});
		// Bob 16 - 7 = 9, behind Cy's 10.
		expect(rows(table)).toEqual(['1 Ann 14', '2 Cy 10', '3 Bob 9', '4 Dan 6']);
		expect(table.penalties.map((p) => p.id)).toEqual(['P1']);
		await expect(w.services.standings.withdraw(member, { penalty: 'P1', reason: 'x' })).rejects.toThrow(
			'Only league organizers',
		);
		await expect(w.services.standings.withdraw(organizer, { penalty: 'P7', reason: 'x' })).rejects.toThrow(
			'There is no penalty P7 in Kart: those in force are P1.',
		);
		await w.services.standings.withdraw(organizer, { penalty: 'P1', reason: 'appeal' });
		expect(rows(await w.services.standings.table(member, {}))).toEqual(['1 Bob 16', '2 Ann 14', '3 Cy 10', '4 Dan 6']);
	});
});

describe('teams', () => {
	it('/player team puts a driver’s points in the teams’ table', async () => {
		const { w } = await league();
		await w.services.standings.setTeam(organizer, { player: 'Ann', team: 'Red' });
		await w.services.standings.setTeam(organizer, { player: 'Cy', team: 'Red' });
		await w.services.standings.setTeam(organizer, { player: 'Bob', team: 'Blue' });
		await expect(w.services.standings.setTeam(member, { player: 'Dan', team: 'Blue' })).rejects.toThrow(
			'Only league organizers',
		);
		const table = await w.services.standings.table(member, {});
		// Red: Ann 14 + Cy 10 = 24; Blue: Bob 16. The teams were set after both races: the first team counts back.
		expect(table.teams.map((t) => `${t.place} ${t.team} ${t.points} ${t.drivers.join('+')}`)).toEqual([
			'1 Red 24 Ann+Cy',
			'2 Blue 16 Bob',
		]);
	});
});

describe('teams from a result file', () => {
	it('stores each racer’s team from the file, counts it in the teams’ table, and exports it', async () => {
		const w = world();
		const info = await w.services.leagues.create(organizer, { name: 'Endurance' });
		const bytes = readFileSync(
			join(import.meta.dirname, '../fixtures/results/StefanMcCready-rf2-session-parser/race-example.xml'),
		);
		const preview = await w.services.races.submit(organizer, { file: { name: 'race.xml', bytes }, date: '2026-02-01' });
		await w.services.races.confirm(organizer, preview.id);
		const state = await w.repo.loadState(info.id);
		const entries = state.race('R1')!.entries;
		const teams = entries.map((e) => e.team);
		expect(teams.filter((t) => t !== undefined).length).toBeGreaterThan(0);
		const table = await w.services.standings.table(member, {});
		// Each team's points are its drivers' points in the race, every driver's team as the file gives it.
		for (const team of table.teams) {
			const drivers = table.drivers.filter((d) => d.results[0]?.team?.toLowerCase() === team.team.toLowerCase());
			expect(team.points, team.team).toBe(drivers.reduce((sum, d) => sum + d.points, 0));
		}
		// The export writes the team column, and reads back with the same teams.
		const exported = parseHistoryCsv(exportLeague(state).history);
		expect(exported[0]!.entries.map((e) => e.team)).toEqual(teams);
	});
});
