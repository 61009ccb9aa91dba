import { daysBetween, yearOf } from './dates.js';
import { toEnd } from './steps.js';
import { rankRace, type RetirementReading } from '../ratings/race.js';
import {
	UnratableRaceError,
	type FieldEntry,
	type Race,
	type RankedEntry,
	type RatingSummary,
	type RatingSystem,
} from '../ratings/types.js';

/**
 * The replay engine: ratings as a deterministic fold over the race log.
 *
 * For each race: rankRace → elapse each participant's state by the days since their previous race (when both
 * races have dates) → system.rateRace → store. Per-player bookkeeping (races rated in, date of the last race)
 * lives here, outside the system's state, so every system gets the same time handling.
 *
 * The whole state is a plain-JSON snapshot: replaying a history in one go, race by race, or from a snapshot
 * (after a JSON round trip) gives bit-identical states.
 */

export interface PlayerRecord<S> {
	readonly state: S;
	/** Races this player was rated in (since the last reset). */
	readonly races: number;
	/** Date of the player's last rated race, when that race had one. */
	readonly lastDate?: string;
	/** With cars: the car of the player's last race that named one (their car for odds until they race another). */
	readonly car?: string;
}

/** A car's part, with cars on (RatingSystem.cars; docs/cars.md). */
export interface CarRecord {
	/** The car's part C of every racer's strength in it, at its last race. */
	readonly rating: number;
	/** Races the car was rated in (once per race, however many of its entries). */
	readonly races: number;
	/** Date of the car's last rated race, when that race had one (its part is carried over at a new year). */
	readonly lastDate?: string;
}

/** One car in the cars' table: its part as of a day (carried over to that day's year). */
export interface CarStanding {
	readonly car: string;
	readonly rating: number;
	readonly races: number;
	readonly lastDate?: string | undefined;
}

export interface ReplaySnapshot<S> {
	readonly version: 1;
	readonly system: string;
	/** Races applied so far (rated or skipped). */
	readonly racesApplied: number;
	/** Ids of races the system could not rate (UnratableRaceError), with the reason. */
	readonly skipped: readonly { readonly race: string; readonly reason: string }[];
	/** The latest date of the dated races applied. */
	readonly lastDate?: string;
	readonly players: Readonly<Record<string, PlayerRecord<S>>>;
	/** With cars: every rated car's record (absent when no car was rated). */
	readonly cars?: Readonly<Record<string, CarRecord>>;
}

export interface ReplayOptions {
	/**
	 * `yearly`: every rating restarts from a newcomer at the first race of each calendar year (needs dates). A race
	 * dated in a year before the latest rated race's counts in no rating (`PreparedRace.outOfSeason`).
	 */
	readonly reset?: 'yearly' | undefined;
	/** How retirements are read (rankRace; default `ordered`). */
	readonly retirements?: RetirementReading | undefined;
	/**
	 * The league's seasons and what ratings do at each one's first race (docs/seasons.md; absent: nothing, they carry
	 * over). Independent of `reset`, which keeps restarting at each calendar year; where both begin a season at the
	 * same race, the restart wins.
	 */
	readonly seasons?: SeasonBoundaries | undefined;
}

/** Where seasons begin, and what their first race does to every rating. */
export interface SeasonBoundaries {
	/**
	 * The seasons' first days (`YYYY-MM-DD`, ascending), or `calendar-years`: a league that named no season has one
	 * per calendar year (seasons.ts). A race's season is the latest start on or before its date; an undated race is in
	 * the season of the races before it (it begins none).
	 */
	readonly starts: readonly string[] | 'calendar-years';
	/**
	 * `carry`: nothing happens; `restart`: every rating starts again from a newcomer (as the yearly reset, and a race
	 * of an earlier season confirmed late counts in no rating); `soft`: every rated player's state moves `share` of
	 * the way toward the mean rating of the league (system.shrinkToward; a late race of an earlier season is rated as
	 * it comes, since the ratings it would have changed were carried over in part).
	 */
	readonly mode: 'carry' | 'restart' | 'soft';
	/** For `soft`: the share of the way to the mean, 0..1. */
	readonly share?: number | undefined;
}

/** One participant's change in one race. */
export interface RatingChange {
	readonly player: string;
	/** The rank rankRace gave (ties share the mean place, DNF entries below every finisher). */
	readonly rank: number;
	readonly status: RankedEntry['status'];
	/** Summary of the pre-race state, after idle-time growth (the state the system rated). */
	readonly before: RatingSummary;
	readonly after: RatingSummary;
	/** True when the player had no rating before this race (first race, or first after a reset). */
	readonly newcomer: boolean;
	/** With cars: the car the player raced, and its part before (carried over) and after the race. */
	readonly car?: { readonly name: string; readonly before: number; readonly after: number } | undefined;
}

export interface RaceOutcome {
	readonly race: Race;
	/** Set when the system could not rate this race; nothing changed. */
	readonly skipped?: string;
	readonly changes: readonly RatingChange[];
}

/** A race's rated field with pre-race states (after elapse), ready to be predicted and then committed. */
export interface PreparedRace<S> {
	readonly race: Race;
	readonly field: readonly FieldEntry<S>[];
	/** Which participants had no rating before this race. */
	readonly newcomers: readonly boolean[];
	/** Whether applying this race first resets every rating (yearly reset, or a season's restart). */
	readonly reset: boolean;
	/**
	 * At a season's soft reset: every rated player's record with its state moved toward the league's mean, which
	 * `commit` stores before the race's own changes (the field's states are already these, grown to the race's day).
	 */
	readonly moved?: ReadonlyMap<string, PlayerRecord<S>> | undefined;
	/**
	 * Under the yearly reset, why this race counts in no rating: it is dated in a year before the season being rated
	 * (a race from a season already over, confirmed late). Undefined for every other race.
	 */
	readonly outOfSeason?: string | undefined;
	/** Guard: the replay position this race was prepared at. */
	readonly at: number;
}

/** One player in the standings as of a day: the summary of their state grown over the idle days up to that day. */
export interface Standing extends RatingSummary {
	readonly player: string;
	/** Date of the player's latest dated race (undefined when every race they rated in was undated). */
	readonly lastDate?: string | undefined;
	/** Whole days from `lastDate` to the standings' day that growth was applied for (0 when none). */
	readonly idleDays: number;
	/** The summary at the player's last race, before idle-time growth (the same numbers when `idleDays` is 0). */
	readonly atLastRace: RatingSummary;
	/** With cars: the player's latest car (the summary's rating is the driver's part alone). */
	readonly car?: string | undefined;
}

export interface Replay<S> {
	/** Rate one race and store the new states. */
	apply(race: Race): RaceOutcome;
	/** `apply` without building the outcome (every racer's before and after summary): replays that only need the end. */
	advance(race: Race): void;
	/** The rated field of `race` with pre-race states, without changing anything (for predictions). */
	prepare(race: Race): PreparedRace<S>;
	/**
	 * The state `entry` meets a prepared race with, as `prepare` gives the racers of its field (before `commit`): for a
	 * racer the race's reading leaves out, such as a retirement a backtest still predicts.
	 */
	stateIn(prepared: PreparedRace<S>, entry: { readonly player: string; readonly car?: string | undefined }): S;
	/** Rate a race returned by `prepare` (no other race may be applied in between). */
	commit(prepared: PreparedRace<S>): RaceOutcome;
	/** The stored record of a player, undefined for a player never rated (or not since the last reset). */
	player(name: string): PlayerRecord<S> | undefined;
	/**
	 * A player's state grown to `date` (newcomer state for an unknown player). With cars, the state holds the part of
	 * `car` (default: the player's latest car) as of `date`: what the odds of a race on that day read.
	 */
	stateAt(name: string, date: string | undefined, car?: string): S;
	/** With cars: a car's part as of `date` (carried over to its year), undefined for a car never rated. */
	carPart(car: string, date: string | undefined): number | undefined;
	/** With cars: every rated car, by part descending (ties by name), as of `day`. Empty without cars. */
	carStandings(day?: string): CarStanding[];
	/**
	 * Every rated player, by rating descending (ties by player id). `races` comes from the replay's bookkeeping. With
	 * `day`, each player's state is first grown over the idle days from their last dated race to `day` (system.elapse,
	 * never composed from an earlier growth, so the same day always gives the same bits); a player whose last race is
	 * on or after `day` is not grown.
	 */
	standings(day?: string): Standing[];
	/**
	 * `standings` in steps: a generator that pauses after every few dozen rows it computes (each row: a state grown and
	 * summarised) and returns what `standings` returns. After a change every row is new: 2,000 players took 10–15 ms
	 * at once, plus their garbage (bench/block-causes.ts on the real bot); the repository runs the steps in slices.
	 */
	standingsInSteps(day?: string): Generator<void, Standing[]>;
	snapshot(): ReplaySnapshot<S>;
	/**
	 * An independent copy of this replay as it stands (the same records: they are never mutated), cheaper than a
	 * snapshot round trip: a view of one seq (the repository's ratings views) and a preview's what-if.
	 */
	fork(): Replay<S>;
}

export class ReplayError extends Error {
	override readonly name = 'ReplayError';
}

/*
 * Standings rows and rated fields are built as object literals, not spreads: thousands of objects spread at one
 * site (V8's object cloning gone megamorphic) each got a hidden class of their own, about 300 bytes apiece, which at
 * 15,000 races was some 13,000 classes kept by the standings and the explanation cache (heap snapshot of
 * bench/real-bot.ts). The keys and their order are those the spreads gave.
 */
const withRaces = (s: RatingSummary, races: number): RatingSummary => ({
	rating: s.rating,
	uncertainty: s.uncertainty,
	races,
	provisional: s.provisional,
});

function fieldEntry<S>({ player, rank, time, status, car }: RankedEntry, state: S): FieldEntry<S> {
	return car === undefined ? { player, rank, time, status, state } : { player, rank, time, status, car, state };
}

export function createReplay<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	options: ReplayOptions = {},
	from?: ReplaySnapshot<S>,
): Replay<S> {
	if (from !== undefined && from.system !== system.id) {
		throw new ReplayError(`snapshot is of system ${from.system}, not ${system.id}`);
	}
	return replayFrom(system, params, options, {
		players: new Map<string, PlayerRecord<S>>(Object.entries(from?.players ?? {})),
		cars: new Map<string, CarRecord>(Object.entries(from?.cars ?? {})),
		skipped: [...(from?.skipped ?? [])],
		racesApplied: from?.racesApplied ?? 0,
		lastDate: from?.lastDate,
	});
}

/** A replay's own state (its maps and lists are not shared with any other replay). */
interface ReplayState<S> {
	readonly players: Map<string, PlayerRecord<S>>;
	readonly cars: Map<string, CarRecord>;
	readonly skipped: { readonly race: string; readonly reason: string }[];
	readonly racesApplied: number;
	readonly lastDate: string | undefined;
}

function replayFrom<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	options: ReplayOptions,
	start: ReplayState<S>,
): Replay<S> {
	const { players, cars, skipped } = start;
	/** The system's car part, when these parameters rate cars. */
	const carModel = system.cars?.on(params) === true ? system.cars : undefined;
	let { racesApplied, lastDate } = start;
	/** Bumped when a yearly reset clears every player. */
	let generation = 0;

	/** Idle days from a player's last dated race to `date`: 0 when either is unknown or `date` is not later. */
	const idleDays = (record: PlayerRecord<S>, date: string | undefined): number =>
		date === undefined || record.lastDate === undefined ? 0 : Math.max(0, daysBetween(record.lastDate, date));

	const grown = (record: PlayerRecord<S>, date: string | undefined): S => grownState(system, params, record, date);

	/** A car's part as of `date`: carried over once per new calendar year since its last race; 0 for a new car. */
	const carPartAt = (car: string, date: string | undefined): number => {
		const record = cars.get(car);
		if (record === undefined || carModel === undefined) return 0;
		const winters = date === undefined || record.lastDate === undefined ? 0 : yearOf(date) - yearOf(record.lastDate);
		return carModel.carriedOver(record.rating, winters, params);
	};
	/** A racer's state in `car` as of `date` (the state itself without cars or without a car). */
	const inCar = (state: S, car: string | undefined, date: string | undefined, fresh = false): S =>
		carModel === undefined || car === undefined ? state : carModel.inCar(state, fresh ? 0 : carPartAt(car, date));

	/**
	 * What the race's place in the seasons does. The season is that of the latest race rated so far: it only moves
	 * forward. A race of a later season begins it; a race of an earlier one (confirmed after the season moved on),
	 * under a restart, would have counted only in ratings that a reset has cleared since, so it counts in none.
	 * Comparing with the previous race's season instead would reset every rating twice around such a race, losing the
	 * current season.
	 */
	const seasonStep = (race: Race): { begins?: 'restart' | 'soft'; outOfSeason?: string } => {
		let begins: 'restart' | 'soft' | undefined;
		let outOfSeason: string | undefined;
		if (options.reset === 'yearly') {
			if (race.date === undefined)
				throw new ReplayError(`race ${race.id} has no date: a yearly reset needs dated races`);
			const season = lastDate === undefined ? undefined : yearOf(lastDate);
			const year = yearOf(race.date);
			if (season !== undefined && year > season) begins = 'restart';
			if (season !== undefined && year < season) {
				outOfSeason = `it is dated ${race.date}, in a season before the current one (${season}), and ratings restart every year: it counts in no rating`;
			}
		}
		const seasons = options.seasons;
		if (seasons !== undefined && seasons.mode !== 'carry' && race.date !== undefined && lastDate !== undefined) {
			const current = seasonIndex(seasons.starts, lastDate);
			const index = seasonIndex(seasons.starts, race.date);
			if (index > current && begins === undefined) begins = seasons.mode;
			if (index < current && seasons.mode === 'restart' && outOfSeason === undefined) {
				outOfSeason = `it is dated ${race.date}, in a season before the current one, and ratings restart every season: it counts in no rating`;
			}
		}
		return { ...(begins !== undefined && { begins }), ...(outOfSeason !== undefined && { outOfSeason }) };
	};

	/** Every rated player's record moved `share` of the way toward the mean rating of them all (a soft reset). */
	const movedTowardMean = (share: number): Map<string, PlayerRecord<S>> | undefined => {
		// A system that cannot say how to move its state carries its ratings over (RatingSystem.shrinkToward).
		if (system.shrinkToward === undefined || players.size === 0) return undefined;
		let sum = 0;
		for (const record of players.values()) sum += system.summary(record.state, params).rating;
		const mean = sum / players.size;
		const moved = new Map<string, PlayerRecord<S>>();
		for (const [player, record] of players) {
			moved.set(player, { ...record, state: system.shrinkToward(record.state, mean, share, params) });
		}
		return moved;
	};

	/**
	 * The state a racer meets a race with: a newcomer's after a restart (or a first race), moved toward the mean at a
	 * soft reset, grown over their idle days, in the entry's car where the system rates cars.
	 */
	const stateInRace = (
		entry: { readonly player: string; readonly car?: string | undefined },
		race: Race,
		reset: boolean,
		moved: ReadonlyMap<string, PlayerRecord<S>> | undefined,
	): { state: S; newcomer: boolean } => {
		const record = reset ? undefined : (moved?.get(entry.player) ?? players.get(entry.player));
		const driver = record === undefined ? system.newcomer(params) : grown(record, race.date);
		return { state: inCar(driver, entry.car, race.date, reset), newcomer: record === undefined };
	};

	const prepare = (race: Race): PreparedRace<S> => {
		const { begins, outOfSeason } = seasonStep(race);
		const reset = begins === 'restart';
		const moved = begins === 'soft' ? movedTowardMean(options.seasons?.share ?? 0) : undefined;
		const rated = rankRace(race, options.retirements).map((entry) => {
			const { state, newcomer } = stateInRace(entry, race, reset, moved);
			return { field: fieldEntry(entry, state), newcomer };
		});
		const ordered = inCanonicalTieOrder(rated, (r) => r.field);
		const field = ordered.map((r) => r.field);
		const newcomers = ordered.map((r) => r.newcomer);
		return {
			race,
			field,
			newcomers,
			reset,
			...(moved !== undefined && { moved }),
			at: racesApplied,
			...(outOfSeason !== undefined && { outOfSeason }),
		};
	};

	const commit = (prepared: PreparedRace<S>, describe = true): RaceOutcome => {
		if (prepared.at !== racesApplied) throw new ReplayError(`race ${prepared.race.id} was prepared at another point`);
		const { race, field } = prepared;
		const skip = (reason: string): RaceOutcome => {
			racesApplied++;
			skipped.push({ race: race.id, reason });
			return { race, skipped: reason, changes: [] };
		};
		if (prepared.outOfSeason !== undefined) return skip(prepared.outOfSeason);
		let after: S[];
		try {
			after = system.rateRace(field, params, { mode: race.mode });
		} catch (error) {
			if (!(error instanceof UnratableRaceError)) throw error;
			return skip(error.message);
		}
		if (prepared.reset) {
			players.clear();
			cars.clear();
			generation++; // every cached standings row is of the season before
		}
		if (prepared.moved !== undefined) {
			for (const [player, record] of prepared.moved) players.set(player, record);
			generation++;
		}
		racesApplied++;
		lastDate = latest(race.date, lastDate);
		const changes: RatingChange[] = [];
		/** Cars whose record this race has written: a car counts once per race, however many of its entries. */
		const carsRated = new Set<string>();
		field.forEach((entry, i) => {
			const rated = after[i]!;
			const carAfter = carModel?.carOf(rated);
			const state = carModel === undefined ? rated : carModel.driverOf(rated);
			const car = carModel !== undefined && carAfter !== undefined ? entry.car : undefined;
			if (car !== undefined && !carsRated.has(car)) {
				const before = cars.get(car);
				carsRated.add(car);
				const carDate = latest(race.date, before?.lastDate);
				cars.set(car, {
					rating: carAfter!,
					races: (before?.races ?? 0) + 1,
					...(carDate !== undefined && { lastDate: carDate }),
				});
			}
			const previous = players.get(entry.player);
			// The latest of the player's race dates: a race dated before an earlier-rated one (an organizer may confirm
			// one) must not move the start of their idle time backwards.
			const playerDate = latest(race.date, previous?.lastDate);
			players.set(entry.player, playerRecord(state, (previous?.races ?? 0) + 1, playerDate, car ?? previous?.car));
			if (!describe) return;
			const change: RatingChange = {
				player: entry.player,
				rank: entry.rank,
				status: entry.status,
				before: system.summary(entry.state, params),
				after: system.summary(state, params),
				newcomer: prepared.newcomers[i]!,
			};
			if (car === undefined) changes.push(change);
			else {
				const carBefore = carModel!.carOf(entry.state) ?? 0;
				changes.push({ ...change, car: { name: car, before: carBefore, after: carAfter! } });
			}
		});
		return { race, changes };
	};

	const standingOf = (player: string, record: PlayerRecord<S>, day: string | undefined): Standing => {
		const days = idleDays(record, day);
		const atLastRace = withRaces(system.summary(record.state, params), record.races);
		const now = days > 0 ? withRaces(system.summary(grown(record, day), params), record.races) : atLastRace;
		const { rating, uncertainty, races, provisional } = now;
		const { lastDate, car } = record;
		return car === undefined
			? { rating, uncertainty, races, provisional, player, lastDate, idleDays: days, atLastRace }
			: { rating, uncertainty, races, provisional, player, lastDate, idleDays: days, atLastRace, car };
	};
	/** The standings rows of the last few days asked, by day ('' for not grown), least recently used first. */
	const standingsCache = new Map<
		string,
		{
			generation: number;
			rows: Map<string, { record: PlayerRecord<S>; standing: Standing }>;
			sorted: Standing[];
		}
	>();

	function* standingsInSteps(day: string | undefined): Generator<void, Standing[]> {
		// Rows are reused while a player's record is the same object (commit replaces records, never mutates
		// them): between two races only that race's racers are grown and summarised again (2,000
		// players grown for every read after each submission). The same computation per row, so the same bits.
		// The replay must stand still between the steps (a fork, a kept replay nobody applies races to meanwhile).
		const at = racesApplied;
		const key = day ?? '';
		let cached = standingsCache.get(key);
		standingsCache.delete(key); // set again below: the map's order is the order of use
		if (cached?.generation !== generation) cached = { generation, rows: new Map(), sorted: [] };
		let changed = cached.sorted.length !== players.size;
		let computed = 0;
		for (const [player, record] of players) {
			const row = cached.rows.get(player);
			if (row?.record === record) continue;
			cached.rows.set(player, { record, standing: standingOf(player, record, day) });
			changed = true;
			if (++computed % STANDINGS_ROWS_PER_STEP === 0) {
				yield;
				if (racesApplied !== at) throw new ReplayError('the replay moved on while its standings were computed');
			}
		}
		if (changed) {
			// The previous order first (nearly sorted, which the sort takes in about one pass), then new players.
			const order = [...new Set([...cached.sorted.map((s) => s.player), ...players.keys()])];
			const rows = cached.rows;
			cached.sorted = order.map((player) => rows.get(player)!.standing).sort(byRating);
		}
		standingsCache.set(key, cached);
		for (const old of [...standingsCache.keys()].slice(0, Math.max(0, standingsCache.size - STANDINGS_DAYS_KEPT)))
			standingsCache.delete(old);
		return [...cached.sorted];
	}

	return {
		prepare,
		stateIn(prepared, entry) {
			if (prepared.at !== racesApplied) throw new ReplayError(`race ${prepared.race.id} was prepared at another point`);
			return stateInRace(entry, prepared.race, prepared.reset, prepared.moved).state;
		},
		commit: (prepared) => commit(prepared),
		apply: (race) => commit(prepare(race)),
		advance: (race) => void commit(prepare(race), false),
		player: (name) => players.get(name),
		stateAt(name, date, car) {
			const record = players.get(name);
			const driver = record === undefined ? system.newcomer(params) : grown(record, date);
			return inCar(driver, car ?? record?.car, date);
		},
		carPart: (car, date) => (carModel === undefined || !cars.has(car) ? undefined : carPartAt(car, date)),
		carStandings(day) {
			if (carModel === undefined) return [];
			return [...cars]
				.map(([car, record]) => ({
					car,
					rating: carPartAt(car, day),
					races: record.races,
					lastDate: record.lastDate,
				}))
				.sort((a, b) => b.rating - a.rating || (a.car < b.car ? -1 : a.car > b.car ? 1 : 0));
		},
		standings: (day) => toEnd(standingsInSteps(day)),
		standingsInSteps,
		snapshot: () => ({
			version: 1,
			system: system.id,
			racesApplied,
			skipped: [...skipped],
			...(lastDate !== undefined && { lastDate }),
			players: Object.fromEntries(players),
			...(cars.size > 0 && { cars: Object.fromEntries(cars) }),
		}),
		fork: () =>
			replayFrom(system, params, options, {
				players: new Map(players),
				cars: new Map(cars),
				skipped: [...skipped],
				racesApplied,
				lastDate,
			}),
	};
}

/** A stored state grown over the idle days up to `date`; unchanged when either date is unknown or `date` is not later. */
export function grownState<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	record: PlayerRecord<S>,
	date: string | undefined,
): S {
	const days =
		date === undefined || record.lastDate === undefined ? 0 : Math.max(0, daysBetween(record.lastDate, date));
	return days > 0 ? system.elapse(record.state, days, params) : record.state;
}

/** Replay a whole history; the replay is returned for queries, with every race's outcome. */
export function replayHistory<S, P>(
	system: RatingSystem<S, P>,
	params: P,
	races: readonly Race[],
	options: ReplayOptions = {},
	onRace?: (outcome: RaceOutcome) => void,
): Replay<S> {
	const replay = createReplay(system, params, options);
	for (const race of races) {
		const outcome = replay.apply(race);
		onRace?.(outcome);
	}
	return replay;
}

/** The number of season starts on or before `date` (ISO dates order as strings): its season's place in the list. */
function seasonIndex(starts: SeasonBoundaries['starts'], date: string): number {
	if (starts === 'calendar-years') return yearOf(date);
	let lo = 0;
	let hi = starts.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (starts[mid]! <= date) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/**
 * Entries of one tie group (equal rank) ordered by what the system reads of them (pre-race state, then time), not by
 * player key. rankRace orders a tie group by player key, and that key is a player id (`#12`) in the bot and a name in
 * a history CSV (the `pitwall` CLI): the systems sum the tied racers' terms in field order (endure's and speed's
 * risk-set sums, Glicko's opponents), and floating-point addition is not associative, so the two orders gave results
 * one unit apart in the last place. Ordered by value, two entries can only keep an order the key decided when they
 * have the same state and time, and then either order sums the same numbers: the result no longer depends on how the
 * players are named, renamed or numbered.
 */
function inCanonicalTieOrder<T>(items: readonly T[], entryOf: (item: T) => FieldEntry<unknown>): T[] {
	const out = [...items];
	for (let start = 0; start < out.length;) {
		let end = start + 1;
		while (end < out.length && entryOf(out[end]!).rank === entryOf(out[start]!).rank) end++;
		if (end - start > 1) {
			const keyed = out.slice(start, end).map((item) => ({ item, key: valueKey(entryOf(item)) }));
			// A stable sort: equal keys keep rankRace's order (then the order cannot change any sum).
			keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
			keyed.forEach(({ item }, i) => (out[start + i] = item));
		}
		start = end;
	}
	return out;
}

/** A string equal for two entries exactly when the systems read the same numbers from them (-0 told from 0). */
function valueKey(entry: FieldEntry<unknown>): string {
	return JSON.stringify([entry.state, entry.time ?? null, entry.status], (_key, value: unknown) =>
		typeof value === 'number' && Object.is(value, -0) ? '-0' : value,
	);
}

/** Days whose standings rows a replay keeps (today's, the ungrown ones, and a day the jobs ask for). */
const STANDINGS_DAYS_KEPT = 3;
/** Standings rows computed between two pauses of standingsInSteps (a row: a few microseconds and its garbage). */
const STANDINGS_ROWS_PER_STEP = 50;

/** Standings order: rating descending, ties by player id. */
const byRating = (a: Standing, b: Standing) =>
	b.rating - a.rating || (a.player < b.player ? -1 : a.player > b.player ? 1 : 0);

/**
 * A player's record, its optional keys present only when set (the snapshot's JSON). Literals rather than spreads of
 * `{ lastDate }` and `{ car }`: a replay writes one record per racer per race.
 */
function playerRecord<S>(
	state: S,
	races: number,
	lastDate: string | undefined,
	car: string | undefined,
): PlayerRecord<S> {
	if (lastDate === undefined) return car === undefined ? { state, races } : { state, races, car };
	return car === undefined ? { state, races, lastDate } : { state, races, lastDate, car };
}

/** The later of two optional `YYYY-MM-DD` dates (ISO dates order as strings). */
function latest(a: string | undefined, b: string | undefined): string | undefined {
	if (a === undefined) return b;
	if (b === undefined) return a;
	return a > b ? a : b;
}
