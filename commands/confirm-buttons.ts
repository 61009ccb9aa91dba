/**
 * Confirm / Cancel under an answer that waits in a service (a race preview, a correction, a calibration proposal):
 * the row of two buttons, `<prefix>:confirm:<id>` and `<prefix>:cancel:<id>`, and their handler. Cancel drops the
 * waiting item and says what was not done; Confirm applies it, replaces the answer with `stored` (only its user sees
 * it) and, when there is one, announces `announcement` to everyone. A Confirm of an item applied before (pressed
 * twice, retried after an error) has no announcement: it was made.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { customId, type ButtonHandler } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { NO_MENTIONS } from '../src/discord/reply.js';
import type { EmbedSpec } from '../src/formats/embed.js';
import type { Actor } from '../src/services/actor.js';
import type { Services } from '../src/services/index.js';
import { embedOf } from './embed.js';
import { actorOf, clip, servicesOf } from './shared.js';

export function confirmCancelRow(prefix: string, id: string): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder()
			.setCustomId(customId(prefix, 'confirm', id))
			.setLabel('Confirm')
			.setStyle(ButtonStyle.Success),
		new ButtonBuilder()
			.setCustomId(customId(prefix, 'cancel', id))
			.setLabel('Cancel')
			.setStyle(ButtonStyle.Secondary),
	);
}

/** What everyone sees once an item is confirmed: a line, and the race when there is one. */
export interface Announcement {
	readonly content: string;
	readonly embed?: EmbedSpec | undefined;
}

export function confirmCancelButtons(handlers: {
	readonly prefix: string;
	/** The answer to Cancel. */
	readonly cancelled: string;
	readonly cancel: (services: Services, actor: Actor, id: string) => Promise<unknown>;
	readonly confirm: (
		services: Services,
		actor: Actor,
		id: string,
	) => Promise<{ stored: string; announcement?: Announcement | undefined }>;
}): ButtonHandler {
	return {
		prefix: handlers.prefix,
		defer: 'update',
		async execute(interaction, args, ctx) {
			const services = servicesOf(ctx);
			const [action, id = ''] = args;
			const actor = actorOf(interaction);
			if (action === 'cancel') {
				await handlers.cancel(services, actor, id);
				await interaction.editReply({ content: handlers.cancelled, components: [], allowedMentions: NO_MENTIONS });
				return;
			}
			if (action !== 'confirm') throw new UserFacingError('unknown-button', 'This button is no longer active.');
			const { stored, announcement } = await handlers.confirm(services, actor, id);
			await interaction.editReply({ content: clip(stored), components: [], allowedMentions: NO_MENTIONS });
			if (announcement === undefined) return;
			await interaction.followUp({
				content: clip(announcement.content),
				...(announcement.embed !== undefined && { embeds: [embedOf(announcement.embed)] }),
				allowedMentions: NO_MENTIONS,
			});
		},
	};
}
