/**
 * The `ChannelPoster` port over the discord.js client: posts a message in a channel with no mentions
 * and an enforced nonce, and finds an earlier post by its marker among the channel's recent messages by the bot.
 * Discord's refusals come back as `PostFailure`s the job records and retries: 404 / 10003 Unknown Channel, 403 /
 * 50001 Missing Access (the bot cannot see the channel), 403 / 50013 Missing Permissions (it cannot send or attach
 * files), another HTTP status. Network errors and bugs reject.
 */
import type { Client } from 'discord.js';
import type { ChannelPoster, FindResult, PostFailure } from '../services/posts/monthly-post-port.js';
import { toDiscordBody } from './channel-message.js';
import { NO_MENTIONS } from './reply.js';

/** Discord's answer as a failure, or undefined when the error is not an HTTP answer (rethrown). */
export function postFailureOf(error: unknown): PostFailure | undefined {
	if (typeof error !== 'object' || error === null || !('status' in error) || typeof error.status !== 'number') {
		return undefined;
	}
	const status = error.status;
	const code =
		'code' in error && (typeof error.code === 'number' || typeof error.code === 'string') ? error.code : undefined;
	if (code === 10003 || status === 404) return { kind: 'missing-channel', status, code };
	if (code === 50001) return { kind: 'missing-access', status, code };
	if (code === 50013 || status === 403) return { kind: 'missing-permission', status, code };
	return { kind: 'http', status, code };
}

export function createChannelPoster(client: Client): ChannelPoster {
	/** The channel, or the failure that says why it cannot take a message. */
	const channelOf = async (channelId: string) => {
		try {
			// Under SHARDS=N the process posting (the one that took an inbox file) may not hold the channel's server:
			// the channel is then fetched over REST without its guild, and not cached (discord.js needs
			// allowUnknownGuild for that; a channel of a cached server comes from the cache as before).
			const channel = await client.channels.fetch(channelId, { allowUnknownGuild: true, cache: false });
			if (channel === null || !channel.isSendable()) return { failure: { kind: 'not-text' } as const };
			return { channel };
		} catch (error) {
			const failure = postFailureOf(error);
			if (failure === undefined) throw error;
			return { failure };
		}
	};

	return {
		async post(channelId, message, { nonce }) {
			const found = await channelOf(channelId);
			if (found.failure) return { ok: false, failure: found.failure };
			try {
				const sent = await found.channel.send({
					...toDiscordBody(message),
					allowedMentions: NO_MENTIONS,
					nonce,
					enforceNonce: true,
				});
				return { ok: true, messageId: sent.id };
			} catch (error) {
				const failure = postFailureOf(error);
				if (failure === undefined) throw error;
				return { ok: false, failure };
			}
		},
		async findMarked(channelId, marker): Promise<FindResult> {
			const found = await channelOf(channelId);
			if (found.failure) return { ok: false, failure: found.failure };
			if (!('messages' in found.channel)) return { ok: true, messageId: undefined };
			try {
				const recent = await found.channel.messages.fetch({ limit: 100 });
				const botId = client.user?.id;
				const marked = [...recent.values()].filter(
					(m) =>
						m.author.id === botId &&
						(m.content.includes(marker) || m.embeds.some((e) => e.footer?.text.includes(marker) === true)),
				);
				const newest = marked.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1))[0];
				return { ok: true, messageId: newest?.id };
			} catch (error) {
				const failure = postFailureOf(error);
				if (failure === undefined) throw error;
				return { ok: false, failure };
			}
		},
	};
}
