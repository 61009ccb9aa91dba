import { createSlicer } from '../event-loop.js';

/**
 * Runs a generator of steps (LeagueLog.checkInSteps and applyInSteps: a big import's races, a slice at a time) to its
 * end, yielding to the event loop whenever a slice's budget (SLICE_MS) is spent, so that checking or folding a history
 * of 10,000 races never holds the loop for more than a few milliseconds at once.
 */
export async function runInSlices<T>(steps: Generator<void, T>): Promise<T> {
	const slicer = createSlicer();
	for (;;) {
		const next = steps.next();
		if (next.done === true) return next.value;
		if (slicer.due()) await slicer.pause();
	}
}
