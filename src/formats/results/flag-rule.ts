import { dateOfDayNumber } from '../../league/dates.js';
import type { EntryStatus } from '../../ratings/types.js';
import type { ResultEntry } from './types.js';

/**
 * The one rule for files that state no finish status (ACC and Assetto Corsa, docs/result-files.md): a car took the
 * flag unless the file's own numbers show otherwise.
 * - no lap at all: DNS;
 * - fewer laps than the winner and a total time below the winner's (or none): its last crossing of the line came
 *   before the winner finished, so it never crossed again to take the flag: DNF;
 * - else finished, lapped or not (a lapped finisher crosses after the winner, so its total is at least the winner's).
 * The winner is the first car of the classification's order that is not disqualified and has a lap.
 */

export interface FlagCar {
	readonly laps: number;
	/** Total race time in milliseconds; undefined when the file gives none for this car. */
	readonly timeMs: number | undefined;
	readonly disqualified: boolean;
}

/** A race where no car (not disqualified) has a lap: nothing to rate, and no winner to measure the others by. */
export const NO_LAP = 'no car completed a lap: no race to read';

export function inferredStatus(car: FlagCar, winner: FlagCar | undefined): Exclude<EntryStatus, 'DSQ'> {
	if (car.laps <= 0) return 'DNS';
	if (winner === undefined || car === winner || car.laps >= winner.laps) return 'finished';
	if (winner.timeMs === undefined) return 'finished';
	return car.timeMs === undefined || car.timeMs < winner.timeMs ? 'DNF' : 'finished';
}

export function winnerOf<T extends FlagCar>(cars: readonly T[]): T | undefined {
	return cars.find((car) => !car.disqualified && car.laps > 0);
}

/**
 * The classification's order: finishers as given, then those who did not take the flag (DNF, DNS) as given, then the
 * disqualified as given (the files list a disqualified car at its running place: it goes to the end).
 */
export function finishersFirst<T extends { readonly status: EntryStatus }>(cars: readonly T[]): T[] {
	const rank = (status: EntryStatus) => (status === 'finished' ? 0 : status === 'DSQ' ? 2 : 1);
	return cars.toSorted((a, b) => rank(a.status) - rank(b.status));
}

/** Milliseconds as seconds, the exact decimal reading (2712345 → 2712.345: division by 1000 rounds correctly). */
export const seconds = (ms: number): number => ms / 1000;

/** Positions 1..n in the given order; class positions counted within each class in that order. */
export function numbered(entries: readonly Omit<ResultEntry, 'position' | 'classPosition'>[]): ResultEntry[] {
	const inClass = new Map<string, number>();
	return entries.map((entry, i) => {
		if (entry.carClass === undefined) return { ...entry, position: i + 1 };
		const classPosition = (inClass.get(entry.carClass) ?? 0) + 1;
		inClass.set(entry.carClass, classPosition);
		return { ...entry, position: i + 1, classPosition };
	});
}

/** Trimmed, inner whitespace (line breaks included) collapsed to one space. */
export const cleanName = (name: string): string => name.replace(/\s+/gu, ' ').trim();

/** `steam:<digits>` from a Steam id as the file writes it ("76561198…", ACC's "S76561198…"); else undefined. */
export function steamId(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const digits = raw.trim().replace(/^S/u, '');
	return /^\d+$/u.test(digits) && !/^0+$/u.test(digits) ? `steam:${digits}` : undefined;
}

/** "2019-03-02T21:36:00Z" (a server manager's `Date`) → "2019-03-02". */
export function isoDay(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = /^(\d{4}-\d{2}-\d{2})T/u.exec(raw.trim());
	return match?.[1];
}

/** The names that more than one entry carries (different ids): worth a look, the scoreboard keys on names. */
export function sameNameWarnings(entries: readonly { readonly name: string }[]): string[] {
	const counts = new Map<string, number>();
	for (const { name } of entries) counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + 1);
	const seen = new Set<string>();
	const warnings: string[] = [];
	for (const { name } of entries) {
		const key = name.toLowerCase();
		if ((counts.get(key) ?? 0) < 2 || seen.has(key)) continue;
		seen.add(key);
		warnings.push(`${counts.get(key)} racers named "${name}" with different Steam ids: check who is who`);
	}
	return warnings;
}

/** `YYYY-MM-DD` of a Unix time in seconds (after 1970), UTC: its day number's date (no Date in pure code). */
export function utcDate(unixSeconds: number): string {
	return dateOfDayNumber(Math.floor(unixSeconds / 86400));
}

/**
 * The rows of a racer seen before dropped (a reconnect gives a driver another slot): the first row of each key kept,
 * in order; `dropped` says each row dropped (its 0-based index in `drafts`) in `warnings`.
 */
export function dropReconnects<T extends { readonly key: string }>(
	drafts: readonly T[],
	warnings: string[],
	dropped: (draft: T, index: number) => string,
): T[] {
	const seen = new Set<string>();
	return drafts.filter((d, i) => {
		if (!seen.has(d.key)) {
			seen.add(d.key);
			return true;
		}
		warnings.push(dropped(d, i));
		return false;
	});
}

/** A reader's draft of an entry: the entry's fields without its position (given when the order is known). */
export type EntryDraft = Omit<ResultEntry, 'position' | 'penalties'>;

/** The entry of a draft at `position`: only the fields it has, and the penalty word of a DSQ. */
export function entryOf(d: EntryDraft, position: number): ResultEntry {
	return {
		name: d.name,
		position,
		status: d.status,
		...(d.statusInferred === true && { statusInferred: true }),
		...(d.reason !== undefined && { reason: d.reason }),
		...(d.totalTime !== undefined && { totalTime: d.totalTime }),
		...(d.laps !== undefined && { laps: d.laps }),
		...(d.carClass !== undefined && { carClass: d.carClass }),
		...(d.classPosition !== undefined && { classPosition: d.classPosition }),
		...(d.simId !== undefined && { simId: d.simId }),
		...(d.team !== undefined && { team: d.team }),
		...(d.car !== undefined && { car: d.car }),
		...(d.status === 'DSQ' && { penalties: ['disqualified'] }),
	};
}
