/**
 * What a text file's content says before it is read as CSV: an encoding the reader cannot take, and how to echo a
 * piece of it in a message without sending control characters back (a NUL or an escape shows as nothing, or worse,
 * in Discord and in a terminal). Pure.
 */

/**
 * A file saved as UTF-16 without a byte order mark, read as UTF-8, has a NUL (U+0000) beside every ASCII character
 * ("r\0a\0c\0e\0"). Text never holds one otherwise, so one NUL among the first characters is enough to tell.
 */
export function utf16WithoutBomProblem(text: string): string | undefined {
	if (!text.slice(0, 1024).includes('\u0000')) return undefined;
	return (
		'the file looks like UTF-16 without a byte order mark (a zero byte beside every letter), which cannot be read: ' +
		'save it as UTF-8 (a spreadsheet: Save As, "CSV UTF-8"; a text editor: encoding UTF-8) and send it again'
	);
}

/** `text` with every control character written as its code point (`U+0000`), so a message can quote it safely. */
export function withoutControls(text: string): string {
	return text.replace(/\p{Cc}/gu, (char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}
