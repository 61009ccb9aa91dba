import { csvLine, readCsv } from './csv.js';

/**
 * What a history CSV cannot say about the players (`/league export` writes it as players.csv, `/league import
 * players:` reads it back): each player's other names, Discord link and sims' driver ids, one fact a row, so any
 * character a name may hold needs no second separator:
 *
 *     player,kind,value
 *     Max Verstappen,alias,MaxV
 *     Max Verstappen,discord,123456789012345678
 *     Max Verstappen,sim_id,steam:76561198000000001
 *
 * `player` is the name the history CSV gives the player (their current name).
 */

export interface PlayerFacts {
	readonly name: string;
	readonly aliases: readonly string[];
	/** Linked Discord user id. */
	readonly user?: string | undefined;
	readonly simIds: readonly string[];
}

export const PLAYERS_CSV_HEADER = 'player,kind,value';
const KINDS = ['alias', 'discord', 'sim_id'] as const;

export class PlayersCsvError extends Error {
	override readonly name = 'PlayersCsvError';
}

export function writePlayersCsv(players: readonly PlayerFacts[]): string {
	const rows = [PLAYERS_CSV_HEADER];
	for (const p of players) {
		for (const alias of p.aliases) rows.push(csvLine([p.name, 'alias', alias]));
		if (p.user !== undefined) rows.push(csvLine([p.name, 'discord', p.user]));
		for (const simId of p.simIds) rows.push(csvLine([p.name, 'sim_id', simId]));
	}
	return rows.map((row) => `${row}\n`).join('');
}

/** The facts by player, in the file's order; errors name `file:line`. Values are checked by the league log. */
export function readPlayersCsv(text: string, file: string): PlayerFacts[] {
	let rows;
	try {
		rows = readCsv(text.replace(/^\uFEFF/u, ''));
	} catch (error) {
		throw new PlayersCsvError(`${file}: ${(error as Error).message}`);
	}
	const header = rows[0]?.fields.map((f) => f.trim()).join(',');
	if (header !== PLAYERS_CSV_HEADER) {
		throw new PlayersCsvError(`${file}:1: expected the header ${PLAYERS_CSV_HEADER} (a players.csv of /league export)`);
	}
	const byName = new Map<string, { name: string; aliases: string[]; user?: string; simIds: string[] }>();
	for (const { line, fields } of rows.slice(1)) {
		if (fields.every((f) => f.trim() === '')) continue;
		if (fields.length !== 3) throw new PlayersCsvError(`${file}:${line}: expected 3 fields, got ${fields.length}`);
		const [name, kind, value] = fields.map((f) => f.trim()) as [string, string, string];
		if (name === '' || value === '') throw new PlayersCsvError(`${file}:${line}: a player and a value are required`);
		if (!(KINDS as readonly string[]).includes(kind)) {
			throw new PlayersCsvError(`${file}:${line}: kind "${kind}" is not one of ${KINDS.join(', ')}`);
		}
		const key = name.toLowerCase();
		const facts = byName.get(key) ?? { name, aliases: [], simIds: [] };
		byName.set(key, facts);
		if (kind === 'alias') facts.aliases.push(value);
		if (kind === 'sim_id') facts.simIds.push(value);
		if (kind === 'discord') {
			if (facts.user !== undefined) throw new PlayersCsvError(`${file}:${line}: ${name} has a second Discord link`);
			if (!/^\d{17,20}$/u.test(value)) {
				throw new PlayersCsvError(`${file}:${line}: "${value}" is not a Discord user id (17 to 20 digits)`);
			}
			facts.user = value;
		}
	}
	return [...byName.values()];
}
