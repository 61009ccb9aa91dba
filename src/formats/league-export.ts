import { csvLine } from './csv.js';
import { writeHistoryCsv } from './history-csv.js';
import { fmtRating } from './number-text.js';
import type { RatingScale } from './rating-scale.js';
import type { LeagueLog, RaceRecord } from '../league/race-log.js';
import type { Race, RatingSummary } from '../ratings/types.js';

/**
 * `/league export` as files. The race log becomes a history CSV that `/league import`, `pitwall
 * calibrate`, `backtest` and `replay` read: the confirmed races in rating order (rating-order.ts), players by their
 * current name, each race under its name (or its id when it has none, or when its name is shared). Voided races are
 * left out of it and written to a second history CSV of their own, so the main file rates exactly as the league does.
 */

export interface LeagueExport {
	/** History CSV of the confirmed races, in rating order. */
	readonly history: string;
	/** History CSV of the voided races (undefined when there are none). */
	readonly voided: string | undefined;
	readonly races: number;
	readonly voidedRaces: number;
}

export function exportLeague(log: LeagueLog): LeagueExport {
	const all = log.races();
	const labelOf = (race: RaceRecord) => race.name ?? race.id;
	const uses = new Map<string, number>();
	for (const race of all) uses.set(labelOf(race), (uses.get(labelOf(race)) ?? 0) + 1);
	const toRace = (race: RaceRecord): Race => ({
		// A shared name (two "Monza" rounds) would merge two races in the file: the id keeps them apart.
		id: uses.get(labelOf(race)) === 1 ? labelOf(race) : `${race.id} ${labelOf(race)}`,
		...(race.date !== undefined && { date: race.date }),
		...(race.mode !== undefined && { mode: race.mode }),
		entries: race.entries.map((e) => ({ ...e, player: log.resolve(e.player)?.name ?? e.player })),
	});
	const confirmed = log.ratedRaces().map(({ race }) => toRace(log.race(race.id)!));
	const voided = all.filter((r) => r.status === 'voided').map(toRace);
	return {
		history: writeHistoryCsv(confirmed),
		voided: voided.length > 0 ? writeHistoryCsv(voided) : undefined,
		races: confirmed.length,
		voidedRaces: voided.length,
	};
}

/**
 * The standings file's columns. `rating` and `uncertainty` are the numbers /leaderboard and /rating show, rounded as
 * they show them (one decimal; endure and speed as Elo-like points, rating-scale.ts); `rating_raw` and
 * `uncertainty_raw` are the values as computed, at full precision (String round-trips), as `pitwall replay` prints
 * them. An uncertainty is empty where the system shows none per player (folyami, stk, endure's base form); its raw
 * value is still written where the system keeps one.
 */
export const STANDINGS_COLUMNS = [
	'system',
	'rank',
	'player',
	'rating',
	'uncertainty',
	'races',
	'provisional',
	'last_race',
	'rating_raw',
	'uncertainty_raw',
] as const;

export interface StandingsTable {
	readonly system: string;
	/** The scale the league shows this system's ratings on (its parameters decide endure's and speed's). */
	readonly scale: RatingScale;
	readonly rows: readonly (RatingSummary & { readonly name: string; readonly lastDate?: string | undefined })[];
}

/** Every system's standings in one CSV, best first per system: as shown, then as computed. */
export function writeStandingsCsv(tables: readonly StandingsTable[]): string {
	const lines = [STANDINGS_COLUMNS.join(',')];
	for (const { system, scale, rows } of tables) {
		rows.forEach((row, i) => {
			const uncertainty = scale.uncertainty(row.uncertainty);
			lines.push(
				csvLine([
					system,
					String(i + 1),
					row.name,
					fmtRating(scale.rating(row.rating)),
					uncertainty === undefined ? '' : fmtRating(uncertainty),
					String(row.races),
					row.provisional ? 'yes' : 'no',
					row.lastDate ?? '',
					String(row.rating),
					row.uncertainty === undefined ? '' : String(row.uncertainty),
				]),
			);
		});
	}
	return lines.join('\n') + '\n';
}
