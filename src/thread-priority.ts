import { getPriority, setPriority } from 'node:os';

/**
 * The main thread answers every interaction; the process's other threads work for it, and no one waits on them turn
 * by turn: V8's garbage-collector helpers and the chart, result-file and calibration workers. On two cores these and
 * the main thread were often more than two threads ready to run, and the main thread then waited for a core in the
 * middle of a slice of work: during the replays of 15,000 races it was ready but not running for 16–17 ms of some
 * 20 ms windows (its /proc/<pid>/task/<tid>/schedstat, read every 20 ms), which stretched the event loop's longest
 * blocks past 50 ms. At a higher priority it takes a core first (bench/real-bot.ts, docs/benchmarks.md).
 *
 * The nice value of a Linux thread is its own, and a thread takes its creator's when it starts. V8's helpers start
 * with the process and libuv's pool (file and SQLite work) with the store's first query, both before the bot calls
 * this, so they keep the normal priority; a worker thread started later gives the raise back as it starts
 * (workerAtNormalPriority). Raising needs CAP_SYS_NICE (root, or a container given it): without it nothing changes.
 */

/** The main thread's nice value: about nine times the CPU share of a thread at 0 when both want the same core. */
export const MAIN_THREAD_NICE = -10;

export type MainThreadPriority = 'raised' | 'not permitted' | 'not linux';

export function favourMainThread(): MainThreadPriority {
	if (process.platform !== 'linux') return 'not linux'; // elsewhere a process has one nice value for every thread
	try {
		setPriority(process.pid, MAIN_THREAD_NICE); // on Linux the main thread's id is the process id
		return 'raised';
	} catch {
		return 'not permitted';
	}
}

/** In a worker thread, first thing: back to the normal priority if it was started by a favoured main thread. */
export function workerAtNormalPriority(): void {
	if (process.platform !== 'linux') return;
	try {
		if (getPriority(0) < 0) setPriority(0, 0); // 0: the calling thread (lowering needs no right)
	} catch {
		// a thread that cannot read or lower its own nice value runs as it is
	}
}
