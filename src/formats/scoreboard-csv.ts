import { CsvError, csvLine, readCsv } from './csv.js';
import { columnRole, type ColumnRole } from './scoreboard-columns.js';
import {
	cellStatus,
	DASH,
	GAP,
	intervalAsGap,
	POSITION_TOKEN,
	readGap,
	readSeconds,
	SCOREBOARD_LIMITS,
	statusOf,
	timeInRange,
	type Draft,
	type Gap,
	type LineReading,
	type ScoreboardError,
} from './scoreboard-line.js';
import { tooManyRacers } from './scoreboard-text.js';
import { nameProblem, normalizeName } from '../league/player-names.js';
import type { EntryStatus, RaceEntry } from '../ratings/types.js';

/**
 * The CSV form of a scoreboard (docs/scoreboard.md "CSV"): `player,position,time,status`, or an export's own column
 * names (`Pos,Driver,Time,Gap,Laps`). Pure.
 */

/** A first line of comma-separated column names (no digit), one of them the player's (`player`, `Driver`, `Name`…). */
export function isCsvHeader(content: string): boolean {
	if (!content.includes(',')) return false;
	const fields = content.split(',').map((field) => field.trim().replace(/^"(.*)"$/u, '$1'));
	return (
		fields.every((field) => /^[\p{L}\p{M}_#./ -]+$/u.test(field)) &&
		fields.some((field) => columnRole(field) === 'player')
	);
}

/** Columns that may appear once; the others (points, laps, car, …) are left out. */
const READ_ROLES = ['player', 'position', 'time', 'gap', 'status'] as const;
type ReadRole = (typeof READ_ROLES)[number];

/** Rows of a scoreboard CSV; undefined when the header or the CSV syntax is broken (errors say why). */
export function readCsvDrafts(
	lines: readonly string[],
	tooLong: ReadonlySet<number>,
	errors: ScoreboardError[],
	warnings: string[],
): Draft[] | undefined {
	let rows;
	try {
		rows = readCsv(lines.join('\n'));
	} catch (error) {
		if (!(error instanceof CsvError)) throw error;
		errors.push({ line: error.line, message: `CSV: ${error.what}` });
		return undefined;
	}
	const header = rows[0]!;
	const index = new Map<ReadRole, number>();
	const names = header.fields.map((field) => field.trim().toLowerCase());
	if (names.includes('race') || names.includes('date')) {
		errors.push({
			line: header.line,
			message:
				'this looks like a league history (race and date columns): /race submit takes one race with the ' +
				'columns player, position, time, status; import a history with /league import',
		});
		return undefined;
	}
	const unknown: string[] = [];
	for (const [i, name] of names.entries()) {
		const role: ColumnRole | undefined = name === '' ? undefined : columnRole(name);
		if (role === undefined) {
			unknown.push(`"${header.fields[i]!.trim()}"`);
			continue;
		}
		if (!(READ_ROLES as readonly string[]).includes(role)) continue;
		const first = index.get(role as ReadRole);
		if (first === undefined) index.set(role as ReadRole, i);
		else if (names[first] === name) errors.push({ line: header.line, message: `the column "${name}" appears twice` });
		else {
			errors.push({
				line: header.line,
				message: `the columns "${header.fields[first]!.trim()}" and "${header.fields[i]!.trim()}" both give the ${role}: keep one`,
			});
		}
	}
	if (!index.has('position')) {
		errors.push({
			line: header.line,
			message: 'the header has no "position" column: expected player,position (and optionally time,status)',
		});
	}
	if (errors.some((error) => error.line === header.line)) return undefined;
	if (unknown.length > 0) {
		warnings.push(
			`line ${header.line}: the column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ` +
				`${unknown.length > 1 ? 'are' : 'is'} not read: pitwall reads player (or driver, name), position, time, gap and status`,
		);
	}

	const drafts: Draft[] = [];
	let ordinal = 0;
	for (const { line, fields } of rows.slice(1)) {
		if (fields.every((field) => field.trim() === '')) continue; // a spreadsheet's empty row: ,,,
		if (ordinal === SCOREBOARD_LIMITS.maxRacers) {
			errors.push(tooManyRacers(line));
			break;
		}
		ordinal++;
		if (tooLong.has(line)) continue;
		if (fields.length !== header.fields.length) {
			errors.push({
				line,
				message: `expected ${header.fields.length} fields as in the header (${names.join(',')}), found ${fields.length}`,
			});
			continue;
		}
		const cell = (role: ReadRole): string => {
			const i = index.get(role);
			const value = i === undefined ? '' : fields[i]!.trim();
			return DASH.test(value) ? '' : value;
		};
		const reading = readCsvRow(
			fields[index.get('player')!]!,
			cell('position'),
			cell('time'),
			cell('gap'),
			cell('status'),
		);
		if (typeof reading === 'string') errors.push({ line, message: reading });
		else drafts.push({ line, ordinal: ordinal - 1, ...reading, positionColumn: true });
	}
	return drafts;
}

function readCsvRow(
	rawPlayer: string,
	positionText: string,
	timeText: string,
	gapText: string,
	statusText: string,
): LineReading | string {
	const problem = nameProblem(rawPlayer);
	if (problem !== undefined) return problem;
	// A sim's export writes DNF or DQ in the position column; a kart game writes it in the time column; iRacing's
	// Out column says Running, Disconnected or Disqualified.
	let status: EntryStatus | undefined = cellStatus(statusText);
	if (status === undefined) {
		return `status must be empty, DNF, DNS or DSQ (or RET, retired, Disconnected, DQ, Disqualified, Running), got "${statusText}"`;
	}
	let position = positionText;
	if (statusOf(position) !== undefined) {
		if (status === 'finished') status = statusOf(position)!;
		position = '';
	}
	if (position !== '' && !POSITION_TOKEN.test(position)) {
		return `position must be a whole number (or empty for the order given), got "${position}"`;
	}
	let time: number | undefined;
	let gap: Gap | undefined;
	let timeValue = timeText;
	const timeStatus = /^out:/iu.test(timeValue) ? cellStatus(timeValue) : statusOf(timeValue);
	if (timeStatus !== undefined) {
		if (status === 'finished') status = timeStatus;
		timeValue = '';
	}
	if (GAP.test(timeValue)) {
		const reading = readGap(timeValue.replace(/\s+(?:laps?|L)$/iu, ''));
		if (typeof reading === 'string') return reading;
		gap = reading;
	} else if (timeValue !== '') {
		const parsed = readSeconds(timeValue);
		if (parsed === undefined) return `time must be seconds, m:ss.fff or h:mm:ss.fff, got "${timeText}"`;
		const checked = timeInRange(timeValue, parsed);
		if (typeof checked === 'string') return checked;
		time = checked;
	}
	const outOfGap = /^out:/iu.test(gapText) ? cellStatus(gapText) : undefined;
	if (outOfGap !== undefined) {
		// iRacing's interval of a car out of the race: `Out: Disconnected`.
		if (status === 'finished') status = outOfGap;
	} else if (gapText !== '' && gap === undefined) {
		// iRacing writes intervals minus-signed: `-0.542`, `-1L`, `-1 L`.
		const interval = intervalAsGap(gapText);
		const laps = /^\+(\d+)\s*(?:laps?|L)$/iu.exec(interval);
		const reading: Gap | string = laps ? { text: interval, laps: Number(laps[1]) } : readGap(interval);
		if (typeof reading === 'string') return `gap must be +seconds (+0.556), +m:ss.fff or +N laps, got "${gapText}"`;
		gap = reading;
	}
	return {
		player: normalizeName(rawPlayer),
		number: position === '' ? undefined : POSITION_TOKEN.exec(position)![1],
		time,
		timeText: time === undefined ? undefined : timeValue,
		status,
		gap,
		looseNumbers: [],
		ignored: [],
	};
}

/**
 * Entries as CSV `player,position,time,status` in the order given (parseScoreboard's finishing order), time in
 * seconds at full double precision (String round-trips), empty when absent, status empty for a finisher: what
 * `pitwall scoreboard` prints, and what the CSV form above reads back.
 */
export function writeScoreboardCsv(entries: readonly RaceEntry[]): string {
	const rows = ['player,position,time,status'];
	for (const entry of entries) {
		const status = entry.status === 'finished' ? '' : entry.status;
		rows.push(
			csvLine([entry.player, String(entry.position), entry.time === undefined ? '' : String(entry.time), status]),
		);
	}
	return rows.map((row) => `${row}\n`).join('');
}
