import { clip } from '../../formats/clip-text.js';
import { plural } from '../../formats/plural.js';
import { readRaceFileOffThread } from './read-race-file.js';
import {
	classList,
	resultScoreboard,
	type ClassCount,
	type ResultRacer,
	type ResultScoreboard,
} from '../../formats/results/to-scoreboard.js';
import { ResultFileError, type ResultFile } from '../../formats/results/types.js';
import type { NameSuggestion, ScoreboardResult } from '../../formats/scoreboard.js';
import type { EntryInput } from '../../league/league-events.js';
import { displayTime } from '../../formats/display-time.js';
import { refused } from '../errors.js';

/**
 * A race submitted as a file (`/race submit file:`, the results inbox): read by read-file.ts, then told in the
 * preview: which sim and session it was read as, each racer's note (an inferred status, penalties, the class), and
 * what the organizer should check before Confirm (docs/result-files.md).
 */

export interface RaceFile {
	readonly name: string;
	readonly bytes: Uint8Array;
}

export interface Submission {
	readonly entries: EntryInput[];
	readonly warnings: string[];
	/** New names close to known players (the "did you mean" warnings), for the preview's Accept suggestions. */
	readonly suggestions?: readonly NameSuggestion[] | undefined;
	/** "Read as … results: race, 24 cars, 2 classes" (files only). */
	readonly source?: string;
	/** Per entry (aligned with `entries`): what the file says beyond the scoreboard. */
	readonly notes?: (string | undefined)[];
	/** Per entry (aligned with `entries`): the sim's id of the driver, where the file gives one. */
	readonly simIds?: (string | undefined)[];
	/** A result file's classes, and the one rated alone. */
	readonly classes?: readonly ClassCount[];
	readonly carClass?: string;
	/** The race's day and name when the file gives them and the organizer did not. */
	readonly date?: string;
	readonly name?: string;
}

/** `steam:7656…` → "Steam id" (for the preview's notes). */
export function simIdKind(simId: string): string {
	const kind = simId.slice(0, simId.indexOf(':'));
	const names: Record<string, string> = { steam: 'Steam', iracing: 'iRacing', raceroom: 'RaceRoom' };
	return `${names[kind] ?? kind} id`;
}

type ScoreboardEntries = (result: ScoreboardResult) => {
	entries: EntryInput[];
	warnings: string[];
	suggestions?: readonly NameSuggestion[] | undefined;
};

/** Names to read as others: `[typed, known]`, the suggestions an organizer accepted (ScoreboardOptions.renames). */
export type Renames = readonly (readonly [string, string])[];

/**
 * The class rated: `asked` (`class:` or a button; null: every class, asked for) wins over the league's class, which
 * applies only to a file that names classes.
 */
export interface ClassChoice {
	readonly asked?: string | null | undefined;
	readonly league?: string | undefined;
}

export async function fileSubmission(
	file: RaceFile,
	choice: ClassChoice,
	knownPlayers: readonly string[],
	scoreboardEntries: ScoreboardEntries,
	renames?: Renames,
): Promise<Submission> {
	const carClass = choice.asked === null ? undefined : choice.asked;
	let reading;
	try {
		reading = await readRaceFileOffThread(file.bytes, {
			knownPlayers,
			carClass,
			fileName: file.name,
			...(renames !== undefined && { renames }),
		});
		if (reading.kind === 'results' && carClass === undefined && choice.asked !== null && choice.league !== undefined) {
			reading = {
				...reading,
				board: leagueClassBoard(reading.file, reading.board, choice.league, knownPlayers, renames),
			};
		}
	} catch (error) {
		if (!(error instanceof ResultFileError)) throw error;
		// Like the scoreboard's errors: ephemeral, no mentions parsed; the reader's message is shown as it is.
		throw refused('bad-results-file', `${clip(error.message, 1800)}. Nothing was stored.`);
	}
	if (reading.kind === 'scoreboard') {
		if (carClass !== undefined) {
			throw refused('bad-results-file', 'class: is for a sim result file with classes; this file is a scoreboard.');
		}
		return scoreboardEntries(reading.result);
	}
	const { file: results, board } = reading;
	const read = scoreboardEntries(board.result);
	const { warnings, suggestions } = read;
	// The file's team and car of each racer go with the race (the championship's teams table; a rating of cars apart
	// from drivers); racers align with entries.
	const entries = read.entries.map((entry, i) => {
		const team = board.racers[i]?.from.team?.replace(/^[\s#]+/u, '').trim();
		const car = board.racers[i]?.entry.car;
		return {
			...entry,
			...(team !== undefined && team !== '' && { team: team.slice(0, 64) }),
			...(car !== undefined && { car }),
		};
	});
	return {
		entries,
		...(suggestions !== undefined && { suggestions }),
		warnings: [...fileWarnings(results, board.racers, board.classes, board.carClass), ...warnings],
		source: sourceLine(results, entries.length, board.carClass),
		// One class rated alone: its name is in the source line, not on every racer's.
		notes: board.racers.map((r) => racerNote(r, board.racers[0]?.from.laps, board.carClass === undefined)),
		simIds: board.racers.map((r) => r.from.simId),
		classes: board.classes,
		...(board.carClass !== undefined && { carClass: board.carClass }),
		...(dateOf(results, file.name) !== undefined && { date: dateOf(results, file.name) }),
		...(results.track !== undefined && { name: results.track }),
	};
}

/**
 * The race's day: the file's, or where the file has none, the day in an ACC server's file name (`191003_235558_R.json`
 * is 2019-10-03: the server names each session's file by when it ended).
 */
function dateOf(file: ResultFile, name: string): string | undefined {
	if (file.date !== undefined) return file.date;
	const match = file.format === 'acc' ? /^(\d\d)(\d\d)(\d\d)_\d{6}_/u.exec(name) : null;
	return match === null ? undefined : `20${match[1]}-${match[2]}-${match[3]}`;
}

/** The league's class, where the file names classes; a file of other classes is refused (class: overrides). */
function leagueClassBoard(
	file: ResultFile,
	board: ResultScoreboard,
	leagueClass: string,
	knownPlayers: readonly string[],
	renames: Renames | undefined,
): ResultScoreboard {
	if (board.classes.length === 0) return board;
	if (!board.classes.some((c) => c.name.toLowerCase() === leagueClass.toLowerCase())) {
		throw new ResultFileError(
			`This league rates class ${leagueClass}, and the file's classes are ${classList(board.classes)}: ` +
				`to rate one of them here anyway, submit with class:${board.classes[0]!.name}`,
		);
	}
	return resultScoreboard(file, { knownPlayers, carClass: leagueClass, renames });
}

function sourceLine(file: ResultFile, racers: number, carClass: string | undefined): string {
	const session = file.session !== undefined ? `, ${file.session}` : '';
	const cls = carClass !== undefined ? ` of class ${carClass}` : '';
	return `Read as ${file.formatName}${session}: ${plural(racers, 'racer')}${cls}`;
}

/** `DNF inferred: 17 laps · +5 s: cutting · GT4`; a lapped finisher `+2 laps`. */
export function racerNote(
	{ from }: ResultRacer,
	winnerLaps: number | undefined,
	showClass: boolean,
): string | undefined {
	const parts: string[] = [];
	// A finisher's status is inferred too where the file states none: only a retirement is worth marking.
	if (from.statusInferred === true && from.status !== 'finished') {
		parts.push(`${from.status} inferred${from.laps !== undefined ? `: ${plural(from.laps, 'lap')}` : ''}`);
	} else if (from.reason !== undefined && from.status !== 'finished') {
		parts.push(from.reason);
	}
	if (from.status === 'finished' && from.laps !== undefined && winnerLaps !== undefined && from.laps < winnerLaps) {
		parts.push(`+${plural(winnerLaps - from.laps, 'lap')}`);
	}
	parts.push(...(from.penalties ?? []));
	if (showClass && from.carClass !== undefined) parts.push(from.carClass);
	return parts.length === 0 ? undefined : parts.join(' · ');
}

function fileWarnings(
	file: ResultFile,
	racers: readonly ResultRacer[],
	classes: readonly { name: string; cars: number }[],
	carClass: string | undefined,
): string[] {
	const warnings = [...file.warnings];
	const inferred = racers.filter((r) => r.from.statusInferred === true && r.from.status !== 'finished');
	if (inferred.length > 0) {
		const winner = racers.find((r) => r.from.status === 'finished')?.from;
		const rule =
			winner?.laps !== undefined && winner.totalTime !== undefined
				? ` (fewer laps than the winner's ${winner.laps} in less than the winner's ${displayTime(winner.totalTime)})`
				: '';
		warnings.push(
			`The file states no finish status: ${plural(inferred.length, 'status', 'statuses')} marked “inferred” ${inferred.length === 1 ? 'is' : 'are'} ` +
				`read from laps and time${rule}; every other car is read as finished. Check them: Cancel and submit ` +
				'corrected results, or correct the race with /race edit after Confirm.',
		);
	}
	const penalised = racers.filter((r) => (r.from.penalties ?? []).length > 0);
	if (penalised.length > 0) {
		warnings.push(`Penalties applied as the file records them: ${penalised.map((r) => r.entry.player).join(', ')}.`);
	}
	if (classes.length > 1 && carClass === undefined) {
		warnings.push(
			`The file holds ${classes.length} classes, ${classList(classes)}: rated as one field in overall order. ` +
				`To rate one class by its class positions, choose it below (or submit with class:${classes[0]!.name}).`,
		);
	}
	return warnings;
}
