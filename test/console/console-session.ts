/** A console session over a memory store, as the console tests type into it: the real registry, router and services. */
import { PassThrough } from 'node:stream';
import { buttons, commands } from '../../commands/index.js';
import { CONSOLE_GUILD_ID, CONSOLE_USER_ID } from '../../src/console/console-interaction.js';
import { runConsole } from '../../src/console/console-loop.js';
import { createLogger } from '../../src/logger.js';
import { createServices, type Services } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { LeagueRepository } from '../../src/storage/ports.js';

/** The console's own user, an organizer of its server. */
export const consoleActor = { userId: CONSOLE_USER_ID, guildId: CONSOLE_GUILD_ID, manageGuild: true, roles: [] };

export interface ConsoleWorld {
	readonly repo: LeagueRepository;
	readonly services: Services;
	/** Types `lines` (then end of input) and returns the exit code and everything printed. */
	readonly type: (lines: readonly string[]) => Promise<{ code: number; out: string }>;
}

/** `outDir`: where files the commands attach are written (default: the console's own, data/console-out). */
export function consoleWorld(now: () => Date, outDir?: string): ConsoleWorld {
	const repo = createLeagueRepository(createMemoryStore(), { clock: now });
	const services = createServices(repo, { clock: now });
	return {
		repo,
		services,
		type: async (lines) => {
			const input = new PassThrough();
			let out = '';
			const done = runConsole({
				commands,
				buttons,
				context: { log: createLogger({ level: 'silent' }), services },
				input,
				write: (text) => (out += text),
				prompt: false,
				now,
				...(outDir !== undefined && { outDir }),
			});
			input.end(lines.map((line) => `${line}\n`).join(''));
			return { code: await done, out };
		},
	};
}
