/**
 * Reply helpers. Every message the bot sends goes out with `allowedMentions: { parse: [] }` (a league name or a
 * driver's nickname can never ping @everyone or a role), on top of the same client-wide default.
 */
import { clip } from '../formats/clip-text.js';
import { MessageFlags, type InteractionReplyOptions, type RepliableInteraction } from 'discord.js';

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
