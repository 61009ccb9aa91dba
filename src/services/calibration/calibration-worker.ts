/**
 * The calibration worker thread (`/league calibrate` runs off the event loop). It receives the league's
 * races in chunks, then one `run` with the options, calibrates (src/analysis/calibrate.ts, the code `pitwall
 * calibrate` runs) and posts the result back once. One worker per calibration: calibration-runner.ts starts it and
 * ends it.
 */
import '../../worker-at-normal-priority.js'; // first: see there
import { parentPort } from 'node:worker_threads';
import { calibrate, type CalibrateOptions, type CalibrationResult } from '../../analysis/calibrate.js';
import { getSystem } from '../../ratings/index.js';
import { ParamError, type Race } from '../../ratings/types.js';

export type CalibrationWorkerRequest =
	| { readonly kind: 'races'; readonly races: readonly Race[] }
	| { readonly kind: 'run'; readonly system: string; readonly options: CalibrateOptions };

export type CalibrationWorkerReply =
	| { readonly kind: 'done'; readonly result: CalibrationResult }
	/** `param`: a ParamError (bad parameters: the organizer's to fix), re-thrown as one on the bot's thread. */
	| { readonly kind: 'error'; readonly message: string; readonly param: boolean };

const port = parentPort;
if (port === null) throw new Error('calibration-worker.ts runs as a worker thread (see calibration-runner.ts).');

const races: Race[] = [];
port.on('message', (message: CalibrationWorkerRequest) => {
	if (message.kind === 'races') {
		for (const race of message.races) races.push(race);
		return;
	}
	let reply: CalibrationWorkerReply;
	try {
		reply = { kind: 'done', result: calibrate(getSystem(message.system), races, message.options) };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		reply = { kind: 'error', message, param: error instanceof ParamError };
	}
	port.postMessage(reply);
});
