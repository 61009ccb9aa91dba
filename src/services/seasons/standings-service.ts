import {
	championship,
	type ChampionshipTable,
	type DriverRow,
	type PointsDeduction,
	type TeamRow,
} from '../../league/championship.js';
import type { LeagueEvent } from '../../league/league-events.js';
import { penaltyKey, teamAt, type PenaltyRecord } from '../../league/penalties.js';
import type { LeagueLog, PlayerInfo, RaceRecord } from '../../league/race-log.js';
import { findSeason, racesOfSeason, seasonsOf, type Season } from '../../league/seasons.js';
import { F1_POINTS, pointsTableText } from '../../formats/points-table.js';
import { escapeForDiscord } from '../../formats/discord-escape.js';
import { shownSummary } from '../../formats/rating-scale.js';
import type { Race, RaceEntry } from '../../ratings/types.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { requireOrganizer, type Actor } from '../actor.js';
import { refuse, refused } from '../errors.js';
import type { LeagueService } from '../leagues/league-service.js';
import { leagueReadingDay } from '../leagues/league-day.js';
import {
	createWaitingItems,
	expiredPreview,
	findStoredPreview,
	newPreviewId,
	PREVIEW_TTL_MS,
	storePreviewOnce,
} from '../races/previews.js';
import { splitRaceRef } from '../races/race-service.js';
import { findPlayer } from '../players/players.js';
import { effectToday, type RatingEffect } from '../races/rating-effect.js';
import { leagueScale } from '../ratings/shown-scale.js';
import { createDailyStandingsService, type DailyStandingsService } from '../ratings/daily-standings.js';
import type { ChartRenderer } from '../../charts/chart-types.js';
import type { ChannelMessage } from '../posts/monthly-post-port.js';
import { composeSeasonEnd } from './season-end-post.js';

/**
 * The championship (docs/championship.md): the table of a season (`/standings`, the league's web page), penalties
 * (`/race penalty`: a time penalty previewed and stored on Confirm, a points deduction stored at once;
 * `/race penalty-withdraw`) and teams (`/player team`). Every write is an organizer's, checked here.
 */

export interface StandingsInput {
	readonly league?: string | undefined;
	/** A season's name; absent: the current season (seasons.ts findSeason). */
	readonly season?: string | undefined;
}

/** A driver's row of the table, with their name and their rating in the headline system as /leaderboard shows it. */
export interface StandingsRow extends DriverRow {
	readonly name: string;
	/** The rating on the shown scale (shown-scale.ts); undefined: not rated in the headline system. */
	readonly rating?: number | undefined;
	readonly uncertainty?: number | undefined;
	readonly provisional?: boolean | undefined;
}

/** A team's row of the table, its drivers by name (most points for the team first). */
export type TeamStandingsRow = Omit<TeamRow, 'perRace'>;

/** The championship of a season as plain data (what `/standings`, the season-end post and the web page show). */
export interface Championship {
	readonly league: LeagueInfo;
	readonly season: Season;
	/** The day it is read on (the league's reading day). */
	readonly asOf: string;
	/** The headline system the ratings beside are of. */
	readonly system: string;
	readonly points: readonly number[];
	/** `f1`, `motogp` or the list (points-table.ts). */
	readonly pointsText: string;
	readonly bestResults?: number | undefined;
	/** Races of the season counted. */
	readonly races: number;
	/** Those races, in the season's order (the order of LeagueLog.races among them). */
	readonly rounds: readonly {
		readonly id: string;
		readonly name?: string | undefined;
		readonly date?: string | undefined;
	}[];
	readonly drivers: readonly StandingsRow[];
	readonly teams: readonly TeamStandingsRow[];
	/** The penalties of the season's races in force (points deductions and time penalties), in the order given. */
	readonly penalties: readonly PenaltyRecord[];
	/** The asking member's player id, when linked. */
	readonly me?: string | undefined;
}

export interface PenaltyInput {
	readonly league?: string | undefined;
	/** `R3` or `League/R3`. */
	readonly race: string;
	readonly player: string;
	readonly seconds?: number | undefined;
	readonly points?: number | undefined;
	readonly reason: string;
}

/** One racer of a time penalty's preview: place now and after, as `/race edit`'s preview lists them. */
export interface PenaltyLine {
	readonly player: string;
	readonly name: string;
	readonly status: RaceEntry['status'];
	readonly position: number;
	readonly time?: number | undefined;
}

/** A time penalty waiting for Confirm: the race's order now and after, who moves, what today's ratings do. */
export interface PenaltyPreview {
	readonly id: string;
	readonly league: LeagueInfo;
	readonly race: string;
	readonly player: string;
	readonly name: string;
	readonly seconds: number;
	readonly reason: string;
	readonly before: readonly PenaltyLine[];
	readonly after: readonly PenaltyLine[];
	/** Racers whose position changes: `name`, from, to. */
	readonly moves: readonly { readonly name: string; readonly from: number; readonly to: number }[];
	readonly effect: RatingEffect;
	readonly expiresAt: Date;
	readonly by: string;
}

/** A penalty stored (or, `already`, stored by an earlier press of the same Confirm). */
export interface GivenPenalty {
	readonly already: boolean;
	readonly league: LeagueInfo;
	readonly penalty: PenaltyRecord;
	readonly name: string;
}

export interface WithdrawnPenalty {
	readonly league: LeagueInfo;
	readonly penalty: PenaltyRecord;
	readonly name: string;
}

export interface StandingsService {
	table(actor: Actor, input: StandingsInput): Promise<Championship>;
	/** A points deduction is stored at once (`given`); a time penalty is previewed (`preview`), stored on Confirm. */
	penalize(
		actor: Actor,
		input: PenaltyInput,
	): Promise<{ readonly preview: PenaltyPreview } | { readonly given: GivenPenalty }>;
	confirmPenalty(actor: Actor, previewId: string): Promise<GivenPenalty>;
	cancelPenalty(actor: Actor, previewId: string): Promise<PenaltyPreview>;
	withdraw(
		actor: Actor,
		input: { league?: string | undefined; penalty: string; reason: string },
	): Promise<WithdrawnPenalty>;
	/**
	 * The post of a season's end (season-end-post.ts): the champion, the final table, the points chart, the awards.
	 * What `/season end` (or a job) posts in the league's ranking channel; undefined for an unknown season.
	 */
	seasonEndPost(leagueId: string, seasonName: string): Promise<ChannelMessage | undefined>;
	/** `/player team`: the player's team from now on; `team` undefined or empty: no team. */
	setTeam(
		actor: Actor,
		input: { league?: string | undefined; player: string; team?: string | undefined },
	): Promise<{ league: LeagueInfo; player: PlayerInfo; team: string | undefined }>;
}

export interface StandingsServiceOptions {
	readonly clock?: () => Date;
	readonly newId?: () => string;
	/** The standings of past days, for the season-end post's awards (default: computed from the log). */
	readonly daily?: DailyStandingsService | undefined;
	/** The season-end post's chart (without a renderer, the post has none). */
	readonly charts?: ChartRenderer | undefined;
}

/** The championship of `season` (a name, or the current one) as the league shows it on `now`'s reading day. */
export async function championshipOf(
	repo: LeagueRepository,
	league: LeagueInfo,
	seasonRef: string | undefined,
	now: Date,
	me?: string,
): Promise<Championship> {
	const state = await repo.loadState(league.id);
	const asOf = leagueReadingDay(state, league.config.timezone, now);
	const undated = seasonRef === undefined ? undatedHistory(state) : undefined;
	const season = undated?.season ?? findSeason(state, seasonRef, asOf);
	if (season === undefined) throw noSeason(state, league, seasonRef);
	const records = undated?.races ?? racesOfSeason(state, season);
	const seqOf = new Map(records.map((r) => [r.id, r.seq]));
	const races: readonly Race[] = records;
	const raceIds = new Set(seqOf.keys());
	const penalties = state.penalties().filter((p) => p.withdrawn === undefined && raceIds.has(p.race));
	const deductions: PointsDeduction[] = penalties
		.filter((p) => p.kind === 'points')
		.map((p) => ({ id: p.id, race: p.race, player: p.player, points: p.points ?? 0, reason: p.reason }));
	const points = league.config.points ?? F1_POINTS;
	const bestResults = league.config.bestResults;
	const table: ChampionshipTable = championship({
		races,
		points,
		bestResults,
		deductions,
		teamOf: (player, race) => teamAt(state.resolve(player)?.teams, seqOf.get(race.id) ?? Infinity),
	});
	const system = league.config.headline;
	const scale = leagueScale(league, system);
	const ratings = new Map((await repo.ratingsAt(league.id, system, asOf)).standings.map((s) => [s.player, s]));
	const nameOf = (id: string) => state.resolve(id)?.name ?? id;
	const drivers = table.drivers.map((row): StandingsRow => {
		const standing = ratings.get(row.player);
		const shown = standing === undefined ? undefined : shownSummary(scale, standing);
		return {
			...row,
			name: nameOf(row.player),
			...(shown !== undefined && {
				rating: shown.rating,
				uncertainty: shown.uncertainty,
				provisional: shown.provisional,
			}),
		};
	});
	const teams = table.teams.map(({ perRace: _perRace, ...t }): TeamStandingsRow => ({
		...t,
		drivers: t.drivers.map(nameOf),
	}));
	return {
		league,
		season,
		asOf,
		system,
		points,
		pointsText: pointsTableText(points),
		...(bestResults !== undefined && { bestResults }),
		races: table.races,
		rounds: records.map((r) => ({ id: r.id, name: r.name, date: r.date })),
		drivers,
		teams,
		penalties,
		...(me !== undefined && { me }),
	};
}

/**
 * A league whose races carry no dates has no calendar to count seasons in (seasons.ts), but a championship still: its
 * whole history, as the forecast reads such a league from zero. Undefined for a league with a season.
 */
function undatedHistory(state: LeagueLog): { season: Season; races: readonly RaceRecord[] } | undefined {
	if (seasonsOf(state).length > 0 || state.seasons().length > 0) return undefined;
	const races = state
		.ratedRaces()
		.map(({ race }) => state.race(race.id))
		.filter((record): record is RaceRecord => record !== undefined);
	if (races.length === 0) return undefined;
	// No start day: the history has none. Only the name is shown (the season's end post is for named seasons).
	return { season: { name: 'All races (undated)', start: '', implicit: true }, races };
}

function noSeason(state: LeagueLog, league: LeagueInfo, ref: string | undefined) {
	const name = escapeForDiscord(league.config.name);
	const seasons = seasonsOf(state);
	if (seasons.length === 0) {
		return refused(
			'no-season',
			`**${name}** has no season yet: a season counts dated races (the calendar year of each, or the seasons started with /season start).`,
		);
	}
	const list = seasons.map((s) => escapeForDiscord(s.name)).join(', ');
	return refused(
		'unknown-season',
		`**${name}** has no season "${escapeForDiscord((ref ?? '').slice(0, 64))}": its seasons are ${list}.`,
	);
}

export function createStandingsService(
	repo: LeagueRepository,
	leagues: LeagueService,
	options: StandingsServiceOptions = {},
): StandingsService {
	const { clock = () => new Date(), newId = newPreviewId } = options;
	const pending = createWaitingItems(
		repo,
		clock,
		(p: { preview: PenaltyPreview; event: Extract<LeagueEvent, { type: 'penalty-given' }> }) => p.preview,
	);

	const given = async (league: LeagueInfo, previewId: string | undefined, penalty: string | undefined) => {
		const state = await repo.loadState(league.id, { fresh: previewId !== undefined });
		const record =
			penalty !== undefined
				? state.penalties().find((p) => p.id === penalty)
				: state.penalties().find((p) => p.preview === previewId);
		if (record === undefined) throw new Error('a stored penalty is missing from the log');
		return { league, penalty: record, name: state.resolve(record.player)?.name ?? record.player };
	};

	/** The event of a penalty as the organizer gave it, checked against the log (nothing stored). */
	const plan = async (actor: Actor, input: PenaltyInput) => {
		const { league: leagueRef, race } = splitRaceRef(input.race);
		const league = await leagues.resolve(actor, input.league ?? leagueRef);
		requireOrganizer(actor, league.config);
		const hasSeconds = input.seconds !== undefined;
		const hasPoints = input.points !== undefined;
		if (hasSeconds === hasPoints) {
			throw refused(
				'bad-penalty',
				'Give either seconds: (a time penalty: added to the finish time) or points: (a deduction from the championship total), one of them. Nothing was stored.',
			);
		}
		const state = await repo.loadState(league.id);
		const player = findPlayer(state, input.player, actor, league.config.name);
		const event = {
			type: 'penalty-given',
			race,
			player: player.id,
			kind: hasSeconds ? 'time' : 'points',
			...(hasSeconds ? { seconds: input.seconds } : { points: input.points }),
			reason: input.reason,
			by: actor.userId,
			at: clock().toISOString(),
		} as const satisfies LeagueEvent;
		await refuse('bad-penalty', () => state.check(event));
		return { league, state, player, event };
	};

	return {
		async table(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			const state = await repo.loadState(league.id);
			return championshipOf(repo, league, input.season, clock(), state.playerByUser(actor.userId)?.id);
		},

		async penalize(actor, input) {
			const { league, state, player, event } = await plan(actor, input);
			if (event.kind === 'points') {
				await refuse('bad-penalty', () => repo.appendEvent(league.id, event));
				const stored = await repo.loadState(league.id);
				const penalty = stored.penalties().at(-1)!;
				return { given: { already: false, league, penalty, name: player.name } };
			}
			const record = state.race(event.race)!;
			// The race as it would become: the event applied to a copy of the log (nothing stored).
			const copy = state.copy();
			copy.apply({ ...event, seq: copy.seq() + 1 });
			const lines = (entries: readonly RaceEntry[]): PenaltyLine[] =>
				entries.map((e) => ({
					player: e.player,
					name: state.resolve(e.player)?.name ?? e.player,
					status: e.status,
					position: e.position,
					...(e.time !== undefined && { time: e.time }),
				}));
			const before = lines(record.entries);
			const after = lines(copy.race(record.id)!.entries);
			const was = new Map(before.map((l) => [l.player, l.position]));
			const moves = after
				.filter((l) => l.status === 'finished' && was.get(l.player) !== l.position)
				.map((l) => ({ name: l.name, from: was.get(l.player)!, to: l.position }));
			const effect = await refuse('bad-penalty', () =>
				effectToday(repo, league, state, clock(), event, {
					race: record.id,
					focus: () => record.entries.map((e) => e.player),
				}),
			);
			const preview: PenaltyPreview = {
				id: newId(),
				league,
				race: record.id,
				player: player.id,
				name: player.name,
				seconds: input.seconds!,
				reason: event.reason,
				before,
				after,
				moves,
				effect,
				expiresAt: new Date(clock().getTime() + PREVIEW_TTL_MS),
				by: actor.userId,
			};
			pending.set(preview.id, { preview, event });
			return { preview };
		},

		async confirmPenalty(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined) {
				const found = await findStoredPreview(repo, leagues, actor, previewId, 'penalty');
				if (found) return { already: true, ...(await given(found.league, previewId, found.stored.penalty)) };
				throw expiredPreview('nothing was stored', 'Give the penalty again with /race penalty.');
			}
			const { league, item } = claimed;
			const done = await storePreviewOnce(repo, league, previewId, 'penalty', 'bad-penalty', () =>
				repo.appendEvent(league.id, { ...item.event, preview: previewId, by: actor.userId, at: undefined }),
			);
			pending.delete(previewId);
			const penalty = 'already' in done ? done.already.penalty : undefined;
			return { already: 'already' in done, ...(await given(league, previewId, penalty)) };
		},

		async cancelPenalty(actor, previewId) {
			const claimed = await pending.claim(actor, previewId);
			if (claimed === undefined)
				throw expiredPreview('nothing was stored', 'Give the penalty again with /race penalty.');
			pending.delete(previewId);
			return claimed.item.preview;
		},

		async withdraw(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			requireOrganizer(actor, league.config);
			const id = penaltyKey(input.penalty);
			const state = await repo.loadState(league.id);
			if (!state.penalties().some((p) => p.id === id)) {
				const ids = state
					.penalties()
					.filter((p) => p.withdrawn === undefined)
					.map((p) => p.id);
				throw refused(
					'unknown-penalty',
					`There is no penalty ${escapeForDiscord(input.penalty.slice(0, 20))} in ${escapeForDiscord(league.config.name)}` +
						(ids.length === 0 ? ': it has no penalty in force.' : `: those in force are ${ids.slice(-20).join(', ')}.`),
				);
			}
			await refuse('bad-penalty', () =>
				repo.appendEvent(league.id, { type: 'penalty-withdrawn', penalty: id, reason: input.reason, by: actor.userId }),
			);
			return given(league, undefined, id);
		},

		async seasonEndPost(leagueId, seasonName) {
			const league = await repo.getLeague(leagueId);
			if (league === undefined) return undefined;
			const state = await repo.loadState(leagueId);
			const season = seasonsOf(state).find((s) => s.name.toLowerCase() === seasonName.trim().toLowerCase());
			if (season === undefined) return undefined;
			const table = await championshipOf(repo, league, season.name, clock());
			return composeSeasonEnd(
				{ repo, daily: options.daily ?? createDailyStandingsService(repo), charts: options.charts },
				table,
				state,
			);
		},

		async setTeam(actor, input) {
			const league = await leagues.resolve(actor, input.league);
			requireOrganizer(actor, league.config);
			const state = await repo.loadState(league.id);
			const player = findPlayer(state, input.player, actor, league.config.name);
			const team = input.team?.trim() || undefined;
			await refuse('bad-team', () =>
				repo.appendEvent(league.id, { type: 'team-set', player: player.id, team: team ?? null, by: actor.userId }),
			);
			const after = await repo.loadState(league.id);
			return { league, player: after.resolve(player.id)!, team };
		},
	};
}
