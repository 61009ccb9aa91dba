import { describe, expect, it } from 'vitest';
import { addRace, eventCount, member, organizer, roleOrganizer, ROLE, world } from './helpers.js';

/** `/season` and the season settings through the services: who may, what is refused, what is stored. */

describe('season service', () => {
	it('start and end are organizers’ (Manage Server or the organizer role); a refusal stores nothing', async () => {
		const w = world(); // clock: 2026-03-01
		const league = await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await w.services.leagues.configure(organizer, undefined, { organizerRole: { id: ROLE, managed: false } });
		const before = await eventCount(w, league.id);
		await expect(w.services.seasons.start(member, { name: 'Spring' })).rejects.toThrow(/^Only league organizers/);
		await expect(w.services.seasons.end(member, {})).rejects.toThrow(/^Only league organizers/);
		expect(await eventCount(w, league.id)).toBe(before);
		// No date: today in the league's time zone.
		const started = await w.services.seasons.start(roleOrganizer, { name: 'Spring', races: 10 });
		expect(started.season).toEqual({ name: 'Spring', start: '2026-03-01', plannedRaces: 10, implicit: false });
		expect(started.carryOver).toEqual({ mode: 'carry', yearly: false });
		await expect(w.services.seasons.start(organizer, { name: 'Later', date: '1 May' })).rejects.toThrow(
			'The start date "1 May" is not a date. Dates are written YYYY-MM-DD (year, month, day), like 2026-03-01. Nothing was stored.',
		);
		await expect(w.services.seasons.end(organizer, { date: '2026-02-28' })).rejects.toThrow(
			'Spring started on 2026-03-01: it cannot end before that day.',
		);
		expect(await eventCount(w, league.id)).toBe(before + 1);
		const ended = await w.services.seasons.end(organizer, { date: '2026-03-31' });
		expect(ended.season.end).toBe('2026-03-31');
		await expect(w.services.seasons.end(organizer, {})).rejects.toThrow('No season is open: /season start begins one.');
	});

	it('an end leaves the races dated after it in no season, and says how many', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await w.services.seasons.start(organizer, { name: 'Winter', date: '2026-01-01' });
		await addRace(w, '1. Ann\n2. Bob', undefined, '2026-01-10');
		await addRace(w, '1. Bob\n2. Ann', undefined, '2026-02-10');
		const ended = await w.services.seasons.end(organizer, { date: '2026-01-31' });
		expect([ended.races, ended.racesAfter]).toEqual([1, 1]);
		const listing = await w.services.seasons.list(member, {});
		expect(listing.seasons.map((s) => [s.season.name, s.races, s.status])).toEqual([['Winter', 1, 'ended']]);
	});

	it('/league config season-reset: and season-share: are checked', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		const configure = (input: { seasonReset?: 'carry' | 'restart' | 'soft'; seasonShare?: number }) =>
			w.services.leagues.configure(organizer, undefined, input);
		await expect(configure({ seasonReset: 'soft' })).rejects.toThrow('A soft season reset needs season-share');
		await expect(configure({ seasonReset: 'restart', seasonShare: 30 })).rejects.toThrow(
			'The season share goes with season-reset:soft',
		);
		await expect(configure({ seasonReset: 'soft', seasonShare: 130 })).rejects.toThrow(
			'The season share is a percentage from 0 to 100, not 130.',
		);
		expect((await configure({ seasonReset: 'soft', seasonShare: 30 })).config.seasonReset).toEqual({
			mode: 'soft',
			share: 0.3,
		});
		// A new share alone keeps the soft reset; carry is the default, stored as no setting.
		expect((await configure({ seasonShare: 12.5 })).config.seasonReset).toEqual({ mode: 'soft', share: 0.125 });
		expect((await configure({ seasonReset: 'restart' })).config.seasonReset).toEqual({ mode: 'restart' });
		expect((await configure({ seasonReset: 'carry' })).config.seasonReset).toBeUndefined();
	});

	it('/leaderboard season: refuses an unknown or upcoming season, naming the league’s seasons', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await addRace(w, '1. Ann\n2. Bob', undefined, '2025-06-10');
		await expect(w.services.leaderboard.page(member, { season: '2024' })).rejects.toThrow(
			'**Cup** has no season "2024". Its seasons: **2025** (/season list).',
		);
		const year = await w.services.leaderboard.page(member, { season: '2025' });
		expect(year.asOf).toBe('2025-12-31');
		await w.services.seasons.start(organizer, { name: 'Next', date: '2026-04-01' });
		await expect(w.services.leaderboard.page(member, { season: 'next' })).rejects.toThrow(
			'The season **Next** starts on 2026-04-01: it has no leaderboard yet.',
		);
	});
});
