/**
 * The buttons of previews: Confirm / Cancel of a race submitted (`race:…`) and of a race corrected (`race-edit:…`),
 * the class choice of a multi-class result file (`race-class:<preview id>:<choice>`), and Accept suggestions of a
 * preview that flags new names close to known players (`race-suggest:<preview id>`).
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { customId, type ButtonHandler } from '../../src/discord/command.js';
import { NO_MENTIONS } from '../../src/discord/reply.js';
import type { RacePreview } from '../../src/services/races/race-service.js';
import { confirmCancelButtons, confirmCancelRow } from '../confirm-buttons.js';
import { embedOf } from '../embed.js';
import { actorOf, esc, servicesOf } from '../shared.js';
import { previewEmbed, raceEmbed, storedEmbed } from './format.js';

/** Buttons of classes under a preview: Discord shows five a row, one of them "All classes". */
const CLASS_BUTTONS = 4;

/**
 * Under the preview of a result file of several classes: a button per class (the first four) and one for every class
 * as one field; the one rated now is pressed in (disabled).
 */
export function classRow(preview: RacePreview): ActionRowBuilder<ButtonBuilder> | undefined {
	const classes = preview.classes ?? [];
	if (classes.length < 2) return undefined;
	const button = (choice: number, label: string, chosen: boolean) =>
		new ButtonBuilder()
			.setCustomId(customId('race-class', preview.id, String(choice)))
			.setLabel(label.slice(0, 80))
			.setStyle(chosen ? ButtonStyle.Primary : ButtonStyle.Secondary)
			.setDisabled(chosen);
	// Labels are the class names alone (the preview's warning counts the cars): the console presses a button by them.
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		button(0, 'All classes', preview.carClass === undefined),
		...classes.slice(0, CLASS_BUTTONS).map((c, i) => button(i + 1, c.name, preview.carClass === c.name)),
	);
}

/**
 * The components of a race preview: Confirm / Cancel, beside them Accept suggestions where some new name has one
 * suggested known player, and the class choice where the file has classes.
 */
export function previewComponents(preview: RacePreview): ActionRowBuilder<ButtonBuilder>[] {
	const classes = classRow(preview);
	const row = confirmCancelRow('race', preview.id);
	if (preview.suggestions !== undefined) {
		// The console presses it by its label: `accept-suggestions`.
		row.addComponents(
			new ButtonBuilder()
				.setCustomId(customId('race-suggest', preview.id))
				.setLabel('Accept suggestions')
				.setStyle(ButtonStyle.Primary),
		);
	}
	return [row, ...(classes === undefined ? [] : [classes])];
}

/** Accept suggestions: the preview again, each flagged new name read as its suggested known player. */
export const raceSuggestButtons: ButtonHandler = {
	prefix: 'race-suggest',
	defer: 'update',
	async execute(interaction, args, ctx) {
		const [id = ''] = args;
		const next = await servicesOf(ctx).races.acceptSuggestions(actorOf(interaction), id);
		await interaction.editReply({
			embeds: [embedOf(previewEmbed(next))],
			components: previewComponents(next),
			allowedMentions: NO_MENTIONS,
		});
	},
};

/** A class chosen: the preview again, rating that class alone by its class positions (or every class). */
export const raceClassButtons: ButtonHandler = {
	prefix: 'race-class',
	defer: 'update',
	async execute(interaction, args, ctx) {
		const [id = '', choice = ''] = args;
		const next = await servicesOf(ctx).races.chooseClass(actorOf(interaction), id, Number(choice));
		await interaction.editReply({
			embeds: [embedOf(previewEmbed(next))],
			components: previewComponents(next),
			allowedMentions: NO_MENTIONS,
		});
	},
};

/** The answer to a second Confirm of one preview. */
const alreadyStored = (what: string) => `${what}: nothing was stored twice.`;

/** The buttons of a race preview: `race:confirm:<preview id>`, `race:cancel:<preview id>`. */
export const raceButtons = confirmCancelButtons({
	prefix: 'race',
	cancelled: 'Cancelled: nothing was stored.',
	cancel: ({ races }, actor, id) => races.cancel(actor, id),
	async confirm({ races }, actor, id) {
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
});

/** The buttons of a correction preview: `race-edit:confirm:<id>`, `race-edit:cancel:<id>`. */
export const raceEditButtons = confirmCancelButtons({
	prefix: 'race-edit',
	cancelled: 'Cancelled: nothing was changed.',
	cancel: ({ races }, actor, id) => races.cancelEdit(actor, id),
	async confirm({ races }, actor, id) {
		const { view, warnings, already } = await races.confirmEdit(actor, id);
		if (already) {
			return { stored: alreadyStored(`Already edited: **${view.race.id}** in **${esc(view.league.config.name)}**`) };
		}
		const race = raceEmbed(view);
		const check = warnings.map((w) => `- ${esc(w)}`);
		return {
			// What the organizer reads says all the announcement says (the console shows only this text of the two).
			stored: `Edited **${view.race.id}** in **${esc(view.league.config.name)}**. Ratings were replayed from ${view.race.id} on.`,
			announcement: {
				content: `Edited. Ratings were replayed from ${view.race.id} on.`,
				embed:
					check.length > 0
						? { ...race, fields: [...(race.fields ?? []), { name: 'Check', value: { lines: check } }] }
						: race,
			},
		};
	},
});
