import { yieldToEventLoop } from '../../event-loop.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { exportLeague } from '../../formats/league-export.js';
import { HistoryCsvWriteError } from '../../formats/history-csv.js';
import { writeStandingsCsv, type StandingsTable } from '../../formats/league-export.js';
import {
	LeagueFileError,
	type LeagueFileFormat,
	type LeagueFileInput,
	type NamedText,
} from '../../formats/league-file.js';
import { PlayersCsvError, readPlayersCsv, writePlayersCsv, type PlayerFacts } from '../../formats/players-csv.js';
import type { RaceInput } from '../../league/league-events.js';
import { LeagueError, type LeagueLog } from '../../league/race-log.js';
import { nameKey } from '../../league/race-log-checks.js';
import { raceSystems } from '../../ratings/index.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { runInSlices } from '../../storage/in-slices.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { readLeagueFileOffThread } from './read-league-file.js';
import { refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import { leagueScale } from '../ratings/shown-scale.js';

/**
 * `/league import` and `/league export`. An import reads the whole file first (any bad row: its line and
 * what is wrong, nothing stored), checks every race against the league as the log will, then appends ONE
 * league-imported event (all or nothing) and reports the rating replay's progress. It goes into a league without
 * races only (the log refuses anything else), so the file's races become R1..RN in file order.
 */

export interface ImportLeagueInput extends LeagueFileInput {
	readonly league?: string | undefined;
	/** A players.csv of an export: aliases, Discord links and sim ids of the history's players. */
	readonly players?: NamedText | undefined;
}

export interface ImportSummary {
	readonly league: LeagueInfo;
	readonly format: LeagueFileFormat;
	readonly races: number;
	readonly entries: number;
	readonly players: number;
	/** Earliest and latest race date (undefined when no race is dated). */
	readonly firstDate?: string | undefined;
	readonly lastDate?: string | undefined;
	readonly undated: number;
	readonly warnings: readonly string[];
	/** Aliases, Discord links and sim ids given from the players file. */
	readonly given: PlayerFactCounts;
}

export interface PlayerFactCounts {
	readonly aliases: number;
	readonly links: number;
	readonly simIds: number;
}

export interface LeagueExportFiles {
	readonly league: LeagueInfo;
	/** The day the standings are grown to, as /leaderboard shows them. */
	readonly asOf: string;
	readonly history: string;
	readonly voided: string | undefined;
	readonly standings: string;
	readonly races: number;
	readonly voidedRaces: number;
	readonly systems: readonly string[];
	/** The players' aliases, Discord links and sim ids (players.csv; undefined when no player has any). */
	readonly players: string | undefined;
	readonly given: PlayerFactCounts;
}

/** Hears the import's progress: races rated of `total` (0 of N once the file is read and checked). */
export type ImportProgress = (done: number, total: number) => void;

export interface LeagueTransferService {
	importFile(actor: Actor, input: ImportLeagueInput, progress?: ImportProgress): Promise<ImportSummary>;
	exportFiles(actor: Actor, league: string | undefined): Promise<LeagueExportFiles>;
}

export function createLeagueTransferService(
	repo: LeagueRepository,
	leagues: LeagueService,
	clock: () => Date = () => new Date(),
): LeagueTransferService {
	return {
		async importFile(actor, input, progress) {
			const league = await leagues.resolve(actor, input.league);
			requireOrganizer(actor, league.config);
			let file;
			try {
				file = await readLeagueFileOffThread(input); // a big file on a worker thread: 567 ms of parsing for 10,000 races
			} catch (error) {
				if (!(error instanceof LeagueFileError)) throw error;
				throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(error.message)}`);
			}
			if (file.races.length === 0) {
				throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(input.file.name)} has no races.`);
			}
			const players = readPlayers(input.players);
			const races: RaceInput[] = file.races.map((race, i) => ({
				// The file's race id becomes the race's name, unless it is just the id the league gives it.
				...(nameKey(race.id) !== nameKey(`R${i + 1}`) && { name: race.id }),
				...(race.date !== undefined && { date: race.date }),
				...(race.mode !== undefined && { mode: race.mode }),
				entries: race.entries,
			}));
			const event = {
				type: 'league-imported',
				races,
				source: input.file.name,
				...(players.length > 0 && { players }),
				by: actor.userId,
			} as const;
			// Reading, checking and storing a big file are each one block of work: let other interactions in between.
			await yieldToEventLoop();
			const state = await repo.loadState(league.id);
			try {
				// In slices: checking 10,000 races at once held the event loop for over 100 ms.
				await runInSlices(state.checkInSteps({ ...event, at: clock().toISOString() }));
			} catch (error) {
				if (!(error instanceof LeagueError)) throw error;
				throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(error.message)}.`);
			}
			progress?.(0, races.length);
			await yieldToEventLoop();
			let result;
			try {
				result = await repo.appendEvent(league.id, event, {
					progress: progress && ((done, total) => progress(Math.floor((done / total) * races.length), races.length)),
				});
			} catch (error) {
				// Another organizer submitted or imported in between: the log refused, nothing was stored.
				if (!(error instanceof LeagueError)) throw error;
				throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(error.message)}.`);
			}
			const dates = races.flatMap((r) => (r.date === undefined ? [] : [r.date])).sort();
			return {
				league: (await repo.getLeague(league.id)) ?? league,
				format: file.format,
				races: races.length,
				entries: races.reduce((sum, r) => sum + r.entries.length, 0),
				players: result.newPlayers.length,
				firstDate: dates[0],
				lastDate: dates.at(-1),
				undated: races.length - dates.length,
				warnings: file.warnings,
				given: countFacts(players),
			};
		},

		async exportFiles(actor, leagueRef) {
			const league = await leagues.resolve(actor, leagueRef);
			const state = await repo.loadState(league.id);
			const asOf = leagueReadingDay(state, league.config.timezone, clock());
			const files = exportable(state);
			const facts = state
				.players()
				.map((p) => ({ name: p.name, aliases: p.aliases, user: p.user, simIds: p.simIds ?? [] }))
				.filter((p) => p.aliases.length > 0 || p.user !== undefined || p.simIds.length > 0);
			const tables: StandingsTable[] = [];
			for (const system of raceSystems) {
				const view = await repo.ratingsAt(league.id, system.id, asOf);
				// Shown as /leaderboard shows them (the league's scale), with the raw values beside.
				tables.push({ system: system.id, scale: leagueScale(league, system.id), rows: view.standings });
			}
			return {
				league,
				asOf,
				history: files.history,
				voided: files.voided,
				standings: writeStandingsCsv(tables),
				races: files.races,
				voidedRaces: files.voidedRaces,
				systems: tables.map((t) => t.system),
				players: facts.length > 0 ? writePlayersCsv(facts) : undefined,
				given: countFacts(facts),
			};
		},
	};
}

function readPlayers(file: NamedText | undefined): PlayerFacts[] {
	if (file === undefined) return [];
	try {
		return readPlayersCsv(file.text, file.name);
	} catch (error) {
		if (!(error instanceof PlayersCsvError)) throw error;
		throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(error.message)}`);
	}
}

const countFacts = (facts: readonly PlayerFacts[]): PlayerFactCounts => ({
	aliases: facts.reduce((sum, p) => sum + p.aliases.length, 0),
	links: facts.filter((p) => p.user !== undefined).length,
	simIds: facts.reduce((sum, p) => sum + p.simIds.length, 0),
});

/**
 * The league as files, or a refusal saying why it cannot be written: a name stored under older, looser rules (a
 * 40-character name, an invisible character) would make a history CSV that /league import refuses.
 */
function exportable(state: LeagueLog): ReturnType<typeof exportLeague> {
	try {
		return exportLeague(state);
	} catch (error) {
		if (!(error instanceof HistoryCsvWriteError)) throw error;
		throw refused(
			'cannot-export',
			`Nothing was exported: ${escapeForDiscord(error.message)}. Rename the player with /player rename (or edit the race), then export again.`,
		);
	}
}
