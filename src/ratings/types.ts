/**
 * Shared vocabulary of the rating systems. Pure data: no I/O, no clock, no Discord.
 *
 * A race is an ordered list of entries; every system sees it through `rankRace` (race.ts), which drops
 * DNS/DSQ, ranks finishers by position (equal positions are ties) and classifies DNF entries below every
 * finisher. Each system is a pure function of (the participants' states, the ranked race, params).
 */

/** `finished` is the empty status of the history CSV. */
export type EntryStatus = 'finished' | 'DNF' | 'DNS' | 'DSQ';

/** Race mode, used by the SuperTuxKart system (time trial or with items). */
export type RaceMode = 'tt' | 'items';

export interface RaceEntry {
	readonly player: string;
	/** Scoreboard position, 1 = first. Equal positions are ties. DNF entries are ordered among themselves by it. */
	readonly position: number;
	/** Finish time in seconds, when known. */
	readonly time?: number | undefined;
	readonly status: EntryStatus;
	/** The racer's team, when the result gives one (championship tables; the car's stand-in where no car is given). */
	readonly team?: string | undefined;
	/**
	 * The racer's car (an Ergast constructor, a sim's car model or class): what endure and speed with `cars` rate apart
	 * from the driver. Absent where the result says nothing of it.
	 */
	readonly car?: string | undefined;
}

export interface Race {
	readonly id: string;
	/** Calendar date `YYYY-MM-DD`, when known. Time-based growth between races needs it. */
	readonly date?: string | undefined;
	readonly mode?: RaceMode | undefined;
	readonly entries: readonly RaceEntry[];
}

/** One rated participant of a race, in finishing order (see rankRace). */
export interface RankedEntry {
	readonly player: string;
	/**
	 * Tidy rank: positions renumbered 1..n without gaps after excluded entries are dropped; a tie group covering
	 * places p..p+m-1 gives each member p + (m-1)/2 (the Folyami reference's `tidyRanks`).
	 */
	readonly rank: number;
	readonly time?: number | undefined;
	readonly status: 'finished' | 'DNF';
	/** The car the systems that rate cars read: the entry's car, else its team (RaceEntry.car); absent when neither. */
	readonly car?: string | undefined;
}

/** A participant as a system's `rateRace` receives it: ranked, with its state before the race. */
export interface FieldEntry<S> extends RankedEntry {
	readonly state: S;
}

/** What a system may read about a race beyond its ranked field. Callers pass `{ mode: race.mode }`. */
export interface RaceContext {
	/** Absent means time trial (`tt`), the history CSV's default. */
	readonly mode?: RaceMode | undefined;
}

/** Parameter overrides as they arrive from the CLI (`--param name=value`) or league config. */
export type ParamOverrides = Readonly<Record<string, string | number | boolean>>;

/** What every system can say about one player. */
export interface RatingSummary {
	readonly rating: number;
	/** RD for Glicko, k for endure/speed; undefined where the system has no uncertainty (Folyami). */
	readonly uncertainty: number | undefined;
	/** Races the player was actually rated in. */
	readonly races: number;
	readonly provisional: boolean;
}

/**
 * How a system models one racer's performance in a race, for the odds engine (odds.ts). All racers of one
 * field share one kind.
 * - `exp-longest`: T ~ Exp(rate), the largest T wins (endure-Elo: rate λ = e^-R, survival of elimination rounds).
 * - `exp-shortest`: T ~ Exp(rate), the smallest T wins (speed-Elo: rate μ = e^R, Plackett-Luce selection).
 * - `gamma3-shortest`: T ~ Gamma(shape 3, rate), the smallest T wins (Folyami: rate exp(cα(R-1500))).
 * - `normal-highest`: X ~ N(mean, sd²), the largest X wins (Glicko: mean r, sd includes RD).
 */
export type Performance =
	| { readonly kind: 'exp-longest'; readonly rate: number }
	| { readonly kind: 'exp-shortest'; readonly rate: number }
	| { readonly kind: 'gamma3-shortest'; readonly rate: number }
	| { readonly kind: 'normal-highest'; readonly mean: number; readonly sd: number };

export type SystemId = 'folyami' | 'glicko' | 'endure' | 'speed' | 'stk' | 'relrank';

export interface RatingSystem<S, P> {
	readonly id: SystemId;
	/** One sentence: how the system reads a race (pairwise, Plackett-Luce, points exchange, ...). */
	readonly raceModel: string;
	/** Resolve every default in one place; unknown names or bad values throw ParamError. */
	params(overrides?: ParamOverrides): P;
	/** The state of a player never seen before. */
	newcomer(params: P): S;
	/**
	 * Rate one race. `field` is in finishing order (rankRace) with each participant's pre-race state; returns the
	 * post-race states in the same order. A one-racer field returns its states unchanged (except stk, which follows
	 * its reference: a lone racer still gets its base points and race count). `context` carries what a system needs
	 * to know about the race beyond its field (stk reads the mode); systems that need nothing ignore it.
	 */
	rateRace(field: readonly FieldEntry<S>[], params: P, context?: RaceContext): S[];
	/** Growth of uncertainty over `days` idle days (Glicko RD growth, endure forgetting). Composable. */
	elapse(state: S, days: number, params: P): S;
	summary(state: S, params: P): RatingSummary;
	performance(state: S, params: P): Performance;
	/**
	 * A season's soft reset (replay.ts, docs/seasons.md): the state with its rating (the summary's `rating`) moved
	 * `share` (0..1) of the way toward `mean`, rating + share · (mean − rating), everything else kept: the
	 * uncertainty stays what the player's record earned (a soft reset says the past counts less, not that we know
	 * less), and so do the race counts behind provisional status. Optional: a system without it carries its ratings
	 * over unchanged at a soft reset.
	 */
	shrinkToward?(state: S, mean: number, share: number, params: P): S;
	/** How the system rates cars apart from drivers, where it can (endure and speed with `cars`; docs/cars.md). */
	readonly cars?: CarRating<S, P> | undefined;
}

/**
 * A system's car part, which the replay keeps one record of per car (replay.ts): the replay puts the car's part into
 * each racer's state before the race (`inCar`), and takes the car's new part (`carOf`) and the driver's own state
 * (`driverOf`) out of the rated state after it.
 */
export interface CarRating<S, P> {
	/** Whether these parameters rate cars. */
	on(params: P): boolean;
	/** A racer's state in a car whose part is `car`, as the race model and the odds read it. */
	inCar(state: S, car: number): S;
	/** The car part a rated state carries (undefined: none). */
	carOf(state: S): number | undefined;
	/** The driver's own state, without a car part. */
	driverOf(state: S): S;
	/** A car's part at its first race after `winters` new calendar years. */
	carriedOver(car: number, winters: number, params: P): number;
}

/** A rating system whose state and params types are erased, for registries and the CLI. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRatingSystem = RatingSystem<any, any>;

export class ParamError extends Error {
	override readonly name = 'ParamError';
}

/** A race a system cannot rate (e.g. STK without finish times). Other systems may still rate it. */
export class UnratableRaceError extends Error {
	override readonly name = 'UnratableRaceError';
}
