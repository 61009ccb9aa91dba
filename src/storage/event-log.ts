import { yieldToEventLoop } from '../event-loop.js';
import type { LoggedEvent } from '../league/league-events.js';
import type { KeyValueNamespace } from './ports.js';
import { appendInParts, eventOfRecord, inParts } from './event-parts.js';
import { eventToRecord } from './records.js';

/**
 * The append-only log of one league on the `events` namespace: one record per event under `<league>:<seq>`, seq
 * contiguous from 0. An append is one atomic insert-if-absent of the next seq, so two writers can never both take a
 * seq and a killed process leaves the log a contiguous prefix. There is no separate head to keep in step: the head is
 * found by rolling forward while the next seq exists.
 */

export const eventKey = (league: string, seq: number): string => `${league}:${seq}`;

/**
 * Write `event` at its seq; false when that seq is already taken (another writer got there first). A big import is
 * written in parts first, then its event (event-parts.ts).
 */
export async function appendEvent(events: KeyValueNamespace, league: string, event: LoggedEvent): Promise<boolean> {
	if (inParts(event)) return appendInParts(events, league, eventKey(league, event.seq), event);
	return events.add(eventKey(league, event.seq), eventToRecord(event));
}

/** Events from `from` up to the head, reading in batches (a small first batch: usually there is nothing new). */
export async function readEventsFrom(events: KeyValueNamespace, league: string, from: number): Promise<LoggedEvent[]> {
	const out: LoggedEvent[] = [];
	let batch = 8;
	for (let next = from; ; batch = 256) {
		const keys = Array.from({ length: batch }, (_, i) => eventKey(league, next + i));
		const raws = await events.getMany(keys);
		for (const [i, raw] of raws.entries()) {
			if (raw === undefined) return out;
			const event = await eventOfRecord(events, league, raw, `event ${keys[i]}`);
			if (event.seq !== next) throw new Error(`event ${keys[i]} holds seq ${event.seq}`);
			out.push(event);
			next++;
		}
		await yieldToEventLoop(); // a long log is read in turns: other leagues' work runs between batches
	}
}
