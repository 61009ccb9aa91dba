import { yieldToEventLoop } from '../event-loop.js';
import { escapeForDiscord } from '../formats/discord-escape.js';
import { exportLeague } from '../formats/league-export.js';
import { HistoryCsvWriteError } from '../formats/history-csv.js';
import { writeStandingsCsv, type StandingsTable } from '../formats/league-export.js';
import {
	LeagueFileError,
	readLeagueFile,
	type LeagueFileFormat,
	type LeagueFileInput,
} from '../formats/league-file.js';
import type { RaceInput } from '../league/league-events.js';
import { LeagueError, type LeagueLog } from '../league/race-log.js';
import { nameKey } from '../league/race-log-checks.js';
import { raceSystems } from '../ratings/index.js';
import type { LeagueInfo, LeagueRepository } from '../storage/ports.js';
import { requireOrganizer, type Actor } from './actor.js';
import { refused } from './errors.js';
import type { LeagueService } from './league-service.js';
import { leagueReadingDay } from './league-day.js';

/**
 * `/league import` and `/league export` (issue 8 §1). An import reads the whole file first (any bad row: its line and
 * what is wrong, nothing stored), checks every race against the league as the log will, then appends ONE
 * league-imported event (all or nothing) and reports the rating replay's progress. It goes into a league without
 * races only (the log refuses anything else), so the file's races become R1..RN in file order.
 */

export interface ImportLeagueInput extends LeagueFileInput {
	readonly league?: string | undefined;
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
	/** What the files do not carry (the history names each player by the name it has now). */
	readonly aliases: number;
	readonly links: number;
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
				file = readLeagueFile(input);
			} catch (error) {
				if (!(error instanceof LeagueFileError)) throw error;
				throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(error.message)}`);
			}
			if (file.races.length === 0) {
				throw refused('bad-import', `Nothing was imported: ${escapeForDiscord(input.file.name)} has no races.`);
			}
			const races: RaceInput[] = file.races.map((race, i) => ({
				// The file's race id becomes the race's name, unless it is just the id the league gives it.
				...(nameKey(race.id) !== nameKey(`R${i + 1}`) && { name: race.id }),
				...(race.date !== undefined && { date: race.date }),
				...(race.mode !== undefined && { mode: race.mode }),
				entries: race.entries,
			}));
			const event = { type: 'league-imported', races, source: input.file.name, by: actor.userId } as const;
			// Reading, checking and storing a big file are each one block of work: let other interactions in between.
			await yieldToEventLoop();
			const state = await repo.loadState(league.id);
			try {
				state.check({ ...event, at: clock().toISOString() });
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
			};
		},

		async exportFiles(actor, leagueRef) {
			const league = await leagues.resolve(actor, leagueRef);
			const state = await repo.loadState(league.id);
			const asOf = leagueReadingDay(state, league.config.timezone, clock());
			const files = exportable(state);
			const players = state.players();
			const tables: StandingsTable[] = [];
			for (const system of raceSystems) {
				const view = await repo.ratingsAt(league.id, system.id, asOf);
				tables.push({ system: system.id, rows: view.standings });
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
				aliases: players.reduce((sum, p) => sum + p.aliases.length, 0),
				links: players.filter((p) => p.user !== undefined).length,
			};
		},
	};
}

/**
 * The league as files, or a refusal saying why it cannot be written: a name stored under older, looser rules (a
 * 40-character name, an invisible character) would make a history CSV that /league import refuses (issue 9 item 8).
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
