import type { PenaltyRecord } from './penalties.js';
import type { LeagueLogSnapshot, PlayerInfo, RaceRecord, RatedRace, StoredPreview } from './race-log.js';
import { nameKey } from './race-log-checks.js';
import { packEntries } from './packed-entries.js';
import { orderOfPositions, ratingPosition, type RatingPosition } from './rating-order.js';

/**
 * What a league log derives from its records to answer at once: each race's rating position and the rating order,
 * the rated form of each race, and its lookups (race by id, player by name or sim id, previews confirmed). A log
 * builds them from a stored snapshot when it opens, and a copy takes the live log's as they stand.
 */
export interface LogIndexes {
	/** The race records in confirmation order, their entries packed (packed-entries.ts). */
	readonly races: readonly RaceRecord[];
	readonly positions: readonly RatingPosition[];
	readonly order: readonly number[];
	readonly rated: readonly (RatedRace | undefined)[];
	readonly raceIndex: ReadonlyMap<string, number>;
	readonly names: ReadonlyMap<string, string>;
	readonly simIndex: ReadonlyMap<string, string>;
	readonly previews: ReadonlyMap<string, StoredPreview>;
	/** The latest date of any race stored (voided ones too): the date an undated race sorts by. */
	readonly latestDate: string;
}

/**
 * Races indexed per step: at 15,000 races of 20 the whole derivation took 6-15 ms in one go, the longest turn of a
 * league's cold open (bench/real-bot.ts, cold /rating).
 */
const RACES_PER_STEP = 1_000;

/** A snapshot's indexes, built a step of races at a time (run at once with toEnd, or in slices by the storage layer). */
export function* indexesInSteps(from: LeagueLogSnapshot | undefined): Generator<void, LogIndexes> {
	const stored = from?.races ?? [];
	const races: RaceRecord[] = [];
	const positions: RatingPosition[] = [];
	const raceIndex = new Map<string, number>();
	const previews = new Map<string, StoredPreview>();
	// rating-order.ts sortDates: an undated race sorts by the latest date of the races stored before it.
	let latestDate = '';
	for (let i = 0; i < stored.length; i++) {
		const race = packEntries(stored[i]!);
		races.push(race);
		if (race.date !== undefined && race.date > latestDate) latestDate = race.date;
		positions.push(ratingPosition(race.date ?? latestDate, i));
		raceIndex.set(race.id, i);
		noteRacePreviews(previews, race);
		if ((i + 1) % RACES_PER_STEP === 0) yield;
	}
	yield;
	const order = orderOfPositions(positions); // nearly sorted already: the sort takes it in about one pass
	yield;
	for (const p of from?.penalties ?? []) notePenaltyPreview(previews, p);
	const names = new Map<string, string>();
	const simIndex = new Map<string, string>();
	for (const p of from?.players ?? []) {
		noteMergePreview(previews, p);
		indexPlayer(names, simIndex, p);
	}
	return { races, positions, order, rated: [], raceIndex, names, simIndex, previews, latestDate };
}

export function notePenaltyPreview(previews: Map<string, StoredPreview>, p: PenaltyRecord): void {
	if (p.preview !== undefined) previews.set(p.preview, { kind: 'penalty', penalty: p.id, race: p.race });
}

export function noteRacePreviews(previews: Map<string, StoredPreview>, race: RaceRecord): void {
	if (race.preview !== undefined) previews.set(race.preview, { race: race.id, kind: 'submitted' });
	for (const edit of race.edits) {
		if (edit.preview !== undefined) previews.set(edit.preview, { race: race.id, kind: 'edited' });
	}
}

export function noteMergePreview(previews: Map<string, StoredPreview>, p: PlayerInfo): void {
	if (p.mergePreview !== undefined && p.mergedInto !== undefined) {
		previews.set(p.mergePreview, { kind: 'merged', from: p.id, into: p.mergedInto });
	}
}

/** A live player's names (and aliases) and sim ids point at them; a merged-away player's point nowhere. */
export function indexPlayer(names: Map<string, string>, simIndex: Map<string, string>, p: PlayerInfo): void {
	if (p.mergedInto !== undefined) return;
	for (const name of [p.name, ...p.aliases]) names.set(nameKey(name), p.id);
	for (const simId of p.simIds ?? []) simIndex.set(simId, p.id);
}
