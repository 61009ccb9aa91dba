import type { ChartRenderer } from '../../charts/chart-types.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { addDays } from '../../league/dates.js';
import { summarizeMonth, type Mover } from '../../league/month-summary.js';
import { filterStandings, filterText } from '../../league/leaderboard-filter.js';
import { rankingPostOf } from '../../league/ranking-post.js';
import type { RaceRecord } from '../../league/race-log.js';
import type { Standing } from '../../league/replay.js';
import type { LeagueRepository } from '../../storage/ports.js';
import { leaderboardChart } from '../ratings/chart-data.js';
import type { DailyStandingsService } from '../ratings/daily-standings.js';
import { calendarDay, leagueReadingDay } from '../leagues/league-day.js';
import type { ChannelMessage, ComposeOptions, MonthlyPostComposer } from './monthly-post-port.js';
import { leagueScale } from '../ratings/shown-scale.js';
import { listWithMore } from '../../formats/clip-text.js';
import { EMBED_COLOURS, fitEmbed } from '../../formats/embed.js';
import { uncertaintyText } from '../../formats/rating-scale.js';
import { plural } from '../../formats/plural.js';

/**
 * The monthly ranking post's content, under the league's headline system. The post of month M (day d)
 * covers the period since the post of M-1: the standings at its start are those of the day before d of M-1 (a daily
 * record, recomputed if stale), the standings at its end those of the day the post is made (as every read). It holds
 * the top 20 and how many are rated, the biggest movers, the newcomers, who became established, the races run, and
 * the leaderboard chart, titled with the period, each player's move in places since its start beside their name.
 */

export const POST_TOP = 20;
export const POST_MOVERS = 5;

export interface RankingComposerDeps {
	readonly repo: LeagueRepository;
	readonly daily: DailyStandingsService;
	/** Without a renderer the post has no chart. */
	readonly charts?: ChartRenderer | undefined;
}

const fmt = (x: number) => x.toFixed(1);
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;

/** `YYYY-MM` of the month before `month`. */
export function previousMonth(month: string): string {
	const [year, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
	return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

const monthName = (month: string) =>
	new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
		new Date(`${month}-01T12:00:00Z`),
	);

export function createRankingComposer(deps: RankingComposerDeps): MonthlyPostComposer {
	const { repo, daily, charts } = deps;
	return {
		async compose(leagueId: string, month: string, options: ComposeOptions): Promise<ChannelMessage | undefined> {
			const league = await repo.getLeague(leagueId);
			if (league === undefined) throw new Error(`no league ${leagueId}`);
			const { config } = league;
			const system = config.headline;
			const state = await repo.loadState(leagueId);
			const day = String(rankingPostOf(config).day).padStart(2, '0');
			const periodStart = `${previousMonth(month)}-${day}`;
			const asOf = leagueReadingDay(state, config.timezone, options.now);
			const before = (await daily.onDays(league, [addDays(periodStart, -1)])).values().next().value;
			const start = before?.systems[system] ?? [];
			const end = (await repo.ratingsAt(leagueId, system, asOf)).standings;
			if (end.length === 0) return undefined;
			const full = summarizeMonth(start, end, { top: POST_TOP, movers: POST_MOVERS });
			// The table (and chart) show whom the leaderboard shows, ranked among them (leaderboard-filter.ts).
			const { shown: onBoard, hidden } = filterStandings(end, config, asOf);
			const filter = filterText(config);
			const summary = { ...full, top: onBoard.slice(0, POST_TOP), rated: onBoard.length };
			const name = (id: string) => escapeForDiscord(state.resolve(id)?.name ?? id);
			const confirmed = state.races().filter((r) => r.status === 'confirmed');
			// A race without a date counts in every day's standings, so no day before the period tells its moves: such a
			// race is counted in the period by the day it was stored, and a league whose races all lack a date (an
			// imported undated history) gets its table without moves, saying why, instead of "0 races since …".
			const storedDay = (r: RaceRecord) => calendarDay(config.timezone, new Date(r.submittedAt));
			const undated = confirmed.length > 0 && confirmed.every((r) => r.date === undefined);
			const races = confirmed.filter((r) =>
				r.date === undefined
					? storedDay(r) >= periodStart && storedDay(r) <= asOf
					: r.date >= periodStart && r.date <= asOf,
			);

			const scale = leagueScale(league, system);
			const shown = (raw: number) => fmt(scale.rating(raw));
			const row = (s: Standing, rank: number) => {
				const u = scale.uncertainty(s.uncertainty);
				const uText =
					u === undefined ? '' : ` (${scale.uncertaintyName === 'RD' ? 'RD ' : ''}${uncertaintyText(scale, u)})`;
				return `${rank}. **${name(s.player)}**${s.provisional ? '†' : ''} ${shown(s.rating)}${uText}`;
			};
			// The change shown is the difference of the two ratings shown, so the numbers add up on screen.
			const mover = (m: Mover) =>
				`**${name(m.player)}** ${signed(Number(shown(m.to)) - Number(shown(m.from)))} (${shown(m.from)} → ${shown(m.to)})`;
			const period = day === '01' ? monthName(previousMonth(month)) : `${periodStart} to ${asOf}`;
			const list = (field: string, items: readonly string[], max?: number) =>
				items.length > 0 && { name: field, value: listWithMore(items, max) };
			const top = summary.top.map((s, i) => ({ ...s, name: state.resolve(s.player)?.name ?? s.player, rank: i + 1 }));
			// The chart says who moved: each player's place on the leaderboard the day before the period against now.
			const startDay = addDays(periodStart, -1);
			const placeBefore = new Map(filterStandings(start, config, startDay).shown.map((s, i) => [s.player, i + 1]));
			const moved = (player: string, rank: number) => {
				if (undated) return undefined;
				const was = placeBefore.get(player);
				return was === undefined ? ('new' as const) : was - rank;
			};
			// A month whose races rated no one (every racer DNS) has no ranking to draw.
			const drawn = charts !== undefined && top.length > 0 ? charts : undefined;
			const image = drawn === undefined ? undefined : 'ranking.png';
			const embed = fitEmbed({
				title: `Monthly ranking, ${period}`,
				author: `${config.name} · ${system}`,
				colour: EMBED_COLOURS.gold,
				description: {
					head: [
						...(options.late ? ['*Posted late: the bot was not running at the scheduled time.*'] : []),
						`${plural(races.length, 'race')}${undated ? ' stored' : ''} since ${periodStart} · ` +
							`${plural(summary.rated, 'rated player')}` +
							(summary.rated > POST_TOP ? ` (top ${POST_TOP} below)` : ''),
						...(undated
							? [
									`No race of ${escapeForDiscord(config.name)} carries a date, so the table is the standings after all ` +
										`${plural(confirmed.length, 'race')}, without the month's moves.`,
								]
							: []),
					],
					lines: summary.top.map((s, i) => row(s, i + 1)),
				},
				fields: [
					// Undated races count on every day: no day before the period shows who moved.
					!undated &&
						summary.risers.length > 0 && { name: 'Biggest gains', value: { lines: summary.risers.map(mover) } },
					!undated &&
						summary.fallers.length > 0 && { name: 'Biggest drops', value: { lines: summary.fallers.map(mover) } },
					!undated &&
						list(
							'Newcomers',
							summary.newcomers.map((s) => name(s.player)),
						),
					!undated &&
						list(
							'Now established',
							summary.established.map((s) => name(s.player)),
						),
					list(
						'Races',
						races.map(
							(r) =>
								`${r.id}${r.name ? ` “${escapeForDiscord(r.name)}”` : ''} (${r.date ?? `undated, stored ${storedDay(r)}`})`,
						),
						6,
					),
				],
				image,
				footer: `as of ${asOf}${filter === undefined ? '' : ` · ${filter}; ${hidden} hidden`} · † provisional`,
			});
			const monthChart = () => {
				const chart = leaderboardChart({ league, system, asOf }, top);
				const rows = chart.rows.map((row) => ({ ...row, moved: moved(top[row.rank - 1]!.player, row.rank) }));
				return { ...chart, heading: `Monthly ranking, ${period}`, rows };
			};
			const content = `**${escapeForDiscord(config.name)}**: the monthly ranking is out.`;
			const files =
				drawn === undefined
					? []
					: [{ name: 'ranking.png', data: await drawn.leaderboard(monthChart(), config.chartTheme ?? 'dark') }];
			return { content, embeds: [embed], files };
		},
	};
}
