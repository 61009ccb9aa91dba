import type { LeagueRepository } from '../storage/ports.js';

/** A write the repository completed: a league created, or an event appended (stored: ports.ts). */
export interface CompletedWrite {
	readonly kind: 'league-created' | 'event-appended';
	readonly leagueId: string;
}

/**
 * The repository with listeners on every write it completes. Every write of every service (commands, buttons, the
 * results inbox, the daily job) goes through the repository createServices wraps, so a listener sees them all: the
 * write witness (write-witness.ts) and rank roles (roles/role-sync-service.ts). A listener runs after the write
 * resolved; a refused or failed write calls none, and a listener's own failure never delays or fails the write.
 */
export function observeWrites(repo: LeagueRepository, listeners: readonly ((write: CompletedWrite) => void)[]) {
	const tell = (write: CompletedWrite) => {
		for (const listener of listeners) {
			try {
				listener(write);
			} catch {
				// A listener's own failure is not the write's.
			}
		}
	};
	return {
		...repo,
		createLeague: async (...args) => {
			const league = await repo.createLeague(...args);
			tell({ kind: 'league-created', leagueId: league.id });
			return league;
		},
		appendEvent: async (...args) => {
			const result = await repo.appendEvent(...args);
			tell({ kind: 'event-appended', leagueId: args[0] });
			return result;
		},
	} satisfies LeagueRepository;
}
