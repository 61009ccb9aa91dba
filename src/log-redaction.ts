/**
 * The one redaction every logged error goes through: src/logger.ts uses `serializeError` as pino's
 * `err` serializer. A refused Discord request used to log its URL, which holds the interaction or webhook token
 * (15 minutes of acting as the bot in that channel), and its body, which holds what the user typed.
 *
 * - Discord errors (discord.js DiscordAPIError, HTTPError, RateLimitError) keep status, code, method and the URL's
 *   path with the token replaced by `:token`; the full URL (its query too) is dropped.
 * - Request and response bodies and headers are dropped wherever they are (`requestBody` {files, json}, `rawError`,
 *   `body`, `headers`…), at any depth.
 * - In every string that remains (message, stack, causes, any field), interaction and webhook tokens in paths, the
 *   bot token (given, and anything shaped like one) and `Bot <token>` headers are replaced by `:token`.
 */
import { stdSerializers } from 'pino';

/** Fields that carry a request or response body, or its headers: never logged. */
const DROPPED_KEYS: ReadonlySet<string> = new Set([
	'requestBody',
	'rawError',
	'body',
	'rawBody',
	'headers',
	'request',
	'response',
	'files',
	'json',
]);

const MAX_DEPTH = 8;

/**
 * `/interactions/<id>/<token>/…` and `/webhooks/<app>/<token>…` (Discord's API paths; the token is whatever runs to
 * the next `/`, `?`, `#`, quote or space).
 */
const TOKEN_IN_PATH = /\/(interactions|webhooks)\/(\d+)\/[^/?#\s"'`]+/g;
/** A bot token: base64 user id, timestamp, HMAC (at least 20/6/27 characters), as Discord issues them. */
const BOT_TOKEN_SHAPE = /[\w-]{20,}\.[\w-]{6,}\.[\w-]{27,}/g;
const AUTHORIZATION = /\b(Bot|Bearer)\s+[\w.-]+/g;

export function redactText(text: string, secrets: readonly string[] = []): string {
	let result = text;
	for (const secret of secrets) if (secret.length >= 8) result = result.split(secret).join(':token');
	return result
		.replace(TOKEN_IN_PATH, '/$1/$2/:token')
		.replace(BOT_TOKEN_SHAPE, ':token')
		.replace(AUTHORIZATION, '$1 :token');
}

/** The path of a URL with its token replaced, or undefined when it is not a URL. */
function redactedPath(url: string, secrets: readonly string[]): string | undefined {
	try {
		return redactText(new URL(url).pathname, secrets);
	} catch {
		return undefined;
	}
}

function redactValue(value: unknown, secrets: readonly string[], depth: number, seen: WeakSet<object>): unknown {
	if (typeof value === 'string') return redactText(value, secrets);
	if (typeof value !== 'object' || value === null) return value;
	if (depth >= MAX_DEPTH || seen.has(value)) return '[omitted]';
	if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
	seen.add(value);
	if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1, seen));
	const result: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(value)) {
		if (DROPPED_KEYS.has(key)) continue;
		if (key === 'url' && typeof field === 'string') {
			// The path tells which route failed; the rest (host, query) adds nothing but signed parameters.
			const path = redactedPath(field, secrets);
			if (path !== undefined && result['path'] === undefined) result['path'] = path;
			continue;
		}
		result[key] = redactValue(field, secrets, depth + 1, seen);
	}
	return result;
}

/** pino's error serializer (type, message and stack with causes, own fields), then the redaction above. */
export function serializeError(error: unknown, secrets: readonly string[] = []): unknown {
	const serialized: unknown = error instanceof Error ? { ...stdSerializers.err(error) } : error;
	return redactValue(serialized, secrets, 0, new WeakSet());
}
