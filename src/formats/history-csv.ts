import { csvLine, CsvError, readCsv } from './csv.js';
import { isCalendarDate } from '../league/dates.js';
import { codePointLabel, nameProblem, normalizeName } from '../league/player-names.js';
import { utf16WithoutBomProblem, withoutControls } from './text-problems.js';
import type { EntryStatus, Race, RaceEntry, RaceMode } from '../ratings/types.js';

/**
 * The history CSV: one row per (race, player), header `race,date,player,position,time,status` with optional `mode`,
 * `team` and `car` columns. Only `race`, `player` and `position` are required; columns may come in any order. Rows of
 * one race are contiguous; the file order is the confirmation order (rating-order.ts: races are rated by date, in
 * file order within a date, an undated race after the races before it). Equal positions are ties; status is empty
 * (finished), DNF, DNS or DSQ; time is seconds, m:ss.fff or h:mm:ss.fff; mode is tt (default) or items; team is the
 * racer's team in that race (the championship's teams table; empty: none); car is the racer's car in that race (an
 * Ergast constructor, a sim's car model: what a rating of cars apart from drivers reads; empty: none).
 */

export const HISTORY_COLUMNS = ['race', 'date', 'player', 'position', 'time', 'status', 'mode', 'team', 'car'] as const;
type Column = (typeof HISTORY_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['race', 'player', 'position'];

/** A bad history file: the message is `file:line: what is wrong`. */
export class HistoryCsvError extends Error {
	override readonly name = 'HistoryCsvError';
	constructor(
		readonly file: string,
		readonly line: number,
		readonly what: string,
	) {
		// Never echo a control character of the file back (a NUL of a UTF-16 file, an escape): name it instead.
		super(`${file}:${line}: ${withoutControls(what)}`);
	}
}

/** Races that cannot be written as a history CSV that reads back to them: the message names the race and what. */
export class HistoryCsvWriteError extends Error {
	override readonly name = 'HistoryCsvWriteError';
}

const STATUSES: Readonly<Record<string, EntryStatus>> = { '': 'finished', DNF: 'DNF', DNS: 'DNS', DSQ: 'DSQ' };
const MODES: readonly RaceMode[] = ['tt', 'items'];
const ENTRY_STATUSES: readonly EntryStatus[] = ['finished', 'DNF', 'DNS', 'DSQ'];

// The rules the reader and the writer share (the writer never writes what the reader refuses).

/** Positions are integers from 1 up to 2^53 − 1: above it, two positions can read as one number. */
const positionOk = (position: number): boolean => Number.isSafeInteger(position) && position >= 1;
const MAX_POSITION_TEXT = `${Number.MAX_SAFE_INTEGER} (2^53 − 1)`;

/** A player's name: the scoreboard's rules (player-names.ts nameProblem), one function for both. */
const playerProblem = (player: string): string | undefined => nameProblem(player, 'player name');

/**
 * A team's name: a player name's rules (no control or invisible character, not blank), at most 64 characters (it is
 * shown in the championship's tables), and it may start with `#`.
 */
function teamProblem(team: string): string | undefined {
	if (/\p{Cc}/u.test(team)) return 'a team name may not hold control characters';
	if ([...team].length > 64) return `the team name "${team.slice(0, 20)}…" is longer than 64 characters`;
	return nameProblem(team, 'team name', { maxLength: 64, idLike: false });
}

/** A car's name: a team name's rules (a car stands where a team would: the same tables, the same length). */
function carProblem(car: string): string | undefined {
	if (/\p{Cc}/u.test(car)) return 'a car name may not hold control characters';
	if ([...car].length > 64) return `the car name "${car.slice(0, 20)}…" is longer than 64 characters`;
	return nameProblem(car, 'car name', { maxLength: 64, idLike: false });
}

/** A race id may hold almost anything (it becomes the race's name), but no control character. */
function raceIdProblem(id: string): string | undefined {
	if (id === '') return 'the race id is empty';
	const control = /\p{Cc}/u.exec(id)?.[0];
	if (control !== undefined) {
		return `the race id contains the character ${codePointLabel(control)}: a race id may not hold control characters`;
	}
	return undefined;
}

/** Parse a finish time: plain seconds, `m:ss.fff` or `h:mm:ss.fff`. Undefined when the text is not a time. */
export function parseTime(text: string): number | undefined {
	// Plain seconds may use an exponent, as String(number) writes tiny or huge values (round trip).
	if (/^\d+(?:\.\d+)?(?:e[+-]?\d+)?$/.test(text)) return Number(text);
	const match = /^(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text);
	if (!match) return undefined;
	const [, hours, minutes, seconds] = match;
	if (!/^\d{2}(?:\.|$)/.test(seconds!) || Number(seconds) >= 60) return undefined; // m:ss: two-digit seconds < 60
	if (hours !== undefined && (minutes!.length !== 2 || Number(minutes) >= 60)) return undefined; // h:mm:ss likewise
	// The total as one decimal number, read once: 9:46.161 is 586.161, where 9·60 + 46.161 rounds to 586.1610000000001
	// (found by the display-time property test), which an export would then write out in full.
	const [whole, fraction] = seconds!.split('.');
	const total = (Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(whole);
	return fraction === undefined ? total : Number(`${total}.${fraction}`);
}

/** Something a history file may hold but a reader should hear about: `file:line: what`. */
export type HistoryCsvWarn = (warning: string) => void;

/**
 * Parse a history CSV. `file` names the input in error messages. Throws HistoryCsvError on the first bad row.
 *
 * Races come in file order. A race dated before the previous dated race is accepted and reported to `warn`: it is
 * rated before that race (rating-order.ts), as a make-up race confirmed late is in a league.
 */
export function parseHistoryCsv(text: string, file = '<input>', warn: HistoryCsvWarn = () => {}): Race[] {
	const encoding = utf16WithoutBomProblem(text);
	if (encoding !== undefined) throw new HistoryCsvError(file, 1, encoding);
	let rows;
	try {
		rows = readCsv(text);
	} catch (error) {
		if (error instanceof CsvError) throw new HistoryCsvError(file, error.line, error.what);
		throw error;
	}
	const fail = (line: number, what: string): never => {
		throw new HistoryCsvError(file, line, what);
	};
	const header = rows[0];
	if (!header) return fail(1, `empty file: expected a header with columns ${REQUIRED.join(', ')}`);
	const index = new Map<Column, number>();
	header.fields.forEach((raw, i) => {
		const name = raw.trim().toLowerCase();
		if (!(HISTORY_COLUMNS as readonly string[]).includes(name)) {
			fail(header.line, `unknown column "${raw.trim()}" (known: ${HISTORY_COLUMNS.join(', ')})`);
		}
		if (index.has(name as Column)) fail(header.line, `duplicate column "${name}"`);
		index.set(name as Column, i);
	});
	for (const name of REQUIRED) if (!index.has(name)) fail(header.line, `missing required column "${name}"`);

	const races: Race[] = [];
	const seenRaces = new Set<string>();
	let current:
		| { id: string; date: string | undefined; mode: RaceMode | undefined; line: number; entries: RaceEntry[] }
		| undefined;
	let players = new Map<string, number>();
	let lastDated: { id: string; date: string } | undefined;
	const close = (): void => {
		if (!current) return;
		races.push({
			id: current.id,
			...(current.date !== undefined && { date: current.date }),
			...(current.mode !== undefined && { mode: current.mode }),
			entries: current.entries,
		});
		if (current.date !== undefined) lastDated = { id: current.id, date: current.date };
	};

	for (const { line, fields } of rows.slice(1)) {
		if (fields.length !== header.fields.length) {
			fail(line, `expected ${header.fields.length} fields as in the header, found ${fields.length}`);
		}
		const cell = (name: Column): string => {
			const i = index.get(name);
			return i === undefined ? '' : fields[i]!.trim();
		};
		const raceId = cell('race');
		if (raceId === '') fail(line, 'empty race id');
		const raceProblem = raceIdProblem(raceId);
		if (raceProblem !== undefined) fail(line, raceProblem);
		const rawPlayer = cell('player');
		if (rawPlayer === '') fail(line, 'empty player name');
		const nameIssue = playerProblem(rawPlayer);
		if (nameIssue !== undefined) fail(line, nameIssue);
		// Stored as a scoreboard stores it: "A\tnn" and "A  nn" are "A nn", one player, not two that look the same.
		const player = normalizeName(rawPlayer);
		const positionText = cell('position');
		if (!/^\d+$/.test(positionText) || Number(positionText) < 1) {
			fail(line, `position must be an integer of at least 1, got "${positionText}"`);
		}
		if (!positionOk(Number(positionText))) {
			fail(line, `position "${positionText}" is too large: at most ${MAX_POSITION_TEXT}`);
		}
		const dateText = cell('date');
		if (dateText !== '' && !isCalendarDate(dateText)) {
			fail(line, `date must be a calendar date YYYY-MM-DD, got "${dateText}"`);
		}
		const timeText = cell('time');
		const time = timeText === '' ? undefined : parseTime(timeText);
		if (timeText !== '' && time === undefined) {
			fail(line, `time must be seconds, m:ss.fff or h:mm:ss.fff, got "${timeText}"`);
		}
		if (time !== undefined && !Number.isFinite(time)) {
			fail(line, `time "${timeText}" is too large: it reads as Infinity, expected a finite number of seconds`);
		}
		const statusText = cell('status');
		const status = Object.hasOwn(STATUSES, statusText) ? STATUSES[statusText] : undefined;
		if (status === undefined) fail(line, `status must be empty, DNF, DNS or DSQ, got "${statusText}"`);
		const modeText = cell('mode');
		if (modeText !== '' && !(MODES as readonly string[]).includes(modeText)) {
			fail(line, `mode must be tt or items, got "${modeText}"`);
		}
		const date = dateText === '' ? undefined : dateText;
		const mode = modeText === '' ? undefined : (modeText as RaceMode);
		const rawTeam = cell('team');
		const badTeam = rawTeam === '' ? undefined : teamProblem(rawTeam);
		if (badTeam !== undefined) fail(line, badTeam);
		const team = normalizeName(rawTeam);
		const rawCar = cell('car');
		const badCar = rawCar === '' ? undefined : carProblem(rawCar);
		if (badCar !== undefined) fail(line, badCar);
		const car = normalizeName(rawCar);

		if (current?.id !== raceId) {
			if (seenRaces.has(raceId)) {
				fail(line, `race "${raceId}" reappears after race "${current!.id}": rows of one race must be contiguous`);
			}
			close();
			if (date !== undefined && lastDated !== undefined && date < lastDated.date) {
				warn(
					`${file}:${line}: race "${raceId}" is dated ${date}, before the previous race "${lastDated.id}" ` +
						`(${lastDated.date}): rated before it, in date order`,
				);
			}
			seenRaces.add(raceId);
			current = { id: raceId, date, mode, line, entries: [] };
			players = new Map();
		} else {
			if (date !== current.date) {
				fail(
					line,
					`race "${raceId}" has date ${current.date ?? '(none)'} on line ${current.line}, but ${date ?? '(none)'} here`,
				);
			}
			if (mode !== current.mode) {
				fail(
					line,
					`race "${raceId}" has mode ${current.mode ?? '(none)'} on line ${current.line}, but ${mode ?? '(none)'} here`,
				);
			}
		}
		const first = players.get(player);
		if (first !== undefined)
			fail(line, `player "${player}" is entered twice in race "${raceId}" (first on line ${first})`);
		players.set(player, line);
		current.entries.push({
			player,
			position: Number(positionText),
			...(time !== undefined && { time }),
			status: status!,
			...(team !== '' && { team }),
			...(car !== '' && { car }),
		});
	}
	close();
	return races;
}

/**
 * Write races as a history CSV (LF line ends, final newline). The `mode` column is written only when some race
 * has a mode, the `team` and `car` columns only when some racer has one. Numbers are written with String(), so times
 * round-trip exactly.
 *
 * What parseHistoryCsv would refuse, or read back differently, is refused instead (HistoryCsvWriteError naming the
 * race and the problem): a file this writes always reads back to the same races.
 */
export function writeHistoryCsv(races: readonly Race[]): string {
	checkWritable(races);
	const withMode = races.some((race) => race.mode !== undefined);
	const withTeam = races.some((race) => race.entries.some((entry) => entry.team !== undefined));
	const withCar = races.some((race) => race.entries.some((entry) => entry.car !== undefined));
	const columns = HISTORY_COLUMNS.filter(
		(column) => (column !== 'mode' || withMode) && (column !== 'team' || withTeam) && (column !== 'car' || withCar),
	);
	const lines = [columns.join(',')];
	for (const race of races) {
		for (const entry of race.entries) {
			const values: Record<Column, string> = {
				race: race.id,
				date: race.date ?? '',
				player: entry.player,
				position: String(entry.position),
				time: entry.time === undefined ? '' : String(entry.time),
				status: entry.status === 'finished' ? '' : entry.status,
				mode: race.mode ?? '',
				team: entry.team ?? '',
				car: entry.car ?? '',
			};
			lines.push(csvLine(columns.map((column) => values[column])));
		}
	}
	return lines.join('\n') + '\n';
}

/** The reader's rules, on values: each race and entry as parseHistoryCsv would accept it and read it back. */
function checkWritable(races: readonly Race[]): void {
	const firstIndex = new Map<string, number>();
	races.forEach((race, i) => {
		const where = `race ${JSON.stringify(race.id)}`;
		const refuse = (what: string): never => {
			throw new HistoryCsvWriteError(`${where}: ${what}`);
		};
		const idProblem = raceIdProblem(race.id);
		if (idProblem !== undefined) refuse(idProblem);
		if (race.id !== race.id.trim()) refuse('the race id has spaces at its ends, which a reader trims');
		// The rows of one race are told apart from the next by the id alone.
		const first = firstIndex.get(race.id);
		if (first !== undefined) {
			throw new HistoryCsvWriteError(
				`${where} appears twice (races ${first + 1} and ${i + 1}): a history CSV needs distinct race ids`,
			);
		}
		firstIndex.set(race.id, i);
		if (race.date !== undefined && !isCalendarDate(race.date)) {
			refuse(`date ${JSON.stringify(race.date)} must be a calendar date YYYY-MM-DD`);
		}
		if (race.mode !== undefined && !MODES.includes(race.mode)) {
			refuse(`mode ${JSON.stringify(race.mode)} must be tt or items`);
		}
		if (race.entries.length === 0) {
			throw new HistoryCsvWriteError(`${where} has no entries: a history CSV has one row per racer`);
		}
		const players = new Set<string>();
		for (const entry of race.entries) {
			const { player } = entry;
			const problem = playerProblem(player);
			if (problem !== undefined) refuse(problem);
			if (player !== player.trim()) {
				refuse(`the player name ${JSON.stringify(player)} has spaces at its ends, which a reader trims`);
			}
			if (player !== normalizeName(player)) {
				refuse(
					`the player name ${JSON.stringify(player)} has a tab or several spaces in a row, which a reader makes one`,
				);
			}
			if (players.has(player)) refuse(`player ${JSON.stringify(player)} is entered twice`);
			players.add(player);
			const at = `${where}, player ${JSON.stringify(player)}`;
			if (!positionOk(entry.position)) {
				throw new HistoryCsvWriteError(
					`${at}: position ${entry.position} must be an integer from 1 to ${MAX_POSITION_TEXT}`,
				);
			}
			if (entry.time !== undefined && !(Number.isFinite(entry.time) && entry.time >= 0)) {
				throw new HistoryCsvWriteError(`${at}: time ${entry.time} must be a finite number of seconds, at least 0`);
			}
			checkWritableName(entry.team, 'team', teamProblem, at);
			checkWritableName(entry.car, 'car', carProblem, at);
			if (!ENTRY_STATUSES.includes(entry.status)) {
				throw new HistoryCsvWriteError(
					`${at}: status ${JSON.stringify(entry.status)} must be finished, DNF, DNS or DSQ`,
				);
			}
		}
	});
}

/** A team's or car's name as the reader reads it back (nothing, or the same text): else HistoryCsvWriteError. */
function checkWritableName(
	name: string | undefined,
	what: 'team' | 'car',
	problemOf: (name: string) => string | undefined,
	at: string,
): void {
	if (name === undefined) return;
	const problem = name.trim() === '' ? `the ${what} name is empty` : problemOf(name);
	if (problem !== undefined) throw new HistoryCsvWriteError(`${at}: ${problem}`);
	if (name !== name.trim()) {
		throw new HistoryCsvWriteError(`${at}: the ${what} name has spaces at its ends, which a reader trims`);
	}
	if (name !== normalizeName(name)) {
		throw new HistoryCsvWriteError(`${at}: the ${what} name has several spaces in a row, which a reader makes one`);
	}
}
