import { nameKey } from '../league/player-names.js';
import { columnRole, type ColumnRole } from './scoreboard-columns.js';
import {
	DASH,
	GAP,
	looksLikeSeveralRacers,
	POSITION_TOKEN,
	readTextLine,
	SCOREBOARD_LIMITS,
	splitCells,
	splitOneLine,
	statusOf,
	type Draft,
	type LineReading,
	type ScoreboardError,
} from './scoreboard-line.js';

/**
 * The text form of a scoreboard as a whole (docs/scoreboard.md "Text", issue 8 §2): a header row, the racer lines,
 * the decision whether bare numbers after the names are a column, and one-line pastes. Pure.
 */

const SEVERAL_RACERS =
	'this line seems to hold several racers: put one racer per line, or separate racers with ";" ' +
	'(1. Alice 1:01.5; 2. Bob 1:02.3)';

/**
 * A scoreboard pasted as one line: racers separated by `;` (the form Discord's one-line option needs), or a paste
 * that lost its line breaks, split before each position (splitOneLine, with a warning). The pieces become the lines,
 * so "line N" is then the Nth racer. Other input comes back unchanged.
 */
export function unfoldOneLine(lines: readonly string[], warnings: string[]): readonly string[] {
	const filled = lines.filter((content) => content.trim() !== '');
	if (filled.length !== 1) return lines;
	const content = filled[0]!;
	const pieces = splitOutsideQuotes(content, ';');
	if (pieces.length >= 2) return pieces;
	const racers = splitOneLine(content);
	if (racers === undefined) return lines;
	const marks = racers.map((racer) => `"${racer.split(' ')[0]}"`);
	warnings.push(
		`line 1: one line holds ${racers.length} racers, read as split before each position (${marks.slice(0, 4).join(', ')}` +
			`${marks.length > 4 ? ', …' : ''}); "line N" below is the Nth racer: check the order, or put one racer per line`,
	);
	return racers;
}

function splitOutsideQuotes(content: string, separator: string): string[] {
	const pieces: string[] = [];
	let current = '';
	let quoted = false;
	for (const char of content) {
		if (char === '"') quoted = !quoted;
		if (char === separator && !quoted) {
			pieces.push(current);
			current = '';
		} else {
			current += char;
		}
	}
	pieces.push(current);
	return pieces;
}

/** A header row: what each cell holds (when split by tabs or `|`), and how many number columns it names. */
interface Header {
	readonly line: number;
	/** Roles by cell, when the header's cells are separated by tabs or `|`; undefined for a space-separated header. */
	readonly cells: readonly (ColumnRole | undefined)[] | undefined;
	/** Points and laps columns: bare numbers after a name are these columns. */
	readonly numberColumns: number;
	/** Names of separated columns that are no known column (not read). */
	readonly unknown: readonly string[];
}

/**
 * A first line of column names (no digit), at least two of them known, one of them the player's (`Pos	Driver	Time`,
 * `| # | Pilote | Temps |`, `Pos Fahrer Zeit Punkte`).
 */
function readHeader(content: string, line: number): Header | undefined {
	const cells = splitCells(content);
	const separated = cells.length >= 2;
	const parts = separated ? cells : content.trim().split(/\s+/u);
	if (parts.some((part) => /\d/u.test(part))) return undefined;
	const roles = parts.map((part) => (part === '' ? undefined : columnRole(part)));
	if (!roles.includes('player') || roles.filter((role) => role !== undefined).length < 2) return undefined;
	return {
		line,
		cells: separated ? roles : undefined,
		numberColumns: roles.filter((role) => role === 'points' || role === 'laps').length,
		unknown: separated ? parts.filter((part, i) => part !== '' && roles[i] === undefined) : [],
	};
}

/** A markdown table's `|---|---|` row or a `-----` / `=====` rule: not a racer. */
const RULE = /^[\s|:+=-]*$/u;
const isRule = (content: string): boolean => RULE.test(content) && (content.match(/[-=]/gu)?.length ?? 0) >= 3;

interface RacerLine {
	readonly line: number;
	readonly content: string;
	readonly ordinal: number;
}

export function readTextDrafts(
	lines: readonly string[],
	tooLong: ReadonlySet<number>,
	errors: ScoreboardError[],
	warnings: string[],
): Draft[] {
	let racers: RacerLine[] = [];
	let header: Header | undefined;
	let title: RacerLine | undefined;
	let ordinal = 0;
	for (const [i, content] of lines.entries()) {
		const line = i + 1;
		if (content.trim() === '' || isRule(content)) continue;
		if (racers.length <= 1 && header === undefined && !tooLong.has(line)) {
			header = readHeader(content, line);
			if (header !== undefined) {
				// A line above the header row is the table's title.
				title = racers[0];
				racers = [];
				ordinal = 0;
				continue;
			}
		}
		if (ordinal === SCOREBOARD_LIMITS.maxRacers) {
			errors.push(tooManyRacers(line));
			break;
		}
		ordinal++;
		if (!tooLong.has(line)) racers.push({ line, content, ordinal: ordinal - 1 });
	}
	if (header === undefined && isTitle(racers)) {
		title = racers[0];
		racers = racers.slice(1).map((racer) => ({ ...racer, ordinal: racer.ordinal - 1 }));
	}
	if (title !== undefined) {
		const name = title.content.trim().replace(/\s+/gu, ' ');
		warnings.push(
			`line ${title.line}: "${name}" is read as a title, not a racer (${header === undefined ? 'the racers below it are numbered' : 'a header row follows it'})`,
		);
	}
	if (header !== undefined && header.unknown.length > 0) {
		const names = header.unknown.map((name) => `"${name}"`).join(', ');
		warnings.push(
			`line ${header.line}: the column${header.unknown.length > 1 ? 's' : ''} ${names} ` +
				`${header.unknown.length > 1 ? 'are' : 'is'} not read: pitwall reads the position, player (or driver, name), time, gap and status`,
		);
	}
	const budget = header === undefined ? numberColumns(racers, warnings) : header.numberColumns;
	const drafts: Draft[] = [];
	const ignored: string[] = [];
	for (const { line, content, ordinal } of racers) {
		const mapped = header?.cells === undefined ? undefined : mappedLine(content, header.cells);
		const reading = mapped === undefined ? readTextLine(content, budget) : mapped;
		if (typeof reading === 'string') {
			const several = mapped === undefined && looksLikeSeveralRacers(content);
			errors.push({ line, message: several ? SEVERAL_RACERS : reading });
			continue;
		}
		drafts.push({ line, ordinal, ...reading });
		for (const cell of reading.ignored) ignored.push(`"${cell}" on line ${line}`);
	}
	if (ignored.length > 0) {
		warnings.push(
			`line ${drafts.find((draft) => draft.ignored.length > 0)!.line}: the first cell with a word in it is read as ` +
				`the name, and the other cells are left out: ${ignored.slice(0, 3).join(', ')}` +
				`${ignored.length > 3 ? ` and ${ignored.length - 3} more` : ''}`,
		);
	}
	return drafts;
}

export function tooManyRacers(line: number): ScoreboardError {
	const max = SCOREBOARD_LIMITS.maxRacers;
	return { line, message: `too many racers: a race holds at most ${max}, and this is racer ${max + 1}` };
}

/**
 * How many bare numbers after each name are columns (points, laps) rather than part of the name, when no header
 * says: as many as every finisher line has, when at least two lines have one (`Alice 82`, `Bob 75`). `Max 33` among
 * lines without numbers keeps its number. A column read this way is ambiguous, so the preview says so.
 */
function numberColumns(racers: readonly RacerLine[], warnings: string[]): number {
	const probes = racers.flatMap(({ line, content }) => {
		const reading = readTextLine(content, Infinity);
		return typeof reading === 'string' ? [] : [{ line, reading }];
	});
	const finishers = probes.filter(({ reading }) => reading.status === 'finished');
	const numbered = probes.filter(({ reading }) => reading.looseNumbers.length > 0);
	if (numbered.length < 2 || finishers.length === 0) return 0;
	const columns = Math.min(...finishers.map(({ reading }) => reading.looseNumbers.length));
	if (columns === 0) return 0;
	// Numbers that tell racers apart are names, not a column (`Driver 0041`, `Driver 0042`): read as a column they
	// would make two racers one.
	const asColumns = racers.map(({ content }) => readTextLine(content, columns));
	const keys = asColumns.flatMap((r) => (typeof r === 'string' ? [] : [nameKey(r.player)]));
	if (new Set(keys).size < keys.length) return 0;
	const shown = numbered
		.slice(0, 3)
		.map(({ line, reading }) => `"${reading.looseNumbers.at(-columns)}" on line ${line}`);
	warnings.push(
		`line ${numbered[0]!.line}: the ${columns === 1 ? 'number' : `${columns} numbers`} after each name ` +
			`(${shown.join(', ')}${numbered.length > 3 ? ', …' : ''}) ${columns === 1 ? 'is' : 'are'} read as a ` +
			`points or laps column, not as part of the name: put a name that ends in a number in quotes ("Max 33")`,
	);
	return columns;
}

/**
 * A row read through the header's cells: the position, player, time, gap and status cells, as a line the text
 * grammar reads (the name quoted, so a name cell is taken whole); points, laps and unknown columns are left out.
 * Undefined when the row's cells do not line up with the header's (then the row is read as plain text).
 */
function mappedLine(content: string, roles: readonly (ColumnRole | undefined)[]): LineReading | string | undefined {
	const cells = splitCells(content);
	if (cells.length < 2 || cells.length > roles.length) return undefined;
	const pick = (role: ColumnRole): string | undefined =>
		cells.find((cell, i) => roles[i] === role && cell !== '' && !DASH.test(cell));
	const position = pick('position');
	const time = pick('time');
	const gap = pick('gap');
	const status = pick('status');
	const parts: string[] = [];
	let positionStatus: string | undefined;
	if (position !== undefined) {
		if (POSITION_TOKEN.test(position)) parts.push(position);
		else if (statusOf(position) !== undefined) positionStatus = position;
		else return `the position "${position}" is not a position: expected a number like 1, 1., P1 or 1st`;
	}
	parts.push(`"${(pick('player') ?? '').replaceAll('"', '""')}"`);
	if (time !== undefined) parts.push(time);
	if (gap !== undefined && !(time !== undefined && GAP.test(time))) parts.push(/^\d/u.test(gap) ? `+${gap}` : gap);
	if (status !== undefined) parts.push(status);
	else if (positionStatus !== undefined) parts.push(positionStatus);
	return readTextLine(parts.join(' '), 0);
}

/**
 * A first line that is only words (`RACE RESULTS`, `Round 3:`) above numbered racers is a title, not a racer (else
 * every numbered line below it would be an "unexpected position" error): dropped with a warning.
 */
function isTitle(racers: readonly RacerLine[]): boolean {
	const [first, ...rest] = racers.map(({ content }) => readTextLine(content, Infinity));
	if (first === undefined || typeof first === 'string' || first.number !== undefined) return false;
	if (first.time !== undefined || first.gap !== undefined || first.status !== 'finished') return false;
	const finishers = rest.flatMap((reading) =>
		typeof reading !== 'string' && reading.status === 'finished' ? [reading] : [],
	);
	// The racers below start at 1: `Alice` above `2. Bob` is a winner left unnumbered, not a title.
	return (
		finishers.length >= 2 && finishers[0]!.number === '1' && finishers.every((reading) => reading.number !== undefined)
	);
}
