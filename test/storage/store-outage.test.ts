import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openRedisStore } from '../../src/storage/redis-store.js';
import { StoreUnavailableError } from '../../src/storage/store-unavailable-error.js';
import { startRedis } from '../setup/store-servers.js';
import { config, randomRaces } from './helpers.js';

/**
 * A Redis outage under a running process. Before, a command waited in the client's queue until the server came back
 * (a `/race submit` was answered after 44,991 ms) and every reconnection attempt was logged (216 ECONNREFUSED lines
 * in 45 s). Now a command fails within seconds with a StoreUnavailableError, and the outage is logged once.
 * A private Redis server of this test's own, stopped under the store.
 */

const dir = mkdtempSync(join(tmpdir(), 'pitwall-outage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rejects with a clear message if `work` has not settled within `ms` (the fault: it waited without end). */
const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
	Promise.race([
		work,
		new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms).unref()),
	]);

describe('a Redis outage', () => {
	it('fails a write within seconds, says nothing was stored, and logs the outage once', async () => {
		let server: Awaited<ReturnType<typeof startRedis>>;
		try {
			server = await startRedis(dir);
		} catch (error) {
			expect.fail(`redis-server could not be started (scripts/setup.sh --test installs it): ${String(error)}`);
		}
		const logged: string[] = [];
		const url = (server.status as { url: string }).url;
		const store = await openRedisStore(url, (error) => logged.push(String(error)), { prefix: 'outage' });
		const repo = createLeagueRepository(store, { freshMs: 0 });
		const races = randomRaces(5, 3);
		try {
			const { id } = await repo.createLeague(config(), 'test');
			await repo.appendEvent(id, { type: 'race-submitted', race: races[0]!, by: 'test' });
			await server.stop();
			const started = performance.now();
			const failed = await within(
				20_000,
				repo.appendEvent(id, { type: 'race-submitted', race: races[1]!, by: 'test' }).then(
					() => undefined,
					(error: unknown) => error,
				),
			);
			const ms = performance.now() - started;
			expect(failed).toBeInstanceOf(StoreUnavailableError);
			expect((failed as StoreUnavailableError).write).toBe(true);
			expect((failed as StoreUnavailableError).stored).toBe('no'); // it failed reading the head: never sent
			// A read fails the same way, and the outage so far is one log line however many reconnections it took.
			await expect(within(20_000, repo.loadState(id, { fresh: true }))).rejects.toBeInstanceOf(StoreUnavailableError);
			expect(logged.filter((line) => /not answering/.test(line))).toHaveLength(1);
			expect(logged.length).toBeLessThanOrEqual(2);
			console.log(`Redis outage: the write failed after ${Math.round(ms)} ms; ${logged.length} log line(s)`);
		} finally {
			await store.close().catch(() => {});
			await server.stop();
		}
	}, 60_000);
});
