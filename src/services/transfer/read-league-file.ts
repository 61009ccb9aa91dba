/**
 * A `/league import` file read off the event loop when it is large. Reading a history CSV costs about 75 ms per MB
 * here (the 7.7 MB of 10,000 races of 20: 567 ms in one block, measured in the real bot); files of more than
 * OFF_THREAD_CHARS characters (the Ergast dump counts its three files) are read on a worker thread of their own
 * (league-file-worker.ts), which sends the races back in batches. Smaller files, the usual league's history among
 * them, are read here: a worker's start (about 1.5 s under tsx) would cost more than the read, and the read stays
 * under the 50 ms a block may take.
 */
import { LeagueFileError, readLeagueFile, type LeagueFile, type LeagueFileInput } from '../../formats/league-file.js';
import type { Race } from '../../ratings/types.js';
import { createSlicer, yieldToEventLoop } from '../../event-loop.js';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../start-worker.js';
import type { LeagueFileWorkerReply, LeagueFileWorkerRequest, TextKey } from './league-file-worker.js';

/** Characters per part of a text posted to the worker (the worker is a module of its own: nothing is imported from it). */
export const TEXT_PART_CHARS = 512 * 1024;

/** Above this many characters a league file is read on a worker thread (about 40 ms of parsing here). */
export const OFF_THREAD_CHARS = 512 * 1024;

const sizeOf = (input: LeagueFileInput) =>
	input.file.text.length + (input.races?.text.length ?? 0) + (input.drivers?.text.length ?? 0);

/** readLeagueFile, on a worker thread for a large file; a bad file is the same LeagueFileError either way. */
export async function readLeagueFileOffThread(
	input: LeagueFileInput,
	offThreadChars = OFF_THREAD_CHARS,
): Promise<LeagueFile> {
	if (sizeOf(input) <= offThreadChars) return readLeagueFile(input);
	const worker = startWorker(import.meta.url, 'league-file-worker');
	let reading: { batches: string[]; format: LeagueFile['format']; warnings: readonly string[] };
	try {
		reading = await new Promise((resolve, reject) => {
			const batches: string[] = [];
			worker.on('message', (reply: LeagueFileWorkerReply) => {
				// Kept as text here: a port delivers every message already queued in one task, so parsing them as they
				// come would be one long block again.
				if (reply.kind === 'races') batches.push(reply.json);
				else if (reply.kind === 'done') resolve({ batches, format: reply.format, warnings: reply.warnings });
				else reject(reply.refused ? new LeagueFileError(reply.message) : new Error(reply.message));
			});
			worker.once('error', (error) => reject(new Error(`The league file worker failed: ${error.message}`)));
			worker.once('exit', (code) => reject(new Error(`The league file worker exited (code ${code}).`)));
			postInParts(worker, input).catch(reject);
		});
	} finally {
		await worker.terminate();
	}
	const races: Race[] = [];
	const slicer = createSlicer();
	for (const [i, batch] of reading.batches.entries()) {
		races.push(...(JSON.parse(batch) as Race[]));
		reading.batches[i] = ''; // its text can go
		if (slicer.due()) await slicer.pause();
	}
	return { format: reading.format, races, warnings: reading.warnings };
}

/** The input's texts in parts, each posted in a turn of its own, then the rest of the input with empty texts. */
async function postInParts(worker: Worker, input: LeagueFileInput): Promise<void> {
	const post = (request: LeagueFileWorkerRequest) => worker.postMessage(request);
	for (const key of ['file', 'races', 'drivers'] as const satisfies readonly TextKey[]) {
		const text = input[key]?.text ?? '';
		for (let at = 0; at < text.length; at += TEXT_PART_CHARS) {
			await yieldToEventLoop();
			post({ kind: 'text', file: key, part: text.slice(at, at + TEXT_PART_CHARS) });
		}
	}
	const empty = (named: LeagueFileInput['races']) => named && { name: named.name, text: '' };
	post({
		kind: 'read',
		input: { ...input, file: empty(input.file)!, races: empty(input.races), drivers: empty(input.drivers) },
	});
}
