import { ImportError, readTable, type ImportResult } from './import-table.js';
import { normalizeName } from '../league/player-names.js';
import type { RaceEntry } from '../ratings/types.js';

/**
 * Import the ZakStunts race positions (duplode/elo-zs `data/Zak/zakstunts-race-positions.csv`, header
 * `Track,Racer,Rank,Ghost,Status`) with the reference's exclusion rules (elo-zs `src/Zak/Results.hs`):
 * - a row whose Status is not empty and not `MSC` is dropped (DSQ, INV, MEC, EX1, EX2, EX3);
 * - a ghost row (Ghost = 1, a second entry by one person) is dropped.
 * Races keep the file order (chronological) and the raw rank as position: rankRace renumbers ranks without gaps
 * and shares tied places, as elo-zs `tidyRanks` does. The file has no dates, so races have none.
 */
export function importZakstunts(text: string, file = 'zakstunts.csv'): ImportResult {
	const table = readTable(text, file, ['Track', 'Racer', 'Rank', 'Ghost', 'Status']);
	const races: { id: string; entries: RaceEntry[] }[] = [];
	const dropped = new Map<string, number>();
	const drop = (reason: string): void => void dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
	for (const row of table.rows) {
		const track = row.get('Track').trim();
		const racer = normalizeName(row.get('Racer'));
		const rank = row.get('Rank').trim();
		const status = row.get('Status').trim();
		if (track === '' || racer === '' || !/^\d+$/.test(rank) || Number(rank) < 1) {
			throw new ImportError(`${file}:${row.line}: expected a track, a racer and a rank ≥ 1`);
		}
		let race = races.at(-1);
		if (race?.id !== track) {
			if (races.some((r) => r.id === track))
				throw new ImportError(`${file}:${row.line}: track ${track} is not contiguous`);
			race = { id: track, entries: [] };
			races.push(race);
		}
		if (status !== '' && status !== 'MSC') {
			drop(`status ${status}`);
			continue;
		}
		if (row.get('Ghost').trim() === '1') {
			drop('ghost');
			continue;
		}
		if (race.entries.some((entry) => entry.player === racer)) {
			throw new ImportError(`${file}:${row.line}: ${racer} appears twice in ${track}`);
		}
		race.entries.push({ player: racer, position: Number(rank), status: 'finished' });
	}
	const notes = [...dropped].map(([reason, count]) => `dropped ${count} row(s): ${reason}`);
	return { races: races.filter((race) => race.entries.length > 0), notes };
}
