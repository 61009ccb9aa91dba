import { csvLine } from '../csv.js';
import { parseScoreboard, renamedName, type ScoreboardResult } from '../scoreboard.js';
import { forbiddenCharacter, MAX_NAME_LENGTH, nameKey, normalizeName } from '../../league/player-names.js';
import type { RaceEntry } from '../../ratings/types.js';
import { ResultFileError, type ResultEntry, type ResultFile } from './types.js';

/**
 * A sim's classification as the scoreboard of one race (docs/result-files.md "From the file to the race"):
 * - one class, when asked for (`carClass`), placed by its class position; else every car as one field;
 * - finishers in the file's order, numbered 1..n; those who did not take the flag after them, in the file's order
 *   (as every scoreboard, docs/scoreboard.md);
 * - a finisher's time is their total race time when they finished on the winner's lap, else none (a lapped car's
 *   total is no race time against the winner's);
 * - names cleaned to the league's rules: invisible characters dropped and a name over 32 characters cut, each said;
 * - each racer's car model (not its class) goes with their entry as `car`, cleaned as a name is (carOf), so a league
 *   that rates cars apart from drivers has them with no typing.
 * The result then goes through the scoreboard's own checks (parseScoreboard on the equivalent CSV): the same
 * duplicate, name and "did you mean" rules as a paste, with the file's racers named instead of CSV line numbers.
 */

export interface ResultScoreboardOptions {
	/** Players already in the league, for the "did you mean" warnings. */
	readonly knownPlayers?: readonly string[];
	/** Rate this class alone (compared ignoring case). */
	readonly carClass?: string | undefined;
	/**
	 * Racers' names to read as others (the accepted suggestions, ScoreboardOptions.renames): each racer is renamed
	 * once its name is cleaned, before the scoreboard's checks, so the racer keeps what the file says of them.
	 */
	readonly renames?: readonly (readonly [string, string])[] | undefined;
}

/** A racer of the scoreboard with what the file says beyond the scoreboard's columns. */
export interface ResultRacer {
	/** The scoreboard's entry, with the file's car model (carOf) where it names one. */
	readonly entry: RaceEntry;
	readonly from: ResultEntry;
}

export interface ClassCount {
	readonly name: string;
	readonly cars: number;
}

export interface ResultScoreboard {
	readonly result: ScoreboardResult;
	/** Aligned with `result.entries` when it is ok. */
	readonly racers: readonly ResultRacer[];
	/** The classes of the file, in order of their best car (empty when the file names none). */
	readonly classes: readonly ClassCount[];
	/** The class rated alone, as the file spells it. */
	readonly carClass?: string;
}

export function classesOf(entries: readonly ResultEntry[]): ClassCount[] {
	const counts = new Map<string, number>();
	for (const e of entries) if (e.carClass !== undefined) counts.set(e.carClass, (counts.get(e.carClass) ?? 0) + 1);
	return [...counts].map(([name, cars]) => ({ name, cars }));
}

export function resultScoreboard(file: ResultFile, options: ResultScoreboardOptions = {}): ResultScoreboard {
	const classes = classesOf(file.entries);
	const { field, carClass } = fieldOf(file, classes, options.carClass);
	const warnings: string[] = [];
	const named = field.map((from) => ({ from, name: renamedName(cleanName(from, warnings), options.renames) }));
	const finishers = named.filter((r) => r.from.status === 'finished');
	const others = named.filter((r) => r.from.status !== 'finished');
	const winnerLaps = finishers[0]?.from.laps;
	const ordered = [...finishers, ...others];
	let place = 0;
	const entries: RaceEntry[] = ordered.map((r, i) => {
		const onWinnersLap = winnerLaps === undefined || r.from.laps === undefined || r.from.laps === winnerLaps;
		const time = r.from.status === 'finished' && onWinnersLap ? r.from.totalTime : undefined;
		// A tie shares the place above (standard competition ranking: 1, 1, 3), among finishers only.
		place = r.from.tied === true && r.from.status === 'finished' && i > 0 ? place : i + 1;
		return { player: r.name, position: place, status: r.from.status, ...(time !== undefined && time > 0 && { time }) };
	});
	const csv = ['player,position,time,status'].concat(
		entries.map((e) =>
			csvLine([e.player, String(e.position), e.time === undefined ? '' : String(e.time), csvStatus(e)]),
		),
	);
	const parsed = parseScoreboard(csv.join('\n'), { knownPlayers: options.knownPlayers ?? [] });
	const rowName = (line: number) => ordered[line - 2]?.name;
	const read = renameLines(parsed, rowName, warnings);
	const racers = read.ok
		? read.entries.map((entry) => {
				const from = ordered.find((r) => nameKey(r.name) === nameKey(entry.player))!.from;
				const car = carOf(from);
				return { entry: car === undefined ? entry : { ...entry, car }, from };
			})
		: [];
	// The scoreboard's entries carry the cars too: whoever reads the race off `result` keeps them.
	const result = read.ok ? { ...read, entries: racers.map((r) => r.entry) } : read;
	return { result, racers, classes, ...(carClass !== undefined && { carClass }) };
}

const csvStatus = (e: RaceEntry): string => (e.status === 'finished' ? '' : e.status);

/** The racers rated: one class by its class position, or everyone. */
function fieldOf(
	file: ResultFile,
	classes: readonly ClassCount[],
	asked: string | undefined,
): { field: readonly ResultEntry[]; carClass?: string } {
	if (asked === undefined) return { field: file.entries };
	const match = classes.find((c) => c.name.toLowerCase() === asked.trim().toLowerCase());
	if (match === undefined) {
		const listed = classes.length === 0 ? 'it names no class' : `its classes are ${classList(classes)}`;
		throw new ResultFileError(`The file has no class "${asked.trim()}": ${listed}`);
	}
	const inClass = file.entries.filter((e) => e.carClass === match.name);
	// Class positions where the file gives them; its overall order is the class order otherwise.
	const byClassPosition = inClass.every((e) => e.classPosition !== undefined)
		? inClass.toSorted((a, b) => a.classPosition! - b.classPosition!)
		: inClass;
	return { field: byClassPosition, carClass: match.name };
}

export function classList(classes: readonly ClassCount[]): string {
	return classes.map((c) => `${c.name} (${c.cars} ${c.cars === 1 ? 'car' : 'cars'})`).join(', ');
}

/** The name as the league can store it: invisible characters dropped, whitespace collapsed, cut at 32 characters. */
function cleanName(from: ResultEntry, warnings: string[]): string {
	let name = normalizeName(from.name);
	let bad = forbiddenCharacter(name);
	while (bad !== undefined) {
		name = normalizeName(name.replaceAll(bad, ''));
		bad = forbiddenCharacter(name);
	}
	if (name !== normalizeName(from.name)) {
		warnings.push(`"${name}": invisible or control characters of the file's name left out`);
	}
	if (name.startsWith('#')) name = name.replace(/^#+\s*/u, '');
	const points = [...name];
	if (points.length > MAX_NAME_LENGTH) {
		const cut = points.slice(0, MAX_NAME_LENGTH).join('').trimEnd();
		warnings.push(`"${name}" is over ${MAX_NAME_LENGTH} characters: stored as "${cut}"`);
		name = cut;
	}
	return name === '' ? `Car ${from.position}` : name;
}

/** The longest car name the league stores (a team's length, race-log-checks.ts). */
const MAX_CAR_LENGTH = 64;

/**
 * The file's car model as the league stores it (the class is not the car: a GT3 field holds a dozen models): invisible
 * and control characters dropped, whitespace collapsed, cut at 64 characters; undefined where the file names none.
 */
export function carOf(from: ResultEntry): string | undefined {
	if (from.car === undefined) return undefined;
	let car = normalizeName(from.car);
	for (let bad = forbiddenCharacter(car); bad !== undefined; bad = forbiddenCharacter(car)) {
		car = normalizeName(car.replaceAll(bad, ''));
	}
	const points = [...car];
	if (points.length > MAX_CAR_LENGTH) car = points.slice(0, MAX_CAR_LENGTH).join('').trimEnd();
	// A car of nothing visible (combining marks alone) is no car.
	return car.replace(/[\s\p{M}\u2800]/gu, '') === '' ? undefined : car;
}

/**
 * The scoreboard's "line N" of the generated CSV means nothing to the organizer: its messages name the racer already,
 * so the prefix goes, and "on line N" names the racer of that row.
 */
function renameLines(
	parsed: ScoreboardResult,
	rowName: (line: number) => string | undefined,
	warnings: readonly string[],
): ScoreboardResult {
	const rename = (text: string) =>
		text
			.replace(/^line \d+: /u, '')
			.replace(/\bon line (\d+)(?: as "[^"]*")?/gu, (_, n: string) => `as "${rowName(Number(n)) ?? n}"`);
	if (!parsed.ok) {
		return { ...parsed, errors: parsed.errors.map((e) => ({ line: e.line, message: rename(e.message) })) };
	}
	return { ...parsed, warnings: [...warnings, ...parsed.warnings.map(rename)] };
}
