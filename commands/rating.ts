/** `/rating [player] [system] [league]`: a player's rating, uncertainty, provisional status, rank, races, last change. */
import { ApplicationCommandOptionType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { PROVISIONAL_MEANING, uncertaintyName, type PlayerRating } from '../src/services/rating-service.js';
import { actorOf, completeCommon, esc, fmtDelta, fmtRating, leagueOption, servicesOf, systemOption } from './shared.js';

const data = {
	name: 'rating',
	description: 'Show a player’s rating (default: your linked player)',
	options: [
		{
			type: ApplicationCommandOptionType.String,
			name: 'player',
			description: 'Player name or @mention (default: you)',
			autocomplete: true,
			max_length: 100,
		},
		systemOption,
		leagueOption,
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export function ratingText(r: PlayerRating): string {
	const who = `**${esc(r.player.name)}** in **${esc(r.league.config.name)}** (\`${r.system}\`)`;
	if (!r.summary) return `${who}: no rating yet under \`${r.system}\` (no rated race).`;
	const s = r.summary;
	const lines = [
		who,
		`Rating: **${fmtRating(s.rating)}**`,
		...(s.uncertainty !== undefined ? [`${uncertaintyName(r.system)}: ${fmtRating(s.uncertainty)}`] : []),
		`Rank: ${r.rank} of ${r.rated}`,
		`Races: ${s.races}`,
		s.provisional ? `Status: ${PROVISIONAL_MEANING}` : 'Status: established',
	];
	if (r.lastChange) {
		const c = r.lastChange;
		lines.push(
			`Last change: ${fmtDelta(c.after - c.before)} in ${c.race}${c.date ? ` (${c.date})` : ''}: ${fmtRating(c.before)} → ${fmtRating(c.after)}`,
		);
	}
	return lines.join('\n');
}

export default {
	data,
	defer: 'none',
	async execute(interaction, ctx) {
		const result = await servicesOf(ctx).ratings.rating(actorOf(interaction), {
			player: interaction.options.getString('player') ?? undefined,
			system: interaction.options.getString('system') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
		});
		await answer(interaction, { content: ratingText(result) }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
