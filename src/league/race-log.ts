import { listWithMore } from '../formats/clip-text.js';
import type { ImportedPlayer, LeagueConfig, LeagueEvent, LoggedEvent, RaceInput, SimIdClaim } from './league-events.js';
import {
	checkConfig,
	checkDatedForReset,
	checkNewNames,
	checkNewNamesInSteps,
	LeagueError,
	nameKey,
	planRaceContent,
	validName,
} from './race-log-checks.js';
import type { Race, RaceEntry, RaceMode } from '../ratings/types.js';
import { toEnd } from './steps.js';
import {
	indexesInSteps,
	indexPlayer,
	noteMergePreview,
	notePenaltyPreview,
	noteRacePreviews,
	type LogIndexes,
} from './log-indexes.js';
import { packEntries, racersOf } from './packed-entries.js';
import { plural } from '../formats/plural.js';
import { planSeasonEnd, planSeasonStart, type SeasonRecord } from './season-fold.js';
import type { PenaltyRecord, TeamChange } from './penalties.js';
import { checkEditKeepsPenalties, planPenaltyGiven, planPenaltyWithdrawn, type PenaltyPlan } from './penalty-fold.js';
import {
	BEFORE_EVERY_RACE,
	orderOfPositions,
	ratingPosition,
	ratingPositions,
	type RatingPosition,
} from './rating-order.js';

/**
 * The league state as a pure fold over the race log: players (names, aliases, Discord links, merges) and races
 * (entries by player id, status, edit history). No I/O. `check` validates an event against the current state
 * without changing it (LeagueError with a message fit for the organizer); `apply` validates and applies it.
 *
 * Player ids are `#1`, `#2`, … in order of first appearance, so the same log always gives the same ids. Race ids are
 * `R1`, `R2`, … in submission order; the races of a league-imported event are R1..RN in file order at that one seq.
 * Ratings replay the confirmed races in rating order (rating-order.ts): by date, races of one date in confirmation
 * order. An event that changes rated history (a void, an edit, a restore, a merge, new parameters, a race confirmed
 * with a date before races already rated) records from which rating position on (`Retro`), so that every cache of a
 * replay knows how much of it still holds (`touchedSince`).
 */

export { LeagueError };
export type { SeasonRecord };

export interface PlayerInfo {
	readonly id: string;
	readonly name: string;
	readonly aliases: readonly string[];
	/** Linked Discord user id. */
	readonly user?: string | undefined;
	/** The sims' ids of the driver (`steam:…`, `iracing:…`), each belonging to this one player. */
	readonly simIds?: readonly string[] | undefined;
	/** Set once this player was merged into another; the id then resolves to that player. */
	readonly mergedInto?: string | undefined;
	/** The merge preview confirmed into that merge (idempotent Confirm, as for races). */
	readonly mergePreview?: string | undefined;
	/** The team set with /player team (the latest change; absent: none). */
	readonly team?: string | undefined;
	/** Every team change, for the team of a past race (penalties.ts teamAt). */
	readonly teams?: readonly TeamChange[] | undefined;
}

export interface RaceEdit {
	readonly seq: number;
	readonly kind: 'edited' | 'voided' | 'restored' | 'penalty' | 'penalty-withdrawn';
	readonly by: string;
	readonly at: string;
	readonly reason: string;
	/** The correction preview confirmed into this edit. */
	readonly preview?: string | undefined;
	/** The time penalty given or withdrawn (`P3`). */
	readonly penalty?: string | undefined;
}

export interface RaceRecord {
	readonly id: string;
	/** The organizer's name for the race (`/race submit name:`), e.g. "Round 4 — Monza". */
	readonly name?: string | undefined;
	/**
	 * Log position of the race-submitted event (the races of one league-imported event share its seq). Its place in
	 * rating order comes from its date and this (rating-order.ts).
	 */
	readonly seq: number;
	readonly date?: string | undefined;
	readonly mode?: RaceMode | undefined;
	/** Entries with `player` = player id (after its time penalties). */
	readonly entries: readonly RaceEntry[];
	/** While time penalties are in force: the entries as submitted or last edited, before them (penalties.ts). */
	readonly classified?: readonly RaceEntry[] | undefined;
	readonly submittedBy: string;
	readonly submittedAt: string;
	readonly status: 'confirmed' | 'voided';
	readonly edits: readonly RaceEdit[];
	/** The preview confirmed into this race; absent for races stored otherwise (imports, the CLI). */
	readonly preview?: string | undefined;
}

/** What a confirmed preview became: a race submitted, an edit of one, or a merge of two players. */
export type StoredPreview =
	| { readonly kind: 'submitted'; readonly race: string }
	| { readonly kind: 'edited'; readonly race: string }
	| { readonly kind: 'merged'; readonly from: string; readonly into: string }
	| { readonly kind: 'penalty'; readonly penalty: string; readonly race: string };

/**
 * An event at `seq` that changed rated history from rating position `from` on (rating-order.ts): a void, an edit, a
 * restore, a merge, new parameters, or a race confirmed with a date before races already rated.
 */
export interface Retro {
	readonly seq: number;
	readonly from: RatingPosition;
}

export interface LeagueLogSnapshot {
	readonly version: 1;
	/** Last applied seq, -1 for an empty log. */
	readonly seq: number;
	readonly config?: LeagueConfig | undefined;
	readonly players: readonly PlayerInfo[];
	readonly races: readonly RaceRecord[];
	readonly retro: readonly Retro[];
	/**
	 * `date`: `retro` holds rating positions. Absent in snapshots written when races were rated in confirmation order,
	 * whose `from` were seqs: such a snapshot is read as if each of those events changed rated history from the start.
	 */
	readonly order?: 'date' | undefined;
	/** The league's named seasons in start order (absent in snapshots written before seasons existed). */
	readonly seasons?: readonly SeasonRecord[] | undefined;
	/** Penalties given, withdrawn ones too (absent in snapshots written before penalties existed). */
	readonly penalties?: readonly PenaltyRecord[] | undefined;
}

export interface ApplyResult {
	/** The race submitted, voided or edited. */
	readonly race?: string;
	/** Players created by this event (new names in a race). */
	readonly newPlayers: readonly string[];
	/** Set when the event changed rated history from this rating position on (rating-order.ts). */
	readonly retroFrom?: RatingPosition;
}

export interface LeagueLog {
	/** Last applied seq, -1 for an empty log. */
	seq(): number;
	config(): LeagueConfig | undefined;
	/** Validate a new event without applying it; new names also meet today's name rules (checkNewNames). */
	check(event: LeagueEvent): ApplyResult;
	/** Validate and apply a stored event (names as the rules were when it was written). */
	apply(event: LoggedEvent): ApplyResult;
	/**
	 * `check` and `apply` in steps: generators that pause between slices of a big import's races (each step a few
	 * milliseconds) and return what `check` and `apply` return. Other events take one step. Nothing changes until the
	 * last step, so a log stopped halfway is as it was.
	 */
	checkInSteps(event: LeagueEvent): Generator<void, ApplyResult>;
	applyInSteps(event: LoggedEvent): Generator<void, ApplyResult>;
	/** A player by id (`#n`, following merges) or by name/alias (case-insensitive). */
	resolve(ref: string): PlayerInfo | undefined;
	/** The player stored under `id` (`#n`), without following merges: a player merged away is itself. */
	playerById(id: string): PlayerInfo | undefined;
	playerByUser(user: string): PlayerInfo | undefined;
	/** The player a sim's driver id belongs to (following merges). */
	playerBySimId(simId: string): PlayerInfo | undefined;
	/** The named seasons (`/season start`), in start order; seasons.ts gives the implicit calendar-year ones. */
	seasons(): readonly SeasonRecord[];
	/** Every penalty given (`P1`, `P2`, … in order), withdrawn ones too. */
	penalties(): readonly PenaltyRecord[];
	/** Players not merged away, by id order. */
	players(): PlayerInfo[];
	races(): readonly RaceRecord[];
	race(id: string): RaceRecord | undefined;
	/**
	 * Confirmed races in rating order (rating-order.ts), entries by player id, with their seq and position; with
	 * `after`, only those at a later rating position (what a replay that rated up to `after` applies next).
	 */
	ratedRaces(after?: RatingPosition): RatedRace[];
	/**
	 * Confirmed races submitted after log seq `basis`, in rating order: what a replay kept at `basis` applies next,
	 * when nothing changed rated history since (`touchedSince(basis)` is Infinity: each of them was then rated last).
	 */
	ratedRacesSince(basis: number): RatedRace[];
	/** The rating position of a stored race (undefined for an unknown id). */
	positionOf(race: string): RatingPosition | undefined;
	/**
	 * The confirmed races a race stored now and dated `date` would be rated before (a make-up race moves them):
	 * empty when it would be rated last.
	 */
	ratedAfterDate(date: string | undefined): RatedRace[];
	/** The race a preview id was confirmed into, if it was (idempotent Confirm). */
	storedPreview(preview: string): StoredPreview | undefined;
	/** The earliest rating position changed by an event after `basis` (Infinity when none). */
	touchedSince(basis: number): RatingPosition;
	snapshot(): LeagueLogSnapshot;
	/** An independent log as this one stands (the same records, which are never changed): a what-if, a log kept. */
	copy(): LeagueLog;
	/**
	 * `copy`, with what it needs taken now (a few arrays) and the log built when the returned function is called, once:
	 * the log as it was before a change, which the reads during the change's replay may never ask for.
	 */
	copyLater(): () => LeagueLog;
}

export interface RatedRace {
	readonly seq: number;
	readonly position: RatingPosition;
	/** The race's record itself, read as the Race it is (its entries packed: packed-entries.ts). */
	readonly race: Race;
}

type Plan = ApplyResult & { commit(): void };

export function createLeagueLog(from?: LeagueLogSnapshot): LeagueLog {
	return toEnd(createLeagueLogInSteps(from));
}

/** createLeagueLog in steps: a long history's indexes are built a step of races at a time (log-indexes.ts). */
export function* createLeagueLogInSteps(from?: LeagueLogSnapshot): Generator<void, LeagueLog> {
	return logFrom(from, yield* indexesInSteps(from));
}

/**
 * The log of `from` with `indexes` derived from it, which it takes as its own and changes as it moves on: built for
 * it (createLeagueLogInSteps) or copied for it alone (copyLater).
 */
function logFrom(from: LeagueLogSnapshot | undefined, indexes: LogIndexes): LeagueLog {
	let seq = from?.seq ?? -1;
	let config = from?.config;
	const players = new Map<string, PlayerInfo>((from?.players ?? []).map((p) => [p.id, p]));
	// Entries kept by column (packed-entries.ts): indexesInSteps packs a snapshot's; a copy shares the live log's.
	const races = indexes.races as RaceRecord[]; // the indexes are this log's own (above)
	const raceIndex = indexes.raceIndex as Map<string, number>;
	// A snapshot from before date order holds seqs in `from`: each of its events is read as changing everything.
	const retro: Retro[] = (from?.retro ?? []).map((r) =>
		from?.order === 'date' ? r : { seq: r.seq, from: BEFORE_EVERY_RACE },
	);
	/** Each race's rating position (by index in `races`), and the indices of `races` in rating order. */
	let positions = indexes.positions as RatingPosition[];
	let order = indexes.order as number[];
	/** The latest date of any race stored (voided ones too): the date an undated race sorts by. */
	let latestDate = indexes.latestDate;
	const seasons: SeasonRecord[] = [...(from?.seasons ?? [])];
	const penalties: PenaltyRecord[] = [...(from?.penalties ?? [])];
	const previews = indexes.previews as Map<string, StoredPreview>;
	const notePenalty = (p: PenaltyRecord) => notePenaltyPreview(previews, p);
	const notePreviews = (race: RaceRecord) => noteRacePreviews(previews, race);
	const noteMerge = (p: PlayerInfo) => noteMergePreview(previews, p);
	const names = indexes.names as Map<string, string>;
	const simIndex = indexes.simIndex as Map<string, string>;
	const index = (p: PlayerInfo) => indexPlayer(names, simIndex, p);

	const live = (id: string | undefined): PlayerInfo | undefined => {
		let p = id === undefined ? undefined : players.get(id);
		while (p?.mergedInto !== undefined) p = players.get(p.mergedInto);
		return p;
	};
	const resolve = (ref: string) => live(ref.startsWith('#') ? ref.trim() : names.get(nameKey(ref)));
	const must = (ref: string) => {
		const p = resolve(ref);
		if (p === undefined) throw new LeagueError(`unknown player "${ref}"`);
		return p;
	};
	const confirmedRace = (id: string) => {
		const i = raceIndex.get(id);
		const race = i === undefined ? undefined : races[i];
		if (i === undefined || race === undefined) throw new LeagueError(`unknown race ${id}`);
		if (race.status === 'voided') throw new LeagueError(`race ${id} is voided`);
		return { race, i };
	};
	const reason = (text: string) => {
		if (typeof text !== 'string' || text.trim() === '') throw new LeagueError('a reason is required');
		return text.trim();
	};
	const setPlayer = (p: PlayerInfo) => {
		players.set(p.id, p);
		index(p);
	};
	const takenBy = (name: string) => names.get(nameKey(name));

	/** The position of the latest confirmed race in rating order (BEFORE_EVERY_RACE when none). */
	const lastRatedPosition = (): RatingPosition => {
		for (let k = order.length - 1; k >= 0; k--) {
			if (races[order[k]!]!.status === 'confirmed') return positions[order[k]!]!;
		}
		return BEFORE_EVERY_RACE;
	};
	/** The first place in `order` whose race is at a position after `after`. */
	const firstInOrderAfter = (after: RatingPosition): number => {
		let lo = 0;
		let hi = order.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (positions[order[mid]!]! > after) hi = mid;
			else lo = mid + 1;
		}
		return lo;
	};
	/** The position a race stored next, dated `date`, takes. */
	const nextPosition = (date: string | undefined): RatingPosition => ratingPosition(date ?? latestDate, races.length);
	/**
	 * The rated form of each race record, kept while the record (records are replaced, never changed) and its
	 * position stand: every replay after a change reads the whole rated history (the ratings of each system, the
	 * explanation and chart caches), and at 15,000 races building it anew made 30,000 objects per reader.
	 */
	const ratedAt = indexes.rated as (RatedRace | undefined)[];
	const rated = (i: number): RatedRace => {
		const r = races[i]!;
		const position = positions[i]!;
		const kept = ratedAt[i];
		if (kept !== undefined && kept.race === r && kept.position === position) return kept;
		const made: RatedRace = {
			seq: r.seq,
			position,
			// The record itself: it is a Race, and its entries are read from its columns (packed-entries.ts).
			race: r,
		};
		ratedAt[i] = made;
		return made;
	};
	/** The confirmed races at positions after `after`, in rating order. */
	const ratedAfter = (after: RatingPosition = BEFORE_EVERY_RACE): RatedRace[] => {
		const out: RatedRace[] = [];
		for (let k = firstInOrderAfter(after); k < order.length; k++) {
			if (races[order[k]!]!.status === 'confirmed') out.push(rated(order[k]!));
		}
		return out;
	};
	/** Rebuild the positions and the order after a date changed (rare: an edit). */
	const reorder = () => {
		positions = ratingPositions(races);
		order = orderOfPositions(positions);
		latestDate = latestOf(races);
	};

	/**
	 * The plan of a league-imported event, in steps: a generator that pauses every IMPORT_RACES_PER_STEP races, so
	 * that a caller with an event loop (the repository) can let other work run while a history of thousands of races
	 * is checked (`check` and `apply` run it to its end at once).
	 */
	function* planImport(event: Extract<LeagueEvent, { type: 'league-imported' }>, at: number): Generator<void, Plan> {
		// An import goes into a league without races, so R1..RN are the file's races in file order.
		if (races.length > 0) {
			throw new LeagueError(`this league already has ${plural(races.length, 'race')}: import into a new league`);
		}
		const inputs: readonly RaceInput[] = event.races;
		if (!Array.isArray(event.races) || inputs.length === 0) throw new LeagueError('the import has no races');
		const records: RaceRecord[] = [];
		const created: PlayerInfo[] = [];
		const createdNames = new Map<string, PlayerInfo>();
		// Players created by earlier races of the batch are known to later ones, as if submitted one by one.
		const batchResolve = (ref: string) =>
			resolve(ref) ??
			(ref.trim().startsWith('#') ? created.find((p) => p.id === ref.trim()) : createdNames.get(nameKey(ref)));
		for (const [k, input] of inputs.entries()) {
			if (k > 0 && k % IMPORT_RACES_PER_STEP === 0) yield;
			const id = `R${races.length + k + 1}`;
			const label = input.name === undefined ? id : `${id} ("${input.name}")`;
			checkDatedForReset(config, input.date, label);
			const content = planRaceContent(input, label, batchResolve, players.size + created.length);
			for (const p of content.created) {
				created.push(p);
				createdNames.set(nameKey(p.name), p);
			}
			const { date, mode, name } = input;
			// Packed here, in the steps, not in the commit: 10,000 races packed at once held the event loop 50 ms.
			records.push(
				packEntries({
					id,
					...(name !== undefined && { name }),
					seq: at,
					...(date !== undefined && { date }),
					...(mode !== undefined && { mode }),
					entries: content.entries,
					submittedBy: event.by,
					submittedAt: event.at,
					status: 'confirmed',
					edits: [],
				}),
			);
		}
		const given = planImportedPlayers(event.players ?? [], created, createdNames);
		return {
			newPlayers: created.map((p) => p.id),
			commit: () => {
				created.forEach(setPlayer);
				given.forEach(setPlayer);
				for (const record of records) {
					raceIndex.set(record.id, races.length);
					races.push(record); // packed as planned
				}
				reorder(); // the league had no race: nothing rated moves
			},
		};
	}

	/** What every event must meet before its own checks: a configured league, not deleted. */
	const precheck = (event: LeagueEvent) => {
		if (config === undefined && event.type !== 'league-configured') {
			throw new LeagueError('the first event of a league must configure it');
		}
		// A deleted league takes no change until it is undeleted: a Confirm pressed after the delete stores nothing.
		if (config?.deleted !== undefined && !(event.type === 'league-configured' && event.config.deleted === undefined)) {
			throw new LeagueError(`the league ${config.name} was deleted: /league undelete brings it back`);
		}
	};

	const plan = (event: LeagueEvent, at: number): Plan => {
		precheck(event);
		switch (event.type) {
			case 'league-configured': {
				const next = event.config;
				checkConfig(next);
				if (config !== undefined && next.guildId !== config.guildId)
					throw new LeagueError('a league cannot move guild');
				for (const race of races) if (race.status === 'confirmed') checkDatedForReset(next, race.date, race.id);
				const ratingChange =
					config !== undefined &&
					(JSON.stringify(next.params) !== JSON.stringify(config.params) ||
						next.reset !== config.reset ||
						next.retirements !== config.retirements ||
						JSON.stringify(next.seasonReset ?? null) !== JSON.stringify(config.seasonReset ?? null));
				const first = order.length > 0 ? positions[order[0]!] : undefined;
				const retroFrom = ratingChange && first !== undefined ? first : undefined;
				return {
					newPlayers: [],
					...(retroFrom !== undefined && { retroFrom }),
					commit: () => {
						config = next;
						if (retroFrom !== undefined) retro.push({ seq: at, from: retroFrom });
					},
				};
			}
			case 'race-submitted': {
				const id = `R${races.length + 1}`;
				checkDatedForReset(config, event.race.date, id);
				const { entries, created } = planRaceContent(event.race, id, resolve, players.size);
				const claimed = planSimIds(event.simIds ?? [], (ref) => {
					const known = resolve(ref);
					return known ?? created.find((p) => nameKey(p.name) === nameKey(ref));
				});
				const { date, mode, name } = event.race;
				const record: RaceRecord = {
					id,
					...(name !== undefined && { name }),
					seq: at,
					...(date !== undefined && { date }),
					...(mode !== undefined && { mode }),
					entries,
					submittedBy: event.by,
					submittedAt: event.at,
					status: 'confirmed',
					edits: [],
					...(event.preview !== undefined && { preview: event.preview }),
				};
				// A make-up race (dated before races already rated) changes rated history from its place on.
				const position = nextPosition(date);
				const retroFrom = position < lastRatedPosition() ? position : undefined;
				return {
					race: id,
					newPlayers: created.map((p) => p.id),
					...(retroFrom !== undefined && { retroFrom }),
					commit: () => {
						created.forEach(setPlayer);
						claimed.forEach(({ player, simId }) => giveSimId(player, simId));
						raceIndex.set(id, races.length);
						const k = firstInOrderAfter(position);
						races.push(packEntries(record));
						positions.push(position);
						if (k === order.length) order.push(races.length - 1);
						else order.splice(k, 0, races.length - 1);
						if (date !== undefined && date > latestDate) latestDate = date;
						if (retroFrom !== undefined) retro.push({ seq: at, from: retroFrom });
						notePreviews(record);
					},
				};
			}
			case 'league-imported':
				return toEnd(planImport(event, at));
			case 'race-voided':
			case 'race-edited': {
				const { race, i } = confirmedRace(event.race);
				const edit: RaceEdit = {
					seq: at,
					kind: event.type === 'race-voided' ? 'voided' : 'edited',
					by: event.by,
					at: event.at,
					reason: reason(event.reason),
					...(event.type === 'race-edited' && event.preview !== undefined && { preview: event.preview }),
				};
				let next: RaceRecord = { ...race, status: 'voided', edits: [...race.edits, edit] };
				let created: PlayerInfo[] = [];
				if (event.type === 'race-edited') {
					checkDatedForReset(config, event.changes.date, race.id);
					const content = planRaceContent(event.changes, race.id, resolve, players.size);
					checkEditKeepsPenalties(penalties, race, content.entries);
					created = content.created;
					const { date, mode } = event.changes;
					const name = event.changes.name ?? race.name;
					next = {
						id: race.id,
						...(name !== undefined && { name }),
						seq: race.seq,
						...(date !== undefined && { date }),
						...(mode !== undefined && { mode }),
						entries: content.entries,
						// Only a date or a name changed under time penalties (checkEditKeepsPenalties): they stay.
						...(race.classified !== undefined && { classified: race.classified }),
						submittedBy: race.submittedBy,
						submittedAt: race.submittedAt,
						status: 'confirmed',
						edits: [...race.edits, edit],
						...(race.preview !== undefined && { preview: race.preview }),
					};
				}
				// A new date moves the race (and the undated races after it that sort by its date): rated history changes
				// from the earliest of their places before and after.
				const moved = next.date === race.date ? undefined : ratingPositions(races.map((r, k) => (k === i ? next : r)));
				const retroFrom = earliestMoved(positions, moved, positions[i]!);
				return {
					race: race.id,
					newPlayers: created.map((p) => p.id),
					retroFrom,
					commit: () => {
						created.forEach(setPlayer);
						races[i] = packEntries(next);
						if (moved !== undefined) reorder();
						retro.push({ seq: at, from: retroFrom });
						notePreviews(next);
					},
				};
			}
			case 'race-restored': {
				const i = raceIndex.get(event.race);
				const race = i === undefined ? undefined : races[i];
				if (i === undefined || race === undefined) throw new LeagueError(`unknown race ${event.race}`);
				if (race.status !== 'voided') throw new LeagueError(`race ${race.id} is not voided`);
				// A yearly reset turned on after the void needs the race dated, as for any race that counts.
				checkDatedForReset(config, race.date, race.id);
				const edit: RaceEdit = { seq: at, kind: 'restored', by: event.by, at: event.at, reason: reason(event.reason) };
				// Ratings replay from the race on, as after an edit (its entries were kept through voids and merges).
				const retroFrom = positions[i]!;
				return {
					race: race.id,
					newPlayers: [],
					retroFrom,
					commit: () => {
						races[i] = packEntries({ ...race, status: 'confirmed', edits: [...race.edits, edit] });
						retro.push({ seq: at, from: retroFrom });
					},
				};
			}
			case 'player-renamed': {
				const p = must(event.player);
				const name = validName(event.name, 'player name');
				const owner = takenBy(name);
				if (owner !== undefined && owner !== p.id) {
					// Named for people: the player who has that name (or alias), not their internal id.
					throw new LeagueError(`the name "${name}" is taken by ${players.get(owner)?.name ?? owner}`);
				}
				// The old name stays an alias, so results typed with it still find the player.
				const aliases = [...p.aliases, p.name].filter((a) => nameKey(a) !== nameKey(name));
				return { newPlayers: [], commit: () => setPlayer({ ...p, name, aliases: unique(aliases) }) };
			}
			case 'alias-added': {
				const p = must(event.player);
				const alias = validName(event.alias, 'alias');
				const owner = takenBy(alias);
				if (owner !== undefined)
					throw new LeagueError(
						`"${alias}" already names ${owner === p.id ? p.name : (players.get(owner)?.name ?? owner)}`,
					);
				return { newPlayers: [], commit: () => setPlayer({ ...p, aliases: [...p.aliases, alias] }) };
			}
			case 'player-linked': {
				const p = must(event.player);
				const other = event.user === null ? undefined : playerByUser(event.user);
				if (other !== undefined && other.id !== p.id) {
					throw new LeagueError(`that Discord user is already linked to ${other.name} (${other.id})`);
				}
				const unlinked: PlayerInfo = {
					id: p.id,
					name: p.name,
					aliases: p.aliases,
					...(p.simIds !== undefined && { simIds: p.simIds }),
					...(p.team !== undefined && { team: p.team }),
					...(p.teams !== undefined && { teams: p.teams }),
				};
				return {
					newPlayers: [],
					commit: () => setPlayer(event.user === null ? unlinked : { ...unlinked, user: event.user }),
				};
			}
			case 'players-merged': {
				const gone = must(event.from);
				const into = must(event.into);
				if (gone.id === into.id) throw new LeagueError(`${gone.name} and ${into.name} are the same player`);
				const both = races.filter((r) => has(r, gone.id) && has(r, into.id)).map((r) => r.id);
				if (both.length > 0) {
					throw new LeagueError(
						`cannot merge ${gone.name} into ${into.name}: both raced in ${listWithMore(both)}${both.length > 8 ? ` (${both.length} races)` : ''}`,
					);
				}
				const raced = order.filter((k) => has(races[k]!, gone.id));
				const first = raced.length > 0 ? positions[raced[0]!] : undefined;
				return {
					newPlayers: [],
					...(first !== undefined && { retroFrom: first }),
					commit: () => {
						races.forEach((r, i) => {
							if (!has(r, gone.id)) return;
							const moved = (list: readonly RaceEntry[]) =>
								list.map((e) => (e.player === gone.id ? { ...e, player: into.id } : e));
							races[i] = packEntries({
								...r,
								entries: moved(r.entries),
								...(r.classified !== undefined && { classified: moved(r.classified) }),
							});
						});
						penalties.forEach((p, k) => {
							if (p.player === gone.id) penalties[k] = { ...p, player: into.id };
						});
						const merged = {
							...gone,
							mergedInto: into.id,
							...(event.preview !== undefined && { mergePreview: event.preview }),
						};
						players.set(gone.id, merged);
						noteMerge(merged);
						const user = into.user ?? gone.user;
						const simIds = [...(into.simIds ?? []), ...(gone.simIds ?? [])];
						setPlayer({
							...into,
							aliases: unique([...into.aliases, gone.name, ...gone.aliases]),
							...(user !== undefined && { user }),
							...(simIds.length > 0 && { simIds }),
						});
						if (first !== undefined) retro.push({ seq: at, from: first });
					},
				};
			}
			case 'penalty-given':
			case 'penalty-withdrawn': {
				const state = {
					penalties,
					confirmedRace,
					raceAt: (id: string) => {
						const i = raceIndex.get(id);
						return i === undefined ? undefined : { race: races[i]!, i };
					},
					must,
					reason,
				};
				const planned: PenaltyPlan =
					event.type === 'penalty-given' ? planPenaltyGiven(event, at, state) : planPenaltyWithdrawn(event, at, state);
				const changed = planned.race;
				// A time penalty changes the race's order: ratings replay from it on, as after an edit.
				const retroFrom = changed === undefined ? undefined : positions[changed.i]!;
				return {
					race: planned.record.race,
					newPlayers: [],
					...(retroFrom !== undefined && { retroFrom }),
					commit: () => {
						penalties[planned.index] = planned.record;
						notePenalty(planned.record);
						if (changed !== undefined) races[changed.i] = packEntries(changed.next);
						if (retroFrom !== undefined) retro.push({ seq: at, from: retroFrom });
					},
				};
			}
			case 'team-set': {
				const p = must(event.player);
				const team = event.team === null ? null : validName(event.team, 'team name');
				if ((p.team ?? null) === team) {
					throw new LeagueError(team === null ? `${p.name} has no team` : `${p.name} is already in ${team}`);
				}
				const teams = [...(p.teams ?? []), { seq: at, team }];
				const next: PlayerInfo = { ...p, team: team ?? undefined, teams };
				if (team === null) delete (next as { team?: string }).team;
				return {
					newPlayers: [],
					commit: () => setPlayer(next),
				};
			}
			case 'season-started':
			case 'season-ended': {
				const planned =
					event.type === 'season-started'
						? planSeasonStart(event, at, seasons, races, config)
						: planSeasonEnd(event, seasons);
				// As a rating position (rating-order.ts): a season that moves ratings changes every race sorting on or
				// after its start; the first named one (replacing the calendar years) every race.
				const retroFrom =
					planned.retroFrom === undefined || event.type !== 'season-started'
						? undefined
						: seasons.length === 0
							? BEFORE_EVERY_RACE
							: ratingPosition(event.start, 0);
				return {
					newPlayers: [],
					...(retroFrom !== undefined && { retroFrom }),
					commit: () => {
						seasons.splice(0, seasons.length, ...planned.seasons);
						if (retroFrom !== undefined) retro.push({ seq: at, from: retroFrom });
					},
				};
			}
			case 'sim-id-set': {
				const p = must(event.player);
				const simId = validSimId(event.simId);
				if (event.remove === true) {
					if (!(p.simIds ?? []).includes(simId)) throw new LeagueError(`${p.name} has no sim id ${simId}`);
					return {
						newPlayers: [],
						commit: () => {
							simIndex.delete(simId);
							setPlayer({ ...p, simIds: (p.simIds ?? []).filter((id) => id !== simId) });
						},
					};
				}
				const [claim] = planSimIds([{ player: p.id, simId }], resolve);
				return { newPlayers: [], commit: () => claim && giveSimId(claim.player, claim.simId) };
			}
		}
	};

	/**
	 * An import's players.csv: each named player is one the import creates, given their aliases, Discord link and sim
	 * ids under the same rules as the events that give them one by one (a name or id belongs to one player).
	 */
	const planImportedPlayers = (
		given: readonly ImportedPlayer[],
		created: readonly PlayerInfo[],
		createdNames: ReadonlyMap<string, PlayerInfo>,
	): PlayerInfo[] => {
		if (!isList(given)) throw new LeagueError('the players of an import must be a list');
		const owners = new Map<string, string>([...createdNames].map(([key, p]) => [key, p.id]));
		const users = new Set<string>();
		const ids = new Set<string>();
		return given.map((facts) => {
			const p = createdNames.get(nameKey(facts.name));
			if (p === undefined || !created.includes(p)) {
				throw new LeagueError(`players file: "${facts.name}" races in none of the imported races`);
			}
			const aliases = facts.aliases.map((raw) => {
				const alias = validName(raw, 'alias');
				const owner = owners.get(nameKey(alias));
				if (owner !== undefined && owner !== p.id) {
					throw new LeagueError(
						`players file: "${alias}" already names ${createdNames.get(nameKey(alias))?.name ?? owner}`,
					);
				}
				owners.set(nameKey(alias), p.id);
				return alias;
			});
			if (facts.user !== undefined) {
				if (users.has(facts.user))
					throw new LeagueError(`players file: the Discord user ${facts.user} is linked twice`);
				users.add(facts.user);
			}
			const simIds = facts.simIds.map((raw) => {
				const simId = validSimId(raw);
				if (ids.has(simId)) throw new LeagueError(`players file: the sim id ${simId} is given twice`);
				ids.add(simId);
				return simId;
			});
			return {
				...p,
				aliases: unique([...p.aliases, ...aliases]),
				...(facts.user !== undefined && { user: facts.user }),
				...(simIds.length > 0 && { simIds }),
			};
		});
	};

	/**
	 * The claims that give an id: each id valid and belonging to no other player (one already the player's gives
	 * nothing). `find` resolves a claim's player, new players of the race included.
	 */
	const planSimIds = (
		claims: readonly SimIdClaim[],
		find: (ref: string) => PlayerInfo | undefined,
	): { player: PlayerInfo; simId: string }[] => {
		if (!isList(claims)) throw new LeagueError('sim ids must be a list');
		const planned: { player: PlayerInfo; simId: string }[] = [];
		for (const claim of claims) {
			const simId = validSimId(claim.simId);
			const player = find(claim.player);
			if (player === undefined) throw new LeagueError(`sim id ${simId}: no racer "${claim.player}" in the race`);
			const owner = live(simIndex.get(simId));
			if (owner !== undefined && owner.id !== player.id) {
				throw new LeagueError(`the sim id ${simId} already belongs to ${owner.name}`);
			}
			if (owner === undefined && !planned.some((c) => c.simId === simId)) planned.push({ player, simId });
		}
		return planned;
	};
	const giveSimId = (planned: PlayerInfo, simId: string) => {
		const p = players.get(planned.id) ?? planned;
		setPlayer({ ...p, simIds: [...(p.simIds ?? []), simId] });
	};

	const playerByUser = (user: string) =>
		[...players.values()].find((p) => p.mergedInto === undefined && p.user === user);

	const check = (event: LeagueEvent): ApplyResult => {
		// Refused on new events only: `apply` folds what is stored, whatever it holds.
		const preview =
			event.type === 'race-submitted' ||
			event.type === 'race-edited' ||
			event.type === 'players-merged' ||
			event.type === 'penalty-given'
				? event.preview
				: undefined;
		const stored = preview === undefined ? undefined : previews.get(preview);
		if (stored !== undefined) throw new LeagueError(`this preview was already ${storedText(stored)}`);
		const planned = plan(event, seq + 1);
		checkNewNames(event, config, resolve);
		return resultOf(planned);
	};
	function* checkSteps(event: LeagueEvent): Generator<void, ApplyResult> {
		if (event.type !== 'league-imported') return check(event);
		precheck(event);
		const at = seq;
		const planned = yield* planImport(event, seq + 1);
		yield* checkNewNamesInSteps(event, config, resolve);
		if (seq !== at) throw new Error(`the log moved from ${at} to ${seq} while an import was checked`);
		return resultOf(planned);
	}
	function* applySteps(event: LoggedEvent): Generator<void, ApplyResult> {
		if (event.seq !== seq + 1) throw new LeagueError(`event ${event.seq} applied after ${seq}: the log has a gap`);
		let planned: Plan;
		if (event.type === 'league-imported') {
			precheck(event);
			planned = yield* planImport(event, event.seq);
			if (event.seq !== seq + 1) throw new Error(`the log moved to ${seq} while import ${event.seq} was applied`);
		} else planned = plan(event, event.seq);
		planned.commit();
		seq = event.seq;
		return resultOf(planned);
	}

	const snapshot = (): LeagueLogSnapshot => ({
		version: 1,
		order: 'date',
		seq,
		config,
		players: [...players.values()],
		races: [...races],
		retro: [...retro],
		...(seasons.length > 0 && { seasons: [...seasons] }),
		...(penalties.length > 0 && { penalties: [...penalties] }),
	});
	const copyLater = (): (() => LeagueLog) => {
		const from = snapshot();
		const now: LogIndexes = {
			races: from.races, // snapshot() copied them
			positions: [...positions],
			order: [...order],
			rated: [...ratedAt],
			raceIndex: new Map(raceIndex),
			names: new Map(names),
			simIndex: new Map(simIndex),
			previews: new Map(previews),
			latestDate,
		};
		// The log built takes what was copied now, as it is, and changes it as it moves on: it is built once.
		let taken = false;
		return () => {
			if (taken) throw new Error('a copy taken for later is built once');
			taken = true;
			return logFrom(from, now);
		};
	};

	return {
		seq: () => seq,
		config: () => config,
		check,
		apply: (event) => toEnd(applySteps(event)),
		checkInSteps: checkSteps,
		applyInSteps: applySteps,
		resolve,
		playerByUser,
		playerBySimId: (simId) => live(simIndex.get(simId)),
		seasons: () => seasons,
		penalties: () => penalties,
		players: () => [...players.values()].filter((p) => p.mergedInto === undefined),
		races: () => races,
		race: (id) => {
			const i = raceIndex.get(id);
			return i === undefined ? undefined : races[i];
		},
		ratedRaces: ratedAfter,
		ratedRacesSince(basis) {
			const first = firstAfter(races, basis);
			// Every race (a cache built anew): the rating order as kept, not 15,000 indices sorted in one turn.
			if (first === 0) return ratedAfter();
			const since: number[] = [];
			for (let i = first; i < races.length; i++) {
				if (races[i]!.status === 'confirmed') since.push(i);
			}
			return since.sort((a, b) => positions[a]! - positions[b]!).map(rated);
		},
		positionOf: (id) => {
			const i = raceIndex.get(id);
			return i === undefined ? undefined : positions[i];
		},
		ratedAfterDate: (date) => ratedAfter(nextPosition(date)),
		storedPreview: (preview) => previews.get(preview),
		playerById: (id) => players.get(id),
		touchedSince: (basis) => retro.reduce((min, r) => (r.seq > basis && r.from < min ? r.from : min), Infinity),
		snapshot,
		copy: () => copyLater()(),
		copyLater,
	};
}

/**
 * What a copy of a log reuses from it instead of computing again from its races: their rating positions and order
 * (a date parsed and a sort over every race: most of building a log of 15,000 races, which the reads answered from
 * before a change waited for), and the rated races already made (by race index, each checked against the record and
 * position it was made for).
 */
const storedText = (stored: StoredPreview): string => {
	switch (stored.kind) {
		case 'submitted':
			return `stored as ${stored.race}`;
		case 'edited':
			return `confirmed as an edit of ${stored.race}`;
		case 'merged':
			return `confirmed: player ${stored.from} was merged into ${stored.into}`;
		case 'penalty':
			return `confirmed as penalty ${stored.penalty} of ${stored.race}`;
	}
};

/** Fold a whole log (events must be contiguous from 0). */
export function foldEvents(events: readonly LoggedEvent[], from?: LeagueLogSnapshot): LeagueLog {
	const log = createLeagueLog(from);
	for (const event of events) log.apply(event);
	return log;
}

/** Races of an import planned between two pauses of planImport: about 2 ms of checks (200 were 10 ms, plus their GC). */
const IMPORT_RACES_PER_STEP = 50;

const resultOf = (plan: Plan): ApplyResult => ({
	newPlayers: plan.newPlayers,
	...(plan.race !== undefined && { race: plan.race }),
	...(plan.retroFrom !== undefined && { retroFrom: plan.retroFrom }),
});

/** A stored event's list (Array.isArray would narrow a readonly array to any[]). */
const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);

/** `steam:76561198000000000`, `iracing:123456`: a namespace, a colon, and the sim's id (at most 64 characters). */
const SIM_ID = /^[a-z][a-z0-9-]{0,15}:[\w.-]{1,64}$/u;

function validSimId(simId: unknown): string {
	if (typeof simId !== 'string' || !SIM_ID.test(simId)) {
		throw new LeagueError(
			`"${String(simId).slice(0, 80)}" is not a sim id: expected a sim and its id, like steam:76561198000000000 or iracing:123456`,
		);
	}
	return simId;
}

const has = (race: RaceRecord, player: string) => racersOf(race).includes(player);

const unique = (names: readonly string[]) => {
	const seen = new Set<string>();
	return names.filter((n) => !seen.has(nameKey(n)) && seen.add(nameKey(n)));
};

/** The latest date of `races` ('' when none is dated). */
const latestOf = (races: readonly RaceRecord[]): string =>
	races.reduce((latest, r) => (r.date !== undefined && r.date > latest ? r.date : latest), '');

/**
 * The earliest rating position an edit changes: the edited race's own (`at`), and of every race whose position moves
 * (`after`: the positions once edited, undefined when none moves), the earlier of its two.
 */
function earliestMoved(
	before: readonly RatingPosition[],
	after: readonly RatingPosition[] | undefined,
	at: RatingPosition,
): RatingPosition {
	let from = at;
	after?.forEach((p, k) => {
		if (p !== before[k]) from = Math.min(from, p, before[k]!);
	});
	return from;
}

/** Index of the first race with seq > afterSeq (races are in seq order). */
function firstAfter(races: readonly RaceRecord[], afterSeq: number): number {
	let lo = 0;
	let hi = races.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (races[mid]!.seq > afterSeq) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}
