/**
 * A race file read off the event loop when it is large: the largest real sample (an iRacing team race, 2.3 MiB) reads
 * in about 30 ms on this machine, one block; a file at the 8 MiB limit would hold the bot's event loop for over
 * 100 ms. Files above OFF_THREAD_BYTES are read on a worker thread of their own (result-file-worker.ts); the others,
 * every real sample among them, in this thread: a worker's start (about 1.5 s under tsx) would cost more than the
 * read, and the read stays under the 50 ms a block may take.
 */
import { readRaceFile, type FileReadOptions, type FileReading } from '../../formats/results/read-file.js';
import { ResultFileError } from '../../formats/results/types.js';
import { startWorker } from '../../start-worker.js';
import type { ResultFileWorkerReply, ResultFileWorkerRequest } from './result-file-worker.js';

/** Above this size a file is read on a worker thread (3 MiB of JSON parse in about 40 ms here). */
export const OFF_THREAD_BYTES = 3 * 1024 * 1024;

export async function readRaceFileOffThread(bytes: Uint8Array, options: FileReadOptions): Promise<FileReading> {
	if (bytes.length <= OFF_THREAD_BYTES) return readRaceFile(bytes, options);
	const worker = startWorker(import.meta.url, 'result-file-worker');
	try {
		return await new Promise<FileReading>((resolve, reject) => {
			worker.once('message', (reply: ResultFileWorkerReply) => {
				if (reply.kind === 'done') resolve(reply.reading);
				else reject(reply.refused ? new ResultFileError(reply.message) : new Error(reply.message));
			});
			worker.once('error', (error) => reject(new Error(`The result file worker failed: ${error.message}`)));
			worker.once('exit', (code) => reject(new Error(`The result file worker exited (code ${code}).`)));
			worker.postMessage({ bytes, options } satisfies ResultFileWorkerRequest);
		});
	} finally {
		await worker.terminate();
	}
}
