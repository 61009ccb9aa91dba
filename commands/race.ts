/**
 * `/race submit|void|edit|show|list`. Submit, void and edit are for organizers (Manage Server or the league's
 * organizer role), checked by the race service. Submit answers with an ephemeral preview and Confirm / Cancel
 * buttons (commands/race/buttons.ts); only Confirm stores the race.
 */
import {
	InteractionContextType,
	ApplicationCommandOptionType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { editRace, listRaces, restoreRace, showRace, voidRace } from './race/manage.js';
import { givePenalty, withdrawPenalty } from './race/penalty.js';
import { submit, submitFormHandler } from './race/submit.js';
import { completeCommon, leagueOption, pageOption, raceOption } from './shared.js';

const { Subcommand, String: Text, Attachment, Number: Decimal } = ApplicationCommandOptionType;

const reasonOption = {
	type: Text,
	name: 'reason',
	description: 'Why (kept in the race history)',
	required: true,
	max_length: 500,
} as const;

const data = {
	name: 'race',
	description: 'Submit, correct and browse race results',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: Subcommand,
			name: 'submit',
			description: 'Submit a race result (organizers): preview first, stored on Confirm',
			options: [
				{
					type: Text,
					name: 'results',
					description: 'One line: "1. Alice 1:23.456; 2. Bob; Carol DNF". Leave out to paste a scoreboard in a form',
					max_length: 6000,
				},
				leagueOption,
				{
					type: Attachment,
					name: 'file',
					description: "The sim's result file (ACC, AC, rF2/LMU, AMS, RaceRoom, iRacing…) or a scoreboard, up to 8 MiB",
				},
				{ type: Text, name: 'date', description: 'Race date, YYYY-MM-DD', max_length: 10 },
				{ type: Text, name: 'name', description: 'Race name, shown in the preview', max_length: 100 },
				{ type: Text, name: 'class', description: 'Of a multi-class result file: the class to rate', max_length: 64 },
			],
		},
		{
			type: Subcommand,
			name: 'void',
			description: 'Void a race (organizers): it stops counting, ratings are replayed',
			options: [raceOption, reasonOption, leagueOption],
		},
		{
			type: Subcommand,
			name: 'restore',
			description: 'Restore a voided race (organizers): it counts again, ratings are replayed',
			options: [raceOption, reasonOption, leagueOption],
		},
		{
			type: Subcommand,
			name: 'edit',
			description: 'Correct a race’s results, date or name (organizers): ratings are replayed',
			options: [
				raceOption,
				reasonOption,
				// Each optional, at least one given: what is not given stays as stored.
				{ type: Text, name: 'results', description: 'The corrected scoreboard', max_length: 6000 },
				{ type: Text, name: 'date', description: 'The race’s new date, YYYY-MM-DD', max_length: 10 },
				{ type: Text, name: 'name', description: 'The race’s new name', max_length: 100 },
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'penalty',
			description: 'Penalise a racer (organizers): seconds added to their time, or points off their total',
			options: [
				raceOption,
				{
					type: Text,
					name: 'player',
					description: 'The racer penalised',
					required: true,
					autocomplete: true,
					max_length: 100,
				},
				reasonOption,
				{
					type: Decimal,
					name: 'seconds',
					description: 'Seconds added to the finish time (previewed)',
					min_value: 0.001,
					max_value: 86400,
				},
				{
					type: Decimal,
					name: 'points',
					description: 'Points off the championship total',
					min_value: 0.001,
					max_value: 10000,
				},
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'penalty-withdraw',
			description: 'Withdraw a penalty (organizers): the race and the table are as before it',
			options: [
				{ type: Text, name: 'penalty', description: 'Penalty id, e.g. P3', required: true, max_length: 20 },
				reasonOption,
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'show',
			description: 'Show one race with its history',
			options: [raceOption, leagueOption],
		},
		{
			type: Subcommand,
			name: 'list',
			description: 'List the races of a league, newest first',
			options: [leagueOption, pageOption],
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

const handlers = {
	submit,
	void: voidRace,
	restore: restoreRace,
	edit: editRace,
	show: showRace,
	list: listRaces,
	penalty: givePenalty,
	'penalty-withdraw': withdrawPenalty,
} as const;

export default {
	data,
	defer: 'none',
	// Slow on a big league: a void or restore replays every system from the race on, `show` may
	// replay to explain an old race, `list` may open the league. `submit` opens a form and `edit` defers itself.
	subcommandDefer: {
		void: 'public',
		restore: 'public',
		show: 'public',
		list: 'public',
		'penalty-withdraw': 'public',
	},
	async execute(interaction, ctx) {
		const sub = interaction.options.getSubcommand();
		const handler = Object.hasOwn(handlers, sub) ? handlers[sub as keyof typeof handlers] : undefined;
		if (!handler) throw new UserFacingError('unknown-command', 'This command is not available any more.');
		await handler(interaction, ctx);
	},
	autocomplete: completeCommon,
	modals: [submitFormHandler],
} satisfies Command;
