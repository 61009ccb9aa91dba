/**
 * The results inbox service (src/services/inbox/inbox-service.ts) over a memory store: tokens stored hashed and checked,
 * rotated and revoked; each file read as /race submit reads it, taken once by its hash (also by two "processes" on
 * one store), posted as a preview, stored on an organizer's Confirm (once), or at once under auto-confirm; every
 * refusal stores nothing.
 */
import { describe, expect, it } from 'vitest';
import {
	createInboxService,
	inboxPreviewId,
	STALE_CLAIM_MS,
	type InboxOutlet,
	type InboxService,
} from '../../src/services/inbox/inbox-service.js';
import type { ChannelMessage, PostFailure } from '../../src/services/posts/monthly-post-port.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueInfo, Store } from '../../src/storage/ports.js';
import { eventCount, member, organizer, world, type World } from './helpers.js';

const CHANNEL = '600000000000000001';
const SCOREBOARD = '1. Alice 1:23.456\n2. Bob 1:24.000\n3. Carol 1:25.100\n';
const file = (text = SCOREBOARD, name = 'results.txt') => ({ name, bytes: new TextEncoder().encode(text) });

/** A channel poster that keeps what it was given, refuses with `failure` while set, and throws while `down`. */
function fakeOutlet() {
	const posts: { channel: string; message: ChannelMessage; nonce: string }[] = [];
	const state: { failure?: PostFailure | undefined; down?: boolean } = {};
	const outlet: InboxOutlet = {
		poster: {
			post: (channel, message, { nonce }) => {
				if (state.down) return Promise.reject(new Error('ECONNREFUSED'));
				if (state.failure) return Promise.resolve({ ok: false, failure: state.failure });
				posts.push({ channel, message, nonce });
				return Promise.resolve({ ok: true, messageId: `m${posts.length}` });
			},
			findMarked: () => Promise.resolve({ ok: true, messageId: undefined }),
		},
		messages: {
			preview: (view) => ({
				content: `preview ${view.file.name}`,
				buttons: [
					{ customId: `inbox:confirm:${view.preview.id}`, label: 'Confirm', style: 'success' },
					{ customId: `inbox:cancel:${view.preview.id}`, label: 'Cancel', style: 'secondary' },
				],
			}),
			stored: (view, stored) => ({ content: `stored ${stored.name} as ${view.race.id}` }),
		},
	};
	return { outlet, posts, state };
}

interface Setup {
	readonly w: World;
	readonly inbox: InboxService;
	readonly league: LeagueInfo;
	readonly store: Store;
}

/** A league with a results channel, and an inbox service over `store` (another "process" passes the same store). */
async function setup(store: Store = createMemoryStore(), existing?: Setup): Promise<Setup> {
	const w = world(store, { ids: existing ? 'q' : 'p' });
	const league =
		existing?.league ?? (await w.services.leagues.create(organizer, { name: 'Club', resultsChannel: CHANNEL }));
	const inbox = createInboxService(w.repo, w.services.leagues, w.services.races, {
		store: store.namespace('inbox'),
		clock: () => new Date(w.now.ms),
		url: () => 'http://127.0.0.1:8080',
	});
	return { w, inbox, league, store };
}

async function inboxRecords(store: Store): Promise<[string, unknown][]> {
	const rows: [string, unknown][] = [];
	for await (const [key, value] of store.scan!('inbox')) rows.push([key, value]);
	return rows;
}

describe('inbox tokens', () => {
	it('a new token opens its league; only its SHA-256 is stored; a wrong or malformed one opens nothing', async () => {
		const { inbox, league, store } = await setup();
		const { token, replaced, view } = await inbox.newToken(organizer, undefined);
		expect(token).toMatch(/^pwi_[0-9a-f]{12}_[\w-]{43}$/);
		expect(replaced).toBe(false);
		expect(view).toMatchObject({ autoConfirm: false, channel: CHANNEL, url: 'http://127.0.0.1:8080' });
		expect(view.token?.by).toBe(organizer.userId);
		expect((await inbox.authenticate(token))?.id).toBe(league.id);
		const stored = JSON.stringify(await inboxRecords(store));
		expect(stored).not.toContain(token);
		expect(stored).not.toContain(token.slice(17));
		const last = token.at(-1) === 'A' ? 'B' : 'A';
		for (const wrong of [`${token.slice(0, -1)}${last}`, token.slice(0, -1), `${token}x`, '', 'Bearer x', undefined]) {
			expect(await inbox.authenticate(wrong)).toBeUndefined();
		}
	});

	it('rotating replaces the token at once; revoking stops it; members may do neither', async () => {
		const { inbox } = await setup();
		const first = await inbox.newToken(organizer, undefined);
		const second = await inbox.newToken(organizer, undefined);
		expect(second.replaced).toBe(true);
		expect(await inbox.authenticate(first.token)).toBeUndefined();
		expect(await inbox.authenticate(second.token)).toBeDefined();
		await expect(inbox.newToken(member, undefined)).rejects.toThrow(/^Only league organizers/);
		await expect(inbox.revokeToken(member, undefined)).rejects.toThrow(/^Only league organizers/);
		await expect(inbox.settings(member, undefined)).rejects.toThrow(/^Only league organizers/);
		expect(await inbox.authenticate(second.token)).toBeDefined();
		expect((await inbox.revokeToken(organizer, undefined)).revoked).toBe(true);
		expect(await inbox.authenticate(second.token)).toBeUndefined();
		expect((await inbox.revokeToken(organizer, undefined)).revoked).toBe(false);
		// Auto-confirm survives a rotation.
		await inbox.setAutoConfirm(organizer, undefined, true);
		const third = await inbox.newToken(organizer, undefined);
		expect(third.view.autoConfirm).toBe(true);
		expect(third.replaced).toBe(false);
	});
});

describe('a received file', () => {
	it('is previewed in the results channel, and stored once by an organizer’s Confirm (a member’s is refused)', async () => {
		const s = await setup();
		const { outlet, posts } = fakeOutlet();
		const receipt = await s.inbox.receive(s.league, file(), outlet);
		expect(receipt).toMatchObject({ kind: 'previewed', channel: CHANNEL, messageId: 'm1', racers: 3 });
		const id = receipt.preview;
		expect(id).toMatch(/^[0-9a-f]{16}$/);
		expect(posts).toHaveLength(1);
		expect(posts[0]!.channel).toBe(CHANNEL);
		expect(posts[0]!.message.buttons?.map((b) => b.customId)).toEqual([`inbox:confirm:${id}`, `inbox:cancel:${id}`]);
		expect(s.w.services.races.pendingCount()).toBe(0); // kept in the store, not in this process's memory
		const before = await eventCount(s.w, s.league.id);

		await expect(s.inbox.confirm(member, id)).rejects.toThrow(/^Only league organizers/);
		expect(await eventCount(s.w, s.league.id)).toBe(before);

		s.w.now.ms += 26 * 3_600_000; // confirmed the next day: an inbox preview does not expire
		const done = await s.inbox.confirm(organizer, id);
		expect(done).toMatchObject({ already: false, race: 'R1', file: 'results.txt' });
		const events = await s.w.repo.readEvents(s.league.id);
		expect(events.at(-1)).toMatchObject({ type: 'race-submitted', preview: id, by: organizer.userId });
		expect(await s.inbox.confirm(organizer, id)).toMatchObject({ already: true, race: 'R1' });
		expect(await eventCount(s.w, s.league.id)).toBe(before + 1);
		// A file without a date is dated the day it arrived, not the day of the Confirm.
		expect((await s.w.repo.loadState(s.league.id)).race('R1')?.date).toBe('2026-03-01');
	});

	it('the same bytes again are one preview and one race: answered as already here, whatever the name', async () => {
		const s = await setup();
		const { outlet, posts } = fakeOutlet();
		const first = await s.inbox.receive(s.league, file(), outlet);
		const again = await s.inbox.receive(s.league, file(SCOREBOARD, 'copy.txt'), outlet);
		expect(again).toMatchObject({ kind: 'duplicate', preview: first.preview });
		expect(again.kind === 'duplicate' && again.message).toBe(
			"This file was already received on 2026-03-01 12:00 UTC: its preview waits for an organizer's Confirm in the results channel. Nothing new was stored.",
		);
		await s.inbox.confirm(organizer, first.preview);
		const stored = await s.inbox.receive(s.league, file(), outlet);
		expect(stored.kind === 'duplicate' && stored.message).toBe(
			'This file was already received on 2026-03-01 12:00 UTC and stored as R1: nothing new was stored.',
		);
		expect(posts).toHaveLength(1);
		expect((await s.w.repo.loadState(s.league.id)).races()).toHaveLength(1);
	});

	it('two processes on one store receiving the same file at once: one takes it, one preview, one race', async () => {
		const store = createMemoryStore();
		const one = await setup(store);
		const two = await setup(store, one);
		const { outlet, posts } = fakeOutlet();
		const receipts = await Promise.all([
			one.inbox.receive(one.league, file(), outlet),
			two.inbox.receive(two.league, file(), outlet),
		]);
		expect(receipts.map((r) => r.kind).sort()).toEqual(['duplicate', 'previewed']);
		expect(posts).toHaveLength(1);
		// Confirmed in the process that did not take it; pressed in both, stored once.
		const id = receipts[0].preview;
		const [a, b] = await Promise.all([two.inbox.confirm(organizer, id), one.inbox.confirm(organizer, id)]);
		expect([a.already, b.already].sort()).toEqual([false, true]);
		expect((await one.w.repo.loadState(one.league.id, { fresh: true })).races()).toHaveLength(1);
	});

	it('the preview id is the league’s and the file’s: the same file to two leagues is two previews', async () => {
		const s = await setup();
		const other = await s.w.services.leagues.create(organizer, { name: 'Second', resultsChannel: CHANNEL });
		const { outlet } = fakeOutlet();
		const a = await s.inbox.receive(s.league, file(), outlet);
		const b = await s.inbox.receive(other, file(), outlet);
		expect([a.kind, b.kind]).toEqual(['previewed', 'previewed']);
		expect(a.preview).not.toBe(b.preview);
		expect(a.preview).toBe(
			inboxPreviewId(s.league.id, (await import('node:crypto')).createHash('sha256').update(SCOREBOARD).digest('hex')),
		);
	});

	it('refusals store nothing: a binary file, a bad scoreboard, no results channel', async () => {
		const s = await setup();
		const { outlet, posts } = fakeOutlet();
		const before = await eventCount(s.w, s.league.id);
		const garbage = { name: 'replay.bin', bytes: Uint8Array.from({ length: 600 }, (_, i) => (i * 37) % 256) };
		await expect(s.inbox.receive(s.league, garbage, outlet)).rejects.toMatchObject({
			code: 'bad-results-file',
			message: expect.stringMatching(/^The file is not text: expected a sim result file/) as unknown,
		});
		await expect(s.inbox.receive(s.league, file('1. Alice\n1. Alice\n'), outlet)).rejects.toMatchObject({
			code: 'bad-scoreboard',
		});
		const bare = await s.w.services.leagues.create(organizer, { name: 'Bare' });
		await expect(s.inbox.receive(bare, file(), outlet)).rejects.toMatchObject({
			code: 'inbox-no-channel',
			message: expect.stringContaining('Bare has no results channel') as unknown,
		});
		expect(posts).toHaveLength(0);
		expect(await inboxRecords(s.store)).toEqual([]);
		expect(await eventCount(s.w, s.league.id)).toBe(before);
		expect(s.w.services.races.pendingCount()).toBe(0);
	});

	it('the results channel defaults to the ranking channel', async () => {
		const s = await setup();
		const ranked = await s.w.services.leagues.create(organizer, {
			name: 'Ranked',
			rankingChannel: '600000000000000009',
		});
		const { outlet, posts } = fakeOutlet();
		await s.inbox.receive(ranked, file(), outlet);
		expect(posts[0]?.channel).toBe('600000000000000009');
	});

	it('a preview Discord refuses or cannot take gives the file back: sent again later, it is previewed', async () => {
		const s = await setup();
		const { outlet, posts, state } = fakeOutlet();
		state.failure = { kind: 'missing-permission', status: 403, code: 50013 };
		await expect(s.inbox.receive(s.league, file(), outlet)).rejects.toMatchObject({
			code: 'inbox-post-failed',
			message: `The preview could not be posted in the results channel (${CHANNEL}): the bot may not send messages there. Nothing was stored; send the file again once the channel is fixed.`,
		});
		state.failure = undefined;
		state.down = true;
		await expect(s.inbox.receive(s.league, file(), outlet)).rejects.toMatchObject({
			code: 'inbox-post-failed',
			message: expect.stringContaining('Discord could not be reached') as unknown,
		});
		expect(await inboxRecords(s.store)).toEqual([]);
		state.down = false;
		expect((await s.inbox.receive(s.league, file(), outlet)).kind).toBe('previewed');
		expect(posts).toHaveLength(1);
	});

	it('a claim left by a crash is taken over once it is stale, by one of two processes', async () => {
		const store = createMemoryStore();
		const one = await setup(store);
		const two = await setup(store, one);
		const { outlet, posts } = fakeOutlet();
		const bytes = file();
		const hash = (await import('node:crypto')).createHash('sha256').update(bytes.bytes).digest('hex');
		const id = inboxPreviewId(one.league.id, hash);
		// What a process killed between taking the file and posting its preview leaves.
		const at = new Date(one.w.now.ms).toISOString();
		const race = { entries: [{ player: 'Alice', position: 1, status: 'finished' as const }], date: '2026-03-01' };
		await store.namespace('inbox').set(`file:${id}`, {
			v: 1,
			league: one.league.id,
			hash,
			name: 'results.txt',
			bytes: bytes.bytes.length,
			receivedAt: at,
			race,
			state: 'claimed',
			at,
		});
		expect((await one.inbox.receive(one.league, bytes, outlet)).kind).toBe('duplicate');
		one.w.now.ms += STALE_CLAIM_MS;
		two.w.now.ms += STALE_CLAIM_MS;
		const receipts = await Promise.all([
			one.inbox.receive(one.league, bytes, outlet),
			two.inbox.receive(two.league, bytes, outlet),
		]);
		expect(receipts.map((r) => r.kind).sort()).toEqual(['duplicate', 'previewed']);
		expect(posts).toHaveLength(1);
		expect((await one.inbox.confirm(organizer, id)).race).toBe('R1');
		expect((await one.w.repo.loadState(one.league.id)).race('R1')?.entries).toHaveLength(3);
	});

	it('Cancel sets the file aside: Confirm is refused after it, and the file sent again is answered as cancelled', async () => {
		const s = await setup();
		const { outlet } = fakeOutlet();
		const { preview } = await s.inbox.receive(s.league, file(), outlet);
		await expect(s.inbox.cancel(member, preview)).rejects.toThrow(/^Only league organizers/);
		expect(await s.inbox.cancel(organizer, preview)).toMatchObject({ file: 'results.txt' });
		await expect(s.inbox.confirm(organizer, preview)).rejects.toThrow(
			/^This file was cancelled by <@800000000000000001> on 2026-03-01 12:00 UTC: nothing was stored\./,
		);
		const again = await s.inbox.receive(s.league, file(), outlet);
		expect(again.kind === 'duplicate' && again.message).toContain('cancelled by an organizer: nothing was stored');
		expect((await s.w.repo.loadState(s.league.id)).races()).toHaveLength(0);
	});

	it('Cancel after Confirm is refused with the race; unknown preview ids are refused', async () => {
		const s = await setup();
		const { outlet } = fakeOutlet();
		const { preview } = await s.inbox.receive(s.league, file(), outlet);
		await s.inbox.confirm(organizer, preview);
		await expect(s.inbox.cancel(organizer, preview)).rejects.toThrow(
			'Already stored as **R1**: nothing was cancelled. To take it back, use /race void race:R1.',
		);
		await expect(s.inbox.confirm(organizer, '0123456789abcdef')).rejects.toMatchObject({ code: 'inbox-unknown' });
		await expect(s.inbox.confirm(organizer, 'not an id')).rejects.toMatchObject({ code: 'inbox-unknown' });
	});

	it('auto-confirm stores the race at once (submitted by the inbox) and announces it; sent again, already stored', async () => {
		const s = await setup();
		await s.inbox.setAutoConfirm(organizer, undefined, true);
		const { outlet, posts } = fakeOutlet();
		const receipt = await s.inbox.receive(s.league, file(), outlet);
		expect(receipt).toMatchObject({ kind: 'stored', race: 'R1', channel: CHANNEL, notPosted: undefined });
		expect(posts.map((p) => p.message.content)).toEqual(['stored results.txt as R1']);
		expect((await s.w.repo.readEvents(s.league.id)).at(-1)).toMatchObject({ type: 'race-submitted', by: 'inbox' });
		const again = await s.inbox.receive(s.league, file(), outlet);
		expect(again.kind === 'duplicate' && again.message).toContain('and stored as R1');
		// A Confirm of the announcement's id (none is shown, but any process may be asked) answers where it is.
		expect(await s.inbox.confirm(organizer, receipt.preview)).toMatchObject({ already: true, race: 'R1' });
		expect((await s.w.repo.loadState(s.league.id)).races()).toHaveLength(1);
	});

	it('auto-confirm: an announcement Discord refuses keeps the race, and says why', async () => {
		const s = await setup();
		await s.inbox.setAutoConfirm(organizer, undefined, true);
		const { outlet, state } = fakeOutlet();
		state.failure = { kind: 'missing-channel', status: 404, code: 10003 };
		const receipt = await s.inbox.receive(s.league, file(), outlet);
		expect(receipt).toMatchObject({
			kind: 'stored',
			race: 'R1',
			channel: undefined,
			notPosted: 'the channel does not exist any more',
		});
		expect((await s.inbox.receive(s.league, file(), outlet)).kind).toBe('duplicate');
	});
});
