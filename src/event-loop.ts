/**
 * Long work (a replay of thousands of races, a job over every league) is cut into pieces that each take well under
 * 50 ms, with this between them, so that no interaction waits behind it.
 */
export const yieldToEventLoop = (): Promise<void> =>
	new Promise((resolve) => {
		waiting.push(resolve);
		if (!turnScheduled) {
			turnScheduled = true;
			setImmediate(nextTurn);
		}
	});

/**
 * The pieces of long work that yielded, resumed one per turn of the event loop, in the order they yielded. With a
 * setImmediate each, every piece that yielded in one turn ran in the next, one after the other before any timer or
 * I/O: several long tasks at once (after a change to a big league's history: the ratings of each system, the
 * explanation cache, the chart's histories) blocked the loop for the sum of their slices (5 at once: 44 ms; the real
 * bot 60–140 ms, bench/real-bot.ts). One per turn, a turn holds one slice, however many tasks share the loop.
 */
const waiting: (() => void)[] = [];
let turnScheduled = false;
/** When the last resumed piece's turn began (performance.now()): the slicers of that turn share its budget. */
let turnStartedAt = -Infinity;
function nextTurn(): void {
	turnStartedAt = performance.now();
	waiting.shift()?.();
	// Scheduled from inside this callback, the next one runs in the next turn, after timers and I/O.
	turnScheduled = waiting.length > 0;
	if (turnScheduled) setImmediate(nextTurn);
}

/**
 * Races replayed between two looks at the clock of a sliced replay (runInSlices, SLICE_MS): a step, not a slice. A
 * hundred races between two yields blocked 30–60 ms on a league of races of 20 under five systems.
 */
export const RACES_PER_STEP = 10;

/** Log events applied between two yields when a league's state is rolled forward. */
export const EVENTS_PER_SLICE = 100;

/** Days of standings computed between two yields (each day: every player's state grown and summarised). */
export const DAYS_PER_SLICE = 5;

/**
 * Milliseconds of work between two yields of a replay. A count of races is not enough: a race of 20 racers costs
 * several times one of 8, and on a league of 15,000 such races 100 races of some systems blocked for 100-300 ms
 * (no block over 50 ms). A garbage-collection pause can add to a slice, and so can the I/O callbacks of the same
 * turn (a turn holds one slice and whatever else the event loop's poll brought), hence the margin. On two busy cores
 * the thread may also wait for a core in the middle of a slice, and a shorter slice keeps less of its work behind
 * that wait: with another process holding one core, the longest blocks at 15,000 races were 52–63 ms with 4 against
 * 57–69 ms with 6 (three interleaved pairs), with the changes answered as fast.
 */
export const SLICE_MS = 4;

/** A clock for long loops: `due()` is true once `budgetMs` passed since the start or the last `pause()`. */
export interface Slicer {
	due(): boolean;
	/** Yield to the event loop and start a new slice. */
	pause(): Promise<void>;
}

export function createSlicer(budgetMs = SLICE_MS): Slicer {
	let start = sliceStart(budgetMs);
	return {
		due: () => performance.now() - start >= budgetMs,
		async pause() {
			await yieldToEventLoop();
			start = sliceStart(budgetMs);
		},
	};
}

/**
 * Where a slice's budget counts from: the start of the turn when a resumed piece's turn began less than a budget ago.
 * A piece that finishes mid-slice hands the turn to its caller, which may start the next long loop at once (after the
 * ratings replay, the explanation cache's): counted from its own start, the two slices added up in one turn. A slicer
 * begun in a later turn within that window yields a little early, which costs nothing.
 */
function sliceStart(budgetMs: number): number {
	const now = performance.now();
	return now - turnStartedAt < budgetMs ? turnStartedAt : now;
}
