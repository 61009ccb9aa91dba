import { yieldToEventLoop } from '../event-loop.js';
import type { LeagueLogSnapshot, RaceRecord } from '../league/race-log.js';
import type { KeyValueNamespace } from './ports.js';
import { RecordError, stateToDomain, versioned } from './records.js';
import { packEntries } from '../league/packed-entries.js';

/**
 * The league-state snapshot (a cache of the log's fold, see league-repository.ts) stored in chunks. As
 * one record, a league of 15,000 races of 20 racers is a 20 MB JSON value: parsing it at a cold open blocked the
 * event loop for 320 ms, writing it every 500 events blocked as long, and it sat in memory as a string on the way.
 *
 * Stored as a head record `<league>` (seq, config, players, retro under `head`, the list of chunks) and the races
 * in chunks of `racesPerChunk`, each under `<league>:races:<k>:<seq written>`. Chunks are immutable once written: a
 * write puts only the chunks whose races changed since this process last wrote them (a new submission changes the
 * last chunk, a void or an edit the chunk of its race), then the head, then deletes the chunks the head no longer lists. A crash
 * between those writes leaves the previous head and its chunks whole. The older one-record state (`state` in place of
 * `head` and `chunks`) is still read; a pitwall that knows only that shape refuses the chunked one ("holds no league
 * state") rather than read a league without races.
 */

export interface LeagueStateStore {
	/** The latest stored snapshot of `league`, undefined when none (or a chunk of it is missing: the log decides). */
	read(league: string): Promise<LeagueLogSnapshot | undefined>;
	write(league: string, snapshot: LeagueLogSnapshot): Promise<void>;
}

interface RawChunkedHead {
	readonly v: 1;
	readonly league: string;
	readonly head: Omit<LeagueLogSnapshot, 'races'>;
	readonly chunks: readonly string[];
}

interface RawRaceChunk {
	readonly v: 1;
	readonly league: string;
	readonly races: readonly RaceRecord[];
}

/** Chunks read between two yields to the event loop (each chunk parses in a few milliseconds). */
const CHUNKS_PER_READ = 1;

export function createLeagueStateStore(states: KeyValueNamespace, racesPerChunk = 500): LeagueStateStore {
	/** Per league, the chunks this process wrote last: their keys and the race records they hold (by reference). */
	const written = new Map<string, { key: string; races: readonly RaceRecord[] }[]>();

	const readChunked = async (league: string, record: RawChunkedHead): Promise<LeagueLogSnapshot | undefined> => {
		if (record.head?.version !== 1) throw new RecordError(`league state ${league} holds no league state`);
		const races: RaceRecord[] = [];
		for (let i = 0; i < record.chunks.length; i += CHUNKS_PER_READ) {
			const keys = record.chunks.slice(i, i + CHUNKS_PER_READ);
			for (const [k, raw] of (await states.getMany(keys)).entries()) {
				if (raw === undefined) return undefined; // replaced by another process meanwhile: roll the log from 0
				const chunk = versioned(raw, `league state chunk ${keys[k]!}`) as unknown as RawRaceChunk;
				if (!Array.isArray(chunk.races)) throw new RecordError(`league state chunk ${keys[k]!} holds no races`);
				// Packed as they are read (packed-entries.ts), in a turn of their own after the parse: the log keeps
				// these very records.
				await yieldToEventLoop();
				for (const race of chunk.races as readonly RaceRecord[]) races.push(packEntries(race));
			}
			await yieldToEventLoop();
		}
		return { ...record.head, races };
	};

	return {
		async read(league) {
			const raw = await states.get(league);
			if (raw === undefined) return undefined;
			const record = versioned(raw, `league state ${league}`);
			return Array.isArray(record['chunks'])
				? readChunked(league, record as unknown as RawChunkedHead)
				: stateToDomain(raw, `league state ${league}`);
		},
		async write(league, snapshot) {
			const { races, ...head } = snapshot;
			const before = written.get(league) ?? [];
			const next: { key: string; races: readonly RaceRecord[] }[] = [];
			for (let k = 0; k * racesPerChunk < races.length; k++) {
				const slice = races.slice(k * racesPerChunk, (k + 1) * racesPerChunk);
				const old = before[k];
				if (old !== undefined && old.races.length === slice.length && old.races.every((r, i) => r === slice[i])) {
					next.push(old);
					continue;
				}
				// Each chunk's JSON (850,000 characters for 500 races of 20) in a turn of its own, not in the I/O
				// callback of the previous write.
				await yieldToEventLoop();
				const key = `${league}:races:${k}:${snapshot.seq}`;
				const chunk: RawRaceChunk = { v: 1, league, races: slice };
				await states.set(key, chunk);
				next.push({ key, races: slice });
			}
			const record: RawChunkedHead = { v: 1, league, head, chunks: next.map((c) => c.key) };
			await states.set(league, record);
			written.set(league, next);
			const listed = new Set(record.chunks);
			for (const gone of before) if (!listed.has(gone.key)) await states.delete(gone.key);
		},
	};
}
