import type { ParamOverrides, Race, RaceEntry } from '../ratings/types.js';
import type { RankRoleSettings } from './rank-tiers.js';

/**
 * The events of a league's append-only log (the source of truth). Each event is stored once, under its sequence
 * number; the league state (race-log.ts) and every rating (a replay of the confirmed races) are pure folds over them.
 */

export interface LeagueConfig {
	readonly guildId: string;
	readonly name: string;
	/** The system shown by default (a key of the ratings registry). */
	readonly headline: string;
	/** Parameter overrides per system id, as `--param` takes them. */
	readonly params: Readonly<Record<string, ParamOverrides>>;
	/** `yearly`: every rating restarts at the first race of each calendar year (replay.ts). */
	readonly reset?: 'yearly' | undefined;
	/** How retirements are read (rankRace: `tied` or `excluded`; absent: `ordered`, every reference's reading). */
	readonly retirements?: 'tied' | 'excluded' | undefined;
	/** Discord role id allowed to submit, void and edit. */
	readonly organizerRole?: string | undefined;
	/** Discord channel id where the ranking is posted. */
	readonly rankingChannel?: string | undefined;
	/** IANA time zone of the league's calendar (e.g. `Europe/Budapest`). */
	readonly timezone: string;
	/** When the monthly ranking is posted in `rankingChannel` (ranking-post.ts; absent: day 1, 12:00, on). */
	readonly rankingPost?: RankingPostSettings | undefined;
	/** The championship forecast's points for P1, P2, … (absent: F1's 25-18-15-12-10-8-6-4-2-1). */
	readonly points?: readonly number[] | undefined;
	/** Dropped results: only each driver's best `bestResults` race scores count (absent: every result counts). */
	readonly bestResults?: number | undefined;
	/** Discord channel id where the results inbox posts its previews (absent: the ranking channel). */
	readonly resultsChannel?: string | undefined;
	/** The class this league rates from a result file of several classes (absent: every class as one field). */
	readonly carClass?: string | undefined;
	/** The leaderboard hides players with fewer rated races (leaderboard-filter.ts; absent: no minimum). */
	readonly minRaces?: number | undefined;
	/** The leaderboard hides players whose last race is more days ago (leaderboard-filter.ts; absent: none hidden). */
	readonly idleDays?: number | undefined;
	/**
	 * The league's web pages and JSON API (src/http/, docs/web.md): `public` (listed on the front page), `unlisted`
	 * (served only at `/leagues/<id>-<webSecret>`); absent: private, nothing served.
	 */
	readonly visibility?: 'public' | 'unlisted' | undefined;
	/** The secret part of an unlisted league's address, drawn once when first unlisted and kept (stable links). */
	readonly webSecret?: string | undefined;
	/**
	 * Discord channel ids where commands without the league option mean this league (`/league config
	 * channel-default:true`); a channel is the default of at most one league of its server (absent: none).
	 */
	readonly defaultChannels?: readonly string[] | undefined;
	/** Rank roles: Discord roles by rating or place on the leaderboard, kept in step by the bot (rank-tiers.ts). */
	readonly roles?: RankRoleSettings | undefined;
	/**
	 * What ratings do at a season's first race (docs/seasons.md): `carry` (absent: ratings go on), `restart` (every
	 * rating starts again) or `soft` (each rating moves `share`, 0..1, of the way toward the league's mean).
	 */
	readonly seasonReset?: SeasonReset | undefined;
	/** Colours of the league's charts: `light` (white background) or `dark` (Discord's dark grey; absent: dark). */
	readonly chartTheme?: 'dark' | 'light' | undefined;
	/**
	 * Set when an organizer deleted the league (`/league delete`): it is hidden from every list, command, page and job,
	 * and its log takes no event but the one that clears this (`/league undelete`). Nothing of the log is erased.
	 */
	readonly deleted?: { readonly at: string; readonly by: string } | undefined;
}

/** Carry-over at a season's first race (seasons.ts, replay.ts): `share` is read by `soft` only. */
export interface SeasonReset {
	readonly mode: 'carry' | 'restart' | 'soft';
	readonly share?: number | undefined;
}

/** The monthly ranking post: day of the month (1–28, so every month has it) and hour, local time. */
export interface RankingPostSettings {
	readonly day: number;
	readonly hour: number;
	readonly enabled: boolean;
}

/** One line of a submitted result: a RaceEntry whose `player` is a name or alias (case-insensitive) or a player id `#n`. */
export type EntryInput = RaceEntry;

/** A submitted race: a Race before the log gives it an id, with the organizer's optional name for it. */
export type RaceInput = Omit<Race, 'id'> & { readonly name?: string | undefined };

/** Who wrote the event (Discord user id, or `cli`) and when (ISO timestamp, passed in: pure code has no clock). */
export interface EventMeta {
	readonly by: string;
	readonly at: string;
}

export type LeagueEventBody =
	| { readonly type: 'league-configured'; readonly config: LeagueConfig }
	/**
	 * `preview`: the id of the preview confirmed into this race. The log refuses a second event with
	 * the same preview id, so a Confirm pressed again (a retry, another process, after a restart) stores nothing.
	 */
	| {
			readonly type: 'race-submitted';
			readonly race: RaceInput;
			readonly preview?: string | undefined;
			/** Sim ids the race's result file gave racers the league did not know by id yet (kept with the player). */
			readonly simIds?: readonly SimIdClaim[] | undefined;
	  }
	/**
	 * A whole history brought in at once (`/league import`): one event, so it is stored all or nothing on every
	 * store (a big one as parts its record names, written before it: storage/event-parts.ts). The fold applies it
	 * as one race-submitted per race, ids R1..RN, all at this event's seq (in steps: LeagueLog.applyInSteps).
	 */
	| {
			readonly type: 'league-imported';
			readonly races: readonly RaceInput[];
			readonly source: string;
			/** What the history cannot say: players' aliases, Discord links and sim ids (a players.csv of an export). */
			readonly players?: readonly ImportedPlayer[] | undefined;
	  }
	| { readonly type: 'race-voided'; readonly race: string; readonly reason: string }
	| {
			readonly type: 'race-edited';
			readonly race: string;
			readonly reason: string;
			readonly changes: RaceInput;
			/** The correction preview confirmed (as for race-submitted). */
			readonly preview?: string | undefined;
	  }
	/** A voided race counts again, as it was before its void. */
	| { readonly type: 'race-restored'; readonly race: string; readonly reason: string }
	| { readonly type: 'player-renamed'; readonly player: string; readonly name: string }
	/** `preview`: the merge preview confirmed (as for race-submitted). */
	| {
			readonly type: 'players-merged';
			readonly from: string;
			readonly into: string;
			readonly preview?: string | undefined;
	  }
	| { readonly type: 'alias-added'; readonly player: string; readonly alias: string }
	/** `user: null` unlinks. */
	| { readonly type: 'player-linked'; readonly player: string; readonly user: string | null }
	/** A sim's id of the player given or taken back by an organizer (`/player simid`); `remove` takes it back. */
	| { readonly type: 'sim-id-set'; readonly player: string; readonly simId: string; readonly remove?: boolean }
	/**
	 * A penalty of a racer of a confirmed race (penalties.ts, docs/championship.md): `time` adds `seconds` to their finish
	 * time (the race's order and every rating from it change); `points` takes `points` off their championship total.
	 * Given ids P1, P2, … in order. `preview`: the time penalty's preview confirmed (as for race-submitted).
	 */
	| {
			readonly type: 'penalty-given';
			readonly race: string;
			readonly player: string;
			readonly kind: 'time' | 'points';
			readonly seconds?: number | undefined;
			readonly points?: number | undefined;
			readonly reason: string;
			readonly preview?: string | undefined;
	  }
	/** A penalty taken back: the race and the table are as if it had not been given. */
	| { readonly type: 'penalty-withdrawn'; readonly penalty: string; readonly reason: string }
	/** The player's team from now on (`/player team`; `null`: no team), for the championship's teams table. */
	| { readonly type: 'team-set'; readonly player: string; readonly team: string | null }
	/**
	 * A named season begins on `start` (its first day, `YYYY-MM-DD`); the open season before it ends the day before.
	 * `races`: the number of races planned (the forecast counts the races left from it).
	 */
	| {
			readonly type: 'season-started';
			readonly name: string;
			readonly start: string;
			readonly races?: number | undefined;
	  }
	/** The open season ends on `end` (its last day, `YYYY-MM-DD`). */
	| { readonly type: 'season-ended'; readonly end: string };

/** One player of an import, by the name the imported history gives them, and what to give them. */
export interface ImportedPlayer {
	readonly name: string;
	readonly aliases: readonly string[];
	readonly user?: string | undefined;
	readonly simIds: readonly string[];
}

/**
 * A sim's own id of a driver (`steam:76561198…`, `iracing:123456`) for a racer of the race: `player` as the race's
 * entry names them (a name, or `#n`). A driver who renames in the sim stays the same player.
 */
export interface SimIdClaim {
	readonly player: string;
	readonly simId: string;
}

export type LeagueEvent = EventMeta & LeagueEventBody;

/** An event as services submit it: `at` defaults to the repository clock. */
export type LeagueEventInput = LeagueEventBody & { readonly by: string; readonly at?: string | undefined };

export type LeagueEventType = LeagueEvent['type'];

export const leagueEventTypes: readonly LeagueEventType[] = [
	'league-configured',
	'race-submitted',
	'league-imported',
	'race-voided',
	'race-edited',
	'race-restored',
	'player-renamed',
	'players-merged',
	'alias-added',
	'player-linked',
	'sim-id-set',
	'penalty-given',
	'penalty-withdrawn',
	'team-set',
	'season-started',
	'season-ended',
];

/** An event as it sits in the log: `seq` is its position, 0-based and contiguous. */
export type LoggedEvent = LeagueEvent & { readonly seq: number };
