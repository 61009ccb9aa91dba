import { CsvError, readCsv } from './csv.js';
import { parseTime } from './history-csv.js';
import {
	forbiddenCharacter,
	codePointLabel,
	typoFinder,
	nameKey,
	nameProblem,
	normalizeName,
} from '../league/player-names.js';
import type { EntryStatus, RaceEntry } from '../ratings/types.js';

/**
 * The scoreboard of one race as an organizer pastes it into `/race submit` (PRODUCT.md "Scoreboard input";
 * docs/scoreboard.md lists every accepted form and every message).
 *
 * Text: one racer per line in finishing order, `[position] name [time] [status]`, e.g. `1. Alice 1:23.456`,
 * `2 Bob`, `Carol DNF`. CSV: a header with `player` and `position` columns, optional `time` and `status`.
 * Either way the result is validated as a whole and every problem is reported with its line number; a scoreboard
 * with any error yields no entries at all, so nothing half-parsed is ever stored.
 */

export const SCOREBOARD_LIMITS = {
	/** UTF-8 bytes of the whole input. */
	maxBytes: 64 * 1024,
	/** Characters (code points) of one line. */
	maxLineLength: 200,
	/** Racers in one race. */
	maxRacers: 200,
	/** Errors reported; the rest are counted in `omitted`. */
	maxErrors: 10,
	/** Shortest finish time, in seconds: a millisecond (catches `0.000`). */
	minTime: 0.001,
	/** Finish times must be below this many seconds (100 hours). */
	maxTime: 360_000,
} as const;

export interface ScoreboardOptions {
	/** Players already in the league: a new name close to one of them gets a "did you mean" warning. */
	readonly knownPlayers?: readonly string[];
}

export interface ScoreboardError {
	/** 1-based line of the input as pasted (code fence lines count). */
	readonly line: number;
	/** What is wrong and what was expected. */
	readonly message: string;
}

export type ScoreboardFormat = 'text' | 'csv';

export type ScoreboardResult =
	| {
			readonly ok: true;
			readonly format: ScoreboardFormat;
			/** Finishers in finishing order, then DNF/DNS/DSQ entries in the order given (see parseScoreboard). */
			readonly entries: RaceEntry[];
			/** Things that were accepted but deserve a look in the preview, each starting `line N:` when it has one. */
			readonly warnings: string[];
	  }
	| {
			readonly ok: false;
			/** The first maxErrors errors, by line. */
			readonly errors: ScoreboardError[];
			/** How many further errors were found and not listed. */
			readonly omitted: number;
	  };

type OutStatus = Exclude<EntryStatus, 'finished'>;

/** Status words, case-insensitive. RET and retired are retirements (DNF); DQ is a disqualification (DSQ). */
const STATUS_WORDS: Readonly<Record<string, OutStatus>> = {
	dnf: 'DNF',
	ret: 'DNF',
	retired: 'DNF',
	dns: 'DNS',
	dsq: 'DSQ',
	dq: 'DSQ',
};

function statusOf(word: string): OutStatus | undefined {
	const key = word.toLowerCase();
	return Object.hasOwn(STATUS_WORDS, key) ? STATUS_WORDS[key] : undefined;
}

/** A leading position: `1.`, `1)`, `1`, `#1`, `P1` (also `p1`, `P1.`), followed by a space or the end of the line. */
const POSITION = /^(?:#|[Pp])?(\d+)[.)]?(?=\s|$)/u;
/**
 * A token read as a time in text: `m:ss(.fff)`, `h:mm:ss(.fff)`, or seconds WITH a decimal point (`83.456`). Bare
 * integers are not times in text, so names like `Max 33` keep their number; the CSV time column accepts `83`.
 */
const TIME_SHAPED = /^(?:\d+(?::\d+){1,2}(?:\.\d+)?|\d+\.\d+)$/u;
/** A gap to the leader (`+1.234`, `+1:02.5`, `+1 lap`): not a finish time. */
const GAP = /^\+\d/u;

const EXAMPLE_LINE = '"1. Alice 1:23.456"';

/** One racer as read from a line or row, before the scoreboard-wide checks. */
interface Draft {
	readonly line: number;
	/** How many racer lines (good or bad) came before this one. */
	readonly ordinal: number;
	readonly player: string;
	/** The position number as written, undefined when the line has none. */
	readonly number: string | undefined;
	readonly time: number | undefined;
	readonly timeText: string | undefined;
	readonly status: EntryStatus;
}

type LineReading = Omit<Draft, 'line' | 'ordinal'>;

/**
 * Parse a pasted scoreboard (text or CSV, detected by a header line naming a `player` column). Never throws.
 *
 * Positions: a repeated number is a tie; numbers never go down, and a number can be at most one more than the
 * racers listed above it, so `1, 1, 3` (standard competition ranking) and `1, 1, 2` (dense ranking) are both read
 * as "two tied winners, then third". Positions are stored in standard competition ranking (a warning lists any that
 * were renumbered). Without numbers, the order of the lines is the finishing order (no ties possible).
 * DNF entries are classified below every finisher and DNS/DSQ entries are not rated; all three are placed after
 * the finishers in the order given (any number on their line is ignored), with positions continuing from the
 * number of finishers.
 */
export function parseScoreboard(text: string, options: ScoreboardOptions = {}): ScoreboardResult {
	const bytes = utf8Length(text);
	if (bytes > SCOREBOARD_LIMITS.maxBytes) {
		return failure([
			{
				line: 1,
				message: `the scoreboard is ${bytes} bytes: at most ${SCOREBOARD_LIMITS.maxBytes} (64 KiB); submit one race at a time`,
			},
		]);
	}
	const errors: ScoreboardError[] = [];
	const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/u);
	stripCodeFences(lines, errors);
	const tooLong = new Set<number>();
	lines.forEach((content, i) => {
		const length = [...content].length;
		if (length > SCOREBOARD_LIMITS.maxLineLength) {
			tooLong.add(i + 1);
			errors.push({
				line: i + 1,
				message: `the line is ${length} characters long: at most ${SCOREBOARD_LIMITS.maxLineLength} (one racer per line)`,
			});
		}
	});
	const firstIndex = lines.findIndex((content) => content.trim() !== '');
	if (firstIndex === -1) {
		if (errors.length > 0) return failure(errors);
		return failure([
			{ line: 1, message: `the scoreboard is empty: expected one racer per line, like ${EXAMPLE_LINE}` },
		]);
	}
	const format: ScoreboardFormat = isCsvHeader(lines[firstIndex]!) ? 'csv' : 'text';
	const drafts = format === 'csv' ? readCsvDrafts(lines, tooLong, errors) : readTextDrafts(lines, tooLong, errors);
	if (drafts === undefined) return failure(errors);
	if (drafts.length === 0 && errors.length === 0) {
		errors.push({
			line: firstIndex + 1,
			message: 'the CSV has a header but no racers: expected one row per racer below it',
		});
	}
	const warnings: string[] = [];
	const entries = validate(drafts, errors, warnings, options);
	if (errors.length > 0) return failure(errors);
	return { ok: true, format, entries, warnings };
}

function failure(errors: ScoreboardError[]): ScoreboardResult {
	const sorted = errors.toSorted((a, b) => a.line - b.line);
	return {
		ok: false,
		errors: sorted.slice(0, SCOREBOARD_LIMITS.maxErrors),
		omitted: Math.max(0, sorted.length - SCOREBOARD_LIMITS.maxErrors),
	};
}

function utf8Length(text: string): number {
	let bytes = 0;
	for (const char of text) {
		const code = char.codePointAt(0)!;
		bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
	}
	return bytes;
}

/**
 * Remove the fences of a pasted code block, in place, keeping line numbers: an opening fence on the first
 * non-blank line (with an optional language word, as Discord reads it: ```` ```text ````), a closing fence at
 * the end of the last non-blank line. A fence anywhere else is an error.
 */
function stripCodeFences(lines: string[], errors: ScoreboardError[]): void {
	const first = lines.findIndex((content) => content.trim() !== '');
	if (first === -1) return;
	const last = lines.findLastIndex((content) => content.trim() !== '');
	const opening = lines[first]!.trimStart();
	if (opening.startsWith('```')) {
		const rest = opening.slice(3);
		lines[first] = first !== last && /^[\w+#.-]*\s*$/u.test(rest) ? '' : rest;
	}
	const closing = lines[last]!.trimEnd();
	if (closing.endsWith('```')) lines[last] = closing.slice(0, -3);
	lines.forEach((content, i) => {
		if (content.includes('```')) {
			errors.push({
				line: i + 1,
				message: 'unexpected code fence ```: paste a single block; only its opening and closing fences are removed',
			});
			lines[i] = '';
		}
	});
}

/** A first line of comma-separated words (letters only), one of them `player`, is a CSV header. */
function isCsvHeader(content: string): boolean {
	if (!content.includes(',')) return false;
	const fields = content.split(',').map((field) => field.trim().replace(/^"(.*)"$/u, '$1'));
	return (
		fields.every((field) => /^[A-Za-z_]+$/u.test(field)) && fields.some((field) => field.toLowerCase() === 'player')
	);
}

function tooManyRacers(line: number): ScoreboardError {
	const max = SCOREBOARD_LIMITS.maxRacers;
	return { line, message: `too many racers: a race holds at most ${max}, and this is racer ${max + 1}` };
}

// ---------------------------------------------------------------------------------------------------------------
// Text

function readTextDrafts(lines: readonly string[], tooLong: ReadonlySet<number>, errors: ScoreboardError[]): Draft[] {
	const drafts: Draft[] = [];
	let ordinal = 0;
	for (const [i, content] of lines.entries()) {
		const line = i + 1;
		if (content.trim() === '') continue;
		if (ordinal === SCOREBOARD_LIMITS.maxRacers) {
			errors.push(tooManyRacers(line));
			break;
		}
		ordinal++;
		if (tooLong.has(line)) continue;
		const reading = readTextLine(content);
		if (typeof reading === 'string') errors.push({ line, message: reading });
		else drafts.push({ line, ordinal: ordinal - 1, ...reading });
	}
	return drafts;
}

/** Read `[position] name [time] [status]` (time and status in either order), or say what is wrong. */
function readTextLine(content: string): LineReading | string {
	const bad = forbiddenCharacter(content);
	if (bad !== undefined) {
		return `the line contains the character ${codePointLabel(bad)}: control and invisible formatting characters are not allowed`;
	}
	let rest = content.replace(/\s+/gu, ' ').trim();
	let number: string | undefined;
	const match = POSITION.exec(rest);
	if (match) {
		number = match[1]!;
		rest = rest.slice(match[0].length).trim();
		if (rest === '') {
			return `expected a player name after position "${match[0]}" (put a name made of digits in quotes: "42")`;
		}
	}
	let quoted: string | undefined;
	let tokens: string[];
	if (rest.startsWith('"')) {
		const reading = readQuotedName(rest);
		if (typeof reading === 'string') return reading;
		quoted = reading.name;
		if (reading.after !== '' && !reading.after.startsWith(' ')) {
			return `expected a space after the quoted name "${quoted}", found "${reading.after}"`;
		}
		tokens = reading.after.trim() === '' ? [] : reading.after.trim().split(' ');
	} else {
		tokens = rest.split(' ');
	}
	// Time and status: the last one or two tokens, in either order.
	let time: number | undefined;
	let timeText: string | undefined;
	let status: OutStatus | undefined;
	let statusText: string | undefined;
	while (tokens.length > 0) {
		const token = tokens.at(-1)!;
		const word = statusOf(token);
		if (word !== undefined) {
			if (status !== undefined) return `two statuses, "${token}" and "${statusText}": expected at most one`;
			status = word;
			statusText = token;
		} else if (GAP.test(token)) {
			return gapMessage(token);
		} else if (TIME_SHAPED.test(token)) {
			if (time !== undefined) return `two times, "${token}" and "${timeText}": expected at most one`;
			const reading = readTime(token);
			if (typeof reading === 'string') return reading;
			time = reading;
			timeText = token;
		} else {
			break;
		}
		tokens.pop();
	}
	if (quoted !== undefined && tokens.length > 0) {
		return `unexpected "${tokens.join(' ')}" after the quoted name "${quoted}": expected a time, a status or nothing`;
	}
	if (quoted === undefined) {
		if (tokens.length === 0) {
			const seen = statusText ?? timeText ?? '';
			return `expected a player name before "${seen}" (put a name that looks like a time or a status in quotes: "${seen}")`;
		}
		for (const [i, token] of tokens.entries()) {
			if (GAP.test(token)) return gapMessage(token);
			const kind = TIME_SHAPED.test(token) ? 'time' : statusOf(token) !== undefined ? 'status' : undefined;
			if (kind !== undefined) {
				return (
					`"${token}" looks like a ${kind} but "${tokens.slice(i + 1).join(' ')}" follows it: expected ` +
					`the name first, then the time and the status (put a name that contains one in quotes)`
				);
			}
		}
	}
	const name = quoted ?? tokens.join(' ');
	const problem = nameProblem(name);
	if (problem !== undefined) return problem;
	return { player: normalizeName(name), number, time, timeText, status: status ?? 'finished' };
}

/** `"name"` at the start of `rest`, with `""` for a quote inside the name. */
function readQuotedName(rest: string): { name: string; after: string } | string {
	let name = '';
	for (let i = 1; i < rest.length; i++) {
		const char = rest[i]!;
		if (char !== '"') {
			name += char;
		} else if (rest[i + 1] === '"') {
			name += '"';
			i++;
		} else {
			return { name, after: rest.slice(i + 1) };
		}
	}
	return 'unterminated quoted name: expected a closing " after the name (write "" for a quote inside it)';
}

function gapMessage(token: string): string {
	return (
		`"${token}" is a gap to the leader, not a finish time: give the racer's own time ` +
		`(like 1:24.690) or leave the time out`
	);
}

function readTime(token: string): number | string {
	const time = parseTime(token);
	if (time === undefined) {
		return `"${token}" is not a valid time: expected m:ss.fff, h:mm:ss.fff or seconds with a decimal point (83.456)`;
	}
	return timeInRange(token, time);
}

function timeInRange(token: string, time: number): number | string {
	if (time < SCOREBOARD_LIMITS.minTime) return `the time "${token}" is too short: expected at least 0.001 seconds`;
	if (time >= SCOREBOARD_LIMITS.maxTime) return `the time "${token}" is 100 hours or more: expected a finish time`;
	return time;
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

const CSV_COLUMNS = ['player', 'position', 'time', 'status'] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Rows of a scoreboard CSV; undefined when the header or the CSV syntax is broken (errors say why). */
function readCsvDrafts(
	lines: readonly string[],
	tooLong: ReadonlySet<number>,
	errors: ScoreboardError[],
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
	const index = new Map<CsvColumn, number>();
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
	for (const [i, name] of names.entries()) {
		if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
			errors.push({
				line: header.line,
				message: `unknown column "${header.fields[i]!.trim()}": expected the columns ${CSV_COLUMNS.join(', ')}`,
			});
		} else if (index.has(name as CsvColumn)) {
			errors.push({ line: header.line, message: `the column "${name}" appears twice` });
		} else {
			index.set(name as CsvColumn, i);
		}
	}
	if (!index.has('position')) {
		errors.push({
			line: header.line,
			message: 'the header has no "position" column: expected player,position (and optionally time,status)',
		});
	}
	if (errors.some((error) => error.line === header.line)) return undefined;

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
		const cell = (column: CsvColumn): string => {
			const i = index.get(column);
			return i === undefined ? '' : fields[i]!.trim();
		};
		const reading = readCsvRow(fields[index.get('player')!]!, cell('position'), cell('time'), cell('status'));
		if (typeof reading === 'string') errors.push({ line, message: reading });
		else drafts.push({ line, ordinal: ordinal - 1, ...reading });
	}
	return drafts;
}

function readCsvRow(rawPlayer: string, position: string, timeText: string, statusText: string): LineReading | string {
	const problem = nameProblem(rawPlayer);
	if (problem !== undefined) return problem;
	if (position !== '' && !/^\d+$/u.test(position)) {
		return `position must be a whole number (or empty for the order given), got "${position}"`;
	}
	let time: number | undefined;
	if (timeText !== '') {
		if (GAP.test(timeText)) return gapMessage(timeText);
		const parsed = parseTime(timeText);
		if (parsed === undefined) return `time must be seconds, m:ss.fff or h:mm:ss.fff, got "${timeText}"`;
		const checked = timeInRange(timeText, parsed);
		if (typeof checked === 'string') return checked;
		time = checked;
	}
	const status = statusText === '' || statusText.toLowerCase() === 'finished' ? 'finished' : statusOf(statusText);
	if (status === undefined) {
		return `status must be empty, DNF, DNS or DSQ (or RET, retired, DQ), got "${statusText}"`;
	}
	return {
		player: normalizeName(rawPlayer),
		number: position === '' ? undefined : position,
		time,
		timeText: timeText === '' ? undefined : timeText,
		status,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Scoreboard-wide checks

function validate(
	drafts: readonly Draft[],
	errors: ScoreboardError[],
	warnings: string[],
	options: ScoreboardOptions,
): RaceEntry[] {
	// One entry per player, names compared ignoring case.
	const seen = new Map<string, Draft>();
	for (const draft of drafts) {
		const key = nameKey(draft.player);
		const first = seen.get(key);
		if (first === undefined) {
			seen.set(key, draft);
			continue;
		}
		const spelled = first.player === draft.player ? '' : ` as "${first.player}"`;
		errors.push({
			line: draft.line,
			message: `"${draft.player}" is entered twice: on line ${first.line}${spelled} and here (names ignore case)`,
		});
	}

	// Number every finisher or none.
	const finishers = drafts.filter((draft) => draft.status === 'finished');
	const head = finishers[0];
	const numbered = head?.number !== undefined;
	for (const draft of finishers.slice(1)) {
		if (numbered && draft.number === undefined) {
			errors.push({
				line: draft.line,
				message: `expected a position number, as line ${head.line} has one: number every finisher or none`,
			});
		} else if (!numbered && draft.number !== undefined) {
			errors.push({
				line: draft.line,
				message:
					`unexpected position ${draft.number}: line ${head!.line} has none, so number every finisher or none ` +
					'(without numbers the order of the lines is the finishing order)',
			});
		}
	}

	// Positions: ties repeat a number; never down; at most one more than the racers listed above.
	const positions = new Map<Draft, number>();
	const renumbered: string[] = [];
	let previous: { given: number; line: number; position: number } | undefined;
	let finisherIndex = 0;
	for (const draft of finishers) {
		finisherIndex++;
		if (!numbered) {
			positions.set(draft, finisherIndex);
			continue;
		}
		if (draft.number === undefined) continue; // reported above
		const given = Number(draft.number);
		if (given < 1) {
			errors.push({ line: draft.line, message: `position ${draft.number} is impossible: positions start at 1` });
			continue;
		}
		if (previous !== undefined && given < previous.given) {
			errors.push({
				line: draft.line,
				message: `position ${draft.number} comes after position ${previous.given} on line ${previous.line}: expected the racers in finishing order`,
			});
			continue;
		}
		if (given > draft.ordinal + 1) {
			const above =
				draft.ordinal === 0
					? 'no racer is'
					: draft.ordinal === 1
						? 'only 1 racer is'
						: `only ${draft.ordinal} racers are`;
			errors.push({
				line: draft.line,
				message: `position ${draft.number} is impossible here: ${above} listed above, so expected at most ${draft.ordinal + 1}`,
			});
			continue;
		}
		// Standard competition ranking: a tie keeps the group's place, a new place is 1 + the finishers above it.
		const position = previous !== undefined && given === previous.given ? previous.position : finisherIndex;
		if (position !== given) renumbered.push(`line ${draft.line}: ${draft.number} → ${position}`);
		previous = { given, line: draft.line, position };
		positions.set(draft, position);
	}
	if (renumbered.length > 0) {
		const shown = renumbered.slice(0, 5).join(', ');
		const more = renumbered.length > 5 ? ` and ${renumbered.length - 5} more` : '';
		warnings.push(
			`positions renumbered to standard ranking (tied racers share a place and the next place is skipped: 1, 1, 3): ${shown}${more}`,
		);
	}

	// DNF, DNS and DSQ: after the finishers, in the order given.
	const others = drafts.filter((draft) => draft.status !== 'finished');
	others.forEach((draft, i) => positions.set(draft, finishers.length + i + 1));

	if (drafts.length > 0 && !drafts.some((draft) => draft.status === 'finished' || draft.status === 'DNF')) {
		errors.push({
			line: drafts[0]!.line,
			message: 'no racer to rate: every racer is DNS or DSQ; expected at least one finisher or DNF',
		});
	}
	if (errors.length > 0) return [];

	// Warnings: a finisher faster than someone placed ahead of them; a new name close to a known player.
	let slowestAhead: Draft | undefined;
	let group: Draft[] = [];
	for (const draft of finishers) {
		const position = positions.get(draft)!;
		if (group.length > 0 && positions.get(group[0]!) !== position) {
			for (const ahead of group) {
				if (ahead.time !== undefined && (slowestAhead?.time === undefined || ahead.time > slowestAhead.time)) {
					slowestAhead = ahead;
				}
			}
			group = [];
		}
		group.push(draft);
		if (draft.time !== undefined && slowestAhead?.time !== undefined && draft.time < slowestAhead.time) {
			warnings.push(
				`line ${draft.line}: ${draft.player}'s time ${draft.timeText} is faster than ${slowestAhead.timeText} ` +
					`of ${slowestAhead.player} (line ${slowestAhead.line}), who is placed ahead: check the order`,
			);
		}
	}
	if (options.knownPlayers !== undefined) {
		const suggest = typoFinder(options.knownPlayers);
		for (const draft of drafts) {
			const suggestions = suggest(draft.player);
			if (suggestions.length > 0) {
				warnings.push(
					`line ${draft.line}: "${draft.player}" is not a known player; did you mean ${suggestions.map((name) => `"${name}"`).join(' or ')}?`,
				);
			}
		}
	}

	const toEntry = (draft: Draft): RaceEntry => ({
		player: draft.player,
		position: positions.get(draft)!,
		...(draft.time !== undefined && { time: draft.time }),
		status: draft.status,
	});
	return [...finishers.map(toEntry), ...others.map(toEntry)];
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting

/**
 * Write entries as a text scoreboard that parseScoreboard reads back to the same entries: finishers by position,
 * then DNF/DNS/DSQ entries by position, one `position. name [time] [status]` line each (LF, final newline). Names
 * that would be misread (a word that looks like a time, a status or a gap, or a leading quote) are quoted.
 */
export function formatScoreboard(entries: readonly RaceEntry[]): string {
	const byPosition = (a: RaceEntry, b: RaceEntry): number => a.position - b.position;
	const ordered = [
		...entries.filter((entry) => entry.status === 'finished').toSorted(byPosition),
		...entries.filter((entry) => entry.status !== 'finished').toSorted(byPosition),
	];
	const lines = ordered.map((entry) => {
		const parts = [`${entry.position}.`, formatName(entry.player)];
		if (entry.time !== undefined) parts.push(formatTime(entry.time));
		if (entry.status !== 'finished') parts.push(entry.status);
		return parts.join(' ');
	});
	return lines.map((content) => `${content}\n`).join('');
}

function formatName(name: string): string {
	const ambiguous =
		name.startsWith('"') ||
		name.split(' ').some((token) => statusOf(token) !== undefined || GAP.test(token) || TIME_SHAPED.test(token));
	return ambiguous ? `"${name.replaceAll('"', '""')}"` : name;
}

/**
 * A time as `h:mm:ss.fff`, `m:ss.fff` or seconds with a decimal point: the first of these, with the fewest decimals,
 * that reads back to exactly the same number (83.456 → `1:23.456`).
 */
export function formatTime(seconds: number): string {
	const minutes = Math.floor(seconds / 60);
	const rest = seconds - minutes * 60;
	const candidates: string[] = [];
	for (let digits = 0; digits <= 9; digits++) {
		const fixed = rest.toFixed(digits);
		const padded = /^\d\./u.test(fixed) || /^\d$/u.test(fixed) ? `0${fixed}` : fixed;
		if (minutes >= 60)
			candidates.push(`${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${padded}`);
		else if (minutes >= 1) candidates.push(`${minutes}:${padded}`);
	}
	const plain = String(seconds);
	candidates.push(plain.includes('.') ? plain : `${plain}.0`);
	return candidates.find((text) => TIME_SHAPED.test(text) && parseTime(text) === seconds) ?? plain;
}
