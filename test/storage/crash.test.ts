import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldEvents } from '../../src/league/race-log.js';
import { replayHistory } from '../../src/league/replay.js';
import { getSystem } from '../../src/ratings/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { adapters, skipUnavailable } from './helpers.js';
import type { StoreSpec } from './store-spec.js';
import { mulberry32 } from '../support/mulberry32.js';

const { list, cleanup } = adapters();
const shared = list.filter((adapter) => adapter.spec !== undefined);
afterAll(cleanup);
const writer = join(import.meta.dirname, 'crash-writer.ts');

/**
 * Start the writer, let it run a random while after its first acknowledged writes (so every round adds to the log,
 * however loaded the machine is), SIGKILL it.
 */
function runAndKill(spec: StoreSpec, seed: number, ms: number): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, ['--import', 'tsx', writer, JSON.stringify(spec), String(seed)], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stderr = '';
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.stdout.on('data', (chunk: Buffer) => {
			if (chunk.toString().includes('acked')) setTimeout(() => child.kill('SIGKILL'), ms);
		});
		child.on('exit', (code, signal) => {
			if (signal === 'SIGKILL') resolve();
			else reject(new Error(`writer exited with ${code}: ${stderr}`));
		});
	});
}

describe.each(shared)('crash safety ($name, SIGKILL at random moments)', (adapter) => {
	skipUnavailable(adapter);

	it('leaves a contiguous log of whole records whose derived state equals a fresh replay', async () => {
		const spec = adapter.spec!('crash');
		const random = mulberry32(2024);
		let previous = 0;
		for (let round = 0; round < 4; round++) {
			await runAndKill(spec, round + 1, 150 + Math.floor(random() * 600));

			// Every stored event record is whole and the seqs form 0..n-1 with nothing beyond a gap.
			const store = await adapter.open('crash');
			const rows: (readonly [string, unknown])[] = [];
			for await (const row of store.scan!('events')) rows.push(row);
			const seqs = rows.map(([key]) => Number(key.slice(key.lastIndexOf(':') + 1))).sort((a, b) => a - b);
			expect(seqs).toEqual(seqs.map((_, i) => i));
			for (const [, value] of rows) expect((value as { v: number }).v).toBe(1);
			expect(seqs.length).toBeGreaterThan(previous);
			previous = seqs.length;

			// Reopened state (state snapshot + tail) and ratings (rating snapshots + tail) equal a fresh fold.
			const repo = createLeagueRepository(store, { ratingEvery: 5, stateEvery: 7 });
			const events = await repo.readEvents('g1.main');
			expect(events).toHaveLength(rows.length);
			const fresh = foldEvents(events);
			expect((await repo.loadState('g1.main')).snapshot()).toEqual(fresh.snapshot());
			for (const id of ['glicko', 'folyami']) {
				const system = getSystem(id);
				const full = replayHistory(
					system,
					system.params(),
					fresh.ratedRaces().map((r) => r.race),
				);
				expect(JSON.stringify((await repo.ratingsAt('g1.main', id)).snapshot.players)).toBe(
					JSON.stringify(full.snapshot().players),
				);
			}
			await repo.close();
		}
	});
});
