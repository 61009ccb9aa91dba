/** `/race void`, `/race edit`, `/race show`, `/race list`. */
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { answer } from '../../src/discord/reply.js';
import { actorOf, clip, esc, servicesOf } from '../shared.js';
import { embedOf } from '../embed.js';
import { confirmCancelRow } from '../confirm-buttons.js';
import { editPreviewEmbed, raceEmbed, raceHeader } from './format.js';

/**
 * The race option as the race service reads it: `R3`, or `League/R3` (autocomplete qualifies races when the server
 * has several leagues). The `league` option, when given, names the league.
 */
function raceRef(interaction: ChatInputCommandInteraction): string {
	const race = interaction.options.getString('race', true);
	const league = interaction.options.getString('league')?.trim();
	return league ? `${league}/${race.slice(race.lastIndexOf('/') + 1)}` : race;
}

export async function voidRace(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const view = await servicesOf(ctx).races.void(
		actorOf(interaction),
		raceRef(interaction),
		interaction.options.getString('reason', true),
	);
	await answer(
		interaction,
		{ content: `Voided. Ratings were replayed from ${view.race.id} on.`, embeds: [embedOf(raceEmbed(view))] },
		{ ephemeral: false },
	);
}

export async function restoreRace(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const view = await servicesOf(ctx).races.restore(
		actorOf(interaction),
		raceRef(interaction),
		interaction.options.getString('reason', true),
	);
	await answer(
		interaction,
		{
			// The notice holds race ids and a date only: nothing to escape.
			content: `Restored: it counts again. ${view.moved ?? `Ratings were replayed from ${view.race.id} on.`}`,
			embeds: [embedOf(raceEmbed(view))],
		},
		{ ephemeral: false },
	);
}

/** `/race edit`: a correction is previewed (old and new results) and stored only on Confirm, as a submission is. */
export async function editRace(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const results = interaction.options.getString('results');
	const preview = await servicesOf(ctx).races.previewEdit(
		actorOf(interaction),
		raceRef(interaction),
		results ?? undefined,
		interaction.options.getString('reason', true),
		{
			date: interaction.options.getString('date') ?? undefined,
			name: interaction.options.getString('name') ?? undefined,
		},
	);
	const row = confirmCancelRow('race-edit', preview.id);
	await answer(interaction, { embeds: [embedOf(editPreviewEmbed(preview))], components: [row] }, { ephemeral: true });
}

export async function showRace(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const view = await servicesOf(ctx).races.show(actorOf(interaction), raceRef(interaction));
	await answer(interaction, { embeds: [embedOf(raceEmbed(view))] }, { ephemeral: false });
}

export async function listRaces(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const page = await servicesOf(ctx).races.list(
		actorOf(interaction),
		interaction.options.getString('league') ?? undefined,
		interaction.options.getInteger('page') ?? 1,
	);
	const name = esc(page.league.config.name);
	const lines =
		page.total === 0
			? [`No races in **${name}** yet: an organizer can submit one with /race submit.`]
			: [
					`**Races of ${name}** (page ${page.page}/${page.pages}, ${page.total} in all, newest first)`,
					...page.races.map((r) => `${raceHeader(r, page.league.config.name)} · ${r.entries.length} racers`),
				];
	await answer(interaction, { content: clip(lines.join('\n')) }, { ephemeral: false });
}
