import { parseTime } from './history-csv.js';
import { codePointLabel, forbiddenCharacter, nameProblem, normalizeName } from '../league/player-names.js';
import type { EntryStatus } from '../ratings/types.js';

/**
 * One racer line of a text scoreboard (docs/scoreboard.md "Text"): `[position] name [time|gap] [columns] [status]`,
 * read from whatever a results screen, a spreadsheet, a forum post or a sim's page gives when copied:
 * ordinals (`1st`, `P1`, `1)`), separators (` - `, tabs, ` | `), comma decimals, gaps (`+0.556`, `+1 lap`) and
 * trailing points or laps columns. Pure.
 */

export type OutStatus = Exclude<EntryStatus, 'finished'>;

/**
 * Status words, case-insensitive. RET, retired and Disconnected (iRacing's reason out) are retirements (DNF); DQ and
 * Disqualified are a disqualification (DSQ).
 */
const STATUS_WORDS: Readonly<Record<string, OutStatus>> = {
	dnf: 'DNF',
	ret: 'DNF',
	retired: 'DNF',
	disconnected: 'DNF',
	dns: 'DNS',
	dsq: 'DSQ',
	dq: 'DSQ',
	disqualified: 'DSQ',
};

export function statusOf(word: string): OutStatus | undefined {
	const key = word.toLowerCase();
	return Object.hasOwn(STATUS_WORDS, key) ? STATUS_WORDS[key] : undefined;
}

/** iRacing writes the reason out as `Out: Disconnected`; `Out:` is dropped. */
const OUT_PREFIX = /^out:\s*/iu;
const OUT_WORD = /^out:$/iu;

/**
 * The status a status cell gives (a status column, iRacing's Out column): empty, `finished` and `Running` are a
 * finisher; a status word (`DNF`, `Disconnected`, `Out: Disqualified`) is that status; undefined for anything else.
 */
export function cellStatus(cell: string): EntryStatus | undefined {
	const word = cell.trim().replace(OUT_PREFIX, '');
	if (word === '' || /^(?:finished|running)$/iu.test(word)) return 'finished';
	return statusOf(word);
}

/**
 * An interval cell as the text grammar writes a gap: iRacing's minus-signed intervals `-0.542`, `-1L`, `-1 L` are
 * `+0.542`, `+1 lap`, `+1 lap`; `+2 L` is `+2 laps`, and a bare `1.5` is `+1.5`. Other text comes back unchanged.
 */
export function intervalAsGap(cell: string): string {
	const text = cell.trim();
	const laps = /^-\s*(\d+)\s*(?:L|laps?)$/iu.exec(text) ?? /^\+?(\d+)\s+L$/iu.exec(text);
	if (laps) return `+${laps[1]} ${laps[1] === '1' ? 'lap' : 'laps'}`;
	const minus = /^-\s*(\d.*)$/u.exec(text);
	if (minus) return `+${minus[1]}`;
	return /^\d/u.test(text) ? `+${text}` : text;
}

/**
 * A position token: `1.`, `1)`, `1`, `#1`, `P1` (also `p1`, `P1.`, `#3)`), `=2` or `2=` (a tie, as British results
 * write it), English ordinals `1st 2nd 3rd 4th`, French `1er 1re 2e 2ème`, and `1º 1.º 1ª 1°` (Spanish, Italian).
 */
export const POSITION_TOKEN = /^(?:#|[Pp]|=)?(\d+)(?:[.)=]|st|nd|rd|th|er|re|e|ème|eme|\.?[º°ª]\.?)?$/iu;
/** A position written so it cannot be part of a name: everything but a bare number (used to split one-line pastes). */
const MARKED_POSITION = /^(?:(?:#|[Pp]|=)\d+[.)]?|\d+(?:[.)=]|st|nd|rd|th|er|re|e|ème|eme|\.?[º°ª]\.?))$/iu;
/**
 * A token read as a time in text: `m:ss(.fff)`, `h:mm:ss(.fff)`, or seconds WITH a decimal point (`83.456`); the
 * decimal mark may be a comma (`1:02,345`, as European results write it), and seconds may end in `s` (`62.345s`, as
 * kart games show them). Bare integers are not times in text.
 */
export const TIME_SHAPED = /^(?:\d+(?::\d+){1,2}(?:[.,]\d+)?|\d+[.,]\d+s?)$/u;
/** A gap to the leader: `+1.234`, `+1,234`, `+1:02.5`, `+1 lap` (the word is a separate token), `+1L`. */
export const GAP = /^\+\d/u;
const GAP_TIME = /^\+(\d+(?::\d+){0,2}(?:[.,]\d+)?)s?$/u;
const GAP_LAPS = /^\+(\d+)L$/iu;
/** Words after `+N` in a gap of whole laps: English, German, French, Spanish, Italian, Hungarian. */
export const LAP_WORDS = /^(?:laps?|runden?|tours?|vueltas?|giri|giro|kör)$/iu;
/** A number with its unit, a points or laps column: `25 pts`, `25pts`, `23 laps`. */
const UNIT_WORDS = /^(?:pts?|points?|laps?)$/iu;
const UNIT_NUMBER = /^\d+(?:pts?|points?|laps?)$/iu;
export const BARE_INTEGER = /^\d+$/u;
/** A dash alone is a separator (`1) Alice - 1:02.345`) or an empty cell. */
export const DASH = /^[-–—]$/u;

export type Gap =
	{ readonly text: string; readonly laps: number } | { readonly text: string; readonly seconds: string };

/** One racer as read from a line, before the scoreboard-wide checks. */
export interface LineReading {
	readonly player: string;
	/** The position number as written, undefined when the line has none. */
	readonly number: string | undefined;
	readonly time: number | undefined;
	readonly timeText: string | undefined;
	readonly status: EntryStatus;
	readonly gap: Gap | undefined;
	/** Bare numbers after the name, in the name's cell, read as a points or laps column (ambiguous: warned). */
	readonly looseNumbers: readonly string[];
	/** Cells besides the name that are not read (a car, a team): shown in a warning. */
	readonly ignored: readonly string[];
	/** An unquoted name that ends in a bare number kept in the name (`Max 33`): could be points (warned). */
	readonly numberInName?: boolean;
}

/** A problem of the input: 1-based line as pasted (code fence lines count), what is wrong and what was expected. */
export interface ScoreboardError {
	readonly line: number;
	readonly message: string;
	/** `racer`: a one-line paste was split into racers, and `line` is the racer's number on it (placeOf). */
	readonly unit?: 'racer' | undefined;
}

/** Where an error is, as a message says it: `line 3`, or `racer 3` of a one-line paste. */
export function placeOf(error: ScoreboardError): string {
	return `${error.unit ?? 'line'} ${error.line}`;
}

/** One racer as read from a line or row, before the scoreboard-wide checks. */
export interface Draft extends LineReading {
	readonly line: number;
	/** How many racer lines (good or bad) came before this one. */
	readonly ordinal: number;
	/**
	 * The position was read from a table's position column (a header names it): a table whose finishers all have
	 * one is read in the order of its positions, whatever the order of its rows (sorted by name, by car number).
	 */
	readonly positionColumn?: boolean;
}

interface Token {
	readonly text: string;
	/** Which cell of the line (cells are split by tabs and by `|` standing alone). */
	readonly cell: number;
	readonly quoted: boolean;
}

/**
 * Read one line. `looseNumberBudget`: how many bare numbers in the name's own cell may be read as columns (the
 * scoreboard decides: numberColumns in scoreboard-text.ts); numbers in a cell of their own are always columns.
 * `nameRules: false` reads the shape of a line (a title, a comment) without checking the name (its length).
 */
export function readTextLine(
	content: string,
	looseNumberBudget: number,
	{ nameRules = true }: { readonly nameRules?: boolean } = {},
): LineReading | string {
	const bad = forbiddenCharacter(content);
	if (bad !== undefined) {
		return `the line contains the character ${codePointLabel(bad)}: control and invisible formatting characters are not allowed`;
	}
	const scanned = scanTokens(content);
	if (typeof scanned === 'string') return scanned;
	const tokens = [...scanned];
	let number: string | undefined;
	const first = tokens[0];
	if (first !== undefined && !first.quoted && POSITION_TOKEN.test(first.text)) {
		number = POSITION_TOKEN.exec(first.text)![1]!;
		tokens.shift();
		while (tokens[0] !== undefined && !tokens[0].quoted && DASH.test(tokens[0].text)) tokens.shift();
		if (tokens.length === 0) {
			return `expected a player name after position "${first.text}" (put a name made of digits in quotes: "42")`;
		}
	}
	// A status where the position goes (`DNF - Emeka`, `DSQ | Bob`): results tables put it in the position column.
	let status: OutStatus | undefined;
	let statusText: string | undefined;
	const lead = tokens[0];
	if (
		number === undefined &&
		lead !== undefined &&
		!lead.quoted &&
		statusOf(lead.text) !== undefined &&
		tokens.length > 1
	) {
		status = statusOf(lead.text);
		statusText = lead.text;
		tokens.shift();
		while (tokens.length > 1 && !tokens[0]!.quoted && DASH.test(tokens[0]!.text)) tokens.shift();
	}
	// The tail, read from the end: times, gaps, statuses, numbers with units, dashes (empty cells), numbers.
	let time: number | undefined;
	let timeText: string | undefined;
	let gap: Gap | undefined;
	const looseNumbers: string[] = [];
	let budget = looseNumberBudget;
	while (tokens.length > 0) {
		const token = tokens.at(-1)!;
		const before = tokens.at(-2);
		if (token.quoted) break;
		const text = token.text;
		if (before !== undefined && !before.quoted && OUT_WORD.test(before.text)) {
			// iRacing's `Out: Disconnected`: the reason out is the status (`Out: Running` is a finisher).
			const out = cellStatus(text);
			if (out !== undefined) {
				if (out !== 'finished') {
					if (status !== undefined)
						return `two statuses, "${before.text} ${text}" and "${statusText}": expected at most one`;
					status = out;
					statusText = `${before.text} ${text}`;
				}
				tokens.pop();
				tokens.pop();
				continue;
			}
		}
		const word = statusOf(text);
		if (word !== undefined) {
			if (status !== undefined) return `two statuses, "${text}" and "${statusText}": expected at most one`;
			status = word;
			statusText = text;
		} else if (DASH.test(text) && before !== undefined) {
			// a separator or an empty cell
		} else if (LAP_WORDS.test(text) && before !== undefined && /^\+\d+$/u.test(before.text)) {
			if (gap !== undefined) return `two gaps, "${before.text} ${text}" and "${gap.text}": expected at most one`;
			gap = { text: `${before.text} ${text}`, laps: Number(before.text.slice(1)) };
			tokens.pop();
		} else if (GAP.test(text)) {
			const reading = readGap(text);
			if (typeof reading === 'string') return reading;
			if (gap !== undefined) return `two gaps, "${text}" and "${gap.text}": expected at most one`;
			gap = reading;
		} else if (TIME_SHAPED.test(text)) {
			if (time !== undefined) return `two times, "${text}" and "${timeText}": expected at most one`;
			const reading = readTime(text);
			if (typeof reading === 'string') return reading;
			time = reading;
			timeText = text;
		} else if (UNIT_NUMBER.test(text) && before !== undefined) {
			// `25pts`, `23laps`: a column
		} else if (UNIT_WORDS.test(text) && before !== undefined && BARE_INTEGER.test(before.text) && tokens.length > 2) {
			tokens.pop(); // `25 pts`: a column
		} else if (BARE_INTEGER.test(text) && before !== undefined && before.cell !== token.cell) {
			// a number in a cell of its own: a column (points, laps, a car number)
		} else if (BARE_INTEGER.test(text) && before !== undefined && budget > 0) {
			looseNumbers.unshift(text);
			budget--;
		} else {
			break;
		}
		tokens.pop();
	}
	const quoted = tokens[0]?.quoted === true ? tokens[0].text : undefined;
	if (quoted !== undefined && tokens.length > 1) {
		const rest = tokens
			.slice(1)
			.map((token) => token.text)
			.join(' ');
		return `unexpected "${rest}" after the quoted name "${quoted}": expected a time, a status or nothing`;
	}
	if (quoted === undefined) {
		if (tokens.length === 0) {
			const seen = statusText ?? timeText ?? gap?.text ?? '';
			return `expected a player name before "${seen}" (put a name that looks like a time or a status in quotes: "${seen}")`;
		}
		for (const [i, token] of tokens.entries()) {
			const kind = TIME_SHAPED.test(token.text)
				? 'time'
				: statusOf(token.text) !== undefined
					? 'status'
					: GAP.test(token.text)
						? 'gap to the leader'
						: undefined;
			if (kind !== undefined) {
				const follows = tokens
					.slice(i + 1)
					.map((t) => t.text)
					.join(' ');
				return (
					`"${token.text}" looks like a ${kind} but "${follows}" follows it: expected ` +
					`the name first, then the time and the status (put a name that contains one in quotes)`
				);
			}
		}
	}
	// The name is one cell: the first with a word in it; other cells (a car, a team, a number) are not read.
	const cells = [...new Set(tokens.map((token) => token.cell))];
	const nameCell = cells.find((cell) => tokens.some((t) => t.cell === cell && !BARE_INTEGER.test(t.text))) ?? cells[0];
	const cellText = (cell: number): string =>
		tokens
			.filter((token) => token.cell === cell)
			.map((token) => token.text)
			.join(' ');
	const name = quoted ?? cellText(nameCell!);
	const ignored = cells.filter((cell) => cell !== nameCell).map(cellText);
	const numberInName = quoted === undefined && /\s\d+$/u.test(name);
	const problem = nameRules ? nameProblem(name) : undefined;
	if (problem !== undefined) return problem;
	return {
		player: normalizeName(name),
		number,
		time,
		timeText,
		status: status ?? 'finished',
		gap,
		looseNumbers,
		ignored,
		numberInName,
	};
}

/**
 * Split a line into tokens: cells at tabs, at `;` (a spreadsheet's CSV export in European locales, where the comma is
 * the decimal mark) and at `|` standing alone (a table's column bar; `||spoiler||` is text), tokens at spaces. A double quote opening the first token after the position starts a quoted name, which may hold
 * anything (`""` is a quote).
 */
function scanTokens(content: string): Token[] | string {
	const tokens: Token[] = [];
	let cell = 0;
	let i = 0;
	const chars = content;
	while (i < chars.length) {
		const char = chars[i]!;
		if (char === '\t' || char === ';') {
			cell++;
			i++;
			continue;
		}
		if (/\s/u.test(char)) {
			i++;
			continue;
		}
		if (char === '|' && (i === 0 || /\s/u.test(chars[i - 1]!))) {
			let end = i;
			while (chars[end] === '|') end++;
			if (end === chars.length || /\s/u.test(chars[end]!)) {
				cell++;
				i = end;
				continue;
			}
		}
		const quoteAllowed =
			tokens.length === 0 ||
			tokens.every((token, k) =>
				k === 0 ? POSITION_TOKEN.test(token.text) || statusOf(token.text) !== undefined : DASH.test(token.text),
			);
		if (char === '"' && quoteAllowed) {
			const reading = readQuotedName(chars.slice(i));
			if (typeof reading === 'string') return reading;
			if (reading.after !== '' && !/^[\s;]/u.test(reading.after)) {
				return `expected a space after the quoted name "${reading.name}", found "${reading.after.trimEnd()}"`;
			}
			tokens.push({ text: reading.name, cell, quoted: true });
			i = chars.length - reading.after.length;
			continue;
		}
		let end = i;
		while (end < chars.length && !/[\s;]/u.test(chars[end]!)) end++;
		tokens.push({ text: chars.slice(i, end), cell, quoted: false });
		i = end;
	}
	return tokens;
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

/** A gap token: seconds (`+0.556`, `+1:02,5`) or whole laps (`+1L`, `+2`: a gap without decimals counts laps). */
export function readGap(token: string): Gap | string {
	const laps = GAP_LAPS.exec(token) ?? /^\+(\d+)$/u.exec(token);
	if (laps) return { text: token, laps: Number(laps[1]) };
	const match = GAP_TIME.exec(token);
	const seconds = match === null ? undefined : parseTime(match[1]!.replace(',', '.'));
	if (match === null || seconds === undefined) {
		return `"${token}" is not a valid gap: expected +seconds (+0.556), +m:ss.fff or +N laps`;
	}
	return { text: token, seconds: match[1]!.replace(',', '.') };
}

/**
 * A time as written (`1:31.204`, `91,204`, `83`), by the history CSV's parseTime rules, valued as the double nearest
 * the written decimal (parseTime reads `1:31.204` as the one decimal 91.204, not as 60 + 31.204 = 91.20400000000001).
 */
export function readSeconds(text: string): number | undefined {
	return parseTime(text.replace(',', '.'));
}

/** The double nearest units × 10^-scale: Number() of the decimal string rounds correctly at any length. */
function decimalNumber({ units, scale }: { units: bigint; scale: number }): number {
	const digits = units.toString().padStart(scale + 1, '0');
	return Number(scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

export function readTime(token: string): number | string {
	const time = readSeconds(/^\d+[.,]\d+s$/u.test(token) ? token.slice(0, -1) : token);
	if (time === undefined) {
		return `"${token}" is not a valid time: expected m:ss.fff, h:mm:ss.fff or seconds with a decimal point (83.456)`;
	}
	return timeInRange(token, time);
}

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

export function timeInRange(token: string, time: number): number | string {
	if (time < SCOREBOARD_LIMITS.minTime) return `the time "${token}" is too short: expected at least 0.001 seconds`;
	if (time >= SCOREBOARD_LIMITS.maxTime) return `the time "${token}" is 100 hours or more: expected a finish time`;
	return time;
}

/**
 * The leader's time plus a gap, computed in decimal so `1:23.456` + `+0.556` is exactly the double nearest 84.012
 * (adding the two doubles could land one bit off what `84.012` reads as).
 */
export function addGap(leader: number, leaderText: string, gapSeconds: string): number {
	const plain = leaderText.replace(',', '.');
	if (!/^\d+(?::\d+){0,2}(?:\.\d+)?$/u.test(plain)) return leader + Number(parseTime(gapSeconds)); // `1e2` in CSV
	const a = decimalOf(plain);
	const b = decimalOf(gapSeconds);
	const scale = Math.max(a.scale, b.scale);
	const units = a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale);
	return decimalNumber({ units, scale });
}

/** `h:mm:ss.fff` / `m:ss.fff` / `ss.fff` as an integer count of 10^-scale seconds. */
function decimalOf(text: string): { units: bigint; scale: number } {
	const parts = text.split(':');
	const last = parts.pop()!;
	const [whole, fraction = ''] = last.split('.');
	let seconds = 0n;
	for (const part of parts) seconds = (seconds + BigInt(part)) * 60n;
	seconds += BigInt(whole!);
	return {
		units: seconds * 10n ** BigInt(fraction.length) + BigInt(fraction === '' ? 0 : fraction),
		scale: fraction.length,
	};
}

/**
 * Where a line that lost its line breaks holds several racers (`1. Alice 1:01.5 2. Bob 1:02.3`): the racer lines
 * split before each written position (`2.`, `P2`, `2nd`; not a bare number) that continues the numbering (the same
 * number again, a tie, or one up to the number of racers so far plus one), when the line starts with position 1.
 * Undefined when no such split exists (fewer than two racers, or a segment without a name).
 */
export function splitOneLine(content: string): string[] | undefined {
	const words = content.trim().split(/\s+/u);
	if (content.includes('"')) return undefined; // a quoted name may hold anything
	if (words.length < 2 || !MARKED_POSITION.test(words[0]!) || Number(POSITION_TOKEN.exec(words[0]!)![1]) !== 1) {
		return undefined;
	}
	const segments: string[][] = [[words[0]!]];
	let last = 1;
	for (const word of words.slice(1)) {
		const current = segments.at(-1)!;
		const match = MARKED_POSITION.test(word) ? POSITION_TOKEN.exec(word) : null;
		const next = match === null ? NaN : Number(match[1]);
		if (match !== null && current.length > 1 && next >= last && next <= segments.length + 1) {
			segments.push([word]);
			last = next;
		} else {
			current.push(word);
		}
	}
	if (segments.length < 2 || segments.some((segment) => segment.length < 2)) return undefined;
	return segments.map((segment) => segment.join(' '));
}

/**
 * Whether a line that failed to parse looks like several racers on one line: two position marks, or a time or
 * status followed by a word and then another time or status (`Alice 1:01.5 Bob 1:02.3`).
 */
export function looksLikeSeveralRacers(content: string): boolean {
	const words = content.trim().split(/\s+/u);
	if (words.filter((word) => MARKED_POSITION.test(word)).length >= 2) return true;
	const isTail = (word: string): boolean => TIME_SHAPED.test(word) || statusOf(word) !== undefined || GAP.test(word);
	const firstTail = words.findIndex(isTail);
	if (firstTail === -1) return false;
	const word = words.findIndex((w, i) => i > firstTail && !isTail(w));
	return word !== -1 && words.slice(word + 1).some(isTail);
}

/**
 * The cells of a line split at tabs, at `;` and at `|` standing alone, trimmed, empty cells kept (a spreadsheet's empty
 * cell); the empty edges of a `| a | b |` table row are dropped. One cell when the line has no separator.
 */
export function splitCells(content: string): string[] {
	const cells = content.split(/\t|;|(?<=^|\s)\|+(?=\s|$)/u).map((cell) => cell.trim());
	if (/^\s*\|/u.test(content) && cells[0] === '') cells.shift();
	if (/\|\s*$/u.test(content) && cells.at(-1) === '') cells.pop();
	return cells;
}

/**
 * Names that read as something else unquoted: a word that is a position, a number, a dash, a time, a gap, a status,
 * `Out:` (iRacing's `Out: Disconnected`).
 */
export function needsQuotes(name: string): boolean {
	return (
		name.startsWith('"') ||
		name.includes(';') ||
		name
			.split(' ')
			.some(
				(token) =>
					statusOf(token) !== undefined ||
					GAP.test(token) ||
					TIME_SHAPED.test(token) ||
					POSITION_TOKEN.test(token) ||
					DASH.test(token) ||
					UNIT_NUMBER.test(token) ||
					OUT_WORD.test(token) ||
					/^\|+$/u.test(token),
			)
	);
}
