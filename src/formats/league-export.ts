import { csvLine } from './csv.js';
import { writeHistoryCsv } from './history-csv.js';
import type { LeagueLog, RaceRecord } from '../league/race-log.js';
import type { Race, RatingSummary } from '../ratings/types.js';

/**
 * `/league export` (issue 8 §1) as files. The race log becomes a history CSV that `/league import`, `pitwall
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

export const STANDINGS_COLUMNS = [
	'system',
	'rank',
	'player',
	'rating',
	'uncertainty',
	'races',
	'provisional',
	'last_race',
] as const;

export interface StandingsTable {
	readonly system: string;
	readonly rows: readonly (RatingSummary & { readonly name: string; readonly lastDate?: string | undefined })[];
}

/** Every system's standings in one CSV, best first per system; numbers at full precision (String round-trips). */
export function writeStandingsCsv(tables: readonly StandingsTable[]): string {
	const lines = [STANDINGS_COLUMNS.join(',')];
	for (const { system, rows } of tables) {
		rows.forEach((row, i) =>
			lines.push(
				csvLine([
					system,
					String(i + 1),
					row.name,
					String(row.rating),
					row.uncertainty === undefined ? '' : String(row.uncertainty),
					String(row.races),
					row.provisional ? 'yes' : 'no',
					row.lastDate ?? '',
				]),
			),
		);
	}
	return lines.join('\n') + '\n';
}
