/**
 * `/league delete` and `/league undelete` at the service level: previewed with the export, Manage Server only, hidden
 * everywhere once confirmed (lists, commands, the log's other changes, the inbox), a Confirm pressed twice stores one
 * event, and undelete gives back the same league, races and ratings.
 */
import { describe, expect, it } from 'vitest';
import { addRace, eventCount, member, organizer, roleOrganizer, ROLE, world, GUILD } from './helpers.js';

async function leagueWithRaces() {
	const w = world();
	const league = await w.services.leagues.create(organizer, {
		name: 'Sun Cup',
		organizerRole: { id: ROLE, managed: false },
	});
	await addRace(w, '1. Ann\n2. Bob\n3. Cy', undefined, '2026-02-20');
	await addRace(w, '1. Bob\n2. Ann', undefined, '2026-02-27');
	return { w, league };
}

describe('league delete', () => {
	it('previews with the export attached; only Manage Server may delete; Cancel stores nothing', async () => {
		const { w, league } = await leagueWithRaces();
		await expect(w.services.deletion.preview(roleOrganizer, undefined)).rejects.toThrow(/Manage Server/);
		await expect(w.services.deletion.preview(member, undefined)).rejects.toThrow(/Manage Server/);
		const preview = await w.services.deletion.preview(organizer, undefined);
		expect(preview.league.id).toBe(league.id);
		expect(preview.players).toBe(3);
		expect(preview.export.races).toBe(2);
		expect(preview.export.history.split('\n')[0]).toContain('race');
		const before = await eventCount(w, league.id);
		await w.services.deletion.cancel(organizer, preview.id);
		expect(await eventCount(w, league.id)).toBe(before);
		await expect(w.services.deletion.confirm(organizer, preview.id)).rejects.toThrow(/expired or was already handled/);
		expect((await w.services.leagues.list(GUILD)).map((l) => l.id)).toEqual([league.id]);
	});

	it('hides the league once confirmed; a second Confirm stores nothing; undelete brings the same ratings back', async () => {
		const { w, league } = await leagueWithRaces();
		const ratingsBefore = await w.services.ratings.rating(organizer, { player: 'Ann' });
		const preview = await w.services.deletion.preview(organizer, 'Sun Cup');
		const first = await w.services.deletion.confirm(organizer, preview.id);
		expect(first.already).toBe(false);
		expect(first.league.config.deleted).toMatchObject({ by: organizer.userId });
		const events = await eventCount(w, league.id);
		// The preview was handled: a second press is answered as expired, and nothing more is stored.
		await expect(w.services.deletion.confirm(organizer, preview.id)).rejects.toThrow(/already handled/);
		expect(await eventCount(w, league.id)).toBe(events);

		expect(await w.services.leagues.list(GUILD)).toEqual([]);
		expect(await w.repo.listAllLeagues()).toEqual([]);
		await expect(w.services.ratings.rating(organizer, { player: 'Ann' })).rejects.toThrow(/has no league yet/);
		await expect(w.services.races.submit(organizer, { text: '1. Ann\n2. Bob', league: 'Sun Cup' })).rejects.toThrow(
			/There is no league "Sun Cup"/,
		);
		// The log itself refuses any other change while deleted, whoever asks.
		await expect(
			w.repo.appendEvent(league.id, { type: 'player-renamed', player: '#1', name: 'Anna', by: 'cli' }),
		).rejects.toThrow('the league Sun Cup was deleted: /league undelete brings it back');
		// Its name cannot be taken by a new league while it can come back, and the refusal says why.
		await expect(w.services.leagues.create(organizer, { name: 'Sun Cup' })).rejects.toThrow(
			'"Sun Cup" is the name of a deleted league of this server (Sun Cup): /league undelete brings it back, or choose another name.',
		);

		await expect(w.services.deletion.undelete(roleOrganizer, 'Sun Cup')).rejects.toThrow(/Manage Server/);
		await expect(w.services.deletion.undelete(organizer, 'Moon Cup')).rejects.toThrow(
			'There is no deleted league "Moon Cup" in this server. Deleted: **Sun Cup**.',
		);
		const back = await w.services.deletion.undelete(organizer, 'sun cup');
		expect(back.id).toBe(league.id);
		expect(back.config.deleted).toBeUndefined();
		// The same rating, to the last digit (the league itself is two events further on).
		const after = await w.services.ratings.rating(organizer, { player: 'Ann' });
		expect({ ...after, league: undefined }).toEqual({ ...ratingsBefore, league: undefined });
		await addRace(w, '1. Cy\n2. Ann', undefined, '2026-03-01');
		await expect(w.services.deletion.undelete(organizer, 'Sun Cup')).rejects.toThrow(
			'This server has no deleted league.',
		);
	});

	it('undelete refuses while another league has taken the name', async () => {
		const { w } = await leagueWithRaces();
		const preview = await w.services.deletion.preview(organizer, undefined);
		await w.services.deletion.confirm(organizer, preview.id);
		const other = await w.services.leagues.create(organizer, { name: 'Rain Cup' });
		await w.services.leagues.rename(organizer, other.id, 'Sun Cup');
		await expect(w.services.deletion.undelete(organizer, 'Sun Cup')).rejects.toThrow(
			'Another league is named **Sun Cup** now: rename it with /league rename first, then undelete.',
		);
	});
});
