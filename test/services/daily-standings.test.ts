/** The daily standings records: once per league and day, backfilled after downtime, caches of a fresh computation. */
import { beforeEach, describe, expect, it } from 'vitest';
import { standingsAsOf } from '../../src/league/standings.js';
import { raceSystems } from '../../src/ratings/index.js';
import type { DailyStandings } from '../../src/storage/records.js';
import type { LeagueInfo } from '../../src/storage/ports.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { leagueParams } from '../support/league-params.js';
import { addRace, GUILD, member, organizer, world, type World } from './helpers.js';

let w: World;
let league: LeagueInfo;

/** Every system's standings of `day` computed from scratch from the league's log. */
async function fresh(day: string): Promise<DailyStandings['systems']> {
	const state = await w.repo.loadState(league.id);
	const races = state.ratedRaces().map((r) => r.race);
	return Object.fromEntries(
		raceSystems.map((system) => [system.id, standingsAsOf(system, leagueParams(system), races, day)]),
	);
}

const at = (iso: string) => {
	w.now.ms = Date.parse(iso);
	return new Date(w.now.ms);
};

beforeEach(async () => {
	w = world();
	league = await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko', timezone: 'Europe/Budapest' });
	at('2026-03-01T12:00:00Z');
	await addRace(w, '1. Alice 1:00.0\n2. Bob 1:01.0\n3. Carol 1:02.0');
	at('2026-03-03T12:00:00Z');
	await addRace(w, '1. Bob 1:00.0\n2. Carol 1:00.5\n3. Dave 1:03.0');
});

describe('the daily standings job', () => {
	it('writes each league’s day once, just after it ends at midnight in its time zone, equal to a fresh computation', async () => {
		// 23:30 on the 3rd in Budapest: the 2nd is over and due, the 3rd is not.
		expect(await w.services.daily.writeDue(at('2026-03-03T22:30:00Z'))).toEqual({ leagues: 1, written: 1 });
		expect((await w.repo.readDaily(league.id, ['2026-03-02']))[0]?.systems).toEqual(await fresh('2026-03-02'));
		expect(await w.services.daily.writeDue(at('2026-03-03T22:50:00Z'))).toEqual({ leagues: 1, written: 0 });
		expect(await w.repo.readDaily(league.id, ['2026-03-03'])).toEqual([undefined]);
		// 00:01 on the 4th in Budapest (UTC+1): the 3rd, with its race, is due.
		expect(await w.services.daily.writeDue(at('2026-03-03T23:01:00Z'))).toEqual({ leagues: 1, written: 1 });
		const [record] = await w.repo.readDaily(league.id, ['2026-03-03']);
		expect(record?.systems).toEqual(await fresh('2026-03-03'));
		expect(record?.systems['glicko']).toHaveLength(4);
		// Firing again the same day writes nothing.
		for (const time of ['2026-03-03T23:16:00Z', '2026-03-04T11:00:00Z', '2026-03-04T22:59:00Z']) {
			expect((await w.services.daily.writeDue(at(time))).written).toBe(0);
		}
	});

	it('after downtime, the next run fills every missed day, each equal to its own day’s computation', async () => {
		await w.services.daily.writeDue(at('2026-03-03T12:00:00Z'));
		at('2026-03-08T12:00:00Z');
		await addRace(w, '1. Carol\n2. Alice', undefined, '2026-03-06'); // confirmed during the downtime, dated back
		// The 3rd to the 11th: nine days, each as of itself.
		expect(await w.services.daily.writeDue(at('2026-03-12T12:00:00Z'))).toEqual({ leagues: 1, written: 9 });
		const days = ['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-11'];
		const records = await w.repo.readDaily(league.id, days);
		for (const [i, day] of days.entries()) expect(records[i]?.systems).toEqual(await fresh(day));
		// Idle growth shows day by day: Alice's Glicko RD rises from one record to the next while she is idle.
		const rd = (r: DailyStandings | undefined) => r!.systems['glicko']!.find((s) => s.player === '#1')!.uncertainty!;
		expect(rd(records[1])).toBeGreaterThan(rd(records[0]));
		expect(rd(records[4])).toBeGreaterThan(rd(records[3]));
	});

	it('/rating shows the same numbers before and after the job has run', async () => {
		at('2026-03-20T09:00:00Z');
		const before = await w.services.ratings.rating(member, { player: 'Alice' });
		await w.services.daily.writeDue(new Date(w.now.ms));
		expect(await w.services.ratings.rating(member, { player: 'Alice' })).toEqual(before);
		// The record of the 20th, written as that day ends, holds the numbers /rating showed on it.
		await w.services.daily.writeDue(at('2026-03-20T23:30:00Z'));
		const [record] = await w.repo.readDaily(league.id, ['2026-03-20']);
		const alice = record!.systems['glicko']!.find((s) => s.player === '#1')!;
		expect([alice.rating, alice.uncertainty, alice.provisional]).toEqual([
			before.summary!.rating,
			before.summary!.uncertainty,
			before.summary!.provisional,
		]);
	});

	it('a void reaching back makes later records stale: reads recompute them, equal to a fresh computation', async () => {
		await w.services.daily.writeDue(at('2026-03-03T12:00:00Z'));
		await w.services.daily.writeDue(at('2026-03-05T12:00:00Z'));
		const days = ['2026-03-02', '2026-03-03', '2026-03-04'];
		const stale = (await w.repo.readDaily(league.id, ['2026-03-04']))[0]!;
		await w.services.races.void(organizer, 'R1', 'wrong results');
		expect(await fresh('2026-03-04')).not.toEqual(stale.systems);
		const read = await w.services.daily.onDays(league, days);
		for (const day of days) expect(read.get(day)!.systems).toEqual(await fresh(day));
		// The cache now holds the recomputed record.
		expect((await w.repo.readDaily(league.id, ['2026-03-04']))[0]!.systems).toEqual(await fresh('2026-03-04'));
	});

	it('a race confirmed later but dated on or before a recorded day makes that record stale', async () => {
		await w.services.daily.writeDue(at('2026-03-06T12:00:00Z'));
		const kept = (await w.repo.readDaily(league.id, ['2026-03-05']))[0]!;
		await addRace(w, '1. Dave\n2. Alice', undefined, '2026-03-07'); // after the 5th: the 5th stays valid
		expect((await w.services.daily.onDays(league, ['2026-03-05'])).get('2026-03-05')).toEqual(kept);
		await addRace(w, '1. Dave\n2. Alice', undefined, '2026-03-04');
		const redone = (await w.services.daily.onDays(league, ['2026-03-05'])).get('2026-03-05')!;
		expect(redone.systems).toEqual(await fresh('2026-03-05'));
		expect(redone.systems).not.toEqual(kept.systems);
	});

	it('visits the leagues of the servers the bot is in, also in a store written before the list of servers existed', async () => {
		const store = createMemoryStore();
		const repo = createLeagueRepository(store, { clock: () => new Date(w.now.ms) });
		const services = createServices(repo, { clock: () => new Date(w.now.ms) });
		const old = await services.leagues.create(organizer, { name: 'Old Cup' });
		// As an issue-4 store has it: no list of servers (a list of one key per entry, `*:0` …).
		await store.namespace('guilds').delete('*:0');
		const now = at('2026-03-05T12:00:00Z');
		expect(await services.daily.writeDue(now)).toEqual({ leagues: 0, written: 0 });
		expect(await services.daily.writeDue(now, [GUILD])).toEqual({ leagues: 1, written: 1 });
		expect(await repo.readDaily(old.id, ['2026-03-04'])).not.toEqual([undefined]);
	});
});
