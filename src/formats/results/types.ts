import type { EntryStatus } from '../../ratings/types.js';

/**
 * What every reader of a sim's result file returns (docs/result-files.md): the race as the sim classified it, before
 * it becomes a scoreboard (to-scoreboard.ts). Readers are pure: text in, this out, no I/O.
 */

/** One racer as the file classifies them. */
export interface ResultEntry {
	/** The driver's name, cleaned (trailing spaces, a team written into the last name). */
	readonly name: string;
	/** Overall position as the file gives it or as the reader derives it (1 = first), unique per entry. */
	readonly position: number;
	/** Shares the place of the entry above (a Mario Kart table's equal points): the scoreboard ranks them 1, 1, 3. */
	readonly tied?: boolean;
	/** The points the file gives the racer, where they decide the order (Mario Kart tables). */
	readonly points?: number;
	/** `finished` for a car that took the flag (lapped or not); DNF, DNS, DSQ as the file states or the rule infers. */
	readonly status: EntryStatus;
	/** The status was inferred by the documented rule (the file states none): the preview marks it. */
	readonly statusInferred?: boolean;
	/** Why the car is out, as the file says it ("Accident", "Disconnected"). */
	readonly reason?: string;
	/** Total race time in seconds, penalties the file records as applied included, when the file gives it. */
	readonly totalTime?: number;
	/** Laps completed. */
	readonly laps?: number;
	/** The car's class as the file names it ("GT3", "LMP2"); absent where the file has none. */
	readonly carClass?: string;
	/** Position within the class, as the file gives it or counted in overall order. */
	readonly classPosition?: number;
	/** The sim's own id of the driver, prefixed by its namespace: `steam:7656…`, `iracing:123456`. */
	readonly simId?: string;
	readonly team?: string;
	/** The car model as the file names it. */
	readonly car?: string;
	/** Penalties the file records as applied, in words ("+5 s: cutting", "disqualified"). */
	readonly penalties?: readonly string[];
}

export type ResultFormatId =
	| 'acc'
	| 'ac'
	| 'rfactor-xml'
	| 'ams2'
	| 'raceroom'
	| 'race07'
	| 'iracing-csv'
	| 'iracing-json'
	| 'lorenzi'
	| 'classification';

export interface ResultFile {
	readonly format: ResultFormatId;
	/** For people: "Assetto Corsa Competizione server results". */
	readonly formatName: string;
	/** Which session of the file was taken, when it holds several or says which ("race 2 of 2"). */
	readonly session?: string;
	readonly track?: string;
	/** The race's day, `YYYY-MM-DD`, when the file says it. */
	readonly date?: string;
	/** Every racer, in overall classification order (finishers first). */
	readonly entries: readonly ResultEntry[];
	/** What was read in a way worth a look ("line N: …" where there is a line). */
	readonly warnings: readonly string[];
}

/** A file that is of this format but cannot be read as a race (no race session, no racer): said to the organizer. */
export class ResultFileError extends Error {
	override readonly name = 'ResultFileError';
}

export interface ResultReader {
	readonly id: ResultFormatId;
	readonly name: string;
	/** Cheap look at the content (never the file name): is this file of this format? */
	detect(text: string): boolean;
	/** Read the race; throws ResultFileError when the file is of this format but holds no race to rate. */
	read(text: string): ResultFile;
}
