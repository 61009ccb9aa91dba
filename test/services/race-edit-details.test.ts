/**
 * `/race edit date: name:`: a stored race's date and name corrected like its results, previewed and
 * stored in the race-edited event, under the submission's date rules (race-date.ts).
 */
import { describe, expect, it } from 'vitest';
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
			'The date "2026-02-30" is not a calendar day: write it as YYYY-MM-DD, e.g. 2026-03-01. Nothing was stored.',
		);
		await expect(
			w.services.races.previewEdit(organizer, 'R2', undefined, 'why', { name: 'x'.repeat(101) }),
		).rejects.toThrow(/a race name is 1 to 100 characters/);
		expect(await eventCount(w, id)).toBe(before);
	});

	it('a date past a race rated after it, or more than a day ahead, is accepted with a warning', async () => {
		const { w } = await league();
		const late = await w.services.races.previewEdit(organizer, 'R2', undefined, 'why', { date: '2026-02-20' });
		expect(late.warnings).toEqual([
			"This race would be dated 2026-02-20, after R3 on 2026-02-15, which is rated after it (races are rated in the order they were confirmed): R3's racers get no idle-time growth for the days between. Confirm only if the date is right.",
		]);
		const early = await w.services.races.previewEdit(organizer, 'R3', undefined, 'why', { date: '2026-01-10' });
		expect(early.warnings).toEqual([
			'This race would be dated 2026-01-10, before R2 on 2026-02-01, which is rated before it (races are rated in the order they were confirmed): its racers get no idle-time growth for the days between. Confirm only if the date is right.',
		]);
		const ahead = await w.services.races.previewEdit(organizer, 'R3', undefined, 'why', { date: '2026-03-10' });
		expect(ahead.warnings).toEqual([
			"This race is dated 2026-03-10, 9 days after today (2026-03-01, UTC). Until that day every rating of the league is shown as of 2026-03-10: idle players' uncertainty grows 9 days ahead of time. Confirm only if the date is right.",
		]);
	});

	it('under the yearly reset, a date in a season before the current one is previewed as counting in no rating', async () => {
		const { w } = await league('yearly');
		const preview = await w.services.races.previewEdit(organizer, 'R3', undefined, 'why', { date: '2025-12-27' });
		expect(preview.effect.unrated).toBe(
			'it is dated 2025-12-27, in a season before the current one (2026), and ratings restart every year: it counts in no rating',
		);
		expect(preview.warnings).toEqual([]);
	});
});
