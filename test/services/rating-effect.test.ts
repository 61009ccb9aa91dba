/**
 * The /race edit preview's rating effect (src/services/races/rating-effect.ts): what it shows before Confirm is what the
 * league shows after it, for the race's racers and for every other player, to the last bit.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { editPreviewEmbed } from '../../commands/race/format.js';
import type { Standing } from '../../src/league/replay.js';
import { addRace, organizer, world, type World } from './helpers.js';

let w: World;
let league: string;

beforeEach(async () => {
	w = world();
	league = (await w.services.leagues.create(organizer, { name: 'Sunday Cup', headline: 'glicko' })).id;
	await addRace(w, '1. Alice\n2. Bob\n3. Carol', undefined, '2026-01-04');
	await addRace(w, '1. Bob\n2. Alice\n3. Dave', undefined, '2026-01-11');
	await addRace(w, '1. Dave\n2. Carol', undefined, '2026-01-18');
	// Xavier and Yara only ever race each other: nothing before or after R1 reaches them.
	await addRace(w, '1. Xavier\n2. Yara', undefined, '2026-01-25');
	await addRace(w, '1. Alice\n2. Eve', undefined, '2026-02-01');
});

const board = async () => {
	const view = await w.repo.ratingsAt(league, 'glicko', '2026-03-01');
	return new Map(view.standings.map((row: Standing, i) => [row.player, { rating: row.rating, rank: i + 1 }]));
};

describe('/race edit preview: the correction replayed on a copy', () => {
	it('shows each racer now and after, and every other player who moves, exactly as confirming then shows', async () => {
		const now = await board();
		const preview = await w.services.races.previewEdit(organizer, 'R1', '1. Carol\n2. Bob\n3. Alice', 'order');
		const { effect } = preview;
		expect(effect).toMatchObject({ system: 'glicko', day: '2026-03-01' });
		expect(effect.unrated).toBeUndefined();
		// Nothing was stored: the standings are those of before.
		expect(await board()).toEqual(now);
		await w.services.races.confirmEdit(organizer, preview.id);
		const after = await board();
		expect(effect.focus.map((m) => m.name)).toEqual(
			[...effect.focus].sort((a, b) => a.after!.rank - b.after!.rank).map((m) => m.name),
		);
		expect(new Set(effect.focus.map((m) => m.name))).toEqual(new Set(['Alice', 'Bob', 'Carol']));
		for (const move of [...effect.focus, ...effect.others]) {
			expect(move.now).toEqual(now.get(move.player));
			expect(move.after).toEqual(after.get(move.player));
		}
		// Others: exactly the players outside R1 whose rating changed (Dave and Eve raced R1's racers later).
		const moved = [...after.keys()].filter((id) => after.get(id)!.rating !== now.get(id)!.rating);
		const racerIds = new Set(effect.focus.map((m) => m.player));
		expect(new Set(effect.others.map((m) => m.player))).toEqual(new Set(moved.filter((id) => !racerIds.has(id))));
		expect(effect.others.map((m) => m.name).sort()).toEqual(['Dave', 'Eve']);
		const change = (m: (typeof effect.others)[number]) => Math.abs(m.after!.rating - m.now!.rating);
		expect(change(effect.others[0]!)).toBeGreaterThanOrEqual(change(effect.others[1]!));
	});

	it('a racer the correction adds has no rating now; one it removes (no other race) none after', async () => {
		await addRace(w, '1. Gus\n2. Hana', undefined, '2026-02-08');
		const preview = await w.services.races.previewEdit(organizer, 'R6', '1. Gus\n2. Ivan', 'Hana was Ivan');
		const byName = new Map(preview.effect.focus.map((m) => [m.name, m]));
		expect(byName.get('Ivan')!.now).toBeUndefined();
		expect(byName.get('Hana')!.after).toBeUndefined();
		expect(byName.get('Hana')!.now).toBeDefined();
		await w.services.races.confirmEdit(organizer, preview.id);
		const after = await board();
		expect(byName.get('Ivan')!.after).toEqual(after.get(byName.get('Ivan')!.player));
		expect(byName.get('Gus')!.after).toEqual(after.get(byName.get('Gus')!.player));
		expect(after.has(byName.get('Hana')!.player)).toBe(false);
		expect(preview.effect.others).toEqual([]);
	});

	it('says when the headline system would not rate the corrected race', async () => {
		await w.services.leagues.create(organizer, { name: 'Timed', headline: 'stk' });
		await addRace(w, '1. Alice 1:00.0\n2. Bob 1:01.5', 'Timed', '2026-01-04');
		await addRace(w, '1. Bob 1:00.0\n2. Alice 1:00.5', 'Timed', '2026-01-11');
		const preview = await w.services.races.previewEdit(organizer, 'Timed/R2', '1. Bob\n2. Alice', 'no times');
		expect(preview.effect.system).toBe('stk');
		expect(preview.effect.unrated).toMatch(/time/);
		// Only R1 rates them now: Bob's second race and its points are gone.
		const bob = preview.effect.focus.find((m) => m.name === 'Bob')!;
		expect(bob.after!.rating).toBeLessThan(bob.now!.rating);
	});
});

describe('/race edit preview: a race of an earlier season under the yearly reset', () => {
	it('says today’s ratings do not change, and why', async () => {
		const cup = world();
		await cup.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await cup.services.leagues.configure(organizer, undefined, { reset: 'yearly' });
		await addRace(cup, '1. Ann\n2. Bob\n3. Cy', undefined, '2025-11-20');
		await addRace(cup, '1. Bob\n2. Ann', undefined, '2025-12-20');
		await addRace(cup, '1. Ann\n2. Bob', undefined, '2026-02-22');
		const old = await cup.services.races.previewEdit(organizer, 'R2', '1. Ann\n2. Bob', 'order');
		expect(old.effect.earlierSeason).toBe('2025');
		expect(old.effect.focus.every((m) => m.now!.rating === m.after!.rating)).toBe(true);
		expect(old.effect.others).toEqual([]);
		expect(JSON.stringify(editPreviewEmbed(old))).toContain(
			"Today's ratings do not change: R2 is of the 2025 season, and ratings restart every year.",
		);
		// This season's race moves them, and is not marked.
		const current = await cup.services.races.previewEdit(organizer, 'R3', '1. Bob\n2. Ann', 'order');
		expect(current.effect.earlierSeason).toBeUndefined();
		expect(current.effect.focus.some((m) => m.now!.rating !== m.after!.rating)).toBe(true);
	});
});
