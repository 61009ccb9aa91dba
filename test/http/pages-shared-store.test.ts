/**
 * Pages served by one process of a league another process writes (SHARDS=N: shard 0 serves the pages; an overlapping
 * restart): two repositories over one SQLite file, each with its own caches. The pages of the one that did not write
 * show the race the other confirmed, with the numbers the writer's own /leaderboard shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/logger.js';
import { createLeagueWebService } from '../../src/services/web/league-web-service.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import type { Store } from '../../src/storage/ports.js';
import { failOnError } from '../storage/helpers.js';
import { organizer } from '../services/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-pages-shared-'));
const stores: Store[] = [];
afterAll(async () => {
	for (const store of stores) await store.close();
	rmSync(dir, { recursive: true, force: true });
});

async function openProcess(file: string, now: () => Date) {
	const store = await openSqliteStore(file, failOnError);
	stores.push(store);
	const repo = createLeagueRepository(store, { clock: now });
	return { repo, services: createServices(repo, { clock: now }) };
}

describe('pages over a store another process writes', () => {
	it('show the other process’s new race, with its numbers', async () => {
		const now = () => new Date('2026-03-01T12:00:00Z');
		const file = join(dir, 'league.sqlite');
		const writer = await openProcess(file, now);
		const server = await openProcess(file, now);
		const league = await writer.services.leagues.create(organizer, { name: 'Shared Cup', headline: 'glicko' });
		await writer.services.leagues.configure(organizer, undefined, { visibility: 'public' });
		const confirm = async (text: string, date: string) => {
			const preview = await writer.services.races.submit(organizer, { text, date });
			await writer.services.races.confirm(organizer, preview.id);
		};
		await confirm('1. Ann\n2. Bob\n3. Cy', '2026-02-01');

		const web = createLeagueWebService(server.repo, server.services.leaderboard, now, { warm: false });
		const app = buildHttpServer({ log: createLogger({ level: 'silent', write: () => {} }), web });
		const url = `/api/v1/leagues/${encodeURIComponent(league.id)}/standings?system=glicko`;
		const rows = async () =>
			(await app.inject({ method: 'GET', url })).json<{ rows: { player: string; rating: number }[] }>().rows;
		expect((await rows()).map((r) => r.player)).toEqual(['Ann', 'Bob', 'Cy']);

		await confirm('1. Cy\n2. Dee\n3. Bob\n4. Ann', '2026-02-08');
		// The serving process reads the store again once its view is older than the repository's freshness window.
		await new Promise((resolve) => setTimeout(resolve, 100));
		const after = await rows();
		const board = await writer.services.leaderboard.page(organizer, { system: 'glicko' });
		const state = await writer.repo.loadState(league.id);
		expect(after.map((r) => r.player)).toEqual(board.rows.map((r) => state.resolve(r.player)!.name));
		expect(after.map((r) => r.rating)).toEqual(board.rows.map((r) => r.rating));
		expect(after.map((r) => r.player)).toContain('Dee');
		await app.close();
	});
});
