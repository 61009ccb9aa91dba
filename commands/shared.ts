/** What the league commands share: services from the context, the member as an Actor, common options, formatting. */
import {
	ApplicationCommandOptionType,
	type APIApplicationCommandBasicOption,
	type AutocompleteInteraction,
} from 'discord.js';
import type { ChartRenderer, ChartTheme } from '../src/charts/chart-types.js';
import type { LeagueConfig } from '../src/league/league-events.js';
import type { CommandContext } from '../src/discord/command.js';
import { escapeForDiscord } from '../src/formats/discord-escape.js';
import { systems } from '../src/ratings/index.js';
import type { Services } from '../src/services/index.js';
import type { Choice } from '../src/services/players/autocomplete.js';
import { actorOf } from '../src/discord/actor.js';

export { actorOf };

export function servicesOf(ctx: CommandContext): Services {
	if (ctx.services === undefined) throw new Error('league services are not wired into the command context');
	return ctx.services;
}

/** Escape user text (names, reasons) for Discord markdown: never a mention, never formatting. */
export const esc = escapeForDiscord;

export const leagueOption = {
	type: ApplicationCommandOptionType.String,
	name: 'league',
	description: 'League name (default: this channel’s league, or the server’s only league)',
	autocomplete: true,
	max_length: 64,
} as const satisfies APIApplicationCommandBasicOption;

export const systemOption = {
	type: ApplicationCommandOptionType.String,
	name: 'system',
	description: 'Rating system (default: the league’s headline system)',
	choices: Object.keys(systems).map((id) => ({ name: id, value: id })),
} as const satisfies APIApplicationCommandBasicOption;

export const pageOption = {
	type: ApplicationCommandOptionType.Integer,
	name: 'page',
	description: 'Page number (default 1)',
	min_value: 1,
} as const satisfies APIApplicationCommandBasicOption;

export const raceOption = {
	type: ApplicationCommandOptionType.String,
	name: 'race',
	description: 'Race id, e.g. R3',
	required: true,
	autocomplete: true,
	max_length: 100,
} as const satisfies APIApplicationCommandBasicOption;

/** Answers the focused league, player or race option; anything else gets no choices. */
export async function completeCommon(interaction: AutocompleteInteraction, ctx: CommandContext): Promise<void> {
	const { autocomplete } = servicesOf(ctx);
	const actor = actorOf(interaction);
	const focused = interaction.options.getFocused(true);
	const typed = String(focused.value);
	const league = focused.name === 'league' ? undefined : (interaction.options.getString('league') ?? undefined);
	let choices: Choice[] = [];
	if (focused.name === 'league') choices = await autocomplete.leagues(actor, typed);
	else if (focused.name === 'race') choices = await autocomplete.races(actor, league, typed);
	else if (focused.name === 'season') choices = await autocomplete.seasons(actor, league, typed);
	else if (focused.name === 'car') choices = await autocomplete.cars(actor, league, typed);
	else if (['player', 'from', 'into'].includes(focused.name))
		choices = await autocomplete.players(actor, league, typed);
	else if (focused.name === 'players' || focused.name === 'compare') {
		// A comma-separated field: complete the last name, keeping the ones before it.
		const cut = typed.lastIndexOf(',');
		const head = cut === -1 ? '' : `${typed.slice(0, cut + 1).trimEnd()} `;
		const last = typed.slice(cut + 1).trim();
		choices = (await autocomplete.players(actor, league, last))
			.map((c) => ({ name: `${head}${c.value}`, value: `${head}${c.value}` }))
			.filter((c) => c.value.length <= 100);
	}
	await interaction.respond(choices.map((c) => ({ name: c.name, value: c.value })));
}

// ---- number formatting (one place, so tests can format expected values the same way) --------------------------

export { fmtDelta, fmtPct, fmtPosition, fmtRating, minus } from '../src/formats/number-text.js';

export { uncertaintyLabel, uncertaintyText } from '../src/formats/rating-scale.js';
export { clip, clipLines } from '../src/formats/clip-text.js';

// ---- charts ------------------------------------------------------------------------------------------------------

export const chartOption = {
	type: ApplicationCommandOptionType.Boolean,
	name: 'chart',
	description: 'Attach a chart (default: yes)',
} as const satisfies APIApplicationCommandBasicOption;

/**
 * A chart as a reply attachment, in the league's chart theme: rendered when the context has a renderer (the bot and
 * the console do), else none.
 * The command has deferred before calling this (rendering takes tens of milliseconds).
 */
export async function chartFiles(
	ctx: CommandContext,
	name: string,
	league: Pick<LeagueConfig, 'chartTheme'>,
	render: (charts: ChartRenderer, theme: ChartTheme) => Promise<Buffer>,
): Promise<{ attachment: Buffer; name: string }[]> {
	if (ctx.charts === undefined) return [];
	try {
		return [{ attachment: await render(ctx.charts, league.chartTheme ?? 'dark'), name }];
	} catch (error) {
		// A chart is an extra: the reply goes without it rather than failing (the renderer's message names no user text).
		ctx.log.error({ err: error, chart: name }, 'chart not drawn');
		return [];
	}
}
