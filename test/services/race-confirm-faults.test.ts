import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { UserFacingError } from '../../src/services/errors.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { EntityName, Store } from '../../src/storage/ports.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { failOnError } from '../storage/helpers.js';
import { faultyStore, InjectedFault, type FaultyStore } from '../support/faulty-store.js';
import { eventCount, organizer, organizer2, ROLE, roleOrganizer, world, type World } from './helpers.js';

/**
 * a race is acknowledged once its event is durable; a cache write failing after it is a logged
 * warning, not a user error; the preview lives until the commit, and its id in the event makes Confirm idempotent
 * (twice, after a lost acknowledgement, after a restart, from another process). Item 6 (b): organizer status is
 * checked again at Confirm / Cancel.
 */

const CACHES: readonly EntityName[] = ['rating-snapshots', 'rating-index', 'league-state'];
const cacheWrites = (namespace: EntityName) => CACHES.includes(namespace);
const eventWrites = (namespace: EntityName) => namespace === 'events';

let inner: Store;
let store: FaultyStore;
let warnings: { context: object; message: string }[];
let w: World;
let league: string;

/** A world over the faulty store, writing a rating snapshot after every race and a state snapshot after every event. */
const open = (ids = 'p') =>
	world(store, {
		ids,
		repo: {
			ratingEvery: 1,
			stateEvery: 1,
			log: { warn: (context: object, message: string) => void warnings.push({ context, message }) },
		},
	});

beforeEach(async () => {
	inner = createMemoryStore();
	store = faultyStore(inner);
	warnings = [];
	w = open();
	league = (
		await w.services.leagues.create(organizer, {
			name: 'Sunday Cup',
			headline: 'glicko',
			organizerRole: { id: ROLE, managed: false },
		})
	).id;
});

describe('a stored race is acknowledged', () => {
	it('a cache write failing after the event is durable is a logged warning: the organizer gets the race id', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob', date: '2026-02-28' });
		store.failSet = cacheWrites;
		const stored = await w.services.races.confirm(organizer, preview.id);
		expect(stored).toMatchObject({ already: false, race: 'R1' });
		expect(await eventCount(w, league)).toBe(2);
		// The next race with only the rating index failing (the snapshots are written first): acknowledged too.
		store.failSet = (namespace) => namespace === 'rating-index';
		const second = await w.services.races.submit(organizer, { text: '1. Bob\n2. Carol', date: '2026-03-01' });
		expect(await w.services.races.confirm(organizer, second.id)).toMatchObject({ already: false, race: 'R2' });
		// Every cache the append writes was refused, and each refusal is a warning naming the cache, not the user's text.
		expect(new Set(store.faults.map((f) => f.split(':')[0]))).toEqual(new Set(CACHES));
		expect(warnings.map((w) => w.context)).toContainEqual(expect.objectContaining({ cache: 'league-state', seq: 1 }));
		expect(warnings.map((w) => w.context)).toContainEqual(expect.objectContaining({ cache: 'ratings glicko', seq: 2 }));
		expect(JSON.stringify(warnings)).not.toMatch(/Alice|Bob|Carol/);
		// The ratings read equal those of a process that never saw a fault: the log alone decides them.
		const read = await w.repo.ratingsAt(league, 'glicko');
		store.failSet = undefined;
		const fresh = await world(inner, { ids: 'fresh' }).repo.ratingsAt(league, 'glicko');
		expect(read.seq).toBe(2);
		expect(read.standings).toEqual(fresh.standings);
	});

	it('a failed durable write keeps the preview: Confirm again stores it, once', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		store.failAdd = eventWrites;
		const failed = await w.services.races.confirm(organizer, preview.id).catch((error: unknown) => error);
		expect(failed).toBeInstanceOf(InjectedFault); // a real failure: "Something went wrong", nothing stored
		expect(await eventCount(w, league)).toBe(1);
		expect(w.services.races.pendingCount()).toBe(1);
		store.failAdd = undefined;
		expect(await w.services.races.confirm(organizer, preview.id)).toMatchObject({ already: false, race: 'R1' });
		expect(await eventCount(w, league)).toBe(2);
		expect(w.services.races.pendingCount()).toBe(0);
	});

	it('a durable write whose acknowledgement was lost is found in the log: stored as R1, once, however often pressed', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		store.loseAddAck = eventWrites;
		expect(await w.services.races.confirm(organizer, preview.id)).toMatchObject({ already: true, race: 'R1' });
		expect(store.faults).toEqual([`events:${league}:1`]);
		store.loseAddAck = undefined;
		expect(await w.services.races.confirm(organizer, preview.id)).toMatchObject({ already: true, race: 'R1' });
		expect(await eventCount(w, league)).toBe(2);
		expect((await w.repo.readEvents(league)).at(-1)).toMatchObject({ type: 'race-submitted', preview: preview.id });
	});

	it('two Confirms of one preview at once store one race; the other answers "already stored"', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		const both = await Promise.all([
			w.services.races.confirm(organizer, preview.id),
			w.services.races.confirm(organizer2, preview.id),
		]);
		expect(both.map((b) => b.already).sort()).toEqual([false, true]);
		expect(both.map((b) => b.race)).toEqual(['R1', 'R1']);
		expect((await w.repo.loadState(league)).races()).toHaveLength(1);
	});

	it('after a restart, or from another process, Confirm of a stored preview answers "already stored as R1"', async () => {
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
		await w.services.races.confirm(organizer, preview.id);
		const other = open('q'); // a second process over the same store (or this one restarted): no preview in memory
		expect(await other.services.races.confirm(organizer, preview.id)).toMatchObject({ already: true, race: 'R1' });
		expect(await eventCount(other, league)).toBe(2);
		// A preview never stored is still "expired", whatever the process.
		await expect(other.services.races.confirm(organizer, 'never-stored')).rejects.toMatchObject({
			code: 'preview-expired',
		});
		// Another process that appended meanwhile is rolled forward before the duplicate check.
		const third = await other.services.races.submit(organizer, { text: '1. Bob\n2. Alice' });
		await other.services.races.confirm(organizer, third.id);
		expect(await w.services.races.confirm(organizer, third.id)).toMatchObject({ already: true, race: 'R2' });
		expect(await eventCount(w, league)).toBe(3);
	});

	it('two processes on one SQLite file: a Confirm of the preview the other stored answers "already stored"', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'pitwall-ack-'));
		const file = join(dir, 'league.sqlite');
		const [first, second] = [await openSqliteStore(file, failOnError), await openSqliteStore(file, failOnError)];
		try {
			const a = world(first, { ids: 'a' });
			const b = world(second, { ids: 'b' });
			const id = (await a.services.leagues.create(organizer, { name: 'Cup' })).id;
			const preview = await a.services.races.submit(organizer, { text: '1. Alice\n2. Bob' });
			expect(await a.services.races.confirm(organizer, preview.id)).toMatchObject({ already: false, race: 'R1' });
			expect(await b.services.races.confirm(organizer, preview.id)).toMatchObject({ already: true, race: 'R1' });
			expect(await eventCount(b, id)).toBe(2);
		} finally {
			await first.close();
			await second.close();
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('a correction: a failed write keeps its preview, a second Confirm (here or after a restart) edits once', async () => {
		const race = await w.services.races.confirm(
			organizer,
			(await w.services.races.submit(organizer, { text: '1. Alice\n2. Bob' })).id,
		);
		const preview = await w.services.races.previewEdit(organizer, race.race, '1. Bob\n2. Alice', 'swap');
		store.failAdd = eventWrites;
		await expect(w.services.races.confirmEdit(organizer, preview.id)).rejects.toBeInstanceOf(InjectedFault);
		store.failAdd = undefined;
		expect(await eventCount(w, league)).toBe(2);
		store.failSet = cacheWrites; // and the caches fail after it: still acknowledged
		const edited = await w.services.races.confirmEdit(organizer, preview.id);
		expect(edited.already).toBe(false);
		expect(edited.view.race.entries.map((e) => e.position)).toEqual([1, 2]);
		expect(edited.view.entries.map((e) => e.name)).toEqual(['Bob', 'Alice']);
		store.failSet = undefined;
		expect(await eventCount(w, league)).toBe(3);
		expect(await w.services.races.confirmEdit(organizer, preview.id)).toMatchObject({ already: true });
		expect(await open('q').services.races.confirmEdit(organizer, preview.id)).toMatchObject({ already: true });
		expect(await eventCount(w, league)).toBe(3);
		expect((await w.repo.loadState(league)).race('R1')!.edits).toHaveLength(1);
	});
});

describe('organizer status is checked again at Confirm and Cancel', () => {
	const revoked = { ...roleOrganizer, roles: [] };

	it('an organizer whose role was revoked cannot Confirm or Cancel their preview; nothing stored', async () => {
		const preview = await w.services.races.submit(roleOrganizer, { text: '1. Alice\n2. Bob' });
		const press = [
			() => w.services.races.confirm(revoked, preview.id),
			() => w.services.races.cancel(revoked, preview.id),
		];
		for (const button of press) {
			const error = await button().catch((e: unknown) => e);
			expect(error).toBeInstanceOf(UserFacingError);
			expect(error).toMatchObject({ code: 'not-organizer' });
		}
		expect(await eventCount(w, league)).toBe(1);
		expect(w.services.races.pendingCount()).toBe(1);
		// Given the role back, the same preview is still there.
		expect(await w.services.races.confirm(roleOrganizer, preview.id)).toMatchObject({ race: 'R1' });
	});

	it('the same for a correction, and for a Confirm of an already stored preview', async () => {
		const preview = await w.services.races.submit(roleOrganizer, { text: '1. Alice\n2. Bob' });
		await w.services.races.confirm(roleOrganizer, preview.id);
		await expect(w.services.races.confirm(revoked, preview.id)).rejects.toMatchObject({ code: 'not-organizer' });
		const edit = await w.services.races.previewEdit(roleOrganizer, 'R1', '1. Bob\n2. Alice', 'swap');
		await expect(w.services.races.confirmEdit(revoked, edit.id)).rejects.toMatchObject({ code: 'not-organizer' });
		await expect(w.services.races.cancelEdit(revoked, edit.id)).rejects.toMatchObject({ code: 'not-organizer' });
		expect(await eventCount(w, league)).toBe(2);
		expect(await w.services.races.confirmEdit(roleOrganizer, edit.id)).toMatchObject({ already: false });
	});
});
