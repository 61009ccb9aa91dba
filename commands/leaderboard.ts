/** `/leaderboard [system] [league] [page]`: the standings, 15 per page. */
import type { RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { uncertaintyName } from '../src/services/rating-service.js';
import { leaderboardChart } from '../src/services/chart-data.js';
import {
	actorOf,
	chartFiles,
	chartOption,
	clip,
	completeCommon,
	esc,
	fmtRating,
	leagueOption,
	pageOption,
	servicesOf,
	systemOption,
} from './shared.js';

const data = {
	name: 'leaderboard',
	description: 'The standings of a league',
	options: [systemOption, leagueOption, pageOption, chartOption],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		const board = await servicesOf(ctx).leaderboard.page(actorOf(interaction), {
			system: interaction.options.getString('system') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
			page: interaction.options.getInteger('page') ?? undefined,
		});
		const name = esc(board.league.config.name);
		if (board.total === 0) {
			await answer(interaction, { content: `No rated players in **${name}** yet.` }, { ephemeral: false });
			return;
		}
		const u = uncertaintyName(board.system);
		const lines = [
			`**${name}** leaderboard (\`${board.system}\`, as of ${board.asOf}, page ${board.page}/${board.pages}, ${board.total} players; † = provisional)`,
			...board.rows.map(
				(r) =>
					`${r.rank}. **${esc(r.name)}**${r.provisional ? '†' : ''} ${fmtRating(r.rating)}` +
					`${r.uncertainty !== undefined ? ` (${u} ${fmtRating(r.uncertainty)})` : ''} · ${r.races} race${r.races === 1 ? '' : 's'}`,
			),
		];
		const wantChart = interaction.options.getBoolean('chart') ?? true;
		const chart = leaderboardChart(board, board.rows);
		const files = wantChart ? await chartFiles(ctx, 'leaderboard.png', (charts) => charts.leaderboard(chart)) : [];
		await answer(interaction, { content: clip(lines.join('\n')), files }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
