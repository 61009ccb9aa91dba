/**
 * The leader lease: when several bot processes share a store (shards, a restart overlapping the old
 * process), scheduled jobs run in one of them. The jobs' own idempotency keys already make each post exactly once;
 * the lease keeps the others from doing the same work and racing for the keys.
 *
 * Time is cut into periods of `periodMs`. The leader of period k is whoever first inserts the key `leader:<k>` with
 * the store's atomic insert-if-absent (`add`: SQLite's INSERT OR IGNORE, PostgreSQL's ON CONFLICT DO NOTHING, Redis's
 * SET NX), so a period never has two leaders, whatever the processes' timing. The leader renews by claiming period
 * k+1 while it holds k (every `periodMs / 3`), so it keeps the lease while it lives; when it dies, period k+1 (if it
 * had claimed it already) passes with no leader and the first process to check in period k+2 takes over: a takeover
 * within two periods. Keys two periods old are deleted. Processes' clocks need only agree to within a period.
 */
import type { KeyValueNamespace } from '../storage/ports.js';

/** One minute: a dead leader is replaced within two minutes; jobs run on quarter-hour schedules. */
export const LEASE_PERIOD_MS = 60_000;

export interface LeaderLease {
	/** The holder's id (host, pid and a random part). */
	readonly holder: string;
	/** The length of a period; the scheduler renews three times a period. */
	readonly periodMs: number;
	/** Whether this process leads at `now`; claims the current period when nobody has, and the next one when leading. */
	isLeader(now: Date): Promise<boolean>;
}

interface LeaseRecord {
	readonly holder: string;
	readonly at: string;
}

export function createLeaderLease(options: {
	readonly store: KeyValueNamespace;
	readonly holder: string;
	readonly periodMs?: number;
}): LeaderLease {
	const { store, holder } = options;
	const periodMs = options.periodMs ?? LEASE_PERIOD_MS;
	const key = (period: number) => `leader:${period}`;

	/** Claims `period` if free; true when this process holds it (claimed now or earlier). */
	const hold = async (period: number, now: Date): Promise<boolean> => {
		const record: LeaseRecord = { holder, at: now.toISOString() };
		if (await store.add(key(period), record)) return true;
		const current = (await store.get(key(period))) as LeaseRecord | undefined;
		return current?.holder === holder;
	};

	return {
		holder,
		periodMs,
		async isLeader(now) {
			const period = Math.floor(now.getTime() / periodMs);
			if (!(await hold(period, now))) return false;
			// Renew: the next period is this leader's before anyone else looks at it. Clean up behind.
			await hold(period + 1, now);
			await store.delete(key(period - 2));
			return true;
		},
	};
}
