/** `/standings [season] [league] [teams]`: the championship table of a season (docs/championship.md). */
import { ApplicationCommandOptionType, InteractionContextType } from 'discord.js';
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { standingsEmbed, teamsEmbed } from '../src/services/seasons/standings-embed.js';
import { embedOf } from './embed.js';
import { actorOf, completeCommon, esc, leagueOption, servicesOf } from './shared.js';

const { String: Text, Boolean } = ApplicationCommandOptionType;

const data = {
	name: 'standings',
	description: 'The championship table of a season: points, wins, podiums',
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: Text,
			name: 'season',
			description: 'Season name (default: the current season)',
			max_length: 64,
		},
		leagueOption,
		{ type: Boolean, name: 'teams', description: 'Show the teams’ table (default: the drivers’)' },
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		const services = servicesOf(ctx);
		const table = await services.standings.table(actorOf(interaction), {
			league: interaction.options.getString('league') ?? undefined,
			season: interaction.options.getString('season') ?? undefined,
		});
		const name = esc(table.league.config.name);
		const season = esc(table.season.name);
		if (table.races === 0) {
			const content = `No race of **${name}**’s season **${season}** has been run yet: the table starts with its first race.`;
			await answer(interaction, { content }, { ephemeral: false });
			return;
		}
		if (interaction.options.getBoolean('teams') === true) {
			if (table.teams.length === 0) {
				const content =
					`No result of **${name}**’s season **${season}** has a team: organizers set a driver’s team with ` +
					'/player team, and a result file that names teams gives them.';
				await answer(interaction, { content }, { ephemeral: false });
				return;
			}
			await answer(interaction, { embeds: [embedOf(teamsEmbed(table, services.webUrl()))] }, { ephemeral: false });
			return;
		}
		await answer(interaction, { embeds: [embedOf(standingsEmbed(table, services.webUrl()))] }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
