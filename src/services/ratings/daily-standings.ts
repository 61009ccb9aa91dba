import { DAYS_PER_SLICE, RACES_PER_STEP, yieldToEventLoop } from '../../event-loop.js';
import { runInSlices } from '../../storage/in-slices.js';
import { addDays } from '../../league/dates.js';
import type { LeagueLog } from '../../league/race-log.js';
import type { Standing } from '../../league/replay.js';
import { latestRaceDate, standingsOnDaysInSteps, standingsUnchangedSince } from '../../league/standings.js';
import { raceSystems } from '../../ratings/index.js';
import type { DailyStandings } from '../../storage/records.js';
import type { LeagueInfo, LeagueRepository } from '../../storage/ports.js';
import { calendarDay } from '../leagues/league-day.js';
import { replayOptionsOf } from '../../league/replay-options.js';

/**
 * Daily standings: once a day per league, just after its midnight, the standings of every system as of
 * the day that just ended, written as a derived record keyed by (league, day) only if absent. After downtime the next run fills every missed day (at most
 * MAX_BACKFILL_DAYS): each day is computed as of itself (standings.ts), so a filled-in day equals the record its own
 * run would have written. Records are caches: `onDays` checks each against the log and recomputes a stale one.
 */

/** The most days one run fills in for a league after downtime (older days are computed on demand by `onDays`). */
export const MAX_BACKFILL_DAYS = 400;

export interface DailyRunResult {
	readonly leagues: number;
	/** Records written by this run (a record that already existed is not counted). */
	readonly written: number;
}

export interface DailyStandingsService {
	/**
	 * The job's run: write every league's due days up to yesterday in its time zone. Every league the store lists, and
	 * those of `guildIds` too (the servers the bot is in: a store written before the list of servers existed lists none).
	 */
	writeDue(now: Date, guildIds?: Iterable<string>): Promise<DailyRunResult>;
	/** A league's standings on `days`, from valid records; missing or stale days are computed and cached. */
	onDays(league: LeagueInfo, days: readonly string[]): Promise<Map<string, DailyStandings>>;
}

export function createDailyStandingsService(repo: LeagueRepository): DailyStandingsService {
	/** Every system's standings on `days`, computed at the log's head. */
	const compute = async (league: LeagueInfo, state: LeagueLog, days: readonly string[]): Promise<DailyStandings[]> => {
		// The log seq the records are computed at, taken with the races: the work below yields, and an event appended
		// meanwhile must leave the records older than it (then judged stale), never newer.
		const basis = state.seq();
		const races = state.ratedRaces().map((r) => r.race);
		const latest = latestRaceDate(races);
		const bySystem = new Map<string, Map<string, Standing[]>>();
		// Days on or after every race date: the repository's replay at the head, grown (the cheap path, and the same
		// numbers: every race counts on such a day). Earlier days: a replay of the races that had happened by then.
		const late = days.filter((day) => latest === undefined || day >= latest);
		const early = days.filter((day) => !late.includes(day));
		for (const system of raceSystems) {
			const onDays = new Map<string, Standing[]>();
			for (let i = 0; i < late.length; i += DAYS_PER_SLICE) {
				const slice = await repo.standingsOn(league.id, system.id, late.slice(i, i + DAYS_PER_SLICE));
				for (const [day, rows] of slice) onDays.set(day, rows);
				await yieldToEventLoop();
			}
			if (early.length > 0) {
				const params: unknown = system.params(league.config.params[system.id]);
				const options = replayOptionsOf(league.config, state.seasons());
				const steps = standingsOnDaysInSteps(system, params, races, early, options, RACES_PER_STEP);
				for (const [day, rows] of await runInSlices(steps)) onDays.set(day, rows);
			}
			bySystem.set(system.id, onDays);
			await yieldToEventLoop();
		}
		return days.map((day) => ({
			league: league.id,
			day,
			basis,
			systems: Object.fromEntries([...bySystem].map(([id, onDays]) => [id, onDays.get(day)!.map(plainRow)])),
		}));
	};

	/** Records the days up to yesterday in the league's time zone: each day is recorded once it is over. */
	const writeLeague = async (league: LeagueInfo, now: Date): Promise<number> => {
		const last = addDays(calendarDay(league.config.timezone, now), -1);
		const cursor = await repo.dailyCursor(league.id);
		if (cursor !== undefined && cursor >= last) return 0;
		const first = cursor === undefined ? last : maxDay(addDays(cursor, 1), addDays(last, 1 - MAX_BACKFILL_DAYS));
		const days: string[] = [];
		for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
		const state = await repo.loadState(league.id);
		let written = 0;
		for (const record of await compute(league, state, days)) {
			if (await repo.addDaily(record)) written++;
			await yieldToEventLoop();
		}
		await repo.setDailyCursor(league.id, last);
		return written;
	};

	return {
		async writeDue(now, guildIds) {
			const leagues = await repo.listAllLeagues();
			for (const guild of guildIds ?? []) {
				for (const league of await repo.listLeagues(guild)) {
					if (!leagues.some((known) => known.id === league.id)) leagues.push(league);
				}
			}
			let written = 0;
			for (const league of leagues) {
				written += await writeLeague(league, now);
				await yieldToEventLoop();
			}
			return { leagues: leagues.length, written };
		},
		async onDays(league, days) {
			const state = await repo.loadState(league.id);
			const stored = await repo.readDaily(league.id, days);
			const result = new Map<string, DailyStandings>();
			const redo: string[] = [];
			days.forEach((day, i) => {
				const record = stored[i];
				if (record !== undefined && standingsUnchangedSince(state, record.basis, day)) result.set(day, record);
				else redo.push(day);
			});
			for (const record of redo.length === 0 ? [] : await compute(league, state, redo)) {
				await repo.replaceDaily(record);
				result.set(record.day, record);
			}
			return result;
		},
	};
}

/** A standing without its display name (RatingsView rows carry one): records hold player ids only. */
function plainRow(row: Standing): Standing {
	const { player, rating, uncertainty, races, provisional, lastDate, idleDays, atLastRace } = row;
	return { player, rating, uncertainty, races, provisional, lastDate, idleDays, atLastRace };
}

const maxDay = (a: string, b: string): string => (a > b ? a : b);
