/** The Confirm / Cancel buttons of previews: a race submitted (`race:…`) and a race corrected (`race-edit:…`). */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { customId, type ButtonHandler } from '../../src/discord/command.js';
import type { Actor } from '../../src/services/actor.js';
import type { RaceService } from '../../src/services/race-service.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { NO_MENTIONS } from '../../src/discord/reply.js';
import type { EmbedSpec } from '../../src/formats/embed.js';
import { embedOf } from '../embed.js';
import { actorOf, clip, esc, servicesOf } from '../shared.js';
import { raceEmbed, storedEmbed } from './format.js';

/** The Confirm / Cancel row under a preview waiting in the race service: `<prefix>:confirm:<id>`, `<prefix>:cancel:<id>`. */
export function previewButtonRow(prefix: 'race' | 'race-edit', previewId: string): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder()
			.setCustomId(customId(prefix, 'confirm', previewId))
			.setLabel('Confirm')
			.setStyle(ButtonStyle.Success),
		new ButtonBuilder()
			.setCustomId(customId(prefix, 'cancel', previewId))
			.setLabel('Cancel')
			.setStyle(ButtonStyle.Secondary),
	);
}

/** What everyone sees once a preview is confirmed: a line and the race. */
interface Announcement {
	readonly content: string;
	readonly embed: EmbedSpec;
}

/**
 * Confirm / Cancel of a preview waiting in the race service: Cancel drops it and says what was not done; Confirm
 * stores it, replaces the preview with `stored` (only its user sees it) and announces `announcement` to everyone.
 * A Confirm of a preview stored before (pressed twice, retried after an error) has no announcement: it was made.
 */
function previewButtons(
	prefix: string,
	cancelled: string,
	cancel: (races: RaceService, actor: Actor, id: string) => Promise<unknown>,
	confirm: (
		races: RaceService,
		actor: Actor,
		id: string,
	) => Promise<{ stored: string; announcement?: Announcement | undefined }>,
): ButtonHandler {
	return {
		prefix,
		defer: 'update',
		async execute(interaction, args, ctx) {
			const { races } = servicesOf(ctx);
			const [action, id = ''] = args;
			const actor = actorOf(interaction);
			if (action === 'cancel') {
				await cancel(races, actor, id);
				await interaction.editReply({ content: cancelled, components: [], allowedMentions: NO_MENTIONS });
				return;
			}
			if (action !== 'confirm') throw new UserFacingError('unknown-button', 'This button is no longer active.');
			const { stored, announcement } = await confirm(races, actor, id);
			await interaction.editReply({ content: clip(stored), components: [], allowedMentions: NO_MENTIONS });
			if (announcement === undefined) return;
			await interaction.followUp({
				content: clip(announcement.content),
				embeds: [embedOf(announcement.embed)],
				allowedMentions: NO_MENTIONS,
			});
		},
	};
}

/** The answer to a second Confirm of one preview (issue 9 item 3). */
const alreadyStored = (what: string) => `${what}: nothing was stored twice.`;

/** The buttons of a race preview: `race:confirm:<preview id>`, `race:cancel:<preview id>`. */
export const raceButtons = previewButtons(
	'race',
	'Cancelled: nothing was stored.',
	(races, actor, id) => races.cancel(actor, id),
	async (races, actor, id) => {
		const done = await races.confirm(actor, id);
		const league = esc(done.league.config.name);
		if (done.already) return { stored: alreadyStored(`Already stored as **${done.race}** in **${league}**`) };
		const news = done.newPlayers.length > 0 ? `\nNew players: ${done.newPlayers.map(esc).join(', ')}.` : '';
		return {
			stored: `Stored as **${done.race}** in **${league}**.${news}`,
			announcement: {
				content: `New race in **${league}**: **${done.race}**.`,
				embed: storedEmbed(done.race, done.preview),
			},
		};
	},
);

/** The buttons of a correction preview: `race-edit:confirm:<id>`, `race-edit:cancel:<id>`. */
export const raceEditButtons = previewButtons(
	'race-edit',
	'Cancelled: nothing was changed.',
	(races, actor, id) => races.cancelEdit(actor, id),
	async (races, actor, id) => {
		const { view, warnings, already } = await races.confirmEdit(actor, id);
		if (already) {
			return { stored: alreadyStored(`Already edited: **${view.race.id}** in **${esc(view.league.config.name)}**`) };
		}
		const race = raceEmbed(view);
		const check = warnings.map((w) => `- ${esc(w)}`);
		return {
			stored: `Edited **${view.race.id}** in **${esc(view.league.config.name)}**.`,
			announcement: {
				content: `Edited. Ratings were replayed from ${view.race.id} on.`,
				embed:
					check.length > 0
						? { ...race, fields: [...(race.fields ?? []), { name: 'Check', value: { lines: check } }] }
						: race,
			},
		};
	},
);
