/**
 * The worker thread that reads one large `/league import` file (read-league-file.ts): parsing 200,000 lines of CSV
 * into races is one block of over half a second that the bot's event loop must not wait through. It reads the file
 * with the function the bot and the CLI use (src/formats/league-file.ts), posts the races back in batches (each
 * batch's copy is then one short task on the bot's thread, not one long one), then what else the reading says.
 */
import '../../worker-at-normal-priority.js'; // first: see there
import { parentPort, type MessagePort } from 'node:worker_threads';
import { LeagueFileError, readLeagueFile, type LeagueFile, type LeagueFileInput } from '../../formats/league-file.js';

/**
 * The files' texts come in parts (read-league-file.ts's TEXT_PART_CHARS each, posted a turn apart: one postMessage
 * of the whole 7.7 MB text blocked the bot's thread 30 ms while it was copied), then `read` with the rest of the input.
 */
export type LeagueFileWorkerRequest =
	| { readonly kind: 'text'; readonly file: TextKey; readonly part: string }
	| { readonly kind: 'read'; readonly input: LeagueFileInput };

/** Which of the input's texts a part belongs to. */
export type TextKey = 'file' | 'races' | 'drivers';

export type LeagueFileWorkerReply =
	/** A batch of races as JSON: parsing it is faster than a structured clone's copy of as many small objects. */
	| { readonly kind: 'races'; readonly json: string }
	| { readonly kind: 'done'; readonly format: LeagueFile['format']; readonly warnings: readonly string[] }
	/** `refused`: a LeagueFileError (the file's fault: said to the organizer), re-thrown as one on the bot's thread. */
	| { readonly kind: 'error'; readonly message: string; readonly refused: boolean };

/** Races per message: about 1 ms to parse on the receiving side at 20 racers a race. */
export const RACES_PER_MESSAGE = 100;

const port = parentPort;
if (port === null) throw new Error('league-file-worker.ts runs as a worker thread (see read-league-file.ts).');

const texts: Record<TextKey, string> = { file: '', races: '', drivers: '' };
port.on('message', (request: LeagueFileWorkerRequest) => {
	if (request.kind === 'text') texts[request.file] += request.part;
	else read(request.input, port);
});

/** `input` with its texts put back together from their parts. */
function read(input: LeagueFileInput, port: MessagePort): void {
	const whole = (key: TextKey, named: LeagueFileInput['races']) => named && { name: named.name, text: texts[key] };
	let file: LeagueFile;
	try {
		file = readLeagueFile({
			...input,
			file: whole('file', input.file)!,
			races: whole('races', input.races),
			drivers: whole('drivers', input.drivers),
		});
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		port.postMessage({
			kind: 'error',
			message,
			refused: error instanceof LeagueFileError,
		} satisfies LeagueFileWorkerReply);
		return;
	}
	for (let i = 0; i < file.races.length; i += RACES_PER_MESSAGE) {
		const json = JSON.stringify(file.races.slice(i, i + RACES_PER_MESSAGE));
		port.postMessage({ kind: 'races', json } satisfies LeagueFileWorkerReply);
	}
	port.postMessage({ kind: 'done', format: file.format, warnings: file.warnings } satisfies LeagueFileWorkerReply);
}
