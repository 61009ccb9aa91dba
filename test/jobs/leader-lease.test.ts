/**
 * The leader lease: never two leaders in one period, whatever the interleaving; a living leader keeps
 * the lease; a dead one is replaced within two periods; the scheduler runs jobs only where the lease is.
 */
import { describe, expect, it } from 'vitest';
import { createLeaderLease, type LeaderLease } from '../../src/jobs/leader-lease.js';
import { createScheduler } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/logger.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

const PERIOD = 60_000;
const T0 = Date.parse('2026-11-24T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

function leases(n: number): LeaderLease[] {
	const store = createMemoryStore().namespace('jobs');
	return Array.from({ length: n }, (_, i) => createLeaderLease({ store, holder: `p${i}`, periodMs: PERIOD }));
}

/** A seeded generator (mulberry32): the same interleavings every run. */
function random(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe('leader lease', () => {
	it('never gives one period two leaders: 3 processes checking concurrently at random times', async () => {
		const all = leases(3);
		const next = random(7);
		const leaders = new Map<number, Set<string>>();
		for (let step = 0; step < 600; step++) {
			const ms = step * 5_000 + next() * 5_000;
			// All three ask at about the same instant, concurrently (their store calls interleave).
			const answers = await Promise.all(
				all.map(async (lease) => [lease.holder, await lease.isLeader(at(ms))] as const),
			);
			const period = Math.floor((T0 + ms) / PERIOD);
			for (const [holder, leads] of answers) {
				if (leads) leaders.set(period, (leaders.get(period) ?? new Set()).add(holder));
			}
		}
		for (const [period, holders] of leaders) expect([...holders], `period ${period}`).toHaveLength(1);
		// The first leader kept the lease all along: it renews while it lives.
		expect(new Set([...leaders.values()].flatMap((h) => [...h]))).toEqual(new Set(['p0']));
	});

	it('a dead leader is replaced within two periods, and the new leader keeps it', async () => {
		const [first, second] = leases(2);
		expect(await first!.isLeader(at(0))).toBe(true);
		expect(await second!.isLeader(at(10_000))).toBe(false);
		expect(await first!.isLeader(at(50_000))).toBe(true); // claims the next period too
		// The first process dies here. The next period was claimed by it: nobody leads there.
		expect(await second!.isLeader(at(PERIOD + 10_000))).toBe(false);
		expect(await second!.isLeader(at(2 * PERIOD + 1_000))).toBe(true);
		for (let ms = 2 * PERIOD; ms < 10 * PERIOD; ms += PERIOD / 3) expect(await second!.isLeader(at(ms))).toBe(true);
	});

	it('the scheduler runs a job only in the process holding the lease', async () => {
		const [a, b] = leases(2);
		const ran: string[] = [];
		const log = createLogger({ level: 'silent' });
		const job = (name: string) => ({
			name: 'post',
			schedule: '0 * * * *',
			run: () => Promise.resolve(void ran.push(name)),
		});
		const clock = () => at(1_000);
		const one = createScheduler({ jobs: [job('a')], log, clock, lease: a });
		const two = createScheduler({ jobs: [job('b')], log, clock, lease: b });
		await one.runNow('post');
		await two.runNow('post');
		await one.runNow('post');
		expect(ran).toEqual(['a', 'a']);
	});
});
