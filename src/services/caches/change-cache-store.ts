import { yieldToEventLoop } from '../../event-loop.js';
import type { ReplaySnapshot } from '../../league/replay.js';
import type { FieldEntry } from '../../ratings/types.js';
import type { LeagueRepository } from '../../storage/ports.js';
import type { CarLastChange, CarMove, StandoutNumbers } from './change-cache.js';

/**
 * The change cache's rated history of one (league, system) kept in the store, so that the first /rating
 * after a start restores it and applies the races since, instead of replaying 15,000 races with their expected places
 * (2 s on a big league). Like a rating snapshot it is a cache: it is used only while no event after its seq changed
 * rated history (LeagueLog.touchedSince) and only with the same parameters; a missing piece means "rebuild".
 *
 * Numbers that must come back bit for bit (standout races, last changes, expected places: NaN or Infinity too) are
 * stored as the bytes of a Float64Array in base64, little-endian as on every platform Node supports; system states
 * go through JSON as rating snapshots do. A head record lists the chunks it was written with; chunks carry the seq
 * in their key, so a head never points to chunks of another write, and are deleted once the head no longer lists them.
 */

/** What the change cache stores of one (league, system): everything but derived explanations. */
export interface StoredChanges {
	readonly seq: number;
	readonly paramsKey: string;
	readonly replay: ReplaySnapshot<unknown>;
	readonly lastChanges: readonly StoredLastChange[];
	/** Where the system rates cars: each car's last change (absent in a copy written before cars were rated). */
	readonly lastCars?: readonly StoredCarChange[] | undefined;
	/** Per player, their standout races as numbers (change-cache.ts). */
	readonly standouts: ReadonlyMap<string, StandoutNumbers>;
	readonly lastRaceOf: ReadonlyMap<string, string>;
	readonly fields: readonly StoredField[];
}

export interface StoredLastChange {
	readonly player: string;
	readonly race: string;
	readonly date?: string | undefined;
	readonly before: number;
	readonly after: number;
	readonly car?: CarMove | undefined;
}

export interface StoredCarChange extends CarLastChange {
	readonly car: string;
}

export interface StoredField {
	readonly race: string;
	readonly field: readonly FieldEntry<unknown>[];
	readonly after: readonly unknown[];
	readonly expected: readonly number[];
	readonly holders: number;
}

interface RawHead {
	readonly v: 1;
	/**
	 * `date`: written since races are rated in date order (rating-order.ts). A head without it was replayed in
	 * confirmation order, which differs for a league with make-up races: it is not used.
	 */
	readonly order?: 'date';
	readonly seq: number;
	readonly paramsKey: string;
	readonly replay: ReplaySnapshot<unknown>;
	readonly last: { players: string[]; races: string[]; dates: (string | null)[]; values: string; cars?: RawCarMove[] };
	/** Where the system rates cars: each car's last change. Car parts are finite: JSON gives them back bit for bit. */
	readonly lastCars?: [car: string, race: string, date: string | null, before: number, after: number][];
	readonly lastRaceOf: [string, string][];
	/** Players, then per player: races placed, best (8 numbers), worst (8 numbers). */
	readonly standouts: { players: string[]; values: string };
	readonly chunks: string[];
}

/** A last change's car, aligned with `last.players` (null: no car). */
type RawCarMove = [name: string, before: number, after: number] | null;

interface RawChunk {
	readonly v: 1;
	readonly fields: {
		race: string;
		field: FieldEntry<unknown>[];
		after: unknown[];
		expected: string;
		holders: number;
	}[];
}

/** Fields per chunk: each chunk parses in a few milliseconds. */
const FIELDS_PER_CHUNK = 100;
/** Numbers per player in `standouts`. */
const STANDOUT_WIDTH = 17;

export const encodeFloats = (values: readonly number[]): string => encodeFloatArray(Float64Array.from(values));

/** The float64 bytes of `floats` (a view: its own range of its buffer), in base64. */
const encodeFloatArray = (floats: Float64Array): string =>
	Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');

export function decodeFloats(text: string): number[] {
	const bytes = Buffer.from(text, 'base64');
	const floats = new Float64Array(bytes.length / 8);
	new Uint8Array(floats.buffer).set(bytes); // a copy: the decoded bytes need not be 8-byte aligned
	return Array.from(floats);
}

const headKey = (system: string) => `changes:${system}`;

/** The head's `last`: the last changes by column, with plain loops (see writeChanges). */
function lastPart(last: StoredChanges['lastChanges']): RawHead['last'] {
	const players: string[] = [];
	const races: string[] = [];
	const dates: (string | null)[] = [];
	const values = new Float64Array(2 * last.length);
	let hasCars = false;
	for (let i = 0; i < last.length; i++) {
		const change = last[i]!;
		players.push(change.player);
		races.push(change.race);
		dates.push(change.date ?? null);
		values[2 * i] = change.before;
		values[2 * i + 1] = change.after;
		hasCars ||= change.car !== undefined;
	}
	const part = { players, races, dates, values: encodeFloatArray(values) };
	if (!hasCars) return part;
	return {
		...part,
		cars: last.map((c): RawCarMove => (c.car === undefined ? null : [c.car.name, c.car.before, c.car.after])),
	};
}

/** The head's `standouts`: per player, races placed then best and worst (8 numbers each), with plain loops. */
function standoutsPart(standouts: StoredChanges['standouts']): RawHead['standouts'] {
	const players: string[] = [];
	const values = new Float64Array(STANDOUT_WIDTH * standouts.size);
	let at = 0;
	for (const [player, s] of standouts) {
		players.push(player);
		values[at++] = s.placed;
		for (let i = 0; i < s.best.length; i++) values[at++] = s.best[i]!;
		for (let i = 0; i < s.worst.length; i++) values[at++] = s.worst[i]!;
	}
	return { players, values: encodeFloatArray(values.subarray(0, at)) };
}

/** Write `changes` as chunks then the head; returns the keys written, for `previous` of the next write. */
export async function writeChanges(
	repo: LeagueRepository,
	league: string,
	system: string,
	changes: StoredChanges,
	previous: readonly string[],
): Promise<string[]> {
	const chunks: string[] = [];
	const put = async (value: RawChunk) => {
		const key = `${headKey(system)}:${chunks.length}:${changes.seq}`;
		await repo.writeCache(league, key, value);
		chunks.push(key);
	};
	for (let i = 0; i < changes.fields.length; i += FIELDS_PER_CHUNK) {
		// Each chunk built and written in a turn of its own, not in the I/O callback of the previous write, where it
		// added up with whatever else that poll of the event loop ran.
		await yieldToEventLoop();
		const fields = changes.fields.slice(i, i + FIELDS_PER_CHUNK).map((f) => ({
			race: f.race,
			field: [...f.field],
			after: [...f.after],
			expected: encodeFloats(f.expected),
			holders: f.holders,
		}));
		await put({ v: 1, fields });
	}
	// The head is built in turns of its own, a part each: this code runs once per write, too rarely to be compiled, and
	// in one go (array spreads and flatMap of 2,000 players, interpreted) it took 13–20 ms (bench/real-bot.ts).
	await yieldToEventLoop();
	const last = lastPart(changes.lastChanges);
	await yieldToEventLoop();
	const standouts = standoutsPart(changes.standouts);
	await yieldToEventLoop();
	const head: RawHead = {
		v: 1,
		order: 'date',
		seq: changes.seq,
		paramsKey: changes.paramsKey,
		replay: changes.replay,
		last,
		...(changes.lastCars !== undefined &&
			changes.lastCars.length > 0 && {
				lastCars: changes.lastCars.map((c) => [c.car, c.race, c.date ?? null, c.before, c.after]),
			}),
		lastRaceOf: [...changes.lastRaceOf],
		standouts,
		chunks,
	};
	// Its JSON (700,000 characters for 2,000 players) in a turn of its own, not after building it in the same one.
	await yieldToEventLoop();
	await repo.writeCache(league, headKey(system), head);
	const listed = new Set(chunks);
	for (const key of previous) if (!listed.has(key)) await repo.deleteCache(league, key);
	return chunks;
}

/** The stored changes of (league, system) with the keys of their chunks, or undefined (none, or a piece missing). */
export async function readChanges(
	repo: LeagueRepository,
	league: string,
	system: string,
): Promise<{ changes: StoredChanges; keys: string[] } | undefined> {
	const [raw] = await repo.readCache(league, [headKey(system)]);
	const head = raw as RawHead | undefined;
	if (head?.v !== 1 || head.order !== 'date' || !Array.isArray(head.chunks)) return undefined;
	const fields: StoredField[] = [];
	for (const key of head.chunks) {
		const [chunk] = (await repo.readCache(league, [key])) as (RawChunk | undefined)[];
		if (chunk?.v !== 1) return undefined;
		await yieldToEventLoop(); // the floats decoded in a turn of their own, not the parse's
		for (const f of chunk.fields) fields.push({ ...f, expected: decodeFloats(f.expected) });
		await yieldToEventLoop();
	}
	const numbers = decodeFloats(head.standouts.values);
	const standouts = new Map(
		head.standouts.players.map((player, i): [string, StandoutNumbers] => {
			const at = i * STANDOUT_WIDTH;
			return [
				player,
				{ placed: numbers[at]!, best: numbers.slice(at + 1, at + 9), worst: numbers.slice(at + 9, at + 17) },
			];
		}),
	);
	const values = decodeFloats(head.last.values);
	const lastChanges = head.last.players.map((player, i): StoredLastChange => ({
		player,
		race: head.last.races[i]!,
		date: head.last.dates[i] ?? undefined,
		before: values[2 * i]!,
		after: values[2 * i + 1]!,
		...(carMove(head.last.cars?.[i]) !== undefined && { car: carMove(head.last.cars?.[i]) }),
	}));
	const lastCars = (head.lastCars ?? []).map(([car, race, date, before, after]): StoredCarChange => ({
		car,
		race,
		...(date !== null && { date }),
		before,
		after,
	}));
	const changes: StoredChanges = {
		seq: head.seq,
		paramsKey: head.paramsKey,
		replay: head.replay,
		lastChanges,
		lastCars,
		standouts,
		lastRaceOf: new Map(head.lastRaceOf),
		fields,
	};
	return { changes, keys: head.chunks };
}

const carMove = (raw: RawCarMove | undefined): CarMove | undefined =>
	raw === undefined || raw === null ? undefined : { name: raw[0], before: raw[1], after: raw[2] };
