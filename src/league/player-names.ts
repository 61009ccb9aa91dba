/**
 * Player names as organizers type them: normalisation, the characters we refuse, and typo suggestions.
 * Pure: no I/O.
 */

/** At most this many Unicode code points in a name (Discord nicknames allow 32 characters too). */
export const MAX_NAME_LENGTH = 32;

/**
 * Characters never allowed in a name, the one rule of every path a name comes in by (a pasted scoreboard, a results
 * file, a history CSV, `/league import`, `/player rename` and `alias`, `/league create`, a season's or team's name):
 * - C0/C1 control characters (tab excepted: it is whitespace, and whitespace collapses to one space), lone
 *   surrogates, line and paragraph separators;
 * - every code point that shows nothing: Unicode's Default_Ignorable_Code_Point (UAX #44; Hangul fillers U+3164,
 *   U+115F, U+1160, U+FFA0, the combining grapheme joiner U+034F, variation selectors, Khmer inherent vowels, …) and
 *   the format characters, category Cf (zero-width space, word joiner, BOM, soft hyphen, bidi marks, embeddings,
 *   overrides and isolates, …). Such a character lets two names look identical ("A\u034Fnn" and "Ann") or a name look
 *   blank (U+3164 alone), or reorders the text around it. They are refused rather than dropped: a name is stored as
 *   typed, and a name that silently lost a character would no longer match what the organizer sees in their source.
 *
 * Except where they are part of what is shown (exceptionsAt):
 * - an emoji's variation selector (U+FE0F, U+FE0E right after an emoji: "❤️", keycaps "1️⃣");
 * - the zero-width joiner inside an emoji ZWJ sequence (👨‍👩‍👧, 🏳️‍🌈), and the tag characters of a flag's emoji tag
 *   sequence (🏴 + tags + cancel tag, the flag of Scotland);
 * - zero-width joiner and non-joiner between two letters of a script they shape (Arabic, Persian, the Indic
 *   scripts: Unicode 15 §23.2), never next to a Latin, Greek or Cyrillic letter, where they show nothing.
 * Results files, whose names the organizer cannot edit, have these characters dropped instead (to-scoreboard.ts).
 */
const REFUSED = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const EMOJI = /^\p{Emoji}$/u;
const PICTOGRAPH = /^[\p{Extended_Pictographic}\p{Emoji_Modifier}]$/u;
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
/** Scripts in which a joiner changes nothing on screen. */
const UNSHAPED = /^[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}]$/u;

/** Whether the refused-looking code point at `i` of `points` is part of what is shown (the exceptions above). */
function exceptionsAt(points: readonly string[], i: number): boolean {
	const char = points[i]!;
	const before = points[i - 1];
	const after = points[i + 1];
	if (char === '\uFE0F' || char === '\uFE0E') return before !== undefined && EMOJI.test(before);
	if (char !== '\u200D' && char !== '\u200C') return false;
	if (before === undefined || after === undefined) return false;
	if (char === '\u200D') {
		// An emoji ZWJ sequence: pictograph (maybe with its U+FE0F or skin tone) ZWJ pictograph.
		const base = before === '\uFE0F' ? points[i - 2] : before;
		if (base !== undefined && PICTOGRAPH.test(base) && PICTOGRAPH.test(after)) return true;
	}
	return LETTER_OR_MARK.test(before) && LETTER_OR_MARK.test(after) && !UNSHAPED.test(before) && !UNSHAPED.test(after);
}

/** NFC, every run of whitespace (any Unicode space, tab) collapsed to one space, trimmed. */
export function normalizeName(raw: string): string {
	return raw.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** The key two names are compared by: names equal under this key are the same player for duplicate checks. */
export function nameKey(name: string): string {
	return normalizeName(name).toLowerCase();
}

/** `U+0007`: how a code point is shown in messages. */
export function codePointLabel(char: string): string {
	return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first forbidden character of `text` (see REFUSED), if any. */
export function forbiddenCharacter(text: string): string | undefined {
	const points = [...text.replaceAll('\t', ' ').replace(EMOJI_TAG_SEQUENCE, '\u{1F3F4}')];
	for (let i = 0; i < points.length; i++) {
		if (REFUSED.test(points[i]!) && !exceptionsAt(points, i)) return points[i];
	}
	return undefined;
}

/**
 * Code points that show no ink though they are allowed (REFUSED refuses the invisible ones): marks alone, the braille
 * blank U+2800. A name of nothing else, spaces aside, looks blank.
 */
const INKLESS = /[\s\p{M}\u2800]/gu;

/** How a kind of name departs from a player's: a team's may be longer, and is never read as a player id. */
export interface NameRules {
	readonly maxLength?: number;
	/** Refuse a leading `#` (player ids start with it). */
	readonly idLike?: boolean;
}

/**
 * What is wrong with a raw name, or undefined when it is acceptable: the one rule for every name a person types,
 * on a scoreboard, in `/player rename`, as a league name, in a history CSV. `what` names it in the
 * message ("name", "league name"). Hostile-looking names (`@everyone`, `<@123>`, markdown, backticks, spoilers) are
 * acceptable: output escapes them (escapeForDiscord). A name may not start with `#`: player ids do (`#1`), and a
 * name that reads as an id would be credited to that player.
 */
export function nameProblem(
	raw: string,
	what = 'name',
	{ maxLength = MAX_NAME_LENGTH, idLike = true }: NameRules = {},
): string | undefined {
	const bad = forbiddenCharacter(raw);
	if (bad !== undefined) {
		return `the ${what} contains the character ${codePointLabel(bad)}: control and invisible formatting characters are not allowed`;
	}
	const name = normalizeName(raw);
	if (name === '') return what === 'name' ? 'expected a player name' : `the ${what} is empty`;
	if (name.replace(INKLESS, '') === '') {
		return `the ${what} looks blank: it has no visible character (${[...name].map(codePointLabel).join(' ')})`;
	}
	const length = [...name].length;
	if (length > maxLength) {
		return `the ${what} "${name}" is ${length} characters long: at most ${maxLength}`;
	}
	if (idLike && name.startsWith('#')) {
		return `the ${what} "${name}" starts with #, as player ids do (#1): start it with another character`;
	}
	return undefined;
}

/**
 * Unrestricted Damerau-Levenshtein distance over code points (Lowrance & Wagner 1975): insertions, deletions,
 * substitutions and transpositions of adjacent characters, each costing 1, where a transposed pair may be edited
 * further (so "CA" → "ABC" is 2, where the restricted "optimal string alignment" variant gives 3).
 * With `limit`, the answer is exact up to `limit` and any larger distance comes back as `limit + 1` (the row
 * minimum never decreases, so the table stops as soon as a whole row exceeds the limit).
 */
export function damerauLevenshtein(a: string, b: string, limit = Infinity): number {
	return distanceOf([...a], [...b], limit);
}

function distanceOf(s: readonly string[], t: readonly string[], limit: number): number {
	const inf = s.length + t.length;
	const width = t.length + 2;
	// d[(i + 1) * width + j + 1]: the distance between the first i characters of s and the first j of t;
	// row 0 and column 0 are ∞ (the sentinels of the transposition term).
	const d = new Array<number>((s.length + 2) * width).fill(0);
	d[0] = inf;
	for (let i = 0; i <= s.length; i++) {
		d[(i + 1) * width] = inf;
		d[(i + 1) * width + 1] = i;
	}
	for (let j = 0; j <= t.length; j++) {
		d[j + 1] = inf;
		d[width + j + 1] = j;
	}
	// lastRow.get(c): the last row (1-based) of s where character c occurred.
	const lastRow = new Map<string, number>();
	for (let i = 1; i <= s.length; i++) {
		let lastMatchColumn = 0;
		let rowMin = Infinity;
		for (let j = 1; j <= t.length; j++) {
			const k = lastRow.get(t[j - 1]!) ?? 0;
			const l = lastMatchColumn;
			const cost = s[i - 1] === t[j - 1] ? 0 : 1;
			if (cost === 0) lastMatchColumn = j;
			const value = Math.min(
				d[i * width + j]! + cost, // substitution (or match)
				d[(i + 1) * width + j]! + 1, // insertion
				d[i * width + j + 1]! + 1, // deletion
				d[k * width + l]! + (i - k - 1) + 1 + (j - l - 1), // transposition, characters between deleted/inserted
			);
			d[(i + 1) * width + j + 1] = value;
			rowMin = Math.min(rowMin, value);
		}
		if (t.length > 0 && rowMin > limit) return limit + 1;
		lastRow.set(s[i - 1]!, i);
	}
	return Math.min(d[(s.length + 1) * width + t.length + 1]!, limit + 1);
}

/**
 * The largest edit distance still read as a typo, by the length (code points) of the shorter name: up to 2
 * characters only a case difference (0), 3 to 5 characters 1 edit, 6 or more 2 edits. Short names are a few edits
 * away from many others, so a flat threshold of 2 would flag "Al" against "Bo".
 */
export function typoThreshold(length: number): number {
	return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

/**
 * Prepare the known names once; the returned function gives, for a name, the known players it may be a typo of,
 * nearest first (at most 3): compared case-insensitively by Damerau-Levenshtein distance within typoThreshold.
 * A name that is itself known (exactly, after normalisation) is no typo: []. A case-only difference (alice vs
 * Alice) is distance 0 and is suggested.
 */
export function typoFinder(knownNames: readonly string[]): (name: string) => string[] {
	const exact = new Set<string>();
	const known: { name: string; chars: string[] }[] = [];
	for (const raw of knownNames) {
		const name = normalizeName(raw);
		if (exact.has(name)) continue;
		exact.add(name);
		known.push({ name, chars: [...name.toLowerCase()] });
	}
	const byKey = new Map(known.map((candidate) => [candidate.chars.join(''), candidate.name]));
	return (raw) => {
		const name = normalizeName(raw);
		if (exact.has(name)) return [];
		const chars = [...name.toLowerCase()];
		// a known name plus an extra word (`Alice 82`, `Alice -`) or an invisible character comes first.
		const found: { name: string; distance: number }[] = coreKeys(name).flatMap((key) => {
			const match = byKey.get(key);
			return match === undefined ? [] : [{ name: match, distance: -1 }];
		});
		for (const candidate of known) {
			const distance = typoDistance(chars, candidate.chars);
			if (distance !== undefined && !found.some((entry) => entry.name === candidate.name)) {
				found.push({ name: candidate.name, distance });
			}
		}
		return nearestThree(found);
	};
}

/** The edit distance of two lowercased names when it is within typoThreshold (a typo), else undefined. */
function typoDistance(a: readonly string[], b: readonly string[]): number | undefined {
	const threshold = typoThreshold(Math.min(a.length, b.length));
	if (Math.abs(a.length - b.length) > threshold) return undefined; // distance ≥ length difference
	const distance = distanceOf(a, b, threshold);
	return distance <= threshold ? distance : undefined;
}

/** The names of at most three suggestions, nearest first, then by name. */
function nearestThree(found: { name: string; distance: number }[]): string[] {
	found.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return found.slice(0, 3).map((entry) => entry.name);
}

/** typoFinder(knownNames)(name), for a single look-up. */
export function looksLikeTypo(name: string, knownNames: readonly string[]): string[] {
	return typoFinder(knownNames)(name);
}

/**
 * The players a lookup (`/rating player:`, `/odds players:`) may have meant, at most 3: typos of a whole name first
 * (looksLikeTypo); failing those, names with a word that is the query or a typo of it, so "Verstapen" or "hamilton"
 * finds "Max Verstappen" or "Lewis Hamilton". Only for suggestions: a lookup never resolves to a player by one word
 * (two drivers can share a surname).
 */
export function lookupSuggestions(query: string, knownNames: readonly string[]): string[] {
	const typos = looksLikeTypo(query, knownNames);
	if (typos.length > 0) return typos;
	const chars = [...normalizeName(query).toLowerCase()];
	if (chars.length < 3 || chars.includes(' ')) return [];
	const found = new Map<string, number>();
	for (const raw of knownNames) {
		const name = normalizeName(raw);
		for (const word of name.toLowerCase().split(' ')) {
			const distance = typoDistance(chars, [...word]);
			if (distance !== undefined && distance < (found.get(name) ?? Infinity)) found.set(name, distance);
		}
	}
	return nearestThree([...found].map(([name, distance]) => ({ name, distance })));
}

/**
 * Characters that show nothing (REFUSED refuses them in new names; names stored before, and the joiners and
 * variation selectors allowed in context, may hold them). A known name with one of these added looks identical.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

/** Lowercased keys a name may be a known name under: without invisible characters, without its last or first word. */
function coreKeys(name: string): string[] {
	const keys: string[] = [];
	const visible = name.replace(INVISIBLE, '');
	if (visible !== name && visible !== '') keys.push(visible.toLowerCase());
	const words = name.split(' ');
	if (words.length >= 2) {
		keys.push(words.slice(0, -1).join(' ').toLowerCase(), words.slice(1).join(' ').toLowerCase());
	}
	return keys;
}

/**
 * Why `name` looks like the known player `known`, when it is more than a spelling slip: an invisible character
 * (`the name has the invisible character U+200D`) or an extra word (`"82" looks like an extra column …`).
 */
export function typoNote(name: string, known: string): string | undefined {
	const normal = normalizeName(name);
	const key = normalizeName(known).toLowerCase();
	const invisible = normal.match(INVISIBLE);
	if (invisible !== null && normal.replace(INVISIBLE, '').toLowerCase() === key) {
		return `the name has the invisible character ${codePointLabel(invisible[0])}`;
	}
	const words = normal.split(' ');
	if (words.length >= 2 && words.slice(0, -1).join(' ').toLowerCase() === key) {
		return `"${words.at(-1)}" looks like an extra column or a stray mark, not part of the name`;
	}
	if (words.length >= 2 && words.slice(1).join(' ').toLowerCase() === key) {
		return `"${words[0]}" looks like an extra column or a stray mark, not part of the name`;
	}
	return undefined;
}
