/** `/player link|unlink|alias|rename|simid|team|merge` (organizers). */
import {
	InteractionContextType,
	ApplicationCommandOptionType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { answer } from '../src/discord/reply.js';
import { confirmCancelRow } from './confirm-buttons.js';
import { embedOf } from './embed.js';
import { mergePreviewEmbed } from './player/merge.js';
import { actorOf, completeCommon, esc, leagueOption, servicesOf } from './shared.js';

const { Subcommand, String: Text, User, Boolean } = ApplicationCommandOptionType;

const playerOption = (name: string, description: string) =>
	({ type: Text, name, description, required: true, autocomplete: true, max_length: 100 }) as const;

const data = {
	name: 'player',
	description: 'Link, unlink, alias, rename, sim ids and merge players (organizers)',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: Subcommand,
			name: 'link',
			description: 'Link a player to a Discord user, so /rating finds them',
			options: [
				playerOption('player', 'The player'),
				{ type: User, name: 'user', description: 'The Discord user (default: you)' },
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'unlink',
			description: 'Unlink a player from their Discord user',
			options: [playerOption('player', 'The player'), leagueOption],
		},
		{
			type: Subcommand,
			name: 'alias',
			description: 'Give a player another name scoreboards may use (an in-game name)',
			options: [
				playerOption('player', 'The player'),
				{ type: Text, name: 'alias', description: 'The other name', required: true, max_length: 64 },
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'rename',
			description: 'Rename a player (the old name stays an alias)',
			options: [
				playerOption('player', 'The player'),
				{ type: Text, name: 'name', description: 'The new name', required: true, max_length: 64 },
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'simid',
			description: "Show, give or take back a player's sim driver id (Steam, iRacing): result files find them by it",
			options: [
				playerOption('player', 'The player'),
				{
					type: Text,
					name: 'id',
					description: 'steam:76561198…, iracing:123456 (a bare 17-digit number is a Steam id)',
					max_length: 80,
				},
				{ type: Boolean, name: 'remove', description: 'Take this id back from the player' },
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'team',
			description: "Set a player's team from now on, for the championship's teams table (leave team out: none)",
			options: [
				playerOption('player', 'The player'),
				{
					type: Text,
					name: 'team',
					description: 'The team (leave out to take the player out of their team)',
					max_length: 64,
				},
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'merge',
			description: 'Merge a duplicate player into another (previewed; ratings are replayed)',
			options: [
				playerOption('from', 'The duplicate, merged away'),
				playerOption('into', 'The player kept'),
				leagueOption,
			],
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export default {
	data,
	// Each may open the league; a merge's preview replays the headline on a copy, for its author only.
	defer: 'public',
	subcommandDefer: { merge: 'ephemeral' },
	async execute(interaction, ctx) {
		const { players } = servicesOf(ctx);
		const actor = actorOf(interaction);
		const o = interaction.options;
		const league = o.getString('league') ?? undefined;
		let content: string;
		switch (o.getSubcommand()) {
			case 'link': {
				const r = await players.link(actor, {
					league,
					player: o.getString('player', true),
					user: o.getUser('user')?.id,
				});
				content = `Linked **${esc(r.player.name)}** to <@${r.player.user}>.`;
				break;
			}
			case 'unlink': {
				const r = await players.unlink(actor, { league, player: o.getString('player', true) });
				content = `Unlinked **${esc(r.player.name)}** from <@${r.unlinked}>.`;
				break;
			}
			case 'alias': {
				const r = await players.alias(actor, {
					league,
					player: o.getString('player', true),
					alias: o.getString('alias', true),
				});
				content = `Scoreboards may now name **${esc(r.player.name)}** “${esc(r.player.aliases.at(-1) ?? '')}” too.`;
				break;
			}
			case 'rename': {
				const r = await players.rename(actor, {
					league,
					player: o.getString('player', true),
					name: o.getString('name', true),
				});
				content = `Renamed to **${esc(r.player.name)}** (aliases: ${r.player.aliases.map(esc).join(', ') || 'none'}).`;
				break;
			}
			case 'simid': {
				const id = o.getString('id') ?? undefined;
				const r = await players.simId(actor, {
					league,
					player: o.getString('player', true),
					simId: id,
					remove: o.getBoolean('remove') ?? undefined,
				});
				const ids = r.player.simIds ?? [];
				const listed = ids.length === 0 ? 'no sim id' : ids.map((x) => `\`${esc(x)}\``).join(', ');
				content =
					id === undefined
						? `**${esc(r.player.name)}** has ${listed}.`
						: `**${esc(r.player.name)}** now has ${listed}: result files with ${ids.length === 1 ? 'it' : 'these'} are theirs, whatever name they carry.`;
				break;
			}
			case 'team': {
				const r = await servicesOf(ctx).standings.setTeam(actor, {
					league,
					player: o.getString('player', true),
					team: o.getString('team') ?? undefined,
				});
				content =
					r.team === undefined
						? `**${esc(r.player.name)}** has no team from now on.`
						: `**${esc(r.player.name)}** drives for **${esc(r.team)}** from now on: the teams' table counts their points for it.`;
				break;
			}
			case 'merge': {
				// A merge cannot be undone: previewed to the organizer, stored on Confirm (commands/player/merge.ts).
				const preview = await players.previewMerge(actor, {
					league,
					from: o.getString('from', true),
					into: o.getString('into', true),
				});
				await answer(
					interaction,
					{ embeds: [embedOf(mergePreviewEmbed(preview))], components: [confirmCancelRow('player-merge', preview.id)] },
					{ ephemeral: true },
				);
				return;
			}
			default:
				throw new UserFacingError('unknown-command', 'This command is not available any more.');
		}
		await answer(interaction, { content }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
