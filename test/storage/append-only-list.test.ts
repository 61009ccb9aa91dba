import { describe, expect, it } from 'vitest';
import { createAppendOnlyList } from '../../src/storage/append-only-list.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

describe('append-only lists (a server’s leagues)', () => {
	it('reads a list stored by an older version as one value, then the entries appended after it, each id once', async () => {
		const ns = createMemoryStore().namespace('guilds');
		await ns.set('g1', { v: 1, leagues: ['g1.a', 'g1.b'] }); // the pre-issue-9 record: one list value
		const lists = createAppendOnlyList(ns);
		await lists.appendOnce('g1', 'g1.b'); // already listed: nothing written
		expect(await ns.get('g1:0')).toBeUndefined();
		await lists.appendOnce('g1', 'g1.c');
		// Two processes repairing one missing entry may both append it; a reader sees it once.
		await ns.add('g1:1', { v: 1, leagues: ['g1.c'] });
		await createAppendOnlyList(ns).appendOnce('g1', 'g1.d');
		expect(await ns.get('g1:2')).toEqual({ v: 1, leagues: ['g1.d'] });
		expect(await lists.read('g1')).toEqual(['g1.a', 'g1.b', 'g1.c', 'g1.d']);
		expect(await lists.read('g2')).toEqual([]);
	});

	it('an append whose slot another process took goes to the next slot', async () => {
		const ns = createMemoryStore().namespace('guilds');
		let raced = false;
		// Another process claims the slot between this one's read and its claim.
		const contended = {
			...ns,
			async add(key: string, value: unknown) {
				if (!raced) {
					raced = true;
					await ns.add(key, { v: 1, leagues: ['g1.theirs'] });
				}
				return ns.add(key, value);
			},
		};
		await createAppendOnlyList(contended).appendOnce('g1', 'g1.mine');
		expect(await ns.get('g1:0')).toEqual({ v: 1, leagues: ['g1.theirs'] });
		expect(await ns.get('g1:1')).toEqual({ v: 1, leagues: ['g1.mine'] });
	});
});
