import { describe, expect, it } from 'vitest';
import { observeWrites, type CompletedWrite } from '../../src/services/observed-writes.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

describe('observed writes', () => {
	const config = { guildId: '223456789012345678', name: 'Cup', headline: 'glicko', params: {}, timezone: 'UTC' };
	const race = {
		entries: [
			{ player: 'Ann', position: 1, status: 'finished' as const },
			{ player: 'Bob', position: 2, status: 'finished' as const },
		],
	};

	it('tells every listener of each completed write, in order, and none of a refused one or a read', async () => {
		const seen: CompletedWrite[] = [];
		const also: string[] = [];
		const repo = observeWrites(createLeagueRepository(createMemoryStore()), [
			(write) => seen.push(write),
			(write) => also.push(write.kind),
		]);
		const { id } = await repo.createLeague(config, 'u1');
		await expect(repo.createLeague(config, 'u1')).rejects.toThrow(); // the name is taken: nothing stored
		await repo.appendEvent(id, { type: 'race-submitted', race, by: 'u1' });
		await expect(repo.appendEvent(id, { type: 'race-voided', race: 'R9', reason: 'x', by: 'u1' })).rejects.toThrow();
		await repo.listLeagues(config.guildId);
		await repo.ratingsAt(id, 'glicko');
		expect(seen).toEqual([
			{ kind: 'league-created', leagueId: id },
			{ kind: 'event-appended', leagueId: id },
		]);
		expect(also).toEqual(['league-created', 'event-appended']);
	});

	it('a listener that throws neither fails the write nor keeps the others from hearing of it', async () => {
		const heard: string[] = [];
		const repo = observeWrites(createLeagueRepository(createMemoryStore()), [
			() => {
				throw new Error('listener broke');
			},
			(write) => heard.push(write.kind),
		]);
		const { id } = await repo.createLeague(config, 'u1');
		const result = await repo.appendEvent(id, { type: 'race-submitted', race, by: 'u1' });
		expect(result.seq).toBe(1);
		expect(heard).toEqual(['league-created', 'event-appended']);
		expect((await repo.readEvents(id)).map((e) => e.type)).toEqual(['league-configured', 'race-submitted']);
	});
});
