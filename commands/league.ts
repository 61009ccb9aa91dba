/** `/league create|config|info`. Create needs Manage Server; config needs an organizer of the league. */
import { ApplicationCommandOptionType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { answer } from '../src/discord/reply.js';
import type { LeagueInfo } from '../src/storage/ports.js';
import { actorOf, completeCommon, esc, leagueOption, servicesOf, systemOption } from './shared.js';

const { Subcommand, String: Text, Role, Channel } = ApplicationCommandOptionType;

const settings = [
	{ type: Text, name: 'timezone', description: 'IANA time zone, e.g. Europe/Budapest (default UTC)', max_length: 64 },
	{ type: Role, name: 'organizer-role', description: 'Role allowed to submit, void and edit races' },
	{ type: Channel, name: 'ranking-channel', description: 'Channel where the ranking is posted' },
] as const;

const data = {
	name: 'league',
	description: 'Create, configure and describe leagues',
	options: [
		{
			type: Subcommand,
			name: 'create',
			description: 'Create a league in this server (Manage Server)',
			options: [
				{
					type: Text,
					name: 'name',
					description: 'League name (unique in this server)',
					required: true,
					max_length: 64,
				},
				{ ...systemOption, description: 'Headline rating system (default folyami)' },
				...settings,
			],
		},
		{
			type: Subcommand,
			name: 'config',
			description: 'Change a league’s settings (organizers)',
			options: [
				leagueOption,
				{ ...systemOption, description: 'New headline rating system' },
				...settings,
				{
					type: Text,
					name: 'reset',
					description: 'Restart every rating each calendar year?',
					choices: [
						{ name: 'yearly', value: 'yearly' },
						{ name: 'none', value: 'none' },
					],
				},
				{
					type: Text,
					name: 'parameters',
					description: 'Rating parameters, e.g. glicko.c=2.07 endure.k=0.14 (system.name=default resets one)',
					max_length: 500,
				},
			],
		},
		{ type: Subcommand, name: 'info', description: 'Show a league’s settings and size', options: [leagueOption] },
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export function settingsText(info: LeagueInfo): string {
	const c = info.config;
	return [
		`Headline system: \`${c.headline}\``,
		`Time zone: ${esc(c.timezone)}`,
		`Organizers: Manage Server${c.organizerRole ? ` and <@&${c.organizerRole}>` : ''}`,
		...(c.rankingChannel ? [`Ranking channel: <#${c.rankingChannel}>`] : []),
		`Yearly reset: ${c.reset === 'yearly' ? 'yes' : 'no'}`,
		...Object.entries(c.params).map(
			([system, overrides]) =>
				`Parameters of \`${system}\`: ${Object.entries(overrides)
					.map(([name, value]) => `\`${name}=${String(value)}\``)
					.join(', ')}`,
		),
	].join('\n');
}

export default {
	data,
	defer: 'none',
	async execute(interaction, ctx) {
		const { leagues } = servicesOf(ctx);
		const actor = actorOf(interaction);
		const o = interaction.options;
		const common = {
			timezone: o.getString('timezone') ?? undefined,
			organizerRole: o.getRole('organizer-role')?.id,
			rankingChannel: o.getChannel('ranking-channel')?.id,
		};
		switch (o.getSubcommand()) {
			case 'create': {
				const info = await leagues.create(actor, {
					name: o.getString('name', true),
					headline: o.getString('system') ?? undefined,
					...common,
				});
				const content = `Created league **${esc(info.config.name)}**.\n${settingsText(info)}\nSubmit races with /race submit.`;
				return answer(interaction, { content }, { ephemeral: false });
			}
			case 'config': {
				const reset = o.getString('reset');
				const info = await leagues.configure(actor, o.getString('league') ?? undefined, {
					headline: o.getString('system') ?? undefined,
					...common,
					reset: reset === 'yearly' || reset === 'none' ? reset : undefined,
					parameters: o.getString('parameters') ?? undefined,
				});
				const content = `Updated **${esc(info.config.name)}**.\n${settingsText(info)}`;
				return answer(interaction, { content }, { ephemeral: false });
			}
			case 'info': {
				const s = await leagues.info(actor, o.getString('league') ?? undefined);
				const content = [
					`**${esc(s.info.config.name)}**`,
					settingsText(s.info),
					`Players: ${s.players} · Races: ${s.races}${s.voided ? ` (+${s.voided} voided)` : ''}`,
				].join('\n');
				return answer(interaction, { content }, { ephemeral: false });
			}
			default:
				throw new UserFacingError('unknown-command', 'This command is not available any more.');
		}
	},
	autocomplete: completeCommon,
} satisfies Command;
