/**
 * `/player merge` previewed and confirmed (src/services/players/player-merge.ts): nothing is stored before Confirm, the
 * preview's rating effect is what the league shows after it, a Confirm pressed again or after a restart merges
 * nothing twice, and the refusals come before any preview.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { addRace, eventCount, member, organizer, organizer2, world, type World } from './helpers.js';

let w: World;
let league: string;

/** The store of `w`, so that a second world (another process, a restart) can open it. */
let store = createMemoryStore();

beforeEach(async () => {
	store = createMemoryStore();
	w = world(store);
	league = (await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' })).id;
	await addRace(w, '1. Alice\n2. Bob\n3. Carol', undefined, '2026-01-04');
	await addRace(w, '1. Bob\n2. Alcie\n3. Dave', undefined, '2026-01-11'); // "Alcie": Alice mistyped, stored
	await addRace(w, '1. Carol\n2. Alice', undefined, '2026-01-18');
});

const board = async () => {
	const view = await w.repo.ratingsAt(league, 'glicko', '2026-03-01');
	return new Map(view.standings.map((row, i) => [row.player, { rating: row.rating, rank: i + 1 }]));
};

describe('/player merge: preview, then Confirm', () => {
	it('shows both players and the effect on today’s ratings, stores nothing, and equals the league after Confirm', async () => {
		const events = await eventCount(w, league);
		const before = await board();
		const preview = await w.services.players.previewMerge(organizer, { from: 'Alcie', into: 'Alice' });
		expect(preview.from).toMatchObject({ name: 'Alcie', races: 1, lastRace: { id: 'R2', date: '2026-01-11' } });
		expect(preview.into).toMatchObject({ name: 'Alice', races: 2, lastRace: { id: 'R3', date: '2026-01-18' } });
		expect(await eventCount(w, league)).toBe(events);
		expect(await board()).toEqual(before);
		const { effect } = preview;
		expect(effect.focus.map((m) => m.name).sort()).toEqual(['Alcie', 'Alice']);
		const alcie = effect.focus.find((m) => m.name === 'Alcie')!;
		expect(alcie.now).toEqual(before.get(preview.from.id));
		expect(alcie.after).toBeUndefined(); // merged away
		const done = await w.services.players.confirmMerge(organizer2, preview.id);
		expect(done).toMatchObject({ already: false, from: 'Alcie', into: 'Alice' });
		expect(await eventCount(w, league)).toBe(events + 1);
		const after = await board();
		for (const move of [...effect.focus, ...effect.others]) expect(move.after).toEqual(after.get(move.player));
		// The others: exactly the players whose rating the merge moved (Bob and Dave raced Alcie in R2, Carol raced
		// Alice later).
		const focus = new Set([preview.from.id, preview.into.id]);
		const moved = [...after.keys()].filter((id) => !focus.has(id) && after.get(id)!.rating !== before.get(id)!.rating);
		expect(new Set(effect.others.map((m) => m.player))).toEqual(new Set(moved));
		expect(effect.others.length).toBeGreaterThan(0);
		const state = await w.repo.loadState(league);
		expect(state.resolve('Alcie')?.name).toBe('Alice');
		expect(state.storedPreview(preview.id)).toEqual({ kind: 'merged', from: preview.from.id, into: preview.into.id });
	});

	it('a Confirm pressed again, or after a restart, merges nothing twice and says where it went', async () => {
		const preview = await w.services.players.previewMerge(organizer, { from: 'Alcie', into: 'Alice' });
		await w.services.players.confirmMerge(organizer, preview.id);
		const events = await eventCount(w, league);
		await expect(w.services.players.confirmMerge(organizer, preview.id)).resolves.toMatchObject({
			already: true,
			from: 'Alcie',
			into: 'Alice',
		});
		// Another process over the same store (a restart): the preview is not in its memory, the log has its id.
		const restarted = world(store, { ids: 'q' });
		await expect(restarted.services.players.confirmMerge(organizer, preview.id)).resolves.toMatchObject({
			already: true,
			from: 'Alcie',
			into: 'Alice',
		});
		expect(await eventCount(w, league)).toBe(events);
		// The log itself refuses the preview id a second time.
		await expect(
			w.repo.appendEvent(league, {
				type: 'players-merged',
				from: preview.into.id,
				into: '#4',
				preview: preview.id,
				by: organizer.userId,
			}),
		).rejects.toThrow(/this preview was already confirmed/);
	});

	it('refuses before any preview: a member, players who raced together, one player twice', async () => {
		await expect(w.services.players.previewMerge(member, { from: 'Alcie', into: 'Alice' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await expect(w.services.players.previewMerge(organizer, { from: 'Bob', into: 'Alice' })).rejects.toMatchObject({
			code: 'bad-merge',
			message: expect.stringMatching(/both raced in R1/) as unknown,
		});
		await expect(w.services.players.previewMerge(organizer, { from: 'Alice', into: 'alice' })).rejects.toMatchObject({
			code: 'bad-merge',
		});
	});

	it('Cancel and expiry store nothing; a member cannot confirm an organizer’s preview', async () => {
		const events = await eventCount(w, league);
		const cancelled = await w.services.players.previewMerge(organizer, { from: 'Alcie', into: 'Alice' });
		await expect(w.services.players.confirmMerge(member, cancelled.id)).rejects.toMatchObject({
			code: 'not-organizer',
		});
		await w.services.players.cancelMerge(organizer, cancelled.id);
		await expect(w.services.players.confirmMerge(organizer, cancelled.id)).rejects.toMatchObject({
			code: 'preview-expired',
		});
		const late = await w.services.players.previewMerge(organizer, { from: 'Alcie', into: 'Alice' });
		w.now.ms += 16 * 60_000;
		await expect(w.services.players.confirmMerge(organizer, late.id)).rejects.toMatchObject({
			code: 'preview-expired',
		});
		expect(await eventCount(w, league)).toBe(events);
	});
});
