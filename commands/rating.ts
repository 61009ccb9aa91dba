/** `/rating [player] [system] [league]`: a player's rating, uncertainty, provisional status, rank, races, last change. */
import {
	InteractionContextType,
	ApplicationCommandOptionType,
	type ChatInputCommandInteraction,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Command, CommandContext } from '../src/discord/command.js';
import { UserFacingError } from '../src/discord/errors.js';
import { beforeAfter, standoutLines, whyLines } from './rating/why-text.js';
import { answer } from '../src/discord/reply.js';
import { standingColour, type EmbedSpec } from '../src/formats/embed.js';
import { shownSummary, type RatingScale } from '../src/formats/rating-scale.js';
import type { PlayerRating } from '../src/services/ratings/rating-service.js';
import { leaguePageUrl } from '../src/services/web/league-web-service.js';
import { leagueScale } from '../src/services/ratings/shown-scale.js';
import { embedOf } from './embed.js';
import {
	actorOf,
	chartFiles,
	chartOption,
	completeCommon,
	esc,
	fmtRating,
	leagueOption,
	servicesOf,
	systemOption,
	uncertaintyLabel,
	uncertaintyText,
} from './shared.js';
import { plural } from '../src/formats/plural.js';
import { recomputingNotice } from './recomputing-notice.js';
import { carEmbed, carPartText, carWhyLine, strengthText } from './rating/car.js';

const data = {
	name: 'rating',
	description: 'Show a player’s rating (default: your linked player)',
	// Leagues live in servers: Discord does not offer the command in DMs (the router refuses there too).
	contexts: [InteractionContextType.Guild],
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
			description: 'Other players, comma separated (at most 3): on the chart, with the head-to-head record',
			autocomplete: true,
			max_length: 200,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: 'car',
			description: 'A car instead of a player, where the league rates cars apart from drivers',
			autocomplete: true,
			max_length: 64,
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * The /rating reply: an embed coloured by standing, the numbers as fields, the last race explained, the chart; the
 * title links to the player's page when the league has a public one (`web`: the bot's public address).
 */
export function ratingEmbed(r: PlayerRating, chart: string | undefined, web?: string): EmbedSpec {
	const scale = leagueScale(r.league, r.system);
	// Markdown and mentions in a title read as in any reply: the name as typed (the author line is plain text).
	const title = esc(r.player.name);
	const url = leaguePageUrl(web, r.league, r.player.id);
	const footer = footerText(r, scale);
	const author = `${r.league.config.name} · ${r.system}`;
	if (!r.summary) {
		const description = `No rating yet under \`${r.system}\` (no rated race).`;
		return { title, author, description, colour: standingColour(undefined, true), footer, url };
	}
	const s = shownSummary(scale, r.summary);
	const inline = (name: string, value: string) => ({ name, value, inline: true });
	const carMove = r.lastChange?.car;
	const lastRace = (r.why || r.lastChange) && [
		...(r.why
			? whyLines(scale, r.why)
			: [
					`${esc(r.lastChange!.race)}${r.lastChange!.date ? ` (${r.lastChange!.date})` : ''}: ${beforeAfter(scale, r.lastChange!.before, r.lastChange!.after)}`,
				]),
		...(carMove !== undefined ? [carWhyLine(scale, carMove)] : []),
	];
	return {
		title,
		author,
		colour: standingColour(r.rank, s.provisional),
		description: [
			s.provisional ? `**Provisional**: ${r.provisionalRule}.` : 'Established.',
			...idleLines(r, scale),
			...(r.hiddenBecause !== undefined ? [`Not on the leaderboard: ${r.hiddenBecause}.`] : []),
		].join('\n'),
		fields: [
			// Where the league rates cars, the rating is the driver's part, and the car's part stands beside it.
			inline(r.car ? 'Driver' : 'Rating', fmtRating(s.rating)),
			r.car && inline('Car', `${carPartText(scale, r.car.part)} (${esc(r.car.name)})`),
			r.car && inline('Strength (driver + car)', strengthText(scale, r.summary.rating, r.car.part)),
			s.uncertainty !== undefined && inline(uncertaintyLabel(scale), uncertaintyText(scale, s.uncertainty)),
			inline('Rank', r.rank !== undefined ? `${r.rank} of ${r.rated}` : 'not on the leaderboard'),
			// Under the yearly reset the count restarts each season (the best and worst races span every season).
			inline(r.league.config.reset === 'yearly' ? 'Races this season' : 'Races', String(s.races)),
			lastRace && { name: 'Why the last race moved it', value: { lines: lastRace } },
			r.standouts && {
				name: r.league.config.reset === 'yearly' ? 'Best and worst races (every season)' : 'Best and worst races',
				value: { lines: standoutLines(scale, r.standouts) },
			},
			r.headToHead && { name: 'Head to head', value: { lines: r.headToHead.map(headToHeadLine) } },
		],
		image: chart,
		footer,
		url,
	};
}

/** `vs **Bob**: 3–2 (1 tie) in 6 races · last R12 (2026-11-20): ahead`: wins–losses from the player's side. */
export function headToHeadLine({ opponent, record }: NonNullable<PlayerRating['headToHead']>[number]): string {
	const vs = `vs **${esc(opponent.name)}**`;
	if (record.races === 0) return `${vs}: never rated in the same race`;
	const ties = record.ties > 0 ? ` (${plural(record.ties, 'tie')})` : '';
	const last = record.last;
	const outcome = { won: 'ahead', lost: 'behind', tied: 'tied' } as const;
	const lastText =
		last === undefined
			? ''
			: ` · last ${esc(last.race)}${last.date ? ` (${last.date})` : ''}: ${outcome[last.outcome]}`;
	return `${vs}: ${record.wins}–${record.losses}${ties} in ${plural(record.races, 'race')}${lastText}`;
}

/** `as of 2026-11-24`; on the points scale also the raw values, for whoever checks them against the CLI. */
function footerText(r: PlayerRating, scale: RatingScale): string {
	const asOf = `as of ${r.asOf}`;
	if (scale.kind !== 'points' || r.summary === undefined) return asOf;
	const raw = `raw R ${r.summary.rating.toFixed(4)}, k ${(r.summary.uncertainty ?? Number.NaN).toFixed(4)}`;
	return `${asOf} · points = 1500 + R × 400/ln 10 · ${raw}`;
}

/** How long the player has been idle, and what idle-time growth did since their last race. */
function idleLines(r: PlayerRating, scale: RatingScale): string[] {
	if (r.idle === undefined) return [];
	const { lastDate, days } = r.idle;
	const since = `Last race: ${lastDate}, ${days === 0 ? 'today' : `${plural(days, 'day')} ago`}`;
	if (days === 0 || r.summary === undefined) return [since];
	const now = shownSummary(scale, r.summary);
	const then = shownSummary(scale, r.idle.atLastRace);
	const changed: string[] = [];
	if (then.uncertainty !== undefined && now.uncertainty !== undefined) {
		changed.push(`${uncertaintyLabel(scale)} was ${uncertaintyText(scale, then.uncertainty)} at that race`);
	}
	if (fmtRating(then.rating) !== fmtRating(now.rating)) changed.push(`rating was ${fmtRating(then.rating)}`);
	if (now.provisional && !then.provisional) changed.push('established then, provisional again after the idle time');
	return [changed.length === 0 ? since : `${since} (${changed.join('; ')})`];
}

/** `⏳ The chart is still being prepared …`: the parts a big league's replay had not given yet (PlayerRating.preparing). */
export function preparingNotice(preparing: PlayerRating['preparing']): string | undefined {
	if (preparing === undefined || preparing.length === 0) return undefined;
	const parts = preparing.map((part) => (part === 'chart' ? 'the chart' : 'the last race’s explanation'));
	const are = parts.length === 1 ? 'is' : 'are';
	return `⏳ ${parts.join(' and ').replace(/^t/, 'T')} ${are} still being prepared for this league: ask again in a few seconds.`;
}

/** `/rating car:`: one car of a league that rates cars (a player or a comparison with it is refused). */
async function rateCar(interaction: ChatInputCommandInteraction, ctx: CommandContext, car: string): Promise<void> {
	const o = interaction.options;
	if (o.getString('player') !== null || o.getString('compare') !== null) {
		throw new UserFacingError('car-and-player', 'Give a player or a car, not both: /rating car: shows one car.');
	}
	const result = await servicesOf(ctx).cars.car(actorOf(interaction), {
		car,
		system: o.getString('system') ?? undefined,
		league: o.getString('league') ?? undefined,
	});
	const content = recomputingNotice(result.recomputing);
	await answer(interaction, { ...(content && { content }), embeds: [embedOf(carEmbed(result))] }, { ephemeral: false });
}

export default {
	data,
	defer: 'public',
	async execute(interaction, ctx) {
		const car = interaction.options.getString('car');
		if (car !== null) return rateCar(interaction, ctx, car);
		const result = await servicesOf(ctx).ratings.rating(actorOf(interaction), {
			player: interaction.options.getString('player') ?? undefined,
			system: interaction.options.getString('system') ?? undefined,
			league: interaction.options.getString('league') ?? undefined,
			chart: (interaction.options.getBoolean('chart') ?? true) && ctx.charts !== undefined,
			compare: interaction.options.getString('compare') ?? undefined,
		});
		const chart = result.chart;
		const files = chart
			? await chartFiles(ctx, 'rating.png', result.league.config, (charts, theme) => charts.ratingHistory(chart, theme))
			: [];
		const embed = embedOf(ratingEmbed(result, files[0]?.name, servicesOf(ctx).webUrl()));
		const content = [recomputingNotice(result.recomputing), preparingNotice(result.preparing)]
			.filter((line) => line !== undefined)
			.join('\n');
		await answer(interaction, { ...(content && { content }), embeds: [embed], files }, { ephemeral: false });
	},
	autocomplete: completeCommon,
} satisfies Command;
