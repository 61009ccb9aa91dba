/**
 * `/league create|config|rename|info|stats|calibrate|import|export|inbox|delete|undelete|preview-post`. Create, delete
 * and undelete need Manage Server; config, rename, calibrate, import, inbox and preview-post need an organizer of the
 * league (checked by the services).
 */
import {
	InteractionContextType,
	ApplicationCommandOptionType,
	ChannelType,
	MessageFlags,
	type ApplicationCommandOptionAllowedChannelType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { deferWhenSlow } from '../src/discord/defer-when-slow.js';
import { toDiscordBody } from '../src/discord/channel-message.js';
import type { Command } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { answer } from '../src/discord/reply.js';
import { filterText } from '../src/league/leaderboard-filter.js';
import { rankingPostOf } from '../src/league/ranking-post.js';
import { F1_POINTS, pointsTableText } from '../src/formats/points-table.js';
import type { ChannelDefaultResult, RankingPostSummary } from '../src/services/leagues/league-service.js';
import { leagueAddress } from '../src/services/web/league-web-service.js';
import type { LeagueInfo } from '../src/storage/ports.js';
import { leagueCalibrate } from './league/calibrate.js';
import { leagueStats } from './league/stats.js';
import { leagueInbox } from './league/inbox.js';
import { leagueRoles, rankRolesLine, rolesGroup } from './league/roles.js';
import { deleteLeague, undeleteLeague } from './league/delete.js';
import { exportLeague, importLeague } from './league/transfer.js';
import { actorOf, clip, completeCommon, esc, leagueOption, servicesOf, systemOption } from './shared.js';
import { RETIREMENT_READINGS, type RetirementReading } from '../src/ratings/race.js';
import { carryOverOf } from '../src/services/seasons/season-service.js';
import { carryOverSetting } from './season/format.js';
import { carSettingsText } from '../src/services/leagues/car-settings.js';

const { Subcommand, String: Text, Role, Channel, Integer, Attachment, Boolean: Flag } = ApplicationCommandOptionType;

/** `/league config visibility:` (docs/web.md). */
const VISIBILITIES = ['public', 'unlisted', 'private'] as const;

/** `/league config season-reset:` (docs/seasons.md). */
const SEASON_RESETS = ['carry', 'restart', 'soft'] as const;

/** `/league config chart-theme:`. */
const CHART_THEMES = ['dark', 'light'] as const;

/** Channels a message with a file can go to. */
const postableChannels: ApplicationCommandOptionAllowedChannelType[] = [
	ChannelType.GuildText,
	ChannelType.GuildAnnouncement,
];

const settings = [
	{ type: Text, name: 'timezone', description: 'IANA time zone, e.g. Europe/Budapest (default UTC)', max_length: 64 },
	{ type: Role, name: 'organizer-role', description: 'Role allowed to submit, void and edit races' },
	{
		type: Channel,
		name: 'ranking-channel',
		description: 'Channel where the monthly ranking is posted',
		channel_types: postableChannels,
	},
	{
		type: Text,
		name: 'class',
		description: 'The class this league rates from multi-class result files (all: every class as one field)',
		max_length: 64,
	},
	{
		type: Channel,
		name: 'results-channel',
		description: 'Channel where result files sent to the results inbox are previewed (default: the ranking channel)',
		channel_types: postableChannels,
	},
] as const;

/** What a preview says when the monthly post would not go out: what is missing, and when this post would go. */
function inactivePostLine(post: { enabled: boolean; channel?: string }, local: string): string {
	const missing = [post.enabled ? '' : 'monthly-post:on', post.channel === undefined ? 'ranking-channel:#channel' : '']
		.filter((option) => option !== '')
		.join(' ');
	const state = post.enabled ? 'on but has no ranking channel' : 'off';
	return `The monthly post is ${state}. With /league config ${missing}, this post would go out at ${local} (league time).`;
}

const data = {
	name: 'league',
	description: 'Create, configure and describe leagues',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
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
					name: 'retirements',
					description: 'How retirements (DNF) count: in their order, tied at the back, or left out',
					choices: RETIREMENT_READINGS.map((reading) => ({ name: reading, value: reading })),
				},
				{
					type: Text,
					name: 'cars',
					description: 'endure and speed rate the car apart from the driver (on) or one rating per racer (off)',
					choices: [
						{ name: 'on', value: 'on' },
						{ name: 'off', value: 'off' },
					],
				},
				// What ratings do at a season's first race (docs/seasons.md).
				{
					type: Text,
					name: 'season-reset',
					description: 'At a season’s first race ratings carry over, restart, or move toward the mean (soft)',
					choices: SEASON_RESETS.map((mode) => ({ name: mode, value: mode })),
				},
				{
					type: ApplicationCommandOptionType.Number,
					name: 'season-share',
					description: 'Soft reset: the % of the way toward the league’s mean each rating moves, e.g. 30',
					min_value: 0,
					max_value: 100,
				},
				{
					type: Text,
					name: 'parameters',
					description: 'Rating parameters, e.g. glicko.c=2.07 endure.k=0.14 (system.name=default resets one)',
					max_length: 500,
				},
				// The monthly ranking post.
				{
					type: Integer,
					name: 'post-day',
					description: 'Day of the month of the ranking post, 1-28 (default 1)',
					min_value: 1,
					max_value: 28,
				},
				{
					type: Integer,
					name: 'post-hour',
					description: 'Hour of the ranking post, 0-23, league time (default 12)',
					min_value: 0,
					max_value: 23,
				},
				{
					type: Text,
					name: 'monthly-post',
					description: 'Post the ranking every month in the ranking channel?',
					choices: [
						{ name: 'on', value: 'on' },
						{ name: 'off', value: 'off' },
					],
				},
				// The championship forecast's defaults.
				{
					type: Text,
					name: 'points',
					description: 'Forecast points: f1, motogp, a list like 10,6,4,3,2,1, or default',
					max_length: 400,
				},
				{
					type: Integer,
					name: 'best-results',
					description: 'Dropped results: only the best N race scores count (0: every result counts)',
					min_value: 0,
					max_value: 100,
				},
				// The leaderboard's filter.
				{
					type: Integer,
					name: 'min-races',
					description: 'The leaderboard shows players with at least N races (0: everyone)',
					min_value: 0,
					max_value: 1000,
				},
				{
					type: Integer,
					name: 'idle-days',
					description: 'The leaderboard hides players with no race in the last N days (0: no one hidden)',
					min_value: 0,
					max_value: 3650,
				},
				// The league's web page and JSON API (docs/web.md).
				{
					type: Text,
					name: 'visibility',
					description: 'The league’s web page: public, unlisted (a secret link) or private (none; the default)',
					choices: VISIBILITIES.map((v) => ({ name: v, value: v })),
				},
				{
					type: Text,
					name: 'chart-theme',
					description: 'Colours of the league’s charts: dark (the default) or light',
					choices: CHART_THEMES.map((t) => ({ name: t, value: t })),
				},
				{
					type: Flag,
					name: 'channel-default',
					description: 'Commands run in this channel without the league option mean this league (true) or not',
				},
			],
		},
		{
			type: Subcommand,
			name: 'rename',
			description: 'Give a league a new name; its id stays (organizers)',
			options: [
				{
					type: Text,
					name: 'name',
					description: 'The new name (unique in this server)',
					required: true,
					max_length: 64,
				},
				leagueOption,
			],
		},
		{ type: Subcommand, name: 'info', description: 'Show a league’s settings and size', options: [leagueOption] },
		{
			type: Subcommand,
			name: 'stats',
			description: 'How well each rating system predicted this league’s winners, with a reliability chart',
			options: [leagueOption],
		},
		{
			type: Subcommand,
			name: 'calibrate',
			description: 'Tune a system’s parameters on this league’s races; apply them with Confirm (organizers)',
			options: [{ ...systemOption, description: 'System to calibrate (default: the headline system)' }, leagueOption],
		},
		{
			type: Subcommand,
			name: 'import',
			description: 'Import a whole history into a league without races (organizers)',
			options: [
				{
					type: Attachment,
					name: 'file',
					description: 'History CSV, ZakStunts CSV, or Ergast results.csv; at most 8 MiB',
					required: true,
				},
				leagueOption,
				{ type: Attachment, name: 'races', description: 'Ergast only: races.csv of the same dump' },
				{ type: Attachment, name: 'drivers', description: 'Ergast only: drivers.csv of the same dump' },
				{
					type: Attachment,
					name: 'players',
					description: "players.csv of a /league export: the players' aliases, Discord links and sim ids",
				},
				{ type: Integer, name: 'from', description: 'Ergast only: first season', min_value: 1950, max_value: 2100 },
				{ type: Integer, name: 'to', description: 'Ergast only: last season', min_value: 1950, max_value: 2100 },
			],
		},
		{
			type: Subcommand,
			name: 'export',
			description: 'The race log as a history CSV and every system’s standings as CSV, attached',
			options: [leagueOption],
		},
		{
			type: Subcommand,
			name: 'inbox',
			description: 'The results inbox: a token for the game server to send result files with (organizers)',
			options: [
				{
					type: Text,
					name: 'token',
					description: 'new: make a token (replaces the old one; shown once, to you only) · revoke: stop it',
					choices: [
						{ name: 'new', value: 'new' },
						{ name: 'revoke', value: 'revoke' },
					],
				},
				{
					type: Flag,
					name: 'auto-confirm',
					description: "Store each file's race at once, without a preview to confirm (default false)",
				},
				leagueOption,
			],
		},
		{
			type: Subcommand,
			name: 'delete',
			description: 'Delete a league, its export attached; /league undelete brings it back (Manage Server)',
			options: [leagueOption],
		},
		{
			type: Subcommand,
			name: 'undelete',
			description: 'Bring back a deleted league as it was (Manage Server)',
			options: [{ type: Text, name: 'name', description: 'The deleted league’s name', required: true, max_length: 64 }],
		},
		{
			type: Subcommand,
			name: 'preview-post',
			description: 'Show the next monthly ranking post now, only to you (organizers)',
			options: [leagueOption],
		},
		rolesGroup,
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** What `/league config channel-default:` did, as the reply's first line after `Updated …`. */
export function channelDefaultText(result: ChannelDefaultResult, on: boolean): string {
	const name = `**${esc(result.info.config.name)}**`;
	const here = `<#${result.channel}>`;
	if (!on) {
		return result.changed
			? `${here} has no default league any more: commands run there need the league option (or the server’s only league).`
			: `${here} was not a default channel of ${name}: nothing changed there.`;
	}
	if (!result.changed) return `${here} already means ${name} for commands without the league option.`;
	const moved = result.movedFrom && ` (moved from **${esc(result.movedFrom.config.name)}**)`;
	return `${here} now means ${name} for commands without the league option${moved ?? ''}.`;
}

/** The `Web page:` line of the settings (the unlisted link itself is only shown to the organizer who sets it). */
const VISIBILITY_TEXT: Readonly<Record<(typeof VISIBILITIES)[number], string>> = {
	public: 'public (listed on the bot’s front page)',
	unlisted: 'unlisted (only with its secret link)',
	private: 'private (no page)',
};

const two = (n: number) => String(n).padStart(2, '0');

/** `Monthly ranking post: day 1 at 12:00 (league time) · next 2026-12-01 12:00 (<t:…:R>)`, or why it is off. */
export function rankingPostText(post: RankingPostSummary): string {
	const next = post.next;
	const when = `day ${post.day} at ${two(post.hour)}:00 (league time)`;
	if (!post.enabled) return `Monthly ranking post: off (${when} when on)`;
	if (!post.active) return `Monthly ranking post: ${when}, once a ranking channel is set`;
	const unix = next && Math.floor(next.at.getTime() / 1000);
	return `Monthly ranking post: ${when}${next ? ` · next ${next.local} (<t:${unix}:R>)` : ''}`;
}

/**
 * The settings. The ranking post's line appears once the league has a ranking channel or post settings; `post` (from
 * `/league info`) adds the next post time.
 */
/** How each reading of retirements is described in the league's settings. */
const RETIREMENT_TEXT: Readonly<Record<RetirementReading, string>> = {
	ordered: 'below the finishers, in their order',
	tied: 'below the finishers, tied with one another',
	excluded: 'left out of the rating',
};

export function settingsText(info: LeagueInfo, post: RankingPostSummary = rankingPostOf(info.config)): string {
	const usesPost = info.config.rankingChannel !== undefined || info.config.rankingPost !== undefined;
	const c = info.config;
	return [
		`Headline system: \`${c.headline}\``,
		`Time zone: ${esc(c.timezone)}`,
		`Organizers: Manage Server${c.organizerRole ? ` and <@&${c.organizerRole}>` : ''}`,
		...(c.rankingChannel ? [`Ranking channel: <#${c.rankingChannel}>`] : []),
		...(c.resultsChannel ? [`Results channel: <#${c.resultsChannel}>`] : []),
		...(c.carClass ? [`Class: ${esc(c.carClass)} (of multi-class result files)`] : []),
		...(usesPost ? [rankingPostText(post)] : []),
		`Yearly reset: ${c.reset === 'yearly' ? 'yes' : 'no'}`,
		// Shown once set, as the other settings whose default says nothing (carry: ratings go on as always).
		...(c.seasonReset !== undefined ? [`At a season’s first race: ${carryOverSetting(carryOverOf(c))}`] : []),
		`Retirements: ${RETIREMENT_TEXT[c.retirements ?? 'ordered']}`,
		...(carSettingsText(c) !== undefined ? [carSettingsText(c)!] : []),
		...(c.points !== undefined || c.bestResults !== undefined
			? [
					`Forecast points: ${pointsTableText(c.points ?? F1_POINTS)}${c.bestResults !== undefined ? ` · best ${c.bestResults} results count` : ''}`,
				]
			: []),
		...(filterText(c) !== undefined ? [`Leaderboard: ${filterText(c)}`] : []),
		...(c.visibility !== undefined ? [`Web page: ${VISIBILITY_TEXT[c.visibility]}`] : []),
		...(c.chartTheme === 'light' ? ['Charts: light'] : []),
		...(rankRolesLine(c) !== undefined ? [rankRolesLine(c)!] : []),
		...(c.defaultChannels?.length
			? [`Default league of: ${c.defaultChannels.map((channel) => `<#${channel}>`).join(', ')}`]
			: []),
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
	// `info` may open a big league; `config` defers when slow (new parameters replay every rating),
	// so that a refusal stays the ephemeral reply. `import`, `export` and `preview-post` defer themselves, ephemerally.
	// `stats` backtests every system over the league's history and draws a chart; `calibrate` runs up to
	// 30 backtests and answers the organizer only.
	subcommandDefer: { info: 'public', stats: 'public', calibrate: 'ephemeral', inbox: 'ephemeral' },
	async execute(interaction, ctx) {
		const { leagues, rankingPost } = servicesOf(ctx);
		const actor = actorOf(interaction);
		const o = interaction.options;
		if (o.getSubcommandGroup(false) === 'roles') return leagueRoles(interaction, ctx);
		const role = o.getRole('organizer-role');
		const common = {
			timezone: o.getString('timezone') ?? undefined,
			organizerRole: role === null ? undefined : { id: role.id, managed: role.managed },
			rankingChannel: o.getChannel('ranking-channel')?.id,
			resultsChannel: o.getChannel('results-channel')?.id,
			carClass: o.getString('class') ?? undefined,
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
				const retirements = o.getString('retirements');
				const monthlyPost = o.getString('monthly-post');
				const visibility = o.getString('visibility');
				const channelDefault = o.getBoolean('channel-default');
				const configured = leagues.configure(actor, o.getString('league') ?? undefined, {
					headline: o.getString('system') ?? undefined,
					...common,
					reset: reset === 'yearly' || reset === 'none' ? reset : undefined,
					retirements: RETIREMENT_READINGS.find((reading) => reading === retirements),
					cars: (['on', 'off'] as const).find((value) => value === o.getString('cars')),
					parameters: o.getString('parameters') ?? undefined,
					postDay: o.getInteger('post-day') ?? undefined,
					postHour: o.getInteger('post-hour') ?? undefined,
					monthlyPost: monthlyPost === 'on' || monthlyPost === 'off' ? monthlyPost : undefined,
					points: o.getString('points') ?? undefined,
					bestResults: o.getInteger('best-results') ?? undefined,
					minRaces: o.getInteger('min-races') ?? undefined,
					idleDays: o.getInteger('idle-days') ?? undefined,
					chartTheme: CHART_THEMES.find((t) => t === o.getString('chart-theme')),
					visibility: VISIBILITIES.find((v) => v === visibility),
					seasonReset: SEASON_RESETS.find((mode) => mode === o.getString('season-reset')),
					seasonShare: o.getNumber('season-share') ?? undefined,
				});
				// The channel default after the other settings: a refused setting leaves the channel as it was.
				const [info, channelLine] = await deferWhenSlow(
					interaction,
					configured.then(async (updated): Promise<[LeagueInfo, string | undefined]> => {
						if (channelDefault === null) return [updated, undefined];
						const result = await leagues.setChannelDefault(actor, updated.id, channelDefault);
						return [result.info, channelDefaultText(result, channelDefault)];
					}),
				);
				const content = `Updated **${esc(info.config.name)}**.\n${channelLine === undefined ? '' : `${channelLine}\n`}${settingsText(info)}`;
				await answer(interaction, { content }, { ephemeral: false });
				if (visibility === 'unlisted' || visibility === 'public') {
					// The page's address, to the organizer alone: an unlisted league's secret is not for the channel.
					const { url } = await servicesOf(ctx).inbox.settings(actor, info.id); // the bot's web address
					const path = leagueAddress(info);
					await interaction.followUp({
						content: `The league's page: ${url ?? '<the bot’s address (HTTP_PUBLIC_URL)>'}/leagues/${path === undefined ? '' : encodeURIComponent(path)}${visibility === 'unlisted' ? '\nOnly people with this link can open it: share it as you would a password.' : ''}`,
						flags: MessageFlags.Ephemeral,
						allowedMentions: { parse: [] },
					});
				}
				return;
			}
			case 'rename': {
				const { info, from } = await leagues.rename(
					actor,
					o.getString('league') ?? undefined,
					o.getString('name', true),
				);
				const content = `Renamed **${esc(from)}** to **${esc(info.config.name)}**. Its id stays \`${info.id}\`: commands, links and the results inbox keep working.`;
				return answer(interaction, { content }, { ephemeral: false });
			}
			case 'info': {
				const s = await leagues.info(actor, o.getString('league') ?? undefined);
				const content = [
					`**${esc(s.info.config.name)}**`,
					settingsText(s.info, s.rankingPost),
					`Players: ${s.players} · Races: ${s.races}${s.voided ? ` (+${s.voided} voided)` : ''}`,
				].join('\n');
				return answer(interaction, { content }, { ephemeral: false });
			}
			case 'stats':
				return leagueStats(interaction, ctx);
			case 'calibrate':
				return leagueCalibrate(interaction, ctx);
			case 'import':
				return importLeague(interaction, ctx);
			case 'export':
				return exportLeague(interaction, ctx);
			case 'inbox':
				return leagueInbox(interaction, ctx);
			case 'delete':
				return deleteLeague(interaction, ctx);
			case 'undelete':
				return undeleteLeague(interaction, ctx);
			case 'preview-post': {
				// Composing renders a chart: acknowledge first (only the organizer sees the preview).
				await interaction.deferReply({ flags: MessageFlags.Ephemeral });
				const p = await rankingPost.preview(actor, o.getString('league') ?? undefined);
				const body = toDiscordBody(p.message);
				const head = [
					`Preview of the ${p.month} ranking post of **${esc(p.info.config.name)}**, only you can see it.`,
					p.post.active
						? `It ${p.late ? 'is late and goes' : 'goes'} to <#${p.post.channel}> ${p.late ? 'within 15 minutes' : `at ${p.local} (league time)`}.`
						: inactivePostLine(p.post, p.local),
				].join('\n');
				return answer(interaction, { ...body, content: clip(`${head}\n\n${body.content}`) }, { ephemeral: true });
			}
			default:
				throw new UserFacingError('unknown-command', 'This command is not available any more.');
		}
	},
	autocomplete: completeCommon,
} satisfies Command;
