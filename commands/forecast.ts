/** `/forecast [races-left] [points] [league]`: the championship forecast. */
import {
	InteractionContextType,
	ApplicationCommandOptionType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Command } from '../src/discord/command.js';
import { answer } from '../src/discord/reply.js';
import { EMBED_COLOURS, type EmbedSpec } from '../src/formats/embed.js';
import { forecastChart } from '../src/services/ratings/chart-data.js';
import { MAX_FORECAST_RACES_LEFT, type ForecastView } from '../src/services/ratings/forecast-service.js';
import { embedOf } from './embed.js';
import { actorOf, chartFiles, chartOption, completeCommon, esc, fmtPct, leagueOption, servicesOf } from './shared.js';
import { plural } from '../src/formats/plural.js';

/** Contenders listed in the reply (the chart shows as many as fit). */
export const FORECAST_ROWS = 10;

const data = {
	name: 'forecast',
	description: 'Championship forecast: the rest of the season simulated from today’s ratings',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: ApplicationCommandOptionType.Integer,
			name: 'races-left',
			description: 'Races left this season (default: the season’s planned races, or last year’s, less those run)',
			min_value: 0,
			max_value: MAX_FORECAST_RACES_LEFT,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: 'points',
			description: 'Points: f1, motogp or a list like 10,6,4,3,2,1 (default: the league’s)',
			max_length: 400,
		},
		leagueOption,
		chartOption,
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

const fmtPoints = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(1));
export { fmtMcError } from '../src/formats/number-text.js';
import { fmtMcError } from '../src/formats/number-text.js';

/** The favourites with P(title) ± its Monte Carlo error, P(top 3) and expected final points. */
export function forecastEmbed(f: ForecastView, chart: string | undefined): EmbedSpec {
	const shown = f.rows.slice(0, FORECAST_ROWS);
	// No race left: nothing is random, so no Monte Carlo error is shown (every season simulated is the same).
	const decided = f.racesLeft === 0;
	const lines = shown.map(
		(row, i) =>
			`${i + 1}. **${esc(row.name)}** (${fmtPoints(row.pointsNow)} pts): title ${fmtPct(row.pTitle)}${decided ? '' : ` ± ${fmtMcError(row.pTitleError)}`} · top 3 ${fmtPct(row.pTop3)} · expected ${row.expectedPoints.toFixed(1)} pts`,
	);
	const more = f.rows.length - shown.length + f.leftOut;
	const left = f.racesLeftFromLastYear
		? ' (from last year’s number of races)'
		: f.plannedRaces !== undefined
			? ` (of the ${f.plannedRaces} planned for the season)`
			: '';
	const when = f.season === undefined ? `${f.year}` : `**${esc(f.season)}**`;
	const drops = f.bestResults !== undefined ? ` · best ${f.bestResults} results count` : '';
	const how = [
		f.undated
			? `The league’s races have no dates: a season from zero with the drivers of the latest race, ${plural(f.racesLeft, 'race')}; ${f.pointsText} points${drops}.`
			: f.contendersFrom !== undefined
				? `No race yet in ${when}: a season from zero with the drivers of the latest race (${f.contendersFrom}), ${f.racesLeft} left${left}; ${f.pointsText} points${drops}.`
				: `${plural(f.racesSoFar, 'race')} so far in ${when}, ${f.racesLeft} left${left}; ${f.pointsText} points${drops}.`,
		...(decided
			? ['No race left: these are the final standings (a tie on points splits the title).']
			: [
					`${f.seasons.toLocaleString('en-US')} seasons simulated (seed ${f.seed}); ± is the Monte Carlo standard error.`,
					'Every contender starts every remaining race; ratings stay as they are today.',
				]),
	];
	return {
		title: f.undated
			? 'Championship forecast'
			: `Championship forecast ${f.season === undefined ? f.year : `· ${esc(f.season)}`}`,
		author: `${f.league.config.name} · ${f.system}`,
		colour: EMBED_COLOURS.neutral,
		description: { lines, tail: more > 0 ? [`… and ${more} more`] : [] },
		fields: [{ name: 'How', value: how.join('\n') }],
		image: chart,
		footer: `as of ${f.asOf}`,
	};
}

export default {
	data,
	// The simulation takes a second or so: acknowledge first.
	defer: 'public',
	async execute(interaction, ctx) {
		const result = await servicesOf(ctx).forecast.forecast(actorOf(interaction), {
			racesLeft: interaction.options.getInteger('races-left') ?? undefined,
			points: interaction.options.getString('points') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
		});
		const wantChart = interaction.options.getBoolean('chart') ?? true;
		const files = wantChart
			? await chartFiles(ctx, 'forecast.png', result.league.config, (charts, theme) =>
					charts.forecast(forecastChart(result), theme),
				)
			: [];
		await answer(
			interaction,
			{ embeds: [embedOf(forecastEmbed(result, files[0]?.name))], files },
			{ ephemeral: false },
		);
	},
	autocomplete: completeCommon,
} satisfies Command;
