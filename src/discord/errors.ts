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

/**
 * An answer to an interaction that Discord did not take: refused (4xx, e.g. 50035 Invalid Form Body) or failed (5xx,
 * after discord.js's three retries). The router then sends a short fallback (reply.ts `fallbackText`) so the user is
 * not left with "thinking…".
 */
export interface AnswerFailure {
	readonly status: number;
	/** Discord's error code (50035…); a 5xx has none. */
	readonly code: number | undefined;
	/** The interaction callback (the first answer), an edit of the answer, its deletion, or a follow-up. */
	readonly request: 'callback' | 'edit' | 'delete' | 'followUp';
	/** The first line of the message it carried: a write's answer begins with what was done ("Stored as **R12**…"). */
	readonly firstLine: string | undefined;
}

/** Answer routes: `/interactions/<id>/<token>/callback`, `/webhooks/<app>/<token>` and its `/messages/<id>`. */
const CALLBACK_PATH = /\/interactions\/\d+\/[^/]+\/callback$/;
const WEBHOOK_PATH = /\/webhooks\/\d+\/[^/]+(\/messages\/[^/]+)?$/;

/**
 * The AnswerFailure of an error thrown by discord.js's REST (DiscordAPIError for a 4xx, HTTPError for a 5xx: both
 * carry status, method, url and the request body), or undefined for any other error, for a Discord request that is
 * not an answer (roles, channel posts) and for an expired interaction (nothing can be sent to it).
 */
export function answerFailureOf(error: unknown): AnswerFailure | undefined {
	if (typeof error !== 'object' || error === null || isIgnoredDiscordError(error)) return undefined;
	const { status, method, url, code, requestBody } = error as Record<string, unknown>;
	if (typeof status !== 'number' || status < 400 || typeof method !== 'string' || typeof url !== 'string') {
		return undefined;
	}
	let path: string;
	try {
		path = new URL(url, 'http://discord.invalid').pathname;
	} catch {
		return undefined;
	}
	const webhook = WEBHOOK_PATH.exec(path);
	let request: AnswerFailure['request'];
	if (CALLBACK_PATH.test(path)) request = 'callback';
	else if (webhook === null) return undefined;
	else if (webhook[1] === undefined) request = 'followUp';
	else request = method.toUpperCase() === 'DELETE' ? 'delete' : 'edit';
	return {
		status,
		code: typeof code === 'number' && code > 0 ? code : undefined,
		request,
		firstLine: firstLineOf((requestBody as { json?: unknown } | undefined)?.json),
	};
}

/** The first line of a message body (a callback's is under `data`): its content's, else its first embed's title. */
function firstLineOf(json: unknown): string | undefined {
	if (typeof json !== 'object' || json === null) return undefined;
	const message = ('data' in json && typeof json.data === 'object' ? json.data : json) as Record<string, unknown>;
	const embeds = Array.isArray(message['embeds']) ? (message['embeds'] as Record<string, unknown>[]) : [];
	const text = [message['content'], embeds[0]?.['title']].find((t) => typeof t === 'string' && t.trim() !== '');
	return typeof text === 'string' ? text.trim().split('\n')[0]!.trim() : undefined;
}
