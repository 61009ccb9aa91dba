import type { EntryStatus } from '../../ratings/types.js';
import { ResultFileError, type ResultEntry, type ResultFile, type ResultReader } from './types.js';

/**
 * A race classification table copied from a results page: formula1.com (`Pos No Driver Car Laps Time/Retired PTS`,
 * since 2024 `POS. NO. DRIVER TEAM LAPS TIME / RETIRED PTS.`) or a Wikipedia race report (`Pos. No. Driver
 * Constructor Laps Time/Retired Grid Points`). Facts:
 * - cells are separated by tabs (a browser copy; formula1.com's older pages leave a space before each tab), by runs
 *   of spaces (a copy that went through a chat), or one cell a line (a copy of the 2024 site's grid of blocks);
 * - the position column holds the place, or NC (not classified), DNF/Ret, DNS, DQ/DSQ, EX (excluded), DNQ (did not
 *   qualify: not a racer). Wikipedia marks a classified car that retired with `†` after the place;
 * - the time column holds the winner's race time (`1:35:50.443`), a gap (`+4.074s`, `+1:02.345`), laps down
 *   (`+1 lap`, `+2 Laps`), or why the car stopped (`DNF`, `Collision`);
 * - formula1.com since 2024 glues the driver's three-letter code to the name (`Max VerstappenVER`) and puts a
 *   no-break space between first and last name.
 * The rule: classified cars (a number in the position column) in that order; those whose time column says they
 * stopped are DNF at their place. Then the others in the table's order: NC and DNF/Ret are DNF (NC with reason "not
 * classified"), DNS is DNS, DQ/DSQ/EX are DSQ. A finisher's total time is the winner's time plus its gap, in exact
 * milliseconds; a lapped car has none. The team column becomes `team`; the points column is not used (warned).
 * Detect: a header in the first 4000 characters naming the place (`Pos`), the driver, and either `Time/Retired` or
 * the car number, team and laps (see isClassificationHeader); a scoreboard's `Pos Driver Time` is not one. The
 * same site's practice and qualifying tables are recognised and refused by read (no race in them).
 */

const NAME = 'race classification copied from a results page (formula1.com, Wikipedia)';
type Column = 'pos' | 'no' | 'driver' | 'team' | 'laps' | 'retired' | 'time' | 'gap' | 'q' | 'grid' | 'points';

/** Header cells (lower case, `/` unspaced, no final `.`) → column. A Map, so `toString` is no column. */
const HEADER_NAMES: ReadonlyMap<string, Column> = new Map<string, Column>([
	['pos', 'pos'],
	['position', 'pos'],
	['no', 'no'],
	['number', 'no'],
	['car no', 'no'],
	['driver', 'driver'],
	['car', 'team'],
	['team', 'team'],
	['constructor', 'team'],
	['entrant', 'team'],
	['laps', 'laps'],
	['time/retired', 'retired'],
	['time/ret', 'retired'],
	['time', 'time'],
	['gap', 'gap'],
	['q1', 'q'],
	['q2', 'q'],
	['q3', 'q'],
	['grid', 'grid'],
	['pts', 'points'],
	['points', 'points'],
]);

interface OutWord {
	readonly status: Exclude<EntryStatus, 'finished'>;
	readonly reason?: string;
}

/** Words in the position column of a car that is not classified. */
const OUT_POSITIONS: Readonly<Record<string, OutWord>> = {
	nc: { status: 'DNF', reason: 'not classified' },
	dnf: { status: 'DNF' },
	ret: { status: 'DNF' },
	dns: { status: 'DNS' },
	wd: { status: 'DNS', reason: 'withdrawn' },
	dq: { status: 'DSQ' },
	dsq: { status: 'DSQ' },
	ex: { status: 'DSQ', reason: 'excluded' },
};
/** Did not qualify / pre-qualify, did not practise: listed by some tables, never in the race. */
const NON_STARTERS = new Set(['dnq', 'dnpq', 'dnp']);
/** Time-column words that only repeat the status: not a reason. */
const PLAIN_WORDS = new Set([
	...['dnf', 'dns', 'dsq', 'dq', 'nc', 'ret', 'retired', 'ex', 'disqualified', 'excluded', 'not classified'],
	...['did not start', 'did not finish', '', '-', '–', '—'],
]);
const CLASSIFIED = /^(\d+)([†‡*]?)$/u;
const CLOCK = /^(?:(\d+):)?(\d{1,2}):(\d{2})(?:\.(\d{1,3}))?$/u;
const GAP = /^\+\s*((?:\d+:){0,2}\d+(?:\.\d{1,3})?)\s*s?$/u;
const LAPS_DOWN = /^\+\s*(\d+)\s*laps?$/iu;
const GLUED_CODE = /(\p{Ll})\p{Lu}{3}$/u;
const DETECT_CHARS = 4000;
const MAX_LINE_WARNINGS = 5;

export const classificationReader: ResultReader = {
	id: 'classification',
	name: NAME,
	detect: (text) => findHeader(headLines(text)) !== undefined,
	read,
};

interface Header {
	/** 0-based index of the header line (the first header cell in one-cell-a-line copies). */
	readonly index: number;
	/** 0-based index of the first line after the header. */
	readonly next: number;
	readonly columns: readonly (Column | undefined)[];
	readonly oneCellALine: boolean;
}

interface Row {
	readonly line: number;
	readonly cells: readonly string[];
}

function headLines(text: string): string[] {
	const lines = text.slice(0, DETECT_CHARS).split(/\r\n|\n|\r/u);
	return text.length > DETECT_CHARS ? lines.slice(0, -1) : lines;
}

const headerName = (cell: string): Column | undefined =>
	HEADER_NAMES.get(
		cell
			.toLowerCase()
			.replace(/\s*\/\s*/gu, '/')
			.replace(/\.$/u, '')
			.replace(/\s+/gu, ' ')
			.trim(),
	);

/** Cells of a line: tabs when it has one (a browser copy), else runs of two spaces or more. */
function cellsOf(line: string): string[] {
	const trimmed = line.trim();
	return (trimmed.includes('\t') ? trimmed.split('\t') : trimmed.split(/ {2,}/u)).map((cell) => cell.trim());
}

/**
 * A classification header: the place, the driver, and either the race's Time/Retired column or the car number,
 * team and laps of a results page (so a practice or qualifying table of the same site is recognised, then refused
 * by read). A scoreboard header such as `Pos Driver Time` is not one.
 */
function isClassificationHeader(columns: readonly (Column | undefined)[]): boolean {
	const has = (column: Column): boolean => columns.includes(column);
	return has('pos') && has('driver') && (has('retired') || (has('no') && has('team') && has('laps')));
}

function findHeader(lines: readonly string[]): Header | undefined {
	for (let i = 0; i < lines.length; i++) {
		const cells = cellsOf(lines[i]!);
		if (cells.length >= 4) {
			const columns = cells.map(headerName);
			if (isClassificationHeader(columns)) return { index: i, next: i + 1, columns, oneCellALine: false };
			continue;
		}
		if (cells.length !== 1 || headerName(cells[0]!) !== 'pos') continue;
		// One cell a line: the header names follow each other.
		const columns: Column[] = [];
		let j = i;
		for (; j < lines.length; j++) {
			const line = lines[j]!.trim();
			if (line === '' || line.includes('\t')) break;
			const column = headerName(line);
			if (column === undefined) break;
			columns.push(column);
		}
		if (columns.length >= 4 && isClassificationHeader(columns)) {
			return { index: i, next: j, columns, oneCellALine: true };
		}
	}
	return undefined;
}

const isPositionCell = (cell: string): boolean => {
	const key = cell.toLowerCase();
	return CLASSIFIED.test(cell) || Object.hasOwn(OUT_POSITIONS, key) || NON_STARTERS.has(key);
};

function collectRows(lines: readonly string[], header: Header, skipped: number[]): Row[] {
	const posIndex = header.columns.indexOf('pos');
	const rows: Row[] = [];
	if (!header.oneCellALine) {
		for (let i = header.next; i < lines.length; i++) {
			if (lines[i]!.trim() === '') continue;
			const cells = cellsOf(lines[i]!);
			if (isPositionCell(cells[posIndex] ?? '') && cells.length > 2) rows.push({ line: i + 1, cells });
			else if (!isClassificationHeader(cells.map(headerName))) skipped.push(i + 1);
		}
		return rows;
	}
	const width = header.columns.length;
	const lapsIndex = header.columns.indexOf('laps');
	const driverIndex = header.columns.indexOf('driver');
	const filled: { line: number; text: string }[] = [];
	for (let i = header.next; i < lines.length; i++) {
		const text = lines[i]!.trim();
		if (text !== '') filled.push({ line: i + 1, text });
	}
	for (let k = 0; k < filled.length;) {
		const cells = filled.slice(k, k + width).map((cell) => cell.text);
		const fits =
			cells.length === width &&
			isPositionCell(cells[posIndex]!) &&
			!/^\d+$/u.test(cells[driverIndex]!) &&
			(lapsIndex < 0 || /^(?:\d+|[-–—]?)$/u.test(cells[lapsIndex]!));
		if (fits) {
			rows.push({ line: filled[k]!.line, cells });
			k += width;
		} else {
			skipped.push(filled[k]!.line);
			k++;
		}
	}
	return rows;
}

/** `1:35:50.443`, `1:32.5` → exact milliseconds. */
function clockMs(text: string): number | undefined {
	const match = CLOCK.exec(text);
	if (!match) return undefined;
	const [, hours, minutes, seconds, fraction] = match;
	const ms = Number((fraction ?? '').padEnd(3, '0'));
	return ((Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + ms;
}

/** `+4.074s`, `+1:02.345` → the gap in exact milliseconds. */
function gapMs(text: string): number | undefined {
	const match = GAP.exec(text);
	if (!match) return undefined;
	const parts = match[1]!.split(':');
	const last = parts.pop()!;
	const [whole, fraction = ''] = last.split('.');
	const minutes = parts.reduce((sum, part) => sum * 60 + Number(part), 0);
	return (minutes * 60 + Number(whole)) * 1000 + Number(fraction.padEnd(3, '0'));
}

const isRaceTime = (text: string): boolean =>
	clockMs(text) !== undefined || gapMs(text) !== undefined || LAPS_DOWN.test(text);
const reasonOf = (text: string): string | undefined =>
	PLAIN_WORDS.has(text.toLowerCase()) || isRaceTime(text) ? undefined : text;
const isDisqualified = (text: string): boolean => /^(?:dsq|dq|disqualified)$/iu.test(text);
const clean = (text: string): string => text.replace(/\s+/gu, ' ').trim();

interface Reading {
	readonly row: Row;
	readonly place: number | undefined;
	readonly entry: Omit<ResultEntry, 'position'>;
	/** The time column, kept to compute the total time. */
	readonly time: string;
}

function read(text: string): ResultFile {
	const lines = text.split(/\r\n|\n|\r/u);
	const header = findHeader(lines);
	if (!header) {
		throw new ResultFileError(
			'no classification header: copy the table with its header row (POS, NO, DRIVER, CAR or TEAM, LAPS, ' +
				'TIME/RETIRED, PTS)',
		);
	}
	if (!header.columns.includes('retired')) {
		const has = (column: Column): boolean => header.columns.includes(column);
		const kind = has('q')
			? 'this is a qualifying classification (Q1, Q2, Q3), not a race'
			: has('time') || has('gap')
				? 'this is practice or qualifying times (no Time/Retired column), not a race'
				: 'the header has no Time/Retired column (was the copy cut short?)';
		throw new ResultFileError(`line ${header.index + 1}: ${kind}: nothing to rate`);
	}
	const warnings: string[] = [];
	const skipped: number[] = [];
	const rows = collectRows(lines, header, skipped);
	const column = (row: Row, name: Column): string => {
		const index = header.columns.indexOf(name);
		return index < 0 ? '' : clean(row.cells[index] ?? '');
	};
	const stripCodes = gluedCodes(rows.map((row) => column(row, 'driver')));
	if (stripCodes) warnings.push('three-letter driver codes glued to the names removed ("Max VerstappenVER")');

	const readings: Reading[] = [];
	for (const row of rows) {
		const reading = readRow(row, column, stripCodes, warnings);
		if (reading) readings.push(reading);
	}
	if (readings.length === 0) {
		throw new ResultFileError(`line ${header.index + 1}: the classification has a header but no driver row under it`);
	}
	noteSkipped(lines, skipped, warnings);
	if (header.columns.includes('points')) {
		warnings.push('the points column is not used: places come from the position column');
	}
	return {
		format: 'classification',
		formatName: NAME,
		entries: place(readings, warnings),
		warnings,
	};
}

/** formula1.com's glued codes: most driver cells end in a lower-case letter then three capitals. */
function gluedCodes(drivers: readonly string[]): boolean {
	const glued = drivers.filter((driver) => GLUED_CODE.test(driver)).length;
	return drivers.length > 0 && glued * 2 > drivers.length;
}

function readRow(
	row: Row,
	column: (row: Row, name: Column) => string,
	stripCodes: boolean,
	warnings: string[],
): Reading | undefined {
	const pos = column(row, 'pos');
	let name = column(row, 'driver');
	if (stripCodes && GLUED_CODE.test(name)) name = name.slice(0, -3).trim();
	if (name === '') {
		warnings.push(`line ${row.line}: no driver name: row not read`);
		return undefined;
	}
	const key = pos.toLowerCase();
	if (NON_STARTERS.has(key)) {
		warnings.push(`line ${row.line}: ${name} did not qualify (${pos}): not a racer`);
		return undefined;
	}
	const time = column(row, 'retired');
	const lapsText = column(row, 'laps');
	const team = column(row, 'team');
	const common = {
		name,
		...(/^\d+$/u.test(lapsText) ? { laps: Number(lapsText) } : {}),
		...(team === '' || PLAIN_WORDS.has(team) ? {} : { team }),
	};
	const reason = reasonOf(time);
	const classified = CLASSIFIED.exec(pos);
	if (classified) {
		const place = Number(classified[1]);
		if (isDisqualified(time)) {
			return { row, place, time, entry: { ...common, status: 'DSQ', penalties: ['disqualified'] } };
		}
		if (classified[2] === '' && (time === '' || isRaceTime(time))) {
			return { row, place, time, entry: { ...common, status: 'finished' } };
		}
		warnings.push(`line ${row.line}: ${name} stopped (${time || pos}) but is classified ${place}: DNF at that place`);
		return { row, place, time, entry: { ...common, status: 'DNF', ...(reason ? { reason } : {}) } };
	}
	const out = OUT_POSITIONS[key]!;
	// `NC` + `Collision` (Wikipedia) keeps both: "not classified: Collision".
	const why = out.reason !== undefined && reason !== undefined ? `${out.reason}: ${reason}` : (out.reason ?? reason);
	return {
		row,
		place: undefined,
		time,
		entry: {
			...common,
			status: out.status,
			...(why ? { reason: why } : {}),
			...(out.status === 'DSQ' ? { penalties: [out.reason ?? 'disqualified'] } : {}),
		},
	};
}

/** Classified cars by their place, then the others in the table's order; totals from the winner's time. */
function place(readings: readonly Reading[], warnings: string[]): ResultEntry[] {
	const classified = readings.filter((reading) => reading.place !== undefined);
	classified.sort((a, b) => a.place! - b.place!);
	const places = classified.map((reading) => reading.place!);
	if (places.some((place, i) => place !== i + 1)) {
		warnings.push(`the places run ${places.join(', ')}, not 1 to ${places.length}: renumbered in that order`);
	}
	const ordered = [...classified, ...readings.filter((reading) => reading.place === undefined)];
	const winner = classified[0] === undefined ? undefined : clockMs(classified[0].time);
	let gapsWithoutWinner = false;
	const entries = ordered.map((reading, index): ResultEntry => {
		let totalMs: number | undefined;
		if (reading.entry.status === 'finished') {
			const gap = gapMs(reading.time);
			totalMs = clockMs(reading.time) ?? (gap === undefined || winner === undefined ? undefined : winner + gap);
			if (gap !== undefined && winner === undefined) gapsWithoutWinner = true;
		}
		return { ...reading.entry, position: index + 1, ...(totalMs === undefined ? {} : { totalTime: totalMs / 1000 }) };
	});
	if (gapsWithoutWinner) warnings.push("the winner's race time is missing: gaps not turned into total times");
	return entries;
}

function noteSkipped(lines: readonly string[], skipped: readonly number[], warnings: string[]): void {
	for (const line of skipped.slice(0, MAX_LINE_WARNINGS)) {
		const text = clean(lines[line - 1]!);
		warnings.push(`line ${line}: not a classification row: "${text.length > 60 ? `${text.slice(0, 57)}...` : text}"`);
	}
	if (skipped.length > MAX_LINE_WARNINGS) {
		warnings.push(`${skipped.length - MAX_LINE_WARNINGS} more lines not read as classification rows`);
	}
}
