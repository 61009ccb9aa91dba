import { describe, expect, it } from 'vitest';
import type { LoggedEvent } from '../../src/league/league-events.js';
import { createLeagueLog } from '../../src/league/race-log.js';
import { createLeagueStateStore } from '../../src/storage/league-state-store.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { KeyValueNamespace } from '../../src/storage/ports.js';
import { stateToRecord } from '../../src/storage/records.js';
import { config, randomRaces } from './helpers.js';

/** A league log of `count` races, built event by event as the repository applies them. */
function logOf(count: number) {
	const log = createLeagueLog();
	let seq = 0;
	const apply = (event: Record<string, unknown>) =>
		log.apply({ ...event, by: 'u', at: '2026-01-01T00:00:00Z', seq: seq++ } as unknown as LoggedEvent);
	apply({ type: 'league-configured', config: config('Chunks') });
	for (const race of randomRaces(5, count)) apply({ type: 'race-submitted', race });
	return { log, apply };
}

/** The namespace, counting the records written. */
function counted(ns: KeyValueNamespace) {
	const sets: string[] = [];
	return { sets, ns: { ...ns, set: (key: string, value: unknown) => (sets.push(key), ns.set(key, value)) } };
}

describe('the league state in chunks', () => {
	it('reads back what was written, and a later write puts only the chunks that changed, then the head', async () => {
		const { log, apply } = logOf(23);
		const { sets, ns } = counted(createMemoryStore().namespace('league-state'));
		const states = createLeagueStateStore(ns, 5);
		await states.write('L', log.snapshot());
		expect(sets).toHaveLength(5 + 1); // 23 races in chunks of 5, and the head
		expect(await createLeagueStateStore(ns, 5).read('L')).toEqual(log.snapshot());

		sets.length = 0;
		apply({ type: 'race-voided', race: 'R7', reason: 'duplicate' });
		apply({ type: 'race-submitted', race: randomRaces(6, 1)[0] });
		await states.write('L', log.snapshot());
		// R7 is in the second chunk (R6-R10), R24 in the last (R21-R24); the head comes last.
		expect(sets).toEqual(['L:races:1:25', 'L:races:4:25', 'L']);
		const read = await createLeagueStateStore(ns, 5).read('L');
		expect(read).toEqual(log.snapshot());
		expect(read?.races[6]?.status).toBe('voided');
		// The chunks the head no longer lists are deleted.
		expect(await ns.get('L:races:1:23')).toBeUndefined();
		expect(await ns.get('L:races:0:23')).toBeDefined();
	});

	it('reads the older one-record state, and a head whose chunk is gone as no state (the log decides)', async () => {
		const { log } = logOf(8);
		const ns = createMemoryStore().namespace('league-state');
		await ns.set('old', stateToRecord('old', log.snapshot()));
		expect(await createLeagueStateStore(ns).read('old')).toEqual(log.snapshot());

		await createLeagueStateStore(ns, 3).write('L', log.snapshot());
		await ns.delete('L:races:1:8');
		expect(await createLeagueStateStore(ns, 3).read('L')).toBeUndefined();
		expect(await createLeagueStateStore(ns).read('none')).toBeUndefined();
	});
});
