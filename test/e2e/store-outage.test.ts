import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { KeyValueNamespace, Store } from '../../src/storage/ports.js';
import { StoreReadOnlyError, StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';
import { content, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

/**
 * A store that stops answering under a command, through the real discord.js client and the fake Discord. Before,
 * every such answer was "Something went wrong (ref: …)", reads included, and a write whose commit reached the store
 * but whose answer was lost was answered as failed (six of them in the report). Now: the store is unavailable, and
 * for a write whether anything was stored, found by looking at the log before answering.
 *
 * The faults are the store layer's own errors (StoreUnavailableError is what keyv-store.ts makes of any failure of
 * SQLite, PostgreSQL or Redis; test/storage/store-outage.test.ts shows a real Redis outage producing it).
 */

type Mode = 'up' | 'reads-down' | 'down' | 'answer-lost' | 'answer-lost-then-silent' | 'read-only';

function outageStore(inner: Store): Store & { mode: Mode; silent: boolean } {
	const store = {
		kind: inner.kind,
		mode: 'up' as Mode,
		/** Set once an answer was lost in `answer-lost-then-silent`: reads fail from then on. */
		silent: false,
		namespace(name: Parameters<Store['namespace']>[0]): KeyValueNamespace {
			const ns = inner.namespace(name);
			const down = (write: boolean) =>
				new StoreUnavailableError('the redis store did not answer: TimeoutError', write ? 'unknown' : 'no');
			const read =
				<A extends unknown[], R>(op: (...args: A) => Promise<R>) =>
				(...args: A) => {
					if (store.mode === 'reads-down' || store.silent) {
						return Promise.reject(down(false));
					}
					return op(...args);
				};
			return {
				get: read((key: string) => ns.get(key)),
				getMany: read((keys: readonly string[]) => ns.getMany(keys)),
				set: (key, value) => ns.set(key, value),
				async add(key, value) {
					if (store.mode === 'read-only') throw new StoreReadOnlyError();
					if (name !== 'events' || store.mode === 'up' || store.mode === 'reads-down') return ns.add(key, value);
					if (store.mode === 'down') throw down(true); // never reached the store
					await ns.add(key, value); // committed, and the answer is lost
					store.silent = store.mode === 'answer-lost-then-silent'; // and then it stops answering reads too
					throw down(true);
				},
				delete: (key) => ns.delete(key),
			};
		},
		close: () => inner.close(),
	};
	return store;
}

const store = outageStore(createMemoryStore());
const bot = useLeagueBot({ store });
const events = async (league: string) => (await bot.repo.readEvents(league)).length;

describe('a store outage under a command', () => {
	it('a read says the store is unavailable, not "Something went wrong"', async () => {
		await bot.run('league', [sub('create', [text('name', 'Outage Cup')])], ORGANIZER);
		const p = await bot.preview([text('results', '1. Alice; 2. Bob')]);
		expect(content((await bot.click(p.confirm!))[1]!)).toMatch(/^Stored as \*\*R1\*\*/);
		store.mode = 'reads-down';
		// Ephemeral, pinging nobody (expectRefusal checks both).
		await bot.expectRefusal(
			'race',
			[sub('list')],
			ORGANIZER,
			/^The league store is unavailable right now, so this could not be done\. Try again in a few minutes\. \(ref: \d+\)$/,
		);
		store.mode = 'up';
	});

	it('a write never stored says "nothing was stored"; Confirm again stores it once', async () => {
		const league = (await bot.repo.listLeagues(bot.fake.guildId))[0]!.id;
		const p = await bot.preview([text('results', '1. Bob; 2. Alice')]);
		store.mode = 'down';
		const failed = await bot.click(p.confirm!);
		store.mode = 'up';
		expect(content(failed[1]!)).toMatch(
			/^The league store is unavailable right now: nothing was stored\. Try again in a few minutes\. \(ref: \d+\)$/,
		);
		expect(await events(league)).toBe(2);
		expect(content((await bot.click(p.confirm!))[1]!)).toBe('Stored as **R2** in **Outage Cup**.');
		expect(await events(league)).toBe(3);
	});

	it('a write whose answer was lost is answered "Stored", once', async () => {
		const league = (await bot.repo.listLeagues(bot.fake.guildId))[0]!.id;
		const p = await bot.preview([text('results', '1. Carol; 2. Bob')]);
		store.mode = 'answer-lost';
		const stored = await bot.click(p.confirm!);
		store.mode = 'up';
		expect(content(stored[1]!)).toBe('Stored as **R3** in **Outage Cup**.\nNew players: Carol.');
		expect(visible(stored[2]!)).toMatch(/^New race in \*\*Outage Cup\*\*: \*\*R3\*\*\./);
		expect(await events(league)).toBe(4);
		const again = await bot.click(p.confirm!);
		expect(content(again[1]!)).toBe('Already stored as **R3** in **Outage Cup**: nothing was stored twice.');
		expect(await events(league)).toBe(4);
	});

	it('a write whose answer was lost while the store stays silent: not known; Confirm again is safe', async () => {
		const league = (await bot.repo.listLeagues(bot.fake.guildId))[0]!.id;
		const p = await bot.preview([text('results', '1. Dan; 2. Bob')]);
		store.mode = 'answer-lost-then-silent';
		const unknown = await bot.click(p.confirm!);
		store.mode = 'up';
		store.silent = false;
		expect(content(unknown[1]!)).toMatch(
			/^The league store stopped answering while this was being stored, so it is not known whether it was\. .*pressing the same Confirm button again is safe/,
		);
		expect(await events(league)).toBe(5); // it was stored
		const again = await bot.click(p.confirm!);
		expect(content(again[1]!)).toBe('Already stored as **R4** in **Outage Cup**: nothing was stored twice.');
		expect(await events(league)).toBe(5);
	}, 20_000);

	it('a read-only store refuses the write with its message and still answers reads', async () => {
		const p = await bot.preview([text('results', '1. Erin; 2. Bob')]);
		store.mode = 'read-only';
		const refused = await bot.click(p.confirm!);
		const read = await bot.run('race', [sub('list')], ORGANIZER);
		store.mode = 'up';
		expect(content(refused[1]!)).toMatch(/^The store is read-only: nothing was stored\. /);
		expect(visible(read)).toContain('R4');
	});
});
