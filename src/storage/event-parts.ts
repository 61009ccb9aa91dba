import { createSlicer, yieldToEventLoop } from '../event-loop.js';
import type { LoggedEvent, RaceInput } from '../league/league-events.js';
import type { KeyValueNamespace } from './ports.js';
import { eventToDomain, eventToRecord, RecordError, versioned, type RawEvent } from './records.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

/**
 * A big import stored in parts. A league-imported event of 10,000 races is 14.8 MB of JSON: as one record it was one
 * write, one read and one parse each holding the event loop for hundreds of milliseconds, and one value a Redis or
 * PostgreSQL round trip must carry whole. Above PART_RACES races, its races are written first as part records of
 * PART_RACES races each, then the event itself (small: it names its parts) with the log's atomic insert-if-absent at
 * its seq, as any event. The event is the commit: until it exists no reader looks for the parts, so a crash between
 * leaves nothing visible, and a lost seq leaves parts no event names. Such orphan parts are harmless, and are deleted
 * by the next import into the league that is stored (sweepParts).
 *
 * Keys, in the `events` namespace beside the log's `<league>:<seq>` (so that migrate and backup copy them with it):
 *   `<league>:import<n>`       attempt n: claimed with insert-if-absent, so two processes never share parts
 *   `<league>:import<n>.<k>`   part k of attempt n: `{ v, league, attempt, part, races }`
 * and the event record holds `parts: { attempt, parts, races }` instead of `races`. An event stored whole (every
 * event before this, and imports of at most PART_RACES races) still reads as it was.
 */

/** Races per part: about 750 KB of JSON at 20 racers a race, a few milliseconds to write or parse. */
export const PART_RACES = 500;

/** Parts read per round trip while an event is read back. */
const PARTS_PER_READ = 4;

const attemptKey = (league: string, n: number) => `${league}:import${n}`;
const partKey = (league: string, n: number, k: number) => `${league}:import${n}.${k}`;

/** What the stored event says of its parts. */
export interface PartsRef {
	readonly attempt: number;
	readonly parts: number;
	readonly races: number;
}

interface RawAttempt {
	readonly v: 1;
	readonly league: string;
	readonly attempt: number;
	/** Parts written (0 once swept: an orphan's parts were deleted). */
	readonly parts: number;
	readonly at: string;
}

interface RawPart {
	readonly v: 1;
	readonly league: string;
	readonly attempt: number;
	readonly part: number;
	readonly races: readonly RaceInput[];
}

/** The record stored for an event (its parts' reference for an event written in parts), for a look after a lost answer. */
const written = new WeakMap<LoggedEvent, RawEvent>();

/** The record `appendInParts` (or a plain append) stored, or would store, at the event's seq. */
export const storedRecordOf = (event: LoggedEvent): RawEvent => written.get(event) ?? eventToRecord(event);

/** Whether `event` is stored in parts. */
export const inParts = (event: LoggedEvent): event is Extract<LoggedEvent, { type: 'league-imported' }> =>
	event.type === 'league-imported' && Array.isArray(event.races) && event.races.length > PART_RACES;

/** The first attempt slot this process has not seen taken, per namespace (store) and league. */
const nextAttempts = new WeakMap<KeyValueNamespace, Map<string, number>>();

/**
 * Writes the races of `event` (inParts) as parts, then the event at `key` naming them. False when the key is taken
 * (the parts are then deleted). A part that fails to write stores nothing: the error says so (`stored: 'no'`).
 */
export async function appendInParts(
	events: KeyValueNamespace,
	league: string,
	key: string,
	event: Extract<LoggedEvent, { type: 'league-imported' }>,
): Promise<boolean> {
	const at = new Date().toISOString();
	const count = Math.ceil(event.races.length / PART_RACES);
	let nextAttempt = nextAttempts.get(events);
	if (nextAttempt === undefined) nextAttempts.set(events, (nextAttempt = new Map<string, number>()));
	let attempt = nextAttempt.get(league) ?? 0;
	while (!(await events.add(attemptKey(league, attempt), { v: 1, league, attempt, parts: count, at }))) attempt++;
	nextAttempt.set(league, attempt + 1);
	try {
		for (let k = 0; k < count; k++) {
			const races = event.races.slice(k * PART_RACES, (k + 1) * PART_RACES);
			await events.set(partKey(league, attempt, k), { v: 1, league, attempt, part: k, races } satisfies RawPart);
		}
	} catch (error) {
		await deleteParts(events, league, attempt, count).catch(() => {}); // best effort: orphans are harmless
		throw error instanceof StoreUnavailableError ? error.withOutcome('no') : error;
	}
	const { races, ...rest } = eventToRecord(event) as RawEvent & { races: readonly RaceInput[] };
	const parts: PartsRef = { attempt, parts: count, races: races.length };
	const record = { ...rest, parts } as unknown as RawEvent;
	written.set(event, record);
	const stored = await events.add(key, record);
	// Another process took the seq: these parts are no one's. Stored: earlier attempts that crashed are no one's.
	await (stored ? sweepParts(events, league, attempt) : deleteParts(events, league, attempt, count)).catch(() => {});
	return stored;
}

/** The event of a stored record: read whole, or with its races read back from its parts. */
export async function eventOfRecord(
	events: KeyValueNamespace,
	league: string,
	raw: unknown,
	what: string,
): Promise<LoggedEvent> {
	const ref = (raw as { parts?: unknown } | null)?.parts;
	if (ref === undefined) return eventToDomain(raw, what);
	const rest = { ...(raw as Record<string, unknown>) };
	delete rest.parts;
	const { attempt, parts, races: total } = ref as PartsRef;
	if (![attempt, parts, total].every(Number.isInteger)) throw new RecordError(`${what} names its parts wrongly`);
	const races: RaceInput[] = [];
	for (let k = 0; k < parts; k += PARTS_PER_READ) {
		const keys = Array.from({ length: Math.min(PARTS_PER_READ, parts - k) }, (_, i) => partKey(league, attempt, k + i));
		const raws = await events.getMany(keys);
		for (const [i, rawPart] of raws.entries()) {
			if (rawPart === undefined) throw new RecordError(`${what}: its part ${keys[i]} is missing`);
			const part = versioned(rawPart, `part ${keys[i]}`) as unknown as RawPart;
			if (part.attempt !== attempt || part.part !== k + i || !Array.isArray(part.races)) {
				throw new RecordError(`${what}: ${keys[i]} is not its part ${k + i}`);
			}
			races.push(...(part.races as readonly RaceInput[]));
		}
		await yieldToEventLoop(); // each part was one parse: other work runs between them
	}
	if (races.length !== total) throw new RecordError(`${what} holds ${races.length} races in its parts, not ${total}`);
	return eventToDomain({ ...rest, races }, what);
}

/** Deletes the parts of every attempt on `league` but `kept` (the stored one), and marks those attempts swept. */
async function sweepParts(events: KeyValueNamespace, league: string, kept: number): Promise<void> {
	for (let n = 0; ; n++) {
		const raw = (await events.get(attemptKey(league, n))) as RawAttempt | undefined;
		if (raw === undefined) return;
		if (n !== kept && raw.parts > 0) await deleteParts(events, league, n, raw.parts);
	}
}

async function deleteParts(events: KeyValueNamespace, league: string, attempt: number, count: number): Promise<void> {
	for (let k = 0; k < count; k++) await events.delete(partKey(league, attempt, k));
	const raw = (await events.get(attemptKey(league, attempt))) as RawAttempt | undefined;
	if (raw !== undefined) await events.set(attemptKey(league, attempt), { ...raw, parts: 0 } satisfies RawAttempt);
}

/**
 * `event` as a reload will read it back (a JSON round trip: undefined fields dropped, the same numbers), a big
 * import's races one at a time with the event loop let in between: the round trip of 14.8 MB at once held it for
 * about 200 ms.
 */
export async function asStored(event: LoggedEvent): Promise<LoggedEvent> {
	if (event.type !== 'league-imported' || !Array.isArray(event.races)) {
		return JSON.parse(JSON.stringify(event)) as LoggedEvent;
	}
	// `races: []` keeps the key's place, so the copy's JSON is the event's.
	const copy = JSON.parse(JSON.stringify({ ...event, races: [] })) as { races: RaceInput[] };
	const slicer = createSlicer();
	for (const race of event.races) {
		copy.races.push(JSON.parse(JSON.stringify(race)) as RaceInput);
		if (slicer.due()) await slicer.pause();
	}
	return copy as unknown as LoggedEvent;
}
