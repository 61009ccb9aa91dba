/**
 * The console's first run: when the local guild has no league yet, create "ZakStunts" (headline folyami) and import
 * the sample history (data/sample-league.csv) through the repository, one `race-submitted` event per race, by
 * `console` — the same path a `/race submit` takes, so the console starts with real standings.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHistoryCsv } from '../formats/history-csv.js';
import type { LeagueConfig, RaceInput } from '../league/league-events.js';
import type { Race } from '../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';

/** The checked-in history, found from this module (not the working directory). */
export const SAMPLE_LEAGUE_FILE = join(import.meta.dirname, '..', '..', 'data', 'sample-league.csv');

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
	params: {},
	timezone: 'UTC',
});

/** A history race as a submission: the CSV's race id is not kept (the league numbers its races). */
export const raceInputOf = (race: Race): RaceInput => ({
	date: race.date,
	mode: race.mode,
	entries: race.entries.map(({ player, position, time, status }) => ({ player, position, time, status })),
});

/** Creates and fills the sample league unless the guild already has one; `now` times the import. */
export async function ensureSampleLeague(
	repo: LeagueRepository,
	guildId: string,
	file = SAMPLE_LEAGUE_FILE,
	now: () => number = () => performance.now(),
): Promise<SeedResult> {
	const started = now();
	const existing = await repo.listLeagues(guildId);
	if (existing[0] !== undefined) return { league: existing[0], races: 0, ms: now() - started };
	const races = parseHistoryCsv(await readFile(file, 'utf8'), file);
	const created = await repo.createLeague(sampleLeagueConfig(guildId), 'console');
	for (const race of races) {
		await repo.appendEvent(created.id, { type: 'race-submitted', race: raceInputOf(race), by: 'console' });
	}
	const league = (await repo.getLeague(created.id)) ?? created;
	return { league, races: races.length, ms: now() - started };
}
