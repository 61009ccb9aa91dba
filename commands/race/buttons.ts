/** The Confirm / Cancel buttons of a race preview: `race:confirm:<preview id>`, `race:cancel:<preview id>`. */
import type { ButtonHandler } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { NO_MENTIONS } from '../../src/discord/reply.js';
import { actorOf, clip, esc, servicesOf } from '../shared.js';
import { previewLine, raceText } from './format.js';

export const raceButtons = {
	prefix: 'race',
	defer: 'update',
	async execute(interaction, args, ctx) {
		const { races } = servicesOf(ctx);
		const [action, id = ''] = args;
		const actor = actorOf(interaction);
		if (action === 'cancel') {
			await races.cancel(actor, id);
			await interaction.editReply({
				content: 'Cancelled: nothing was stored.',
				components: [],
				allowedMentions: NO_MENTIONS,
			});
			return;
		}
		if (action !== 'confirm') throw new UserFacingError('unknown-button', 'This button is no longer active.');
		const stored = await races.confirm(actor, id);
		const news = stored.newPlayers.length > 0 ? `\nNew players: ${stored.newPlayers.map(esc).join(', ')}.` : '';
		await interaction.editReply({
			content: clip(`Stored as **${stored.race}** in **${esc(stored.league.config.name)}**.${news}`),
			components: [],
			allowedMentions: NO_MENTIONS,
		});
		const lines = stored.preview.lines.map(previewLine);
		await interaction.followUp({
			content: clip(
				[`**${stored.race}** in **${esc(stored.league.config.name)}** (\`${stored.preview.system}\`):`, ...lines].join(
					'\n',
				),
			),
			allowedMentions: NO_MENTIONS,
		});
	},
} satisfies ButtonHandler;

/** The Confirm / Cancel buttons of a correction preview: `race-edit:confirm:<id>`, `race-edit:cancel:<id>`. */
export const raceEditButtons = {
	prefix: 'race-edit',
	defer: 'update',
	async execute(interaction, args, ctx) {
		const { races } = servicesOf(ctx);
		const [action, id = ''] = args;
		const actor = actorOf(interaction);
		if (action === 'cancel') {
			await races.cancelEdit(actor, id);
			await interaction.editReply({
				content: 'Cancelled: nothing was changed.',
				components: [],
				allowedMentions: NO_MENTIONS,
			});
			return;
		}
		if (action !== 'confirm') throw new UserFacingError('unknown-button', 'This button is no longer active.');
		const { view, warnings } = await races.confirmEdit(actor, id);
		await interaction.editReply({
			content: clip(`Edited **${view.race.id}** in **${esc(view.league.config.name)}**.`),
			components: [],
			allowedMentions: NO_MENTIONS,
		});
		const check = warnings.length > 0 ? `\n**Check:**\n${warnings.map((w) => `- ${esc(w)}`).join('\n')}` : '';
		await interaction.followUp({
			content: clip(`Edited. Ratings were replayed from ${view.race.id} on.\n${raceText(view)}${check}`),
			allowedMentions: NO_MENTIONS,
		});
	},
} satisfies ButtonHandler;
