/**
 * The console's first run: when the local guild has no league yet, create "ZakStunts" (headline folyami, with the
 * new-league parameters of league-defaults.ts) and import the sample history (data/sample-league.csv) through the
 * repository as one `league-imported` event by `console` — the same path a `/league import` takes, so the console starts with real standings.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseHistoryCsv } from '../formats/history-csv.js';
import { PROJECT_ROOT } from '../project-root.js';
import { LEAGUE_DEFAULTS } from '../league/league-defaults.js';
import type { LeagueConfig, RaceInput } from '../league/league-events.js';
import type { Race } from '../ratings/types.js';
import { LeagueError } from '../league/race-log.js';
import { leagueId } from '../storage/league-repository.js';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';

/** The checked-in history, found from the project's root (not the working directory). */
export const SAMPLE_LEAGUE_FILE = join(PROJECT_ROOT, 'data', 'sample-league.csv');

export interface SeedResult {
	readonly league: LeagueInfo;
	/** Races imported now; 0 when the guild already had a league. */
	readonly races: number;
	readonly ms: number;
}

export const sampleLeagueConfig = (guildId: string): LeagueConfig => ({
	guildId,
	name: 'ZakStunts',
	headline: 'folyami',
	// Created as any new league is, so it shows what an organizer's league starts from. ZakStunts has
	// no dates, so only folyami's k differs from the reference here (glicko c and endure φ act on idle days).
	params: LEAGUE_DEFAULTS,
	timezone: 'UTC',
	// Its web page is public: the console serves it at once (docs/web.md).
	visibility: 'public',
});

/** A history race as a submission: the CSV's race id is not kept (the league numbers its races). */
export const raceInputOf = (race: Race): RaceInput => ({
	date: race.date,
	mode: race.mode,
	entries: race.entries.map(({ player, position, time, status, team, car }) => ({
		player,
		position,
		time,
		status,
		...(team !== undefined && { team }),
		...(car !== undefined && { car }),
	})),
});

/**
 * Creates and fills the sample league unless the guild already has a league, safely when several processes start on
 * one store. The league's creation is claimed once (createLeague: the loser is told it exists), and
 * its 293 races go in as ONE league-imported event at the next seq (as /league import does), which the log also
 * claims once: a second seeder's import is refused, since the league then has races. A kill between the two leaves
 * the sample league with no race, and the next first run fills it; a kill during the import leaves none of it.
 */
export async function ensureSampleLeague(
	repo: LeagueRepository,
	guildId: string,
	file = SAMPLE_LEAGUE_FILE,
	now: () => number = () => performance.now(),
): Promise<SeedResult> {
	const started = now();
	const config = sampleLeagueConfig(guildId);
	const sampleId = leagueId(guildId, config.name);
	const existing = await repo.listLeagues(guildId);
	let league = existing.find((l) => l.id === sampleId);
	if (league === undefined && existing[0] !== undefined) return { league: existing[0], races: 0, ms: now() - started };
	league ??= await repo.createLeague(config, 'console').catch(async (error: unknown) => {
		const other = error instanceof LeagueError ? await repo.getLeague(sampleId) : undefined;
		if (other === undefined) throw error;
		return other; // another process created it first
	});
	// Past its creation (seq 0) the league is seeded, or is being seeded by the process that created it.
	if (league.seq > 0) return { league, races: 0, ms: now() - started };
	const races = parseHistoryCsv(await readFile(file, 'utf8'), file).map(raceInputOf);
	const source = basename(file);
	try {
		await repo.appendEvent(league.id, { type: 'league-imported', races, source, by: 'console' });
	} catch (error) {
		if (!(error instanceof LeagueError)) throw error;
		// Another process imported it first: the log refused this second import, nothing was stored.
		return { league: (await repo.getLeague(league.id)) ?? league, races: 0, ms: now() - started };
	}
	return { league: (await repo.getLeague(league.id)) ?? league, races: races.length, ms: now() - started };
}
