/**
 * A result file's bytes as text, in the encoding the file carries (docs/result-files.md "Encodings"):
 * - a byte order mark decides: UTF-8, UTF-16 LE or BE (ACC writes UTF-16 LE with or without one);
 * - without one, UTF-16 is recognised by its zero bytes (ASCII text in UTF-16 has a zero in every other byte);
 * - an XML declaration's `encoding` is followed when it names a single-byte encoding;
 * - else UTF-8, line by line: a line that is not valid UTF-8 is read as Windows-1252 (iRacing's CSV export, rFactor's
 *   Latin-1 names inside a file declared UTF-8), and said in a warning naming the line, so nothing turns into a
 *   silent "�". A file that is Windows-1252 throughout (no UTF-8 sequence in it at all) is read as such with one note.
 * Bytes no encoding can read (a UTF-16 lone surrogate, Windows-1252's five unassigned bytes) are a warning naming
 * the line.
 */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DecodedText {
	readonly text: string;
	readonly encoding: TextEncodingName;
	/** "line N: …" for every line read in another encoding than the file's, or holding unreadable bytes. */
	readonly warnings: string[];
}

const MAX_LINE_WARNINGS = 5;

export function decodeResultBytes(bytes: Uint8Array): DecodedText {
	if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return utf8Lines(bytes.subarray(3));
	if (startsWith(bytes, [0xff, 0xfe])) return utf16(bytes.subarray(2), 'utf-16le');
	if (startsWith(bytes, [0xfe, 0xff])) return utf16(bytes.subarray(2), 'utf-16be');
	const unmarked = utf16Unmarked(bytes);
	if (unmarked !== undefined) return utf16(bytes, unmarked);
	const declared = xmlDeclaredEncoding(bytes);
	if (declared === 'windows-1252') return windows1252(bytes, []);
	return utf8Lines(bytes);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
	return prefix.every((byte, i) => bytes[i] === byte);
}

/** UTF-16 without a mark: most of the first 256 code units of text have a zero high byte. */
function utf16Unmarked(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
	const units = Math.min(256, Math.floor(bytes.length / 2));
	if (units < 2) return undefined;
	let evenZeros = 0;
	let oddZeros = 0;
	for (let i = 0; i < units; i++) {
		if (bytes[2 * i] === 0) evenZeros++;
		if (bytes[2 * i + 1] === 0) oddZeros++;
	}
	if (oddZeros >= units * 0.6 && evenZeros < units * 0.1) return 'utf-16le';
	if (evenZeros >= units * 0.6 && oddZeros < units * 0.1) return 'utf-16be';
	return undefined;
}

/** `<?xml version="1.0" encoding="ISO-8859-1"?>` → windows-1252 (the WHATWG reading of Latin-1 labels). */
function xmlDeclaredEncoding(bytes: Uint8Array): TextEncodingName | undefined {
	const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
	const match = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/iu.exec(head);
	if (!match) return undefined;
	const label = match[1]!.toLowerCase();
	return ['iso-8859-1', 'latin1', 'latin-1', 'windows-1252', 'cp1252', 'us-ascii'].includes(label)
		? 'windows-1252'
		: undefined;
}

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): DecodedText {
	const text = new TextDecoder(encoding).decode(bytes);
	const warnings: string[] = [];
	noteReplacements(text, encoding === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE', warnings);
	return { text, encoding, warnings };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/**
 * Windows-1252 by hand: Node 20's TextDecoder('windows-1252') decodes ISO-8859-1 (0x80 as U+0080, not €). Latin-1
 * for every byte, then the WHATWG table for 0x80-0x9F; its five unassigned bytes stay C1 controls (the scoreboard's
 * name rules refuse those).
 */
const CP1252_HIGH =
	'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
	'\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const cp1252 = {
	decode(bytes: Uint8Array): string {
		let text = '';
		for (let i = 0; i < bytes.length; i += 8192) {
			const chunk = bytes.subarray(i, i + 8192);
			text += String.fromCharCode(
				...Array.from(chunk, (b) => (b >= 0x80 && b < 0xa0 ? CP1252_HIGH.charCodeAt(b - 0x80) : b)),
			);
		}
		return text;
	},
};

function utf8Lines(bytes: Uint8Array): DecodedText {
	try {
		return { text: strictUtf8.decode(bytes), encoding: 'utf-8', warnings: [] };
	} catch {
		// Some bytes are not UTF-8: decide line by line below.
	}
	if (!hasUtf8Sequence(bytes)) return windows1252(bytes, [wholeFileNote(bytes)]);
	const warnings: string[] = [];
	const parts: string[] = [];
	const other: number[] = [];
	let start = 0;
	let line = 1;
	for (let i = 0; i <= bytes.length; i++) {
		if (i < bytes.length && bytes[i] !== 0x0a) continue;
		const slice = bytes.subarray(start, i === bytes.length ? i : i + 1);
		try {
			parts.push(strictUtf8.decode(slice));
		} catch {
			parts.push(cp1252.decode(slice));
			other.push(line);
		}
		start = i + 1;
		line++;
	}
	const listed = other.slice(0, MAX_LINE_WARNINGS);
	for (const n of listed) warnings.push(`line ${n}: not UTF-8 like the rest of the file: read as Windows-1252`);
	if (other.length > listed.length) {
		warnings.push(`${other.length - listed.length} more lines not UTF-8: read as Windows-1252`);
	}
	const text = parts.join('');
	noteReplacements(text, 'Windows-1252', warnings);
	return { text, encoding: 'utf-8', warnings };
}

function windows1252(bytes: Uint8Array, notes: string[]): DecodedText {
	const text = cp1252.decode(bytes);
	const warnings = [...notes];
	noteReplacements(text, 'Windows-1252', warnings);
	return { text, encoding: 'windows-1252', warnings };
}

/** `the file is not UTF-8: read as Windows-1252; check the names with accents on lines 12, 15`. */
function wholeFileNote(bytes: Uint8Array): string {
	const lines: number[] = [];
	let line = 1;
	let marked = false;
	for (const byte of bytes) {
		if (byte === 0x0a) {
			line++;
			marked = false;
		} else if (byte >= 0x80 && !marked) {
			lines.push(line);
			marked = true;
		}
	}
	const listed = lines.slice(0, MAX_LINE_WARNINGS).join(', ') + (lines.length > MAX_LINE_WARNINGS ? ', …' : '');
	return `the file is not UTF-8: read as Windows-1252; check the letters outside ASCII on line${lines.length === 1 ? '' : 's'} ${listed}`;
}

/** Is there at least one valid multi-byte UTF-8 sequence? (A Windows-1252 file with accents has none.) */
function hasUtf8Sequence(bytes: Uint8Array): boolean {
	for (let i = 0; i < bytes.length; i++) {
		const lead = bytes[i]!;
		if (lead < 0xc2 || lead > 0xf4) continue;
		const length = lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
		let ok = i + length <= bytes.length;
		for (let k = 1; ok && k < length; k++) ok = (bytes[i + k]! & 0xc0) === 0x80;
		if (ok) return true;
	}
	return false;
}

/** A "�" that the decoder put in: the bytes there are unreadable in `encoding`; name each line (a few). */
function noteReplacements(text: string, encoding: string, warnings: string[]): void {
	if (!text.includes('\ufffd')) return;
	const lines = text.split('\n');
	const bad = lines.flatMap((content, i) => (content.includes('\ufffd') ? [i + 1] : []));
	for (const n of bad.slice(0, MAX_LINE_WARNINGS)) {
		warnings.push(`line ${n}: bytes that are not ${encoding} text, shown as "�"`);
	}
	if (bad.length > MAX_LINE_WARNINGS) {
		warnings.push(`${bad.length - MAX_LINE_WARNINGS} more lines with bytes that are not ${encoding} text`);
	}
}
