import { createLeagueRepository, type LeagueRepositoryOptions } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueRepository, Store } from '../../src/storage/ports.js';
import type { Actor } from '../../src/services/actor.js';
import { createServices, type Services } from '../../src/services/index.js';

/** Services over a fresh memory store, with a controllable clock and predictable preview ids. */

export const GUILD = '900000000000000001';
export const organizer: Actor = { userId: '800000000000000001', guildId: GUILD, manageGuild: true, roles: [] };
export const organizer2: Actor = { userId: '800000000000000002', guildId: GUILD, manageGuild: true, roles: [] };
export const member: Actor = { userId: '800000000000000003', guildId: GUILD, manageGuild: false, roles: [] };
export const ROLE = '700000000000000001';
export const roleOrganizer: Actor = { userId: '800000000000000004', guildId: GUILD, manageGuild: false, roles: [ROLE] };

export interface World {
	readonly repo: LeagueRepository;
	readonly services: Services;
	readonly now: { ms: number };
}

export interface WorldOptions {
	/** Prefix of the preview ids (`p1`, `p2`, …): another process over the same store needs its own. */
	readonly ids?: string;
	readonly repo?: Omit<LeagueRepositoryOptions, 'clock'>;
}

/** `store`: an existing store, to reopen what another world wrote (default: a fresh one). */
export function world(store: Store = createMemoryStore(), options: WorldOptions = {}): World {
	const now = { ms: Date.parse('2026-03-01T12:00:00Z') };
	let n = 0;
	const ids = options.ids ?? 'p';
	const repo = createLeagueRepository(store, { ...options.repo, clock: () => new Date(now.ms) });
	const services = createServices(repo, { clock: () => new Date(now.ms), newId: () => `${ids}${++n}` });
	return { repo, services, now };
}

/** Submit and confirm in one go; returns the race id. */
export async function addRace(w: World, text: string, league?: string, date?: string): Promise<string> {
	const preview = await w.services.races.submit(organizer, { league, text, date });
	return (await w.services.races.confirm(organizer, preview.id)).race;
}

/** Number of events in a league's log. */
export async function eventCount(w: World, leagueId: string): Promise<number> {
	return (await w.repo.readEvents(leagueId)).length;
}
