/**
 * The ports of the monthly ranking post, types only. The job (src/jobs/monthly-post-job.ts) asks a
 * `MonthlyPostComposer` for the message and hands it to a `ChannelPoster`; the Discord adapter implements the poster
 * (src/discord/channel-poster.ts), the ranking service the composer. Messages are plain data: no discord.js here.
 */

import type { EmbedData } from '../../formats/embed.js';

/** A message for a channel, as plain JSON (embeds in Discord's API shape) plus files. */
export interface ChannelMessage {
	/** At most 2,000 characters (Discord's limit). */
	readonly content: string;
	readonly embeds?: readonly EmbedData[];
	readonly files?: readonly { readonly name: string; readonly data: Buffer }[];
	/** One row of buttons under the message (the results inbox's Confirm / Cancel), routed by their customId. */
	readonly buttons?: readonly ChannelButton[];
}

/** A button as plain data: its customId (`<prefix>:<arg>…`, src/discord/command.ts), label and style. */
export interface ChannelButton {
	readonly customId: string;
	readonly label: string;
	readonly style: 'success' | 'secondary' | 'danger' | 'primary';
}

export interface ComposeOptions {
	/** Posted an hour or more after its scheduled time (the bot was down or the channel failed): the post says so. */
	readonly late: boolean;
	/** The instant the post is made (or previewed): standings are as of this day in the league's time zone. */
	readonly now: Date;
}

export interface MonthlyPostComposer {
	/**
	 * The ranking post of `leagueId` for `month` (`YYYY-MM`, the month of posting); undefined when the league has
	 * nothing to rank yet (no rated player): that month's post is skipped, not sent empty.
	 */
	compose(leagueId: string, month: string, options: ComposeOptions): Promise<ChannelMessage | undefined>;
}

/** Why Discord refused a post. All but `http` are the channel's fault, worth telling the organizers about. */
export type PostFailureKind = 'missing-channel' | 'missing-access' | 'missing-permission' | 'not-text' | 'http';

export interface PostFailure {
	readonly kind: PostFailureKind;
	/** HTTP status, when Discord answered. */
	readonly status?: number | undefined;
	/** Discord's JSON error code (10003 Unknown Channel, 50001 Missing Access, 50013 Missing Permissions…). */
	readonly code?: number | string | undefined;
}

export type PostResult =
	{ readonly ok: true; readonly messageId: string } | { readonly ok: false; readonly failure: PostFailure };

export type FindResult =
	{ readonly ok: true; readonly messageId: string | undefined } | { readonly ok: false; readonly failure: PostFailure };

export interface ChannelPoster {
	/**
	 * Sends `message` to the channel with no mentions allowed, and `nonce` enforced (Discord answers with the earlier
	 * message instead of posting a second one when the same nonce was used a few minutes before). A refusal Discord
	 * answered is a result; anything else (network, a bug) rejects.
	 */
	post(channelId: string, message: ChannelMessage, options: { readonly nonce: string }): Promise<PostResult>;
	/** The newest of the channel's recent messages by the bot whose content or an embed footer contains `marker`. */
	findMarked(channelId: string, marker: string): Promise<FindResult>;
}
