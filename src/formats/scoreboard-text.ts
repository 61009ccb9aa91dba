import { MAX_NAME_LENGTH, nameKey } from '../league/player-names.js';
import { columnKind, columnRole, MAX_COLUMN_WORDS, type ColumnRole } from './scoreboard-columns.js';
import {
	BARE_INTEGER,
	cellStatus,
	DASH,
	GAP,
	intervalAsGap,
	LAP_WORDS,
	looksLikeSeveralRacers,
	POSITION_TOKEN,
	readGap,
	readTextLine,
	SCOREBOARD_LIMITS,
	splitCells,
	splitOneLine,
	statusOf,
	TIME_SHAPED,
	type Draft,
	type LineReading,
	type ScoreboardError,
} from './scoreboard-line.js';

/**
 * The text form of a scoreboard as a whole (docs/scoreboard.md "Text"): a header row, the racer lines,
 * the decision whether bare numbers after the names are a column, and one-line pastes. Pure.
 */

const SEVERAL_RACERS =
	'this line seems to hold several racers: put one racer per line, or separate racers with ";" ' +
	'(1. Alice 1:01.5; 2. Bob 1:02.3)';

/**
 * A scoreboard pasted as one line: racers separated by `;` (the form Discord's one-line option needs), or a paste
 * that lost its line breaks, split before each position (splitOneLine, with a warning). The pieces become the lines,
 * and messages say "racer N" for the Nth (parseScoreboard). Other input comes back unchanged.
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
			`${marks.length > 4 ? ', …' : ''}); "racer N" below is the Nth of them: check the order, or put one racer per line`,
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

/** A column of a header row: its name as written, what it holds, and where it stands on the header's line. */
interface Column {
	readonly name: string;
	readonly role: ColumnRole | undefined;
	readonly start: number;
	readonly end: number;
}

/** A header row: its columns, how they are separated, and how many number columns it names. */
interface Header {
	readonly line: number;
	/**
	 * How the header's columns are separated: `cells` by tabs, `;` or `|` (rows are cut the same way); `aligned` by
	 * two or more spaces (a results page copied as text: rows are cut at two or more spaces, or where the header's
	 * columns stand); `words` by single spaces, each known column name (`Best Lap` is one) a column.
	 */
	readonly layout: 'cells' | 'aligned' | 'words';
	readonly columns: readonly Column[];
	/** Points and laps columns (and, between spaces, other number columns): bare numbers after a name are these. */
	readonly numberColumns: number;
}

/**
 * A first line of column names (no digit), at least two of them known, one of them the player's (`Pos	Driver	Time`,
 * `| # | Pilote | Temps |`, `Pos Fahrer Zeit Punkte`, `Pos  Driver  Car  Laps  Time  Best Lap  Inc`).
 */
function readHeader(content: string, line: number): Header | undefined {
	const cells = splitCells(content);
	const layout = cells.length >= 2 ? 'cells' : /\S {2,}\S/u.test(content.trim()) ? 'aligned' : 'words';
	const parts =
		layout === 'cells'
			? cells.map((name) => ({ name, start: 0, end: 0 }))
			: [...content.matchAll(/\S+(?: \S+)*/gu)].flatMap((match) => headerWords(match[0], match.index));
	if (parts.some(({ name }) => /\d/u.test(name))) return undefined;
	const columns = parts.map((part) => ({ ...part, role: part.name === '' ? undefined : columnRole(part.name) }));
	const roles = columns.map(({ role }) => role);
	if (!roles.includes('player') || roles.filter((role) => role !== undefined).length < 2) return undefined;
	const numbers = columns.filter(
		({ name, role }) =>
			role === 'points' ||
			role === 'laps' ||
			(layout !== 'cells' && role === 'ignored' && columnKind(name) === 'number'),
	);
	return { line, layout, columns, numberColumns: numbers.length };
}

/**
 * The columns of a stretch of a header separated by single spaces: the longest known column name at each word
 * (`Best Lap`, `Fin Pos`), else the word alone; a `#` joins the word before it (`Car #`).
 */
function headerWords(text: string, offset: number): { name: string; start: number; end: number }[] {
	if (columnRole(text) !== undefined) return [{ name: text, start: offset, end: offset + text.length }];
	const words = [...text.matchAll(/\S+/gu)].map((match) => ({
		name: match[0],
		start: offset + match.index,
		end: offset + match.index + match[0].length,
	}));
	const parts: { name: string; start: number; end: number }[] = [];
	const named = (from: number, size: number): string =>
		words
			.slice(from, from + size)
			.map(({ name }) => name)
			.join(' ');
	for (let i = 0; i < words.length;) {
		let size = Math.min(MAX_COLUMN_WORDS, words.length - i);
		while (size > 1 && columnRole(named(i, size)) === undefined) size--;
		if (size === 1 && words[i + 1]?.name === '#') size = 2;
		const group = words.slice(i, i + size);
		parts.push({ name: named(i, size), start: group[0]!.start, end: group.at(-1)!.end });
		i += size;
	}
	return parts;
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
	const comments = closingComments(racers);
	racers = racers.slice(0, racers.length - comments.length);
	if (title !== undefined) {
		warnings.push(
			titleWarning(
				title.line,
				title.content,
				header === undefined ? 'the racers below it are numbered' : 'a header row follows it',
			),
		);
	}
	if (header !== undefined) {
		// Between tabs, `;` or `|` the cells are the header's, and known columns are left out quietly; between spaces the
		// cut is read, so every column left out but points and laps is named.
		const left = header.columns.filter(({ name, role }) =>
			header.layout === 'cells' ? name !== '' && role === undefined : role === undefined || role === 'ignored',
		);
		if (left.length > 0) {
			const names = left.map(({ name }) => `"${name}"`).join(', ');
			warnings.push(
				`line ${header.line}: the column${left.length > 1 ? 's' : ''} ${names} ` +
					`${left.length > 1 ? 'are' : 'is'} not read: pitwall reads the position, player (or driver, name), time, gap and status`,
			);
		}
	}
	const budget = header === undefined ? numberColumns(racers, warnings) : header.numberColumns;
	const positionColumn = header?.columns.some(({ role }) => role === 'position') === true;
	const drafts: Draft[] = [];
	const ignored: string[] = [];
	for (const { line, content, ordinal } of racers) {
		const mapped = header === undefined ? undefined : readRow(content, header);
		const reading = mapped === undefined ? readTextLine(content, budget) : mapped;
		if (typeof reading === 'string') {
			const several = mapped === undefined && looksLikeSeveralRacers(content);
			errors.push({ line, message: several ? SEVERAL_RACERS : reading });
			continue;
		}
		drafts.push({ line, ordinal, ...reading, ...(positionColumn && { positionColumn }) });
		for (const cell of reading.ignored) ignored.push(`"${cell}" on line ${line}`);
	}
	if (ignored.length > 0) {
		warnings.push(
			`line ${drafts.find((draft) => draft.ignored.length > 0)!.line}: the first cell with a word in it is read as ` +
				`the name, and the other cells are left out: ${ignored.slice(0, 3).join(', ')}` +
				`${ignored.length > 3 ? ` and ${ignored.length - 3} more` : ''}`,
		);
	}
	for (const comment of comments) {
		warnings.push(commentWarning(comment.line, comment.content, 'the racers above it are numbered'));
	}
	return drafts;
}

/** `line N: "…" is read as a title, not a racer (why)`: a line of words above the racers, left out. */
export function titleWarning(line: number, content: string, why: string): string {
	return `line ${line}: "${content.trim().replace(/\s+/gu, ' ')}" is read as a title, not a racer (${why})`;
}

/** `line N: "…" is read as a comment, not a racer (why)`: a line of words below the racers, left out. */
export function commentWarning(line: number, content: string, why: string): string {
	return `line ${line}: "${content.trim().replace(/\s+/gu, ' ')}" is read as a comment, not a racer (${why})`;
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
 * A row read by the header's columns, or undefined when it does not fit them (then it is read as a plain line). A
 * row under a header of spaces that fits no cut, when the header has a text column besides the name (a car, a team),
 * is an error: read as a plain line, that column would become part of the name.
 */
function readRow(content: string, header: Header): LineReading | string | undefined {
	const { columns } = header;
	if (header.layout === 'cells') {
		const cells = splitCells(content);
		if (cells.length < 2 || cells.length > columns.length) return undefined;
		return readCells(cells, columns);
	}
	const cut = content.trim().split(/\t| {2,}/u);
	const placed =
		(cut.length === columns.length && fitsColumns(cut, columns) ? cut : undefined) ??
		(header.layout === 'aligned' && !content.includes('\t') ? placeByPosition(content, columns) : undefined) ??
		fitTokens(content.trim().split(/\s+/u), columns);
	if (placed !== undefined) return readCells(placed, columns);
	const texts = columns.filter(
		({ name, role }) => (role === undefined || role === 'ignored') && columnKind(name) === 'text',
	);
	if (texts.length === 0) return undefined;
	return (
		`this line does not fit the header's columns (line ${header.line}: ${columns.map(({ name }) => name).join(', ')}): ` +
		`separate its cells with a tab or two spaces, or leave out the ${texts.map(({ name }) => name).join(', ')} ` +
		`column${texts.length > 1 ? 's' : ''}, so the name is not mixed with ${texts.length > 1 ? 'them' : 'it'}`
	);
}

/** Whether a cell can be in a column: a name is any text, the others are a position, a time, a number, … or empty. */
function fitsColumn(cell: string, column: Column): boolean {
	if (column.role === 'player') return cell !== '';
	if (cell === '' || DASH.test(cell)) return true;
	const reasonOut = cellStatus(cell);
	switch (column.role) {
		case 'position':
			return POSITION_TOKEN.test(cell) || statusOf(cell) !== undefined;
		case 'time':
			return TIME_SHAPED.test(cell) || isGap(cell) || (reasonOut !== undefined && reasonOut !== 'finished');
		case 'gap':
			return isGap(intervalAsGap(cell)) || (reasonOut !== undefined && reasonOut !== 'finished');
		case 'status':
			return reasonOut !== undefined;
		case 'points':
		case 'laps':
			return BARE_INTEGER.test(cell);
		default: {
			const kind = columnKind(column.name);
			return kind === 'text' || (kind === 'time' ? TIME_SHAPED.test(cell) : BARE_INTEGER.test(cell));
		}
	}
}

const fitsColumns = (cells: readonly (string | undefined)[], columns: readonly Column[]): boolean =>
	cells.every((cell, i) => fitsColumn(cell ?? '', columns[i]!)) &&
	cells.some((cell, i) => cell !== undefined && columns[i]!.role === 'player');

/** A gap as the text grammar reads it: `+0.556`, `+1L`, `+1 lap`. */
function isGap(text: string): boolean {
	const laps = /^\+\d+ (\S+)$/u.exec(text);
	return laps !== null ? LAP_WORDS.test(laps[1]!) : GAP.test(text) && typeof readGap(text) !== 'string';
}

/**
 * The cells of a row of a table aligned with spaces (a results page copied as text, where an empty cell leaves a
 * wider space): each run of text goes to the column whose name it stands under. Undefined when a run stands under two
 * names (a name and a car separated by one space), when two runs fall in one column, or when a cell does not fit.
 */
function placeByPosition(content: string, columns: readonly Column[]): (string | undefined)[] | undefined {
	const placed: (string | undefined)[] = columns.map(() => undefined);
	for (const match of content.matchAll(/\S+(?: \S+)*/gu)) {
		const start = match.index;
		const end = start + match[0].length;
		const under = columns.flatMap((column, i) => (start < column.end && column.start < end ? [i] : []));
		if (under.length > 1) return undefined;
		const i = under[0] ?? columns.findLastIndex((column) => column.start <= start);
		if (i === -1 || placed[i] !== undefined) return undefined;
		placed[i] = match[0];
	}
	return fitsColumns(placed, columns) ? placed : undefined;
}

/**
 * The cells of a row whose cells are separated by single spaces, by what each column holds: the columns before the
 * name take one word each from the left, those after it one word (or two: `+1 lap`, `Out: Disconnected`) each from
 * the right, and the name is what is left. Undefined when a column other than the name holds text (a car: where
 * would the name end?) or a word does not fit its column (an empty cell).
 */
function fitTokens(words: readonly string[], columns: readonly Column[]): string[] | undefined {
	const name = columns.findIndex(({ role }) => role === 'player');
	const free = (column: Column): boolean =>
		column.role === 'player' ||
		((column.role === undefined || column.role === 'ignored') && columnKind(column.name) === 'text');
	if (columns.some((column, i) => i !== name && free(column))) return undefined;
	const cells: string[] = columns.map(() => '');
	let from = 0;
	for (let i = 0; i < name; i++) {
		const word = words[from];
		if (word === undefined || !fitsColumn(word, columns[i]!)) return undefined;
		cells[i] = word;
		from++;
	}
	let to = words.length;
	for (let i = columns.length - 1; i > name; i--) {
		const two = to - 2 >= from ? words.slice(to - 2, to).join(' ') : undefined;
		const one = to - 1 >= from ? words[to - 1]! : undefined;
		const fits = (cell: string | undefined): cell is string =>
			cell !== undefined && cell !== '' && !DASH.test(cell.split(' ')[0]!) && fitsColumn(cell, columns[i]!);
		// Two words when they are one cell (`+1 lap`, `-1 L`, `Out: Disconnected`), not two cells.
		if (two !== undefined && fits(two) && (OUT_WORD.test(two.split(' ')[0]!) || !fitsColumn(one!, columns[i]!))) {
			cells[i] = two;
			to -= 2;
		} else if (one !== undefined && (fits(one) || DASH.test(one))) {
			cells[i] = one;
			to -= 1;
		} else {
			return undefined;
		}
	}
	if (to <= from) return undefined;
	cells[name] = words.slice(from, to).join(' ');
	return cells;
}

/**
 * A row read through the header's columns: the position, player, time, gap and status cells, as a line the text
 * grammar reads (the name quoted, so a name cell is taken whole); points, laps and unknown columns are left out.
 * Intervals are gaps (iRacing's `-0.542`, `-1L`), and a status cell may say `Running`, `Disconnected` or
 * `Out: Disqualified`.
 */
function readCells(cells: readonly (string | undefined)[], columns: readonly Column[]): LineReading | string {
	const pick = (role: ColumnRole): string | undefined =>
		cells.find((cell, i) => columns[i]?.role === role && cell !== undefined && cell !== '' && !DASH.test(cell));
	const position = pick('position');
	let time = pick('time');
	let gap = pick('gap');
	const statusCell = pick('status');
	const parts: string[] = [];
	let positionStatus: string | undefined;
	if (position !== undefined) {
		if (POSITION_TOKEN.test(position)) parts.push(position);
		else if (statusOf(position) !== undefined) positionStatus = position;
		else return `the position "${position}" is not a position: expected a number like 1, 1., P1 or 1st`;
	}
	let status: string | undefined;
	if (statusCell !== undefined) {
		const given = cellStatus(statusCell);
		if (given === undefined) {
			return (
				`the status "${statusCell}" is not a status: expected DNF, DNS or DSQ (or RET, retired, Disconnected, DQ, ` +
				'Disqualified), Running, finished or nothing'
			);
		}
		if (given !== 'finished') status = given;
	}
	// A reason out in the time or interval cell (`Out: Disconnected`) is the status; said twice, it counts once.
	const outOf = (cell: string | undefined): string | undefined => {
		const given = cell === undefined || TIME_SHAPED.test(cell) ? undefined : cellStatus(cell);
		return given === undefined || given === 'finished' ? undefined : given;
	};
	if (outOf(gap) !== undefined && (status ?? outOf(gap)) === outOf(gap)) {
		status = outOf(gap);
		gap = undefined;
	}
	if (outOf(time) !== undefined && (status ?? outOf(time)) === outOf(time)) {
		status = outOf(time);
		time = undefined;
	}
	parts.push(`"${(pick('player') ?? '').replaceAll('"', '""')}"`);
	if (time !== undefined) parts.push(time);
	if (gap !== undefined && !(time !== undefined && GAP.test(time))) parts.push(intervalAsGap(gap));
	if (status !== undefined) parts.push(status);
	else if (positionStatus !== undefined) parts.push(positionStatus);
	return readTextLine(parts.join(' '), 0);
}

const OUT_WORD = /^out:$/iu;

/** A line's shape without the name rules: words only (no position, time, gap or status), whatever its length. */
function isWords(reading: LineReading | string): boolean {
	return (
		typeof reading !== 'string' &&
		reading.number === undefined &&
		reading.time === undefined &&
		reading.gap === undefined &&
		reading.status === 'finished'
	);
}

const shapeOf = (content: string): LineReading | string => readTextLine(content, Infinity, { nameRules: false });

/** A line of words only (a title, a comment): no position, time, gap or status, however long. */
export const isWordsOnly = (content: string): boolean => isWords(shapeOf(content));

/**
 * A first line that is only words (`RACE RESULTS`, `Round 3:`, a forum post's long title) above numbered racers is a
 * title, not a racer (else every numbered line below it would be an "unexpected position" error): dropped with a
 * warning.
 */
function isTitle(racers: readonly RacerLine[]): boolean {
	const [first, ...rest] = racers.map(({ content }) => shapeOf(content));
	if (first === undefined || !isWords(first)) return false;
	const finishers = rest.flatMap((reading) =>
		typeof reading !== 'string' && reading.status === 'finished' ? [reading] : [],
	);
	// The racers below start at 1: `Alice` above `2. Bob` is a winner left unnumbered, not a title.
	return (
		finishers.length >= 2 && finishers[0]!.number === '1' && finishers.every((reading) => reading.number !== undefined)
	);
}

/**
 * The last lines, when they are words that read as chat (`GG everyone, see you next week!`) below at least two
 * finishers that all have a position: comments, not racers (else the first would be an unnumbered finisher among
 * numbered ones and refuse the scoreboard). Dropped with a warning each. A line that could be a name (`Carol`, a
 * racer whose number was forgotten) stays a racer, and so an error.
 */
function closingComments(racers: readonly RacerLine[]): RacerLine[] {
	const shapes = racers.map(({ content }) => shapeOf(content));
	let end = racers.length;
	while (end > 0 && isWords(shapes[end - 1]!) && readsAsChat(racers[end - 1]!.content)) end--;
	if (end === racers.length) return [];
	const finishers = shapes
		.slice(0, end)
		.flatMap((reading) => (typeof reading !== 'string' && reading.status === 'finished' ? [reading] : []));
	if (finishers.length < 2 || finishers.some((reading) => reading.number === undefined)) return [];
	return racers.slice(end);
}

/** A sentence rather than a name: a `!`, `?`, `…` or `: `, four words or more, or longer than a name may be. */
function readsAsChat(content: string): boolean {
	const words = content.trim().split(/\s+/u);
	return /[!?…]|:\s/u.test(content) || words.length >= 4 || [...words.join(' ')].length > MAX_NAME_LENGTH;
}
