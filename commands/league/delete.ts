/**
 * `/league delete` and `/league undelete` (Manage Server). Delete answers the organizer alone with the league's export
 * attached and Confirm / Cancel: the files are theirs whatever they press. Confirm hides the league everywhere
 * (league-delete-service.ts); undelete brings it back as it was, since nothing of its log is erased.
 */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { answer } from '../../src/discord/reply.js';
import { plural } from '../../src/formats/plural.js';
import { confirmCancelButtons, confirmCancelRow } from '../confirm-buttons.js';
import { actorOf, clip, esc, servicesOf } from '../shared.js';
import { exportAttachments } from './transfer.js';

export const DELETE_PREFIX = 'league-delete';

export async function deleteLeague(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	// The export reads every system's standings: acknowledge first, to the organizer alone.
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const p = await servicesOf(ctx).deletion.preview(
		actorOf(interaction),
		interaction.options.getString('league') ?? undefined,
	);
	const { files } = exportAttachments(p.export);
	const name = esc(p.league.config.name);
	const content = clip(
		[
			`Delete **${name}**? ${plural(p.export.races, 'race')}, ${plural(p.players, 'player')}: its commands, pages, results inbox and monthly post stop.`,
			`Its export is attached (history, standings${p.export.players === undefined ? '' : ', players'}): /league import brings it into a new league.`,
			`Nothing of its log is erased: /league undelete name:${p.league.config.name} brings it back as it was. This preview lasts 15 minutes.`,
		].join('\n'),
	);
	await answer(
		interaction,
		{ content, files, components: [confirmCancelRow(DELETE_PREFIX, p.id)] },
		{ ephemeral: true },
	);
}

export async function undeleteLeague(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const info = await servicesOf(ctx).deletion.undelete(
		actorOf(interaction),
		interaction.options.getString('name', true),
	);
	const content = `**${esc(info.config.name)}** is back, with every race and rating it had.`;
	await answer(interaction, { content }, { ephemeral: false });
}

export const leagueDeleteButtons = confirmCancelButtons({
	prefix: DELETE_PREFIX,
	cancelled: 'Cancelled: the league was not deleted.',
	cancel: ({ deletion }, actor, id) => deletion.cancel(actor, id),
	async confirm({ deletion }, actor, id) {
		const { league, already } = await deletion.confirm(actor, id);
		const name = esc(league.config.name);
		if (already) return { stored: `**${name}** was already deleted: nothing was stored twice.` };
		return {
			stored: `Deleted **${name}**. /league undelete name:${league.config.name} brings it back.`,
			announcement: { content: `The league **${name}** was deleted by an organizer.` },
		};
	},
});
