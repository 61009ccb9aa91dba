import type { EntryStatus, Race, RaceEntry } from '../ratings/types.js';

/**
 * A stored race's entries kept by column: its racers' ids in one array, and two numbers per racer (place, status and
 * which optional fields it has in one; its time) in another, in place of an object per racer.
 *
 * Why: the league's log holds every result of its history for as long as the league is open. At 15,000 races of 20
 * that was 300,000 objects of 56 bytes, each with its time boxed in 16 bytes more (about 26 MB of V8's heap), and the
 * heap's peak follows what is live (bench/real-bot.ts). By column it is 24 bytes a racer.
 *
 * `entries` stays an ordinary enumerable property of the record to every reader (spread, JSON, equality): a getter
 * that builds the objects each time it is read, with their keys in the order the log writes them (planRaceContent).
 * So `race.entries !== race.entries`: compare entries by value, and read `racersOf` where only the ids are needed.
 * A race whose entries are not of that exact form (keys in another order, a key set to undefined, an odd value) is
 * kept as it is, so that what is read back is always exactly what was stored.
 */

const STATUSES: readonly EntryStatus[] = ['finished', 'DNF', 'DNS', 'DSQ'];
/** The entry's optional fields, as flags below its status in its code. */
const HAS_TIME = 1;
const HAS_TEAM = 2;
const HAS_CAR = 4;
/** code = position × POSITION + status index × STATUS + flags. */
const STATUS = 8;
const POSITION = 32;
/** Positions up to this keep the code an exact integer. */
const MAX_POSITION = 2 ** 40;

interface Packed {
	readonly players: readonly string[];
	/** Per racer: its code, then its time (0 when it has none). */
	readonly numbers: readonly number[];
	/** Per racer with a team or car: [team, car], by index; absent when no racer has either. */
	readonly texts?: readonly (readonly [string | undefined, string | undefined])[];
}

const PACKED: unique symbol = Symbol('packed entries');
type PackedHolder = { readonly [PACKED]?: Packed };

function entriesOf(this: PackedHolder): RaceEntry[] {
	return unpack(this[PACKED]!);
}

/** The optional fields an entry of the log's form may have after player, position and status, in this order. */
const OPTIONAL = ['time', 'team', 'car'] as const;
const OPTIONAL_FLAG = [HAS_TIME, HAS_TEAM, HAS_CAR] as const;

/** The flags of an entry whose keys are in the log's order (planRaceContent), or -1. */
function flagsOf(entry: RaceEntry): number {
	const keys = Object.keys(entry);
	if (keys[0] !== 'player' || keys[1] !== 'position' || keys[2] !== 'status') return -1;
	let flags = 0;
	let next = 0;
	for (let k = 3; k < keys.length; k++) {
		while (next < OPTIONAL.length && OPTIONAL[next] !== keys[k]) next++;
		if (next === OPTIONAL.length) return -1;
		flags |= OPTIONAL_FLAG[next++]!;
	}
	return flags;
}

function pack(entries: readonly RaceEntry[]): Packed | undefined {
	const given: unknown = entries;
	if (!Array.isArray(given)) return undefined;
	const n = entries.length;
	// Allocated at their size: arrays grown by push keep up to half again as spare room.
	const players = new Array<string>(n);
	const numbers = new Array<number>(2 * n);
	let texts: [string | undefined, string | undefined][] | undefined;
	for (let i = 0; i < n; i++) {
		const entry = entries[i];
		if (typeof entry !== 'object' || entry === null || Object.getPrototypeOf(entry) !== Object.prototype)
			return undefined;
		const flags = flagsOf(entry);
		if (flags < 0) return undefined;
		const { player, position, status, time, team, car } = entry;
		const statusIndex = STATUSES.indexOf(status);
		if (typeof player !== 'string' || statusIndex < 0) return undefined;
		if (!Number.isSafeInteger(position) || position < 0 || position > MAX_POSITION) return undefined;
		if (flags & HAS_TIME && typeof time !== 'number') return undefined;
		if ((flags & HAS_TEAM && typeof team !== 'string') || (flags & HAS_CAR && typeof car !== 'string'))
			return undefined;
		players[i] = player;
		numbers[2 * i] = position * POSITION + statusIndex * STATUS + flags;
		numbers[2 * i + 1] = time ?? 0;
		if (flags & (HAS_TEAM | HAS_CAR)) (texts ??= [])[i] = [team, car];
	}
	return texts === undefined ? { players, numbers } : { players, numbers, texts };
}

function unpack({ players, numbers, texts }: Packed): RaceEntry[] {
	const out: RaceEntry[] = new Array<RaceEntry>(players.length);
	for (let i = 0; i < players.length; i++) {
		const code = numbers[2 * i]!;
		const flags = code % STATUS;
		const player = players[i]!;
		const position = Math.floor(code / POSITION);
		const status = STATUSES[Math.floor(code / STATUS) % (POSITION / STATUS)]!;
		if (flags === 0) out[i] = { player, position, status };
		else if (flags === HAS_TIME) out[i] = { player, position, status, time: numbers[2 * i + 1]! };
		else {
			const [team, car] = texts![i]!;
			out[i] = {
				player,
				position,
				status,
				...(flags & HAS_TIME && { time: numbers[2 * i + 1]! }),
				...(flags & HAS_TEAM && { team }),
				...(flags & HAS_CAR && { car }),
			};
		}
	}
	return out;
}

/**
 * The record with its entries kept by column (itself when they already are, or cannot be): the same own keys in the
 * same order, `entries` read through a getter.
 */
export function packEntries<T extends { readonly entries: readonly RaceEntry[] }>(record: T): T {
	if (PACKED in record) return record;
	const packed = pack(record.entries);
	if (packed === undefined) return record;
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(record)) {
		if (key === 'entries') Object.defineProperty(out, 'entries', { get: entriesOf, enumerable: true });
		else out[key] = record[key as keyof T];
	}
	Object.defineProperty(out, PACKED, { value: packed });
	return out as T;
}

/** The ids of a race's racers in entry order, without building its entries when they are packed. */
export function racersOf(race: Pick<Race, 'entries'>): readonly string[] {
	return (race as PackedHolder)[PACKED]?.players ?? race.entries.map((e) => e.player);
}
