/**
 * `/race edit date: name:`: a stored race's date and name corrected like its results, previewed and
 * stored in the race-edited event, under the submission's date rules (race-date.ts).
 */
import { describe, expect, it } from 'vitest';
import { standingsAsOf } from '../../src/league/standings.js';
import { getSystem } from '../../src/ratings/index.js';
import { leagueParams } from '../support/league-params.js';
import { addRace, eventCount, organizer, world } from './helpers.js';

async function league(reset?: 'yearly') {
	const w = world(); // today: 2026-03-01
	const info = await w.services.leagues.create(organizer, { name: 'Kart' });
	if (reset) await w.services.leagues.configure(organizer, undefined, { reset });
	await addRace(w, '1. Ann\n2. Bob', undefined, '2025-12-20');
	await addRace(w, '1. Bob\n2. Ann', undefined, '2026-02-01');
	await addRace(w, '1. Ann\n2. Bob', undefined, '2026-02-15');
	return { w, id: info.id };
}

describe('/race edit date: and name:', () => {
	it('a new date alone is previewed, then stored in the race-edited event; the results stay', async () => {
		const { w, id } = await league();
		const preview = await w.services.races.previewEdit(organizer, 'R2', undefined, 'wrong day', {
			date: '2026-02-08',
		});
		expect(preview.date).toEqual({ before: '2026-02-01', after: '2026-02-08' });
		expect(preview.name).toBeUndefined();
		expect(preview.after).toEqual(preview.before);
		expect(preview.warnings).toEqual([]);
		await w.services.races.confirmEdit(organizer, preview.id);
		const events = await w.repo.readEvents(id);
		expect(events.at(-1)).toMatchObject({ type: 'race-edited', race: 'R2', changes: { date: '2026-02-08' } });
		const shown = await w.services.races.show(organizer, 'R2');
		expect(shown.race.date).toBe('2026-02-08');
		expect(shown.entries.map((e) => e.name)).toEqual(['Bob', 'Ann']);
	});

	it('a new name, with or without corrected results, is stored; the date stays', async () => {
		const { w } = await league();
		const preview = await w.services.races.previewEdit(organizer, 'R3', '1. Bob\n2. Ann', 'typo', {
			name: 'Round 3 — Kecskemét',
		});
		expect(preview.name).toEqual({ before: undefined, after: 'Round 3 — Kecskemét' });
		expect(preview.date).toBeUndefined();
		await w.services.races.confirmEdit(organizer, preview.id);
		const shown = await w.services.races.show(organizer, 'R3');
		expect(shown.race).toMatchObject({ name: 'Round 3 — Kecskemét', date: '2026-02-15' });
		expect(shown.entries.map((e) => e.name)).toEqual(['Bob', 'Ann']);
	});

	it('nothing to change, a date that is not a calendar day, or a bad name is refused and stores nothing', async () => {
		const { w, id } = await league();
		const before = await eventCount(w, id);
		await expect(w.services.races.previewEdit(organizer, 'R2', undefined, 'why', {})).rejects.toThrow(
			'Nothing to change: give the corrected results, a date or a name. Nothing was changed.',
		);
		await expect(
			w.services.races.previewEdit(organizer, 'R2', undefined, 'why', { date: '2026-02-30' }),
		).rejects.toThrow(
			'The date "2026-02-30" is not a day of the calendar: February 2026 has 28 days. Nothing was stored.',
		);
		await expect(
			w.services.races.previewEdit(organizer, 'R2', undefined, 'why', { name: 'x'.repeat(101) }),
		).rejects.toThrow(/a race name is 1 to 100 characters/);
		expect(await eventCount(w, id)).toBe(before);
	});

	it('a date that moves the race past others names them; more than a day ahead is accepted with a warning', async () => {
		const { w } = await league();
		const late = await w.services.races.previewEdit(organizer, 'R2', undefined, 'why', { date: '2026-02-20' });
		expect(late.warnings).toEqual([
			'Dated 2026-02-20, after R3, rated after it until now: its ratings will be recomputed.',
		]);
		const early = await w.services.races.previewEdit(organizer, 'R3', undefined, 'why', { date: '2026-01-10' });
		expect(early.warnings).toEqual(['Dated 2026-01-10, before R2 already rated: its ratings will be recomputed.']);
		const within = await w.services.races.previewEdit(organizer, 'R2', undefined, 'why', { date: '2026-02-14' });
		expect(within.warnings).toEqual([]); // still between R1 and R3
		const ahead = await w.services.races.previewEdit(organizer, 'R3', undefined, 'why', { date: '2026-03-10' });
		expect(ahead.warnings).toEqual([
			"This race is dated 2026-03-10, 9 days after today (2026-03-01, UTC). Until that day every rating of the league is shown as of 2026-03-10: idle players' uncertainty grows 9 days ahead of time. Confirm only if the date is right.",
		]);
	});

	it('under the yearly reset, a date in the season before is rated there: today, 2026 is R2 alone', async () => {
		const { w, id } = await league('yearly');
		const preview = await w.services.races.previewEdit(organizer, 'R3', undefined, 'why', { date: '2025-12-27' });
		expect(preview.effect.unrated).toBeUndefined(); // rated in 2025, after R1
		expect(preview.warnings).toEqual(['Dated 2025-12-27, before R2 already rated: its ratings will be recomputed.']);
		// 2026 restarts at R2, now its only race: today's ratings are R2's alone, from newcomers.
		const state = await w.repo.loadState(id);
		const system = getSystem(preview.effect.system);
		const r2 = { ...state.race('R2')!, mode: undefined };
		const alone = standingsAsOf(system, leagueParams(system), [r2], preview.effect.day!);
		expect(preview.effect.focus.map((m) => [m.player, m.after?.rating])).toEqual(
			alone.map((s) => [s.player, s.rating]),
		);
	});
});
