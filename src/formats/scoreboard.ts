import { isCsvHeader, readCsvDrafts } from './scoreboard-csv.js';
import { addGap, needsQuotes, readSeconds, SCOREBOARD_LIMITS, TIME_SHAPED, timeInRange } from './scoreboard-line.js';
import type { Draft, ScoreboardError } from './scoreboard-line.js';
import { commentWarning, isWordsOnly, readTextDrafts, titleWarning, unfoldOneLine } from './scoreboard-text.js';
import { typoFinder, typoNote, nameKey } from '../league/player-names.js';
import type { RaceEntry } from '../ratings/types.js';

export { SCOREBOARD_LIMITS, type ScoreboardError };

/**
 * The scoreboard of one race as an organizer pastes it into `/race submit` (PRODUCT.md "Scoreboard input";
 * docs/scoreboard.md lists every accepted form and every message).
 *
 * Text: one racer per line in finishing order, `[position] name [time] [status]`, e.g. `1. Alice 1:23.456`,
 * `2 Bob`, `Carol DNF`, and results pasted from anywhere (ordinals, tables, header rows, gaps, points
 * columns, one-line pastes; scoreboard-text.ts, scoreboard-line.ts). CSV: a header with player and position columns
 * (`player`, `Driver`, `Pos`…), optional time, gap and status (scoreboard-csv.ts).
 * Either way the result is validated as a whole and every problem is reported with its line number; a scoreboard
 * with any error yields no entries at all, so nothing half-parsed is ever stored.
 */

export interface ScoreboardOptions {
	/** Players already in the league: a new name close to one of them gets a "did you mean" warning. */
	readonly knownPlayers?: readonly string[];
	/**
	 * Names to read as others (`[typed, known]`, compared ignoring case), taken before every check: the typos an
	 * organizer accepted (the preview's "Accept suggestions").
	 */
	readonly renames?: readonly (readonly [string, string])[] | undefined;
}

/** A new name flagged as close to known players (a "did you mean" or a case difference), nearest first. */
export interface NameSuggestion {
	readonly player: string;
	readonly known: readonly string[];
	/** The name differs from `known[0]` in case alone. */
	readonly caseOnly: boolean;
}

/** The name as `renames` reads it (unchanged when it is not there). */
export function renamedName(name: string, renames: readonly (readonly [string, string])[] | undefined): string {
	return renames?.find(([typed]) => nameKey(typed) === nameKey(name))?.[1] ?? name;
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
			/** The names of the "did you mean" and "names ignore case" warnings, with their known players. */
			readonly suggestions?: readonly NameSuggestion[];
	  }
	| {
			readonly ok: false;
			/** The first maxErrors errors, by line. */
			readonly errors: ScoreboardError[];
			/** How many further errors were found and not listed. */
			readonly omitted: number;
	  };

const EXAMPLE_LINE = '"1. Alice 1:23.456"';

/**
 * Parse a pasted scoreboard (text or CSV, detected by a comma-separated header line naming the player's column).
 * Never throws. Ambiguous readings are taken the sensible way and said in `warnings` (docs/scoreboard.md).
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
		return failureOf([
			{
				line: 1,
				message: `the scoreboard is ${bytes} bytes: at most ${SCOREBOARD_LIMITS.maxBytes} (64 KiB); submit one race at a time`,
			},
		]);
	}
	const errors: ScoreboardError[] = [];
	const warnings: string[] = [];
	const pasted = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r\n|\r|\n/u);
	stripCodeFences(pasted, errors, warnings);
	const firstIndex = pasted.findIndex((content) => content.trim() !== '');
	if (firstIndex === -1) {
		if (errors.length > 0) return failureOf(errors);
		return failureOf([
			{ line: 1, message: `the scoreboard is empty: expected one racer per line, like ${EXAMPLE_LINE}` },
		]);
	}
	const format: ScoreboardFormat = isCsvHeader(pasted[firstIndex]!) ? 'csv' : 'text';
	// a one-line paste (`;`-separated, or lost line breaks) becomes one line per racer first.
	const lines = format === 'text' && errors.length === 0 ? unfoldOneLine(pasted, warnings) : pasted;
	// The pieces of a one-line paste are its racers: "line 3" would point at a line the organizer never wrote.
	const byRacer = lines !== pasted;
	const afterUnfold = warnings.length; // the warnings about the racers come after the one about the split
	const failure = (found: ScoreboardError[]) => failureOf(found, byRacer);
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
	const drafts =
		format === 'csv'
			? readCsvDrafts(lines, tooLong, errors, warnings)
			: readTextDrafts(lines, tooLong, errors, warnings);
	if (drafts === undefined) return failure(errors);
	if (drafts.length === 0 && errors.length === 0) {
		errors.push({
			line: firstIndex + 1,
			message:
				format === 'csv'
					? 'the CSV has a header but no racers: expected one row per racer below it'
					: `the scoreboard has a header row but no racers: expected one racer per line below it, like ${EXAMPLE_LINE}`,
		});
	}
	const suggestions: NameSuggestion[] = [];
	const renamed = drafts.map((draft) => {
		const player = renamedName(draft.player, options.renames);
		return player === draft.player ? draft : { ...draft, player, numberInName: false };
	});
	const entries = validate(renamed, errors, warnings, options, suggestions);
	if (errors.length > 0) return failure(errors);
	return {
		ok: true,
		format,
		entries,
		warnings: byRacer ? warnings.map((w, i) => (i < afterUnfold ? w : racerPlaces(w))) : warnings,
		suggestions,
	};
}

/** "line 3" as "racer 3", in a message about a one-line paste split into racers. */
const racerPlaces = (message: string): string => message.replace(/\bline (\d+)/gu, 'racer $1');

function failureOf(found: ScoreboardError[], byRacer = false): ScoreboardResult {
	const errors = byRacer
		? found.map((e) => ({ line: e.line, message: racerPlaces(e.message), unit: 'racer' as const }))
		: found;
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
 * the end of the last non-blank line. Lines of words only around the block (a bold title above it, a "GG" below
 * it) are left out with a warning each, and the block is read. A fence anywhere else is an error.
 */
function stripCodeFences(lines: string[], errors: ScoreboardError[], warnings: string[]): void {
	let first = lines.findIndex((content) => content.trim() !== '');
	if (first === -1) return;
	let last = lines.findLastIndex((content) => content.trim() !== '');
	const open = lines.findIndex((content) => content.trimStart().startsWith('```'));
	const close = lines.findLastIndex((content) => content.trimEnd().endsWith('```'));
	if (open !== -1 && open <= close && (open !== first || close !== last)) {
		const outside = lines.flatMap((content, i) => ((i < open || i > close) && content.trim() !== '' ? [i] : []));
		if (outside.every((i) => !lines[i]!.includes('```') && isWordsOnly(lines[i]!))) {
			for (const i of outside) {
				warnings.push(
					i < open
						? titleWarning(i + 1, lines[i]!, 'a code block follows it')
						: commentWarning(i + 1, lines[i]!, 'it is below the code block'),
				);
				lines[i] = '';
			}
			first = open;
			last = close;
		}
	}
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

// ---------------------------------------------------------------------------------------------------------------
// Scoreboard-wide checks

function validate(
	given: readonly Draft[],
	errors: ScoreboardError[],
	warnings: string[],
	options: ScoreboardOptions,
	suggested: NameSuggestion[],
): RaceEntry[] {
	const drafts = byPositionColumn(given, errors);
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
	const times = resolveGaps(finishers, errors, warnings);
	if (errors.length > 0) return [];

	// Warnings: a finisher faster than someone placed ahead of them; a new name close to a known player.
	let slowestAhead: Draft | undefined;
	let group: Draft[] = [];
	for (const draft of finishers) {
		const position = positions.get(draft)!;
		if (group.length > 0 && positions.get(group[0]!) !== position) {
			for (const ahead of group) {
				if (
					times.has(ahead) &&
					(slowestAhead === undefined || times.get(ahead)!.time > times.get(slowestAhead)!.time)
				) {
					slowestAhead = ahead;
				}
			}
			group = [];
		}
		group.push(draft);
		const time = times.get(draft);
		const aheadTime = slowestAhead === undefined ? undefined : times.get(slowestAhead);
		if (time !== undefined && aheadTime !== undefined && time.time < aheadTime.time) {
			warnings.push(
				`line ${draft.line}: ${draft.player}'s time ${time.text} is faster than ${aheadTime.text} ` +
					`of ${slowestAhead!.player} (line ${slowestAhead!.line}), who is placed ahead: check the order`,
			);
		}
	}
	const suggest = typoFinder(options.knownPlayers ?? []);
	for (const draft of drafts) {
		const suggestions = suggest(draft.player);
		if (suggestions.length === 0 && draft.numberInName === true) {
			const number = draft.player.split(' ').at(-1)!;
			warnings.push(
				`line ${draft.line}: "${draft.player}" is read as a name that ends in a number; if ${number} is points ` +
					`or laps, not part of the name, leave it out (or give every racer that column)`,
			);
		}
		const caseOnly = suggestions.length > 0 && nameKey(suggestions[0]!) === nameKey(draft.player);
		if (suggestions.length > 0) suggested.push({ player: draft.player, known: suggestions, caseOnly });
		if (caseOnly) {
			// A case difference: the league reads the name as that player (names ignore case), so it is no new player.
			warnings.push(
				`line ${draft.line}: "${draft.player}" is read as the known player "${suggestions[0]}" (names ignore case)`,
			);
		} else if (suggestions.length > 0) {
			const note = typoNote(draft.player, suggestions[0]!);
			warnings.push(
				`line ${draft.line}: "${draft.player}" is not a known player; did you mean ${suggestions.map((name) => `"${name}"`).join(' or ')}?` +
					(note === undefined ? '' : ` (${note})`),
			);
		}
	}

	const toEntry = (draft: Draft): RaceEntry => ({
		player: draft.player,
		position: positions.get(draft)!,
		...((times.get(draft)?.time ?? draft.time) !== undefined && { time: times.get(draft)?.time ?? draft.time }),
		status: draft.status,
	});
	return [...finishers.map(toEntry), ...others.map(toEntry)];
}

/**
 * A table whose finishers all have a position from its position column is read in the order of its positions, when
 * its rows come in another order (sorted by name, by car number): the rows are sorted by position (stably: ties and
 * rows without a number, a DNF in the position column, keep their order; those go last). Each row then counts the
 * rows sorted above it (and any unreadable row) as listed above, so the checks on positions hold as for rows in order.
 */
function byPositionColumn(drafts: readonly Draft[], errors: readonly ScoreboardError[]): readonly Draft[] {
	const finishers = drafts.filter((draft) => draft.status === 'finished');
	if (!finishers.every((draft) => draft.positionColumn === true && draft.number !== undefined)) return drafts;
	const key = (draft: Draft): number => (draft.number === undefined ? Infinity : Number(draft.number));
	if (finishers.every((draft, i) => i === 0 || key(draft) >= key(finishers[i - 1]!))) return drafts;
	const unreadable = new Set(errors.map((error) => error.line)).size;
	return drafts
		.toSorted((a, b) => (key(a) === key(b) ? 0 : key(a) - key(b)))
		.map((draft, i) => ({ ...draft, ordinal: i + unreadable }));
}

/**
 * Finish times of the finishers: their own, or the leader's time plus their gap (`+0.556`). A gap in
 * laps gives no time. Without a leader's time, gaps give the order only (a warning says so); a gap on the leader
 * (other than +0) is an error, as there is nobody ahead to be behind.
 */
function resolveGaps(
	finishers: readonly Draft[],
	errors: ScoreboardError[],
	warnings: string[],
): Map<Draft, { time: number; text: string }> {
	const times = new Map<Draft, { time: number; text: string }>();
	for (const draft of finishers) {
		if (draft.time !== undefined)
			times.set(draft, { time: draft.time, text: draft.timeText ?? formatTime(draft.time) });
	}
	const leader = finishers[0];
	if (leader === undefined) return times;
	const gapped = finishers.filter((draft) => draft.time === undefined && draft.gap !== undefined);
	const leaderGap = leader.time === undefined ? leader.gap : undefined;
	if (leaderGap !== undefined && !('seconds' in leaderGap && Number(leaderGap.seconds) === 0)) {
		errors.push({ line: leader.line, message: gapMessage(leaderGap.text) });
		return times;
	}
	const followers = gapped.filter((draft) => draft !== leader);
	if (leader.time === undefined || leader.timeText === undefined) {
		if (followers.length > 0) {
			warnings.push(
				`line ${followers[0]!.line}: the leader (line ${leader.line}) has no time, so the gaps ` +
					`(${followers
						.slice(0, 3)
						.map((draft) => draft.gap!.text)
						.join(', ')}${followers.length > 3 ? ', …' : ''}) give the order only, no times`,
			);
		}
		return times;
	}
	for (const draft of followers) {
		const gap = draft.gap!;
		if (!('seconds' in gap)) continue; // laps behind: no time
		const time = addGap(leader.time, leader.timeText, gap.seconds);
		const checked = timeInRange(`${leader.timeText} ${gap.text}`, time);
		if (typeof checked === 'string') errors.push({ line: draft.line, message: checked });
		else times.set(draft, { time, text: `${formatTime(time)} (${gap.text})` });
	}
	return times;
}

function gapMessage(token: string): string {
	return (
		`"${token}" is a gap to the leader, not a finish time: give the racer's own time ` +
		`(like 1:24.690) or leave the time out`
	);
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
	return needsQuotes(name) ? `"${name.replaceAll('"', '""')}"` : name;
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
	return candidates.find((text) => TIME_SHAPED.test(text) && readSeconds(text) === seconds) ?? plain;
}
