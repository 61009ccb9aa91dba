/** `/leaderboard [system] [league] [page] [season] [cars]`: the standings, 15 per page; with `cars`, the cars'. */
import { ApplicationCommandOptionType, InteractionContextType } from 'discord.js';
import type { ChatInputCommandInteraction, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command, CommandContext } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { carsEmbed } from './rating/car.js';
import { answer } from '../src/discord/reply.js';
import { EMBED_COLOURS, type EmbedSpec } from '../src/formats/embed.js';
import { shownSummary } from '../src/formats/rating-scale.js';
import type { LeaderboardPage } from '../src/services/ratings/leaderboard-service.js';
import { leaguePageUrl } from '../src/services/web/league-web-service.js';
import { leagueScale } from '../src/services/ratings/shown-scale.js';
import { embedOf } from './embed.js';
import { plural } from '../src/formats/plural.js';
import { recomputingNotice } from './recomputing-notice.js';
import { leaderboardChart } from '../src/services/ratings/chart-data.js';
import {
	actorOf,
	chartFiles,
	chartOption,
	completeCommon,
	esc,
	fmtRating,
	leagueOption,
	pageOption,
	servicesOf,
	systemOption,
	uncertaintyLabel,
	uncertaintyText,
} from './shared.js';

const data = {
	name: 'leaderboard',
	description: 'The standings of a league',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
	options: [
		systemOption,
		leagueOption,
		pageOption,
		chartOption,
		{
			type: ApplicationCommandOptionType.String,
			name: 'season',
			description: 'The leaderboard as it stood at the end of this season (default: today)',
			autocomplete: true,
			max_length: 64,
		},
		{
			type: ApplicationCommandOptionType.Boolean,
			name: 'cars',
			description: 'The cars by their part of a racer’s strength, where the league rates cars apart from drivers',
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * One page of standings: rank, name († provisional), rating, uncertainty and races, as shown (rating-scale.ts); the
 * title links to the league's page when it has a public one (`web`: the bot's public address, HTTP_PUBLIC_URL).
 */
export function leaderboardEmbed(board: LeaderboardPage, chart: string | undefined, web?: string): EmbedSpec {
	const scale = leagueScale(board.league, board.system);
	const row = (r: LeaderboardPage['rows'][number]) => {
		const s = shownSummary(scale, r);
		const u =
			s.uncertainty !== undefined ? ` (${uncertaintyLabel(scale)} ${uncertaintyText(scale, s.uncertainty)})` : '';
		return `${r.rank}. **${esc(r.name)}**${r.provisional ? '†' : ''} ${fmtRating(s.rating)}${u} · ${plural(r.races, 'race')}`;
	};
	return {
		title: board.season === undefined ? 'Leaderboard' : `Leaderboard · ${esc(board.season.name)}`,
		author: `${board.league.config.name} · ${board.system}`,
		colour: EMBED_COLOURS.gold,
		description: { lines: board.rows.map(row) },
		image: chart,
		url: leaguePageUrl(web, board.league),
		footer: `as of ${board.asOf} · page ${board.page}/${board.pages} · ${plural(board.total, 'player')}${filterFooter(board)} · † provisional`,
	};
}

/** ` · players with at least 3 races, raced in the last 180 days; 12 hidden` (empty when the league hides no one). */
function filterFooter(board: LeaderboardPage): string {
	return board.filter === undefined ? '' : ` · ${board.filter}; ${board.hidden} hidden`;
}

/** `/leaderboard cars:true`: the cars' table of today (a past season's is not kept: `season:` is refused with it). */
async function carsBoard(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const o = interaction.options;
	if (o.getString('season') !== null) {
		throw new UserFacingError(
			'cars-season',
			'The cars’ table is today’s: leave season out, or ask /leaderboard season: for the drivers.',
		);
	}
	const board = await servicesOf(ctx).cars.page(actorOf(interaction), {
		system: o.getString('system') ?? undefined,
		league: o.getString('league') ?? undefined,
		page: o.getInteger('page') ?? undefined,
	});
	if (board.total === 0) {
		const content = `No car has been rated in **${esc(board.league.config.name)}** yet: its results name no car or team.`;
		await answer(interaction, { content }, { ephemeral: false });
		return;
	}
	const content = recomputingNotice(board.recomputing);
	await answer(interaction, { ...(content && { content }), embeds: [embedOf(carsEmbed(board))] }, { ephemeral: false });
}

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		if (interaction.options.getBoolean('cars') === true) return carsBoard(interaction, ctx);
		const board = await servicesOf(ctx).leaderboard.page(actorOf(interaction), {
			system: interaction.options.getString('system') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
			page: interaction.options.getInteger('page') ?? undefined,
			season: interaction.options.getString('season') ?? undefined,
		});
		if (board.total === 0) {
			const name = esc(board.league.config.name);
			const content =
				board.hidden > 0
					? `No player in **${name}** is on the leaderboard: it shows ${board.filter ?? 'every rated player'}, and ${plural(board.hidden, 'rated player')} ${board.hidden === 1 ? 'is' : 'are'} hidden.`
					: board.season?.end === board.asOf
						? `No player of **${name}** was rated by ${board.asOf}, the end of **${esc(board.season.name)}**.`
						: `No rated players in **${name}** yet.`;
			await answer(interaction, { content }, { ephemeral: false });
			return;
		}
		const wantChart = interaction.options.getBoolean('chart') ?? true;
		const chart = leaderboardChart(board, board.rows);
		const files = wantChart
			? await chartFiles(ctx, 'leaderboard.png', board.league.config, (charts, theme) =>
					charts.leaderboard(chart, theme),
				)
			: [];
		const embed = embedOf(leaderboardEmbed(board, files[0]?.name, servicesOf(ctx).webUrl()));
		const content = recomputingNotice(board.recomputing);
		await answer(interaction, { ...(content && { content }), embeds: [embed], files }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
