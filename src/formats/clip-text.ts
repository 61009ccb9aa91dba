/**
 * Text cut to a limit without losing what was cut: Discord refuses a message over 2,000 characters, an embed
 * description over 4,096, a field over 1,024. Lists lose whole lines from the end and say how many
 * ("…and 12 more"); free text is cut with "…(truncated)".
 */

/** `text` within `max` characters, saying it was cut. */
export function clip(text: string, max = 2000): string {
	if (text.length <= max) return text;
	// One line (a title, a name) ends with an ellipsis; a message says on its own line that it was cut.
	const note = text.includes('\n') ? '\n…(truncated)' : '…';
	if (max <= note.length) return text.slice(0, max);
	return text.slice(0, max - note.length) + note;
}

/**
 * Head, as many body lines as fit, then tail, within `max` characters: the lines left out are counted
 * ("…and 12 more"), never cut mid-line. When head and tail alone do not fit, the whole is cut by `clip`.
 */
export function clipLines(
	head: readonly string[],
	body: readonly string[],
	tail: readonly string[] = [],
	max = 2000,
): string {
	const all = [...head, ...body, ...tail].join('\n');
	if (all.length <= max) return all;
	const fixed = [...head, ...tail].join('\n').length;
	const kept: string[] = [];
	let length = fixed;
	for (const [i, line] of body.entries()) {
		const note = `…and ${body.length - i - 1} more`;
		// Room for this line, and for the note about the lines after it (when there are any).
		const need = line.length + 1 + (i < body.length - 1 ? note.length + 1 : 0);
		if (length + need > max) break;
		kept.push(line);
		length += line.length + 1;
	}
	const left = body.length - kept.length;
	return clip([...head, ...kept, `…and ${left} more`, ...tail].join('\n'), max);
}

/** A list in a sentence that stays short: "A, B, C and 4 more" (all of them when there are at most `max`). */
export function listWithMore(items: readonly string[], max = 8): string {
	const shown = items.slice(0, max).join(', ');
	return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
