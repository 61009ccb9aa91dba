/** `/rating [player] [system] [league]`: a player's rating, uncertainty, provisional status, rank, races, last change. */
import { ApplicationCommandOptionType, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { beforeAfter, standoutLines, whyLines } from './rating/why-text.js';
import { answer } from '../src/discord/reply.js';
import { uncertaintyName, type PlayerRating } from '../src/services/rating-service.js';
import {
	actorOf,
	chartFiles,
	chartOption,
	completeCommon,
	clip,
	esc,
	fmtRating,
	leagueOption,
	servicesOf,
	systemOption,
} from './shared.js';

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
		chartOption,
		{
			type: ApplicationCommandOptionType.String,
			name: 'compare',
			description: 'Other players on the chart, comma separated (at most 3)',
			autocomplete: true,
			max_length: 200,
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export function ratingText(r: PlayerRating): string {
	const who = `**${esc(r.player.name)}** in **${esc(r.league.config.name)}** (\`${r.system}\`, as of ${r.asOf})`;
	if (!r.summary) return `${who}: no rating yet under \`${r.system}\` (no rated race).`;
	const s = r.summary;
	const lines = [
		who,
		`Rating: **${fmtRating(s.rating)}**`,
		...(s.uncertainty !== undefined ? [`${uncertaintyName(r.system)}: ${fmtRating(s.uncertainty)}`] : []),
		`Rank: ${r.rank} of ${r.rated}`,
		`Races: ${s.races}`,
		s.provisional ? `Status: provisional: ${r.provisionalRule}` : 'Status: established',
		...idleLines(r),
	];
	if (r.why) lines.push(...whyLines(r.why));
	else if (r.lastChange) {
		const c = r.lastChange;
		lines.push(`Last change in ${esc(c.race)}${c.date ? ` (${c.date})` : ''}: ${beforeAfter(c.before, c.after)}`);
	}
	if (r.standouts) lines.push(...standoutLines(r.standouts));
	return clip(lines.join('\n'));
}

/** How long the player has been idle, and what idle-time growth did since their last race (issue 7 §1). */
function idleLines(r: PlayerRating): string[] {
	if (r.idle === undefined) return [];
	const { lastDate, days, atLastRace } = r.idle;
	const since = `Last race: ${lastDate}, ${days === 0 ? 'today' : `${days} day${days === 1 ? '' : 's'} ago`}`;
	if (days === 0) return [since];
	const changed: string[] = [];
	if (atLastRace.uncertainty !== undefined && r.summary?.uncertainty !== undefined) {
		changed.push(`${uncertaintyName(r.system)} was ${fmtRating(atLastRace.uncertainty)} at that race`);
	}
	if (r.summary !== undefined && fmtRating(atLastRace.rating) !== fmtRating(r.summary.rating)) {
		changed.push(`rating was ${fmtRating(atLastRace.rating)}`);
	}
	if (r.summary?.provisional && !atLastRace.provisional)
		changed.push('established then, provisional again after the idle time');
	return [changed.length === 0 ? since : `${since} (${changed.join('; ')})`];
}

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		const result = await servicesOf(ctx).ratings.rating(actorOf(interaction), {
			player: interaction.options.getString('player') ?? undefined,
			system: interaction.options.getString('system') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
			chart: (interaction.options.getBoolean('chart') ?? true) && ctx.charts !== undefined,
			compare: interaction.options.getString('compare') ?? undefined,
		});
		const chart = result.chart;
		const files = chart ? await chartFiles(ctx, 'rating.png', (charts) => charts.ratingHistory(chart)) : [];
		await answer(interaction, { content: ratingText(result), files }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
