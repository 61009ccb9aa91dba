/**
 * The post of a season's end (docs/championship.md "The season's end"): the champion, the final table, a chart of the
 * points as they added up, and three awards computed from the log, under the league's headline system:
 * - biggest rating gain: the largest rise of a shown rating from the day before the season's first day to its last
 *   day (or the reading day, if earlier), among drivers of the season rated on both days (a newcomer has no rating
 *   before, and has an award of their own);
 * - best newcomer: the best shown rating on the season's last day among drivers whose first race was in the season;
 * - most races: the drivers with the most races entered in the season (ties named together).
 * Ratings on those days are the daily standings (daily-standings.ts: each day as of itself), so the numbers are those
 * `/rating` showed on that day, and `pitwall replay --as-of` computes.
 */
import type { ChartRenderer } from '../../charts/chart-types.js';
import { escapeForDiscord as esc } from '../../formats/discord-escape.js';
import { EMBED_COLOURS, fitEmbed } from '../../formats/embed.js';
import { plural } from '../../formats/plural.js';
import { addDays } from '../../league/dates.js';
import type { LeagueLog } from '../../league/race-log.js';
import type { LeagueRepository } from '../../storage/ports.js';
import type { DailyStandingsService } from '../ratings/daily-standings.js';
import type { ChannelMessage } from '../posts/monthly-post-port.js';
import { leagueScale } from '../ratings/shown-scale.js';
import { fmtPoints, standingsEmbed } from './standings-embed.js';
import type { Championship } from './standings-service.js';
import { MAX_CHAMPIONSHIP_LINES } from '../../charts/chart-types.js';

export interface SeasonEndDeps {
	readonly repo: LeagueRepository;
	readonly daily: DailyStandingsService;
	readonly charts?: ChartRenderer | undefined;
}

export interface SeasonAwards {
	readonly gain?: { readonly player: string; readonly from: number; readonly to: number } | undefined;
	readonly newcomer?: { readonly player: string; readonly rating: number } | undefined;
	readonly mostRaces?: { readonly players: readonly string[]; readonly races: number } | undefined;
}

const CHART = 'season.png';
const fmt = (x: number) => x.toFixed(1);

/** The awards of a season (see the file's comment), ratings on the shown scale. */
export async function seasonAwards(deps: SeasonEndDeps, table: Championship, state: LeagueLog): Promise<SeasonAwards> {
	const { league, season, system } = table;
	const scale = leagueScale(league, system);
	const before = addDays(season.start, -1);
	const last = season.end !== undefined && season.end < table.asOf ? season.end : table.asOf;
	const days = await deps.daily.onDays(league, [before, last]);
	const ratingOn = (day: string) =>
		new Map((days.get(day)?.systems[system] ?? []).map((s) => [s.player, scale.rating(s.rating)]));
	const start = ratingOn(before);
	const end = ratingOn(last);
	const drivers = table.drivers.filter((d) => d.races > 0);
	// Ties keep the table's order (the better placed driver is named).
	let gain: SeasonAwards['gain'];
	for (const d of drivers) {
		const from = start.get(d.player);
		const to = end.get(d.player);
		if (from === undefined || to === undefined) continue;
		if (gain === undefined || to - from > gain.to - gain.from) gain = { player: d.name, from, to };
	}
	const veterans = new Set<string>();
	for (const race of state.races()) {
		if (race.status !== 'confirmed' || race.date === undefined || race.date >= season.start) continue;
		for (const e of race.entries) veterans.add(e.player);
	}
	let newcomer: SeasonAwards['newcomer'];
	for (const d of drivers) {
		const rating = end.get(d.player);
		if (veterans.has(d.player) || rating === undefined) continue;
		if (newcomer === undefined || rating > newcomer.rating) newcomer = { player: d.name, rating };
	}
	const most = Math.max(0, ...drivers.map((d) => d.races));
	const mostRaces =
		most === 0 ? undefined : { players: drivers.filter((d) => d.races === most).map((d) => d.name), races: most };
	return { gain, newcomer, mostRaces };
}

/** The chart's data: the leading drivers' points after each race (counted results less deductions, as the table). */
export function pointsRace(table: Championship): { rounds: string[]; series: { name: string; points: number[] }[] } {
	const rounds = table.rounds.map((r) => r.id);
	const index = new Map(rounds.map((id, i) => [id, i]));
	const series = table.drivers.slice(0, MAX_CHAMPIONSHIP_LINES).map((d) => {
		const perRace = rounds.map(() => 0);
		for (const r of d.results) if (!r.dropped) perRace[index.get(r.race)!]! += r.points;
		for (const p of d.deductions) {
			const at = index.get(p.race);
			if (at !== undefined) perRace[at]! -= p.points;
		}
		let sum = 0;
		return { name: d.name, points: perRace.map((p) => (sum += p)) };
	});
	return { rounds, series };
}

export async function composeSeasonEnd(
	deps: SeasonEndDeps,
	table: Championship,
	state: LeagueLog,
): Promise<ChannelMessage> {
	const league = esc(table.league.config.name);
	const season = esc(table.season.name);
	if (table.races === 0 || table.drivers.length === 0) {
		return { content: `The **${season}** season of **${league}** ended without a race.` };
	}
	const champions = table.drivers.filter((d) => d.place === 1);
	const first = champions[0]!;
	const names = champions.map((d) => `**${esc(d.name)}**`);
	const content =
		champions.length === 1
			? `🏆 **${esc(first.name)}** is the **${season}** champion of **${league}**: ${fmtPoints(first.points)} points, ${plural(first.wins, 'win')} in ${plural(first.races, 'race')}.`
			: `🏆 ${names.join(' and ')} share the **${season}** title of **${league}**: ${fmtPoints(first.points)} points each, equal on every place.`;
	const awards = await seasonAwards(deps, table, state);
	const lines = [
		awards.gain !== undefined &&
			`Biggest rating gain: **${esc(awards.gain.player)}** ${awards.gain.to >= awards.gain.from ? '+' : '−'}${fmt(Math.abs(Number(fmt(awards.gain.to)) - Number(fmt(awards.gain.from))))} (${fmt(awards.gain.from)} → ${fmt(awards.gain.to)})`,
		awards.newcomer !== undefined && `Best newcomer: **${esc(awards.newcomer.player)}** ${fmt(awards.newcomer.rating)}`,
		awards.mostRaces !== undefined &&
			`Most races: ${awards.mostRaces.players.map((p) => `**${esc(p)}**`).join(', ')} (${awards.mostRaces.races})`,
	].filter((line): line is string => typeof line === 'string');
	let files: { name: string; data: Buffer }[] = [];
	if (deps.charts !== undefined) {
		const { rounds, series } = pointsRace(table);
		const data = await deps.charts.championship(
			{
				league: table.league.config.name,
				system: 'points',
				asOf: table.season.end !== undefined && table.season.end < table.asOf ? table.season.end : table.asOf,
				heading: `${table.season.name} season`,
				rounds,
				series,
				subtitle: `points ${table.pointsText}${table.bestResults === undefined ? '' : ` · best ${table.bestResults} results count`}`,
			},
			table.league.config.chartTheme ?? 'dark',
		);
		files = [{ name: CHART, data }];
	}
	const base = standingsEmbed(table);
	const embed = fitEmbed({
		...base,
		title: `Final table · ${esc(table.season.name)}`,
		colour: EMBED_COLOURS.gold,
		fields: [
			...(base.fields ?? []),
			lines.length > 0 && { name: `Awards (\`${table.system}\` ratings)`, value: { lines } },
		],
		...(files.length > 0 && { image: CHART }),
	});
	return { content, embeds: [embed], files };
}
