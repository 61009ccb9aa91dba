/**
 * The two error kinds of the Discord adapter (STYLE.md 19). A UserFacingError is an expected refusal ("no such
 * race", "not an organizer"): the router answers with its message, ephemerally, and logs it at info. Anything else is
 * a bug: the router logs it with the interaction id and answers "Something went wrong (ref: <id>)".
 */
export class UserFacingError extends Error {
	/** `code` is a stable kebab-case identifier for logs and tests; `message` is shown to the user as is. */
	constructor(
		readonly code: string,
		message: string,
	) {
		super(message);
		this.name = 'UserFacingError';
	}
}

/** Discord error codes the router swallows: the interaction token expired (3 s to acknowledge, 15 min to follow up). */
export const IGNORED_DISCORD_CODES: ReadonlySet<number> = new Set([
	10062, // Unknown interaction
]);

export function isIgnoredDiscordError(error: unknown): boolean {
	if (typeof error !== 'object' || error === null || !('code' in error)) return false;
	return typeof error.code === 'number' && IGNORED_DISCORD_CODES.has(error.code);
}
