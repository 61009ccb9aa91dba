import { csvLine, CsvError, readCsv } from './csv.js';
import { isCalendarDate } from '../league/dates.js';
import type { EntryStatus, Race, RaceEntry, RaceMode } from '../ratings/types.js';

/**
 * The history CSV: one row per (race, player), header `race,date,player,position,time,status` with an optional
 * `mode` column. Only `race`, `player` and `position` are required; columns may come in any order. Rows of one
 * race are contiguous, and the file order is the rating order. Equal positions are ties; status is empty
 * (finished), DNF, DNS or DSQ; time is seconds, m:ss.fff or h:mm:ss.fff; mode is tt (default) or items.
 */

export const HISTORY_COLUMNS = ['race', 'date', 'player', 'position', 'time', 'status', 'mode'] as const;
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
		super(`${file}:${line}: ${what}`);
	}
}

const STATUSES: Readonly<Record<string, EntryStatus>> = { '': 'finished', DNF: 'DNF', DNS: 'DNS', DSQ: 'DSQ' };
const MODES: readonly RaceMode[] = ['tt', 'items'];

/** Parse a finish time: plain seconds, `m:ss.fff` or `h:mm:ss.fff`. Undefined when the text is not a time. */
export function parseTime(text: string): number | undefined {
	// Plain seconds may use an exponent, as String(number) writes tiny or huge values (round trip).
	if (/^\d+(?:\.\d+)?(?:e[+-]?\d+)?$/.test(text)) return Number(text);
	const match = /^(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$/.exec(text);
	if (!match) return undefined;
	const [, hours, minutes, seconds] = match;
	if (!/^\d{2}(?:\.|$)/.test(seconds!) || Number(seconds) >= 60) return undefined; // m:ss: two-digit seconds < 60
	if (hours !== undefined && (minutes!.length !== 2 || Number(minutes) >= 60)) return undefined; // h:mm:ss likewise
	return (Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds);
}

/** Something a history file may hold but a reader should hear about: `file:line: what`. */
export type HistoryCsvWarn = (warning: string) => void;

/**
 * Parse a history CSV. `file` names the input in error messages. Throws HistoryCsvError on the first bad row.
 *
 * A race dated before the previous dated race is accepted and reported to `warn` (issue 8 §1): a bot league may
 * have a back-dated race (confirmed after a later-dated one), and its export must read back in the same rating
 * order, so the file order stays the rating order.
 */
export function parseHistoryCsv(text: string, file = '<input>', warn: HistoryCsvWarn = () => {}): Race[] {
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
		const player = cell('player');
		if (player === '') fail(line, 'empty player name');
		const positionText = cell('position');
		if (!/^\d+$/.test(positionText) || Number(positionText) < 1) {
			fail(line, `position must be an integer of at least 1, got "${positionText}"`);
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
		const statusText = cell('status');
		const status = Object.hasOwn(STATUSES, statusText) ? STATUSES[statusText] : undefined;
		if (status === undefined) fail(line, `status must be empty, DNF, DNS or DSQ, got "${statusText}"`);
		const modeText = cell('mode');
		if (modeText !== '' && !(MODES as readonly string[]).includes(modeText)) {
			fail(line, `mode must be tt or items, got "${modeText}"`);
		}
		const date = dateText === '' ? undefined : dateText;
		const mode = modeText === '' ? undefined : (modeText as RaceMode);

		if (current?.id !== raceId) {
			if (seenRaces.has(raceId)) {
				fail(line, `race "${raceId}" reappears after race "${current!.id}": rows of one race must be contiguous`);
			}
			close();
			if (date !== undefined && lastDated !== undefined && date < lastDated.date) {
				warn(
					`${file}:${line}: race "${raceId}" is dated ${date}, before the previous race "${lastDated.id}" ` +
						`(${lastDated.date}): rated in file order`,
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
		});
	}
	close();
	return races;
}

/**
 * Write races as a history CSV (LF line ends, final newline). The `mode` column is written only when some race
 * has a mode. Numbers are written with String(), so times round-trip exactly.
 */
export function writeHistoryCsv(races: readonly Race[]): string {
	const withMode = races.some((race) => race.mode !== undefined);
	const columns = withMode ? HISTORY_COLUMNS : HISTORY_COLUMNS.filter((column) => column !== 'mode');
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
			};
			lines.push(csvLine(columns.map((column) => values[column])));
		}
	}
	return lines.join('\n') + '\n';
}
