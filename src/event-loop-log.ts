import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/**
 * PITWALL_EVENT_LOOP_LOG=<file>: the bot measures its own event loop and appends one JSON line per interval to the
 * file: `{"t": <epoch ms at the interval's end>, "maxMs": <longest delay>, "gcMs": <longest GC pause>, "heapMb": <V8's
 * heap size then>, "mallocMb": <memory malloc'ed by V8 outside its heap>, "buffersMb": <ArrayBuffers' contents,
 * outside the heap>, "rssMb": <the process's RSS, worker threads included>, "blockUs": [<start>, <end>] of the longest
 * gap between two ticks of a 1 ms timer, in microseconds of the monotonic clock that --cpu-prof stamps its samples
 * with}`: RSS minus the heap and the buffers is
 * what the worker threads, native libraries (SQLite, canvas) and malloc's free space hold. A benchmark that drives
 * the real process (bench/real-bot.ts) reads it to learn the longest block inside the bot, which no outside probe can
 * see (an answer's latency mixes the block with the work queued behind it). With the bot started under --cpu-prof,
 * bench/block-causes.ts names what ran in each interval's longest block (`blockUs`).
 *
 * Off unless the variable is set. monitorEventLoopDelay samples every millisecond on a libuv timer and costs next
 * to nothing; the line is written synchronously, a few dozen bytes every `everyMs`.
 */
export function startEventLoopLog(path: string, everyMs = 250): () => void {
	const delays = monitorEventLoopDelay({ resolution: 1 });
	let gcMs = 0;
	const gc = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration);
	});
	gc.observe({ entryTypes: ['gc'] });
	delays.enable();
	// The longest gap between two ticks of this timer in the interval: where the longest block was.
	const micros = () => Number(process.hrtime.bigint() / 1000n);
	let tick = micros();
	let block: [number, number] = [tick, tick];
	const ticks = setInterval(() => {
		const now = micros();
		if (now - tick > block[1] - block[0]) block = [tick, now];
		tick = now;
	}, 1);
	ticks.unref();
	const write = () => {
		const heap = getHeapStatistics();
		const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
		const line = {
			t: Date.now(),
			maxMs: delays.max / 1e6,
			gcMs,
			heapMb: mb(heap.total_heap_size),
			mallocMb: mb(heap.malloced_memory),
			buffersMb: mb(process.memoryUsage().arrayBuffers),
			rssMb: mb(process.memoryUsage.rss()),
			blockUs: block,
		};
		block = [tick, tick];
		delays.reset();
		gcMs = 0;
		appendFileSync(path, `${JSON.stringify(line)}\n`);
	};
	const timer = setInterval(write, everyMs);
	timer.unref();
	return () => {
		clearInterval(timer);
		clearInterval(ticks);
		write();
		delays.disable();
		gc.disconnect();
	};
}
