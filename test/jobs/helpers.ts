/**
 * Test doubles for the monthly post: a composer that returns a message with a real PNG (drawn with `canvas`), and an
 * in-memory channel poster that records every message per channel and can refuse as Discord does. The poster does
 * NOT emulate Discord's nonce de-duplication, so the tests prove that the store protocol alone posts exactly once.
 */
import { createCanvas } from 'canvas';
import type {
	ChannelMessage,
	ChannelPoster,
	ComposeOptions,
	MonthlyPostComposer,
	PostFailure,
} from '../../src/services/posts/monthly-post-port.js';

/** A small valid PNG: 8×4, left half red. */
export function testPng(): Buffer {
	const canvas = createCanvas(8, 4);
	const ctx = canvas.getContext('2d');
	ctx.fillStyle = '#ff0000';
	ctx.fillRect(0, 0, 4, 4);
	return canvas.toBuffer('image/png');
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface ComposeCall extends ComposeOptions {
	readonly leagueId: string;
	readonly month: string;
}

export function testComposer(): MonthlyPostComposer & { readonly calls: ComposeCall[] } {
	const calls: ComposeCall[] = [];
	const png = testPng();
	return {
		calls,
		compose(leagueId, month, options) {
			calls.push({ leagueId, month, ...options });
			const message: ChannelMessage = {
				content: `**Ranking ${month}**${options.late ? ' (posted late: the bot was away at the set hour)' : ''}\n1. Alice`,
				files: [{ name: 'leaderboard.png', data: png }],
			};
			return Promise.resolve(message);
		},
	};
}

export interface PostedMessage extends ChannelMessage {
	readonly id: string;
	readonly nonce: string;
}

export interface MemoryPoster extends ChannelPoster {
	readonly channels: Map<string, PostedMessage[]>;
	/** Every call to `post`, including refused ones. */
	readonly attempts: string[];
	/** The next `post` calls are refused with these failures, in order. */
	readonly failNext: PostFailure[];
	/** Channels that refuse everything (post and read). */
	readonly denied: Map<string, PostFailure>;
	/** When set, `post` rejects (after sending, if `afterSend`), as when the connection drops. */
	crash?: { readonly afterSend: boolean } | undefined;
	/** Called once a message is in the channel (a test kills the store there to simulate a crash). */
	onSend?: (() => void) | undefined;
	messagesIn(channel: string): PostedMessage[];
}

export function memoryPoster(): MemoryPoster {
	let ids = 1000;
	const poster: MemoryPoster = {
		channels: new Map(),
		attempts: [],
		failNext: [],
		denied: new Map(),
		crash: undefined,
		onSend: undefined,
		messagesIn: (channel) => poster.channels.get(channel) ?? [],
		post(channelId, message, { nonce }) {
			poster.attempts.push(channelId);
			const denied = poster.denied.get(channelId);
			if (denied) return Promise.resolve({ ok: false, failure: denied });
			const failure = poster.failNext.shift();
			if (failure) return Promise.resolve({ ok: false, failure });
			if (poster.crash && !poster.crash.afterSend) return Promise.reject(new Error('connection reset'));
			const sent: PostedMessage = { ...message, id: String(++ids), nonce };
			poster.channels.set(channelId, [...poster.messagesIn(channelId), sent]);
			poster.onSend?.();
			if (poster.crash) return Promise.reject(new Error('connection reset after send'));
			return Promise.resolve({ ok: true, messageId: sent.id });
		},
		findMarked(channelId, marker) {
			const denied = poster.denied.get(channelId);
			if (denied) return Promise.resolve({ ok: false, failure: denied });
			const found = poster
				.messagesIn(channelId)
				.filter(
					(m) =>
						m.content.includes(marker) ||
						(m.embeds ?? []).some((e) => String((e['footer'] as { text?: string } | undefined)?.text).includes(marker)),
				)
				.at(-1);
			return Promise.resolve({ ok: true, messageId: found?.id });
		},
	};
	return poster;
}
