/**
 * Showing user-typed text (player names) inside Discord markdown without it acting as markdown or as a mention.
 * Pure string code: it knows Discord's syntax, not discord.js.
 */

const ZERO_WIDTH_SPACE = '\u200B';

/**
 * Escape `text` for Discord markdown (message content, embed descriptions and field values; not code blocks, where
 * backslashes show):
 * - a backslash before `\ * _ ~ \` | > [ ] # :` (bold, italics, underline, strike, code, spoilers, quotes, masked
 *   links, headings, `https://` autolinks and `:emoji:`), and before a leading `-`, `+` or `1.` (lists, subtext);
 * - a zero-width space after every `@` (`@everyone`, `@here`, `<@123>`, `<@&123>`) and every `<` (`<#123>`,
 *   `</cmd:1>`, `<t:1>`, `<:emoji:1>`), so no mention, timestamp or custom emoji is formed.
 * Replies should still set `allowedMentions: { parse: [] }`; this function makes the text read right as well.
 */
export function escapeForDiscord(text: string): string {
	return text
		.replace(/[\\*_~`|>[\]#:]/g, '\\$&')
		.replace(/^([-+])/, '\\$1')
		.replace(/^(\d+)\./, '$1\\.')
		.replaceAll('@', `@${ZERO_WIDTH_SPACE}`)
		.replaceAll('<', `<${ZERO_WIDTH_SPACE}`);
}
