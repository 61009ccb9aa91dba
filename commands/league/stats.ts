/**
 * `/league stats [league]` (everyone): how well each rating system predicted this league's winners, as a
 * table per system, the best predictor, and the reliability chart as the embed's image.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { answer } from '../../src/discord/reply.js';
import { EMBED_COLOURS, type EmbedSpec } from '../../src/formats/embed.js';
import {
	rankSystems,
	type LeagueStats,
	type SystemStats,
} from '../../src/services/calibration/league-stats-service.js';
import { CHARTED_SYSTEMS, reliabilityChartOf } from '../../src/services/calibration/stats-chart-data.js';
import { embedOf } from '../embed.js';
import { actorOf, chartFiles, minus, servicesOf } from '../shared.js';
import { plural } from '../../src/formats/plural.js';

/** One system's row of the table: name, winner log-likelihood, Brier score, winners picked, races scored. */
function row(s: SystemStats): string {
	const { races, skipped, winner_log_likelihood: ll, brier_winner: brier } = s.backtest;
	const cells =
		races === 0
			? ['—', '—', '—']
			: [minus(ll.toFixed(1)), brier!.toFixed(3), `${((s.stats.winnersPickedShare ?? 0) * 100).toFixed(1)}%`];
	const note = skipped > 0 ? ` (${skipped} not rated)` : '';
	return `${s.system.padEnd(8)}${cells[0]!.padStart(10)}${cells[1]!.padStart(7)}${cells[2]!.padStart(8)}${String(races).padStart(7)}${note}`;
}

/** The best predictor and how close the next one came (in log-likelihood, in all and per race). */
function bestLine(stats: LeagueStats): string {
	const best = stats.best;
	if (best === undefined) return 'No system could rate these races.';
	const scored = stats.systems.find((s) => s.system === best.system)!.backtest;
	const head = `Best predictor: **${best.system}** (winner log-likelihood ${minus(scored.winner_log_likelihood.toFixed(1))})`;
	if (best.next === undefined) return `${head}, the only system that rated every race.`;
	const perRace = best.next.margin / scored.races;
	return `${head}, ${best.next.margin.toFixed(1)} ahead of ${best.next.system} (${perRace.toFixed(3)} a race).`;
}

/**
 * Where results name cars: endure and speed with the car rated apart and without, so an organizer sees whether it
 * helps their league (`/league config cars:on|off`).
 */
export function carsLines(stats: LeagueStats): string[] {
	if (stats.cars === undefined || stats.cars.length === 0) return [];
	const ll = (x: number) => minus(x.toFixed(1));
	const line = (c: NonNullable<LeagueStats['cars']>[number]) => {
		if (c.with.races === 0) return `${c.system}: no race scored.`;
		const gain = c.with.winner_log_likelihood - c.without.winner_log_likelihood;
		const verdict =
			Math.abs(gain) < 0.05
				? 'no difference'
				: `cars ${gain > 0 ? 'help' : 'cost'} ${Math.abs(gain).toFixed(1)} (${(Math.abs(gain) / c.with.races).toFixed(3)} a race)`;
		return `${c.system}: with cars ${ll(c.with.winner_log_likelihood)} · without ${ll(c.without.winner_log_likelihood)}: ${verdict}; ${c.on ? 'on' : 'off'} in this league`;
	};
	return [
		'**The car apart from the driver** (winner LL, the other parameters as set; /league config cars:on|off):',
		...stats.cars.map(line),
	];
}

export function statsEmbed(stats: LeagueStats, chart: string | undefined): EmbedSpec {
	const table = [
		'```',
		`${'system'.padEnd(8)}${'winner LL'.padStart(10)}${'Brier'.padStart(7)}${'picked'.padStart(8)}${'races'.padStart(7)}`,
		...rankSystems(stats.systems).map(row),
		'```',
	];
	return {
		title: `Prediction stats: ${plural(stats.races, 'race')}`,
		author: stats.league.config.name,
		colour: EMBED_COLOURS.neutral,
		description: [
			'Each race predicted from the ratings before it.',
			...table,
			bestLine(stats),
			...carsLines(stats),
			'Winner LL: Σ ln P(actual winner), higher is better. Brier: lower is better. Picked: races the favourite won.',
		].join('\n'),
		image: chart,
		footer:
			chart === undefined
				? undefined
				: `Chart: the ${CHARTED_SYSTEMS} best systems, observed win rate by decile of predicted P(win); points on the dashed diagonal are calibrated.`,
	};
}

export async function leagueStats(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const stats = await servicesOf(ctx).stats.stats(actorOf(interaction), {
		league: interaction.options.getString('league') ?? undefined,
	});
	const chart = reliabilityChartOf(stats);
	const files =
		chart === undefined
			? []
			: await chartFiles(ctx, 'reliability.png', stats.league.config, (charts, theme) =>
					charts.reliability(chart, theme),
				);
	await answer(interaction, { embeds: [embedOf(statsEmbed(stats, files[0]?.name))], files }, { ephemeral: false });
}
