/** `/odds players:<names or mentions, comma separated> [system] [league]`: P(win), P(top 3), expected position. */
import { ApplicationCommandOptionType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import type { OddsResult } from '../src/services/odds-service.js';
import { oddsChart } from '../src/services/chart-data.js';
import {
	actorOf,
	chartFiles,
	chartOption,
	clip,
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

export function oddsText(r: OddsResult): string {
	const lines = [
		`**Odds** in **${esc(r.league.config.name)}** (\`${r.system}\`, as of ${r.asOf}, ${r.rows.length} racers)`,
	];
	// Favourites first; P(top 3) says nothing in a field of three or fewer (it is 100%).
	for (const row of [...r.rows].sort((a, b) => b.pWin - a.pWin)) {
		const unrated = row.unrated ? ' *(unrated: newcomer rating)*' : '';
		const top3 = r.rows.length > 3 ? ` · top 3 ${fmtPct(row.pTop3)}` : '';
		lines.push(
			`**${esc(row.name)}** (${fmtRating(row.rating)})${unrated}: win ${fmtPct(row.pWin)}${top3} · expected position ${fmtPosition(row.expectedPosition)}`,
		);
	}
	if (r.headToHead !== undefined && r.rows.length === 2) {
		const [a, b] = r.rows;
		lines.push(
			`Head to head: **${esc(a!.name)}** finishes ahead of **${esc(b!.name)}** with probability ${fmtPct(r.headToHead)}`,
		);
	}
	return clip(lines.join('\n'));
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
		const files = wantChart ? await chartFiles(ctx, 'odds.png', (charts) => charts.odds(oddsChart(result))) : [];
		await answer(interaction, { content: oddsText(result), files }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
