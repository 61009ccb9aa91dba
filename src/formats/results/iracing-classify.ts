import type { EntryStatus } from '../../ratings/types.js';
import type { ResultEntry } from './types.js';

/**
 * What iRacing's two result files (the members-site CSV export, iracing-csv.ts, and the data-API / site-export JSON,
 * iracing-json.ts) share once their rows are read: the status from iRacing's "out" reason and the bot's order.
 * - `Running` took the flag (lapped cars too); `Disqualified` and `DQ/Scoring Invalidated` are DSQ; any other
 *   reason (`Disconnected`, ...) did not take the flag: DNF, or DNS when the car completed no lap at all.
 * - iRacing classifies a car that dropped out by its laps, so a disconnected car can sit above a lapped finisher.
 *   As everywhere in the bot, those who did not take the flag come after every finisher, in the file's order;
 *   such a move is said in a warning. Positions are then 1..n, class positions counted within each class.
 * iRacing gives no total race time (only intervals and an average lap rounded to 0.1 ms), so none is made up.
 */

/** One car as a reader found it, in the file's classification order. */
export interface IracingRow {
	readonly name: string;
	/** iRacing's position for it (1-based), for the warnings. */
	readonly filePosition: number;
	/** iRacing's reason out, as written: "Running", "Disconnected", "Disqualified", ... */
	readonly out: string;
	readonly laps: number;
	readonly carClass?: string | undefined;
	readonly car?: string | undefined;
	readonly simId?: string | undefined;
}

export function iracingStatus(out: string, laps: number): EntryStatus {
	if (/disqualif|^\s*dq\b/iu.test(out)) return 'DSQ';
	if (laps <= 0) return 'DNS';
	return /^\s*running\s*$/iu.test(out) ? 'finished' : 'DNF';
}

export function iracingEntries(rows: readonly IracingRow[], warnings: string[]): ResultEntry[] {
	const rated = rows.map((row) => ({ row, status: iracingStatus(row.out, row.laps) }));
	const finishers = rated.filter((r) => r.status === 'finished');
	const others = rated.filter((r) => r.status !== 'finished');
	const lastFinisher = finishers.at(-1)?.row.filePosition ?? 0;
	const moved = others.filter((r) => r.row.filePosition < lastFinisher);
	if (moved.length > 0) {
		const list = moved.map((r) => `${r.row.name} (P${r.row.filePosition}, ${r.row.out})`).join(', ');
		warnings.push(
			`iRacing classified ${moved.length === 1 ? 'a car' : `${moved.length} cars`} that did not take the flag ` +
				`among the finishers: ${list}: placed after every finisher`,
		);
	}
	const inClass = new Map<string, number>();
	return [...finishers, ...others].map(({ row, status }, i) => {
		const classPosition = row.carClass === undefined ? undefined : (inClass.get(row.carClass) ?? 0) + 1;
		if (row.carClass !== undefined) inClass.set(row.carClass, classPosition!);
		const out = row.out.trim();
		return {
			name: row.name,
			position: i + 1,
			status,
			...(status !== 'finished' && out !== '' && !/^running$/iu.test(out) && { reason: out }),
			laps: row.laps,
			...(row.carClass !== undefined && { carClass: row.carClass, classPosition }),
			...(row.simId !== undefined && { simId: row.simId }),
			...(row.car !== undefined && { car: row.car }),
			...(status === 'DSQ' && { penalties: ['disqualified'] }),
		};
	});
}

/** Trimmed, inner whitespace collapsed (a disambiguating digit, "John Smith2", is part of the name and stays). */
export function cleanIracingName(name: string): string {
	return name.trim().replace(/\s+/gu, ' ');
}

/** `YYYY-MM-DD` from "2021.03.08 1:45 AM GMT" (CSV) or "2021-01-08T19:00:12Z" (JSON). */
export function iracingDate(value: string | undefined): string | undefined {
	const match = /^\s*(\d{4})[.-](\d{2})[.-](\d{2})/u.exec(value ?? '');
	return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}
