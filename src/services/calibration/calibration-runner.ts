/**
 * Runs one calibration on a worker thread of its own (calibration-worker.ts), so that the backtests, seconds to a
 * minute of work on a big league, never block the bot's event loop. The races are handed over in
 * chunks, each copied in its own turn of the loop: posting 10,000 races at once would block for their whole copy.
 * The worker is ended when the answer arrives, or when it fails.
 */
import { startWorker } from '../../start-worker.js';
import type { CalibrateOptions, CalibrationResult } from '../../analysis/calibrate.js';
import { ParamError, type Race } from '../../ratings/types.js';
import { createSlicer } from '../../event-loop.js';
import type { CalibrationWorkerReply, CalibrationWorkerRequest } from './calibration-worker.js';

/** A calibration of `system` over `races`: what the league calibrate service asks a runner for. */
export interface CalibrationJob {
	readonly system: string;
	readonly races: readonly Race[];
	readonly options: CalibrateOptions;
}

export type CalibrationRunner = (job: CalibrationJob) => Promise<CalibrationResult>;

/** Races per message to the worker (about 4,000 entries of a 20-racer league: a few ms to copy). */
const RACES_PER_MESSAGE = 200;

export const runCalibrationInWorker: CalibrationRunner = async (job) => {
	const worker = startWorker(import.meta.url, 'calibration-worker');
	const answer = new Promise<CalibrationResult>((resolve, reject) => {
		worker.on('message', (reply: CalibrationWorkerReply) => {
			if (reply.kind === 'done') resolve(reply.result);
			else reject(reply.param ? new ParamError(reply.message) : new Error(reply.message));
		});
		worker.on('error', (error) => reject(new Error(`The calibration worker failed: ${error.message}`)));
		worker.on('exit', (code) => reject(new Error(`The calibration worker exited (code ${code}).`)));
	});
	answer.catch(() => undefined); // a failure while the races are still being posted is awaited below, not unhandled
	try {
		const slicer = createSlicer();
		for (let from = 0; from < job.races.length; from += RACES_PER_MESSAGE) {
			const races = job.races.slice(from, from + RACES_PER_MESSAGE);
			worker.postMessage({ kind: 'races', races } satisfies CalibrationWorkerRequest);
			if (slicer.due()) await slicer.pause();
		}
		worker.postMessage({ kind: 'run', system: job.system, options: job.options } satisfies CalibrationWorkerRequest);
		return await answer;
	} finally {
		await worker.terminate();
	}
};
