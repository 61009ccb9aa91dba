/** `/odds players:<names or mentions, comma separated> [system] [league]`: P(win), P(top 3), expected position. */
import {
	InteractionContextType,
	ApplicationCommandOptionType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { EMBED_COLOURS, type EmbedSpec } from '../src/formats/embed.js';
import type { OddsResult } from '../src/services/ratings/odds-service.js';
import { leagueScale } from '../src/services/ratings/shown-scale.js';
import { embedOf } from './embed.js';
import { oddsChart } from '../src/services/ratings/chart-data.js';
import { recomputingNotice } from './recomputing-notice.js';
import { carPartText } from './rating/car.js';
import {
	actorOf,
	chartFiles,
	chartOption,
	completeCommon,
	esc,
	fmtPct,
	fmtPosition,
	fmtRating,
	leagueOption,
	servicesOf,
	systemOption,
} from './shared.js';

const data = {
	name: 'odds',
	description: 'Win, podium and expected-position odds for a field of players',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: ApplicationCommandOptionType.String,
			name: 'players',
			description: 'Players, comma separated: names or @mentions',
			required: true,
			autocomplete: true,
			max_length: 2000,
		},
		systemOption,
		leagueOption,
		chartOption,
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** The odds of a field, favourites first, with the head-to-head of a field of two. */
export function oddsEmbed(r: OddsResult, chart: string | undefined): EmbedSpec {
	const scale = leagueScale(r.league, r.system);
	// Favourites first; P(top 3) says nothing in a field of three or fewer (it is 100%).
	const lines = [...r.rows]
		.sort((a, b) => b.pWin - a.pWin)
		.map((row) => {
			const unrated = row.unrated ? ' *(unrated: newcomer rating)*' : '';
			const top3 = r.rows.length > 3 ? ` · top 3 ${fmtPct(row.pTop3)}` : '';
			// Where cars are rated the odds read driver + car: both parts are shown.
			const car = row.car === undefined ? '' : ` + car ${carPartText(scale, row.car.part)}`;
			return `**${esc(row.name)}** (${fmtRating(scale.rating(row.rating))}${car})${unrated}: win ${fmtPct(row.pWin)}${top3} · expected position ${fmtPosition(row.expectedPosition)}`;
		});
	const [a, b] = r.rows;
	const headToHead =
		r.headToHead !== undefined && a !== undefined && b !== undefined && r.rows.length === 2
			? {
					name: 'Head to head',
					value: `**${esc(a.name)}** finishes ahead of **${esc(b.name)}** with probability ${fmtPct(r.headToHead)}`,
				}
			: undefined;
	return {
		title: `Odds: ${r.rows.length} racers`,
		author: `${r.league.config.name} · ${r.system}`,
		colour: EMBED_COLOURS.neutral,
		description: { lines },
		fields: [headToHead],
		image: chart,
		footer: `as of ${r.asOf}`,
	};
}

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		const result = await servicesOf(ctx).odds.odds(actorOf(interaction), {
			players: interaction.options.getString('players', true),
			system: interaction.options.getString('system') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
		});
		const wantChart = interaction.options.getBoolean('chart') ?? true;
		const files = wantChart
			? await chartFiles(ctx, 'odds.png', result.league.config, (charts, theme) =>
					charts.odds(oddsChart(result), theme),
				)
			: [];
		const content = recomputingNotice(result.recomputing);
		const embeds = [embedOf(oddsEmbed(result, files[0]?.name))];
		await answer(interaction, { ...(content && { content }), embeds, files }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
