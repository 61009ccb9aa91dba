/**
 * `/season start|end|list`: a league's named, dated seasons (docs/seasons.md); start and end are organizers'. The end is
 * answered with the season's champion, final table, points chart and awards, in the channel.
 */
import { ApplicationCommandOptionType, InteractionContextType } from 'discord.js';
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { MAX_PLANNED_RACES } from '../src/league/season-fold.js';
import { seasonEndedText, seasonListText, seasonStartedText } from './season/format.js';
import { actorOf, clip, completeCommon, leagueOption, servicesOf } from './shared.js';
import { toDiscordBody } from '../src/discord/channel-message.js';

const { Subcommand, String: Text, Integer } = ApplicationCommandOptionType;

const dateOption = (description: string) => ({ type: Text, name: 'date', description, max_length: 10 }) as const;

const data = {
	name: 'season',
	description: 'Start, end and list the league’s seasons',
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: Subcommand,
			name: 'start',
			description: 'Start a season (organizers): the open one ends the day before',
			options: [
				{
					type: Text,
					name: 'name',
					description: 'The season’s name, e.g. 2027 Winter Cup',
					required: true,
					max_length: 64,
				},
				dateOption('Its first day, YYYY-MM-DD (default: today)'),
				{
					type: Integer,
					name: 'races',
					description: 'The number of races planned (the forecast counts the races left from it)',
					min_value: 1,
					max_value: MAX_PLANNED_RACES,
				},
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'end',
			description: 'End the open season (organizers)',
			options: [dateOption('Its last day, YYYY-MM-DD (default: today)'), leagueOption],
		},
		{
			type: Subcommand,
			name: 'list',
			description: 'The league’s seasons: dates, races so far, open or ended',
			options: [leagueOption],
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		const { seasons } = servicesOf(ctx);
		const actor = actorOf(interaction);
		const o = interaction.options;
		const league = o.getString('league') ?? undefined;
		let content: string;
		switch (o.getSubcommand()) {
			case 'start':
				content = seasonStartedText(
					await seasons.start(actor, {
						league,
						name: o.getString('name', true),
						date: o.getString('date') ?? undefined,
						races: o.getInteger('races') ?? undefined,
					}),
				);
				break;
			case 'end': {
				const ended = await seasons.end(actor, { league, date: o.getString('date') ?? undefined });
				// The season's end is announced with its champion, final table, chart and awards (season-end-post.ts).
				const post = await servicesOf(ctx).standings.seasonEndPost(ended.league.id, ended.season.name);
				const body = post === undefined ? undefined : toDiscordBody(post);
				const text = seasonEndedText(ended);
				await answer(
					interaction,
					body === undefined
						? { content: text }
						: { ...body, components: [], content: clip(`${text}\n\n${body.content}`) },
					{ ephemeral: false },
				);
				return;
			}
			default:
				content = seasonListText(await seasons.list(actor, { league }));
		}
		await answer(interaction, { content }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
