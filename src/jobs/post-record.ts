import { createHash } from 'node:crypto';
import { clip } from '../formats/clip-text.js';
import type { ChannelMessage, PostFailure } from '../services/posts/monthly-post-port.js';

/**
 * The monthly post's idempotency record (store namespace `jobs`, key `post:<league>:<YYYY-MM>`) and the marker every
 * post carries, so that a post whose confirmation was lost can be found again in the channel (docs/scheduler.md).
 */

/** `skipped`: the league had nothing to rank that month (no rated player); nothing is posted for it. */
export type PostState = 'claimed' | 'posted' | 'failed' | 'skipped';

export interface PostRecord {
	readonly v: 1;
	readonly state: PostState;
	/** 1 for the first claim; each retry claims the next attempt (an insert-if-absent of `<key>:attempt:<n>`). */
	readonly attempt: number;
	/** When the state was written (ISO). A `claimed` older than the stale limit is a crashed attempt. */
	readonly at: string;
	readonly messageId?: string | undefined;
	/** `failed` only: what went wrong (a failure kind and Discord's status and code; never user text). */
	readonly failure?: PostFailure | { readonly kind: 'error' } | undefined;
}

export { rankingPostKey as postKey } from '../services/posts/ranking-post-schedule.js';
export const attemptKey = (key: string, attempt: number): string => `${key}:attempt:${attempt}`;

/** A record as stored, or undefined when absent; a record from a newer pitwall is refused rather than overwritten. */
export function postRecordOf(raw: unknown, key: string): PostRecord | undefined {
	if (raw === undefined) return undefined;
	const record = raw as Partial<PostRecord>;
	if (record.v !== 1 || !['claimed', 'posted', 'failed', 'skipped'].includes(String(record.state))) {
		throw new Error(`jobs record ${key} has schema version ${String(record.v)}: this pitwall reads version 1`);
	}
	return record as PostRecord;
}

export const postMarker = (leagueId: string, month: string): string => `pitwall ranking ${leagueId} ${month}`;

/** Discord's nonce: at most 25 characters, the same for every attempt at one league's month. */
export const postNonce = (key: string): string => createHash('sha256').update(key).digest('base64url').slice(0, 25);

const CONTENT_MAX = 2000;
const FOOTER_MAX = 2048;

/**
 * The message with its marker: in the footer of its last embed when it has embeds, else as a small last line of the
 * content (`-# …`, Discord's subtext). The content is cut to stay within 2,000 characters.
 */
export function withMarker(message: ChannelMessage, marker: string): ChannelMessage {
	const embeds = message.embeds ?? [];
	const last = embeds.at(-1);
	if (last !== undefined) {
		const footer = last.footer?.text;
		const text = footer !== undefined && footer !== '' ? `${footer} · ${marker}` : marker;
		const marked = { ...last, footer: { text: text.slice(-FOOTER_MAX) } };
		return { ...message, content: clip(message.content, CONTENT_MAX), embeds: [...embeds.slice(0, -1), marked] };
	}
	const line = `\n-# ${marker}`;
	return { ...message, content: clip(message.content, CONTENT_MAX - line.length) + line };
}
