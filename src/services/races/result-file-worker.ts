/**
 * The worker thread that reads one large result file (read-race-file.ts): decoding and parsing a few MiB of JSON or
 * XML is one block of tens of milliseconds that the bot's event loop must not wait through. It reads the file with
 * the function the bot and the CLI use everywhere (src/formats/results/read-file.ts), posts the reading back once and
 * is ended.
 */
import '../../worker-at-normal-priority.js'; // first: see there
import { parentPort } from 'node:worker_threads';
import { readRaceFile, type FileReadOptions, type FileReading } from '../../formats/results/read-file.js';
import { ResultFileError } from '../../formats/results/types.js';

export interface ResultFileWorkerRequest {
	readonly bytes: Uint8Array;
	readonly options: FileReadOptions;
}

export type ResultFileWorkerReply =
	| { readonly kind: 'done'; readonly reading: FileReading }
	/** `refused`: a ResultFileError (the file's fault: said to the organizer), re-thrown as one on the bot's thread. */
	| { readonly kind: 'error'; readonly message: string; readonly refused: boolean };

const port = parentPort;
if (port === null) throw new Error('result-file-worker.ts runs as a worker thread (see read-race-file.ts).');

port.once('message', ({ bytes, options }: ResultFileWorkerRequest) => {
	let reply: ResultFileWorkerReply;
	try {
		reply = { kind: 'done', reading: readRaceFile(bytes, options) };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		reply = { kind: 'error', message, refused: error instanceof ResultFileError };
	}
	port.postMessage(reply);
});
