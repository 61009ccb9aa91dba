/**
 * Reply helpers. Every message the bot sends goes out with `allowedMentions: { parse: [] }` (a league name or a
 * driver's nickname can never ping @everyone or a role), on top of the same client-wide default.
 */
import { clip } from '../formats/clip-text.js';
import { MessageFlags, type InteractionReplyOptions, type RepliableInteraction } from 'discord.js';
import type { AnswerFailure } from './errors.js';

export const NO_MENTIONS = { parse: [] } as const satisfies InteractionReplyOptions['allowedMentions'];

/** What a handler sends; the helpers add mentions policy and visibility. */
export type ReplyBody = Pick<InteractionReplyOptions, 'content' | 'embeds' | 'files' | 'components'>;

export interface AnswerOptions {
	/** Only the invoking user sees it. Ignored after a defer: the defer already fixed the visibility. */
	readonly ephemeral: boolean;
}

/**
 * Sends `body` as the interaction's answer, whatever state it is in: `reply` when nothing was sent yet, `editReply`
 * of the "thinking…" message after a defer, `followUp` after a reply.
 */
export async function answer(
	interaction: RepliableInteraction,
	given: ReplyBody,
	options: AnswerOptions,
): Promise<void> {
	const body = withinLimits(given);
	const flags = options.ephemeral ? MessageFlags.Ephemeral : undefined;
	if (interaction.deferred && !interaction.replied) {
		await interaction.editReply({ ...body, allowedMentions: NO_MENTIONS });
	} else if (interaction.replied) {
		await interaction.followUp({ ...body, allowedMentions: NO_MENTIONS, flags });
	} else {
		await interaction.reply({ ...body, allowedMentions: NO_MENTIONS, flags });
	}
}

/** Discord refuses a message over 2,000 characters of content; the last guard, after each reply's own shortening. */
export const CONTENT_MAX = 2000;

/** `body` with its content within Discord's limit (embeds are fitted where they are built: src/formats/embed.ts). */
export function withinLimits(body: ReplyBody): ReplyBody {
	return typeof body.content === 'string' && body.content.length > CONTENT_MAX
		? { ...body, content: clip(body.content, CONTENT_MAX) }
		: body;
}

/** An ephemeral text answer (errors, confirmations only the user needs). */
export function answerEphemeral(interaction: RepliableInteraction, content: string): Promise<void> {
	return answer(interaction, { content }, { ephemeral: true });
}

/** A public text answer. */
export function answerPublic(interaction: RepliableInteraction, content: string): Promise<void> {
	return answer(interaction, { content }, { ephemeral: false });
}

/** How much of a failed answer's first line a fallback quotes (what was done, in the command's own words). */
const DONE_LINE_MAX = 300;

/**
 * The fallback for an answer Discord refused or failed: what Discord did, then, truly, what the command did. After a
 * write (write-witness.ts counted one) it says it was stored, with the failed answer's first line (a write's answer
 * begins with what was done: "Stored as **R12** in **Cup**."), so nobody submits it again; after a read, that nothing
 * was changed.
 */
export function fallbackText(failure: AnswerFailure, stored: boolean): string {
	const discord = failure.status < 500 ? 'refused it' : 'failed';
	const head = `I could not show that answer: Discord ${discord} (error ${failure.code ?? failure.status}).`;
	if (!stored) return `${head} Nothing was changed.`;
	const done = failure.firstLine === undefined ? '.' : `: ${clip(failure.firstLine, DONE_LINE_MAX)}`;
	return `${head} What you asked for was stored all the same${done}`;
}

/** The ways a message for the user alone can go out, in the order tried. */
export type DeliveryWay = 'reply' | 'editReply' | 'followUp';

export interface DeliveryOptions {
	/** A button's deferred update: the clicked message is the answer, and stays unless `replaceClicked`. */
	readonly updating?: boolean;
	/** Write over the clicked message first (a Confirm that stored: its preview and buttons are stale). */
	readonly replaceClicked?: boolean;
	/** A public "thinking…" (a public defer): it is deleted and the message follows up for the user alone. */
	readonly publicDefer?: boolean;
	/** The answer was already shown (what failed was a follow-up after it): only a follow-up, never over it. */
	readonly answerShown?: boolean;
}

/**
 * Sends `content` (plain text, for the user alone, pinging nobody) by the first way that works, each way once: no
 * loop, and discord.js already retried each 5xx three times. Returns the way it went, or the last error.
 *
 * - not acknowledged yet: the reply (no other way exists before it);
 * - after an answer shown, or a reply: a follow-up;
 * - a button's deferred update: a follow-up, after writing over the clicked message when `replaceClicked`;
 * - a public defer: the "thinking…" deleted and a follow-up, else the "thinking…" edited (public, but not stuck);
 * - an ephemeral defer: the "thinking…" edited, else a follow-up.
 */
export async function deliverEphemeral(
	interaction: RepliableInteraction,
	text: string,
	options: DeliveryOptions = {},
): Promise<{ way: DeliveryWay } | { way: undefined; error: unknown }> {
	const content = clip(text, CONTENT_MAX);
	const followUp = () => interaction.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
	const editReply = () => interaction.editReply({ content, components: [], embeds: [], allowedMentions: NO_MENTIONS });
	let deleted = false;
	const ways: [DeliveryWay, () => Promise<unknown>][] = [];
	if (!interaction.deferred && !interaction.replied) {
		ways.push([
			'reply',
			() => interaction.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS }),
		]);
	} else if (options.answerShown === true || interaction.replied) {
		ways.push(['followUp', followUp]);
	} else if (options.updating === true) {
		if (options.replaceClicked === true) ways.push(['editReply', editReply]);
		ways.push(['followUp', followUp]);
	} else if (options.publicDefer === true) {
		ways.push([
			'followUp',
			async () => {
				await interaction.deleteReply();
				deleted = true;
				await followUp();
			},
		]);
		ways.push(['editReply', editReply]);
	} else {
		ways.push(['editReply', editReply], ['followUp', followUp]);
	}
	let error: unknown;
	for (const [way, send] of ways) {
		if (way === 'editReply' && deleted) break; // the public "thinking…" is gone: nothing left to edit
		try {
			await send();
			return { way };
		} catch (failed) {
			error = failed;
		}
	}
	return { way: undefined, error };
}
