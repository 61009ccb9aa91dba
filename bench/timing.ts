import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
/** Timing helpers shared by the benchmarks: warm-up, then the median of repeated runs, in milliseconds. */
export function medianMs(
	run: () => unknown,
	{ warmup = 3, runs = 15 }: { warmup?: number; runs?: number } = {},
): number {
	for (let i = 0; i < warmup; i++) run();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const start = process.hrtime.bigint();
		run();
		times.push(Number(process.hrtime.bigint() - start) / 1e6);
	}
	times.sort((a, b) => a - b);
	return times[Math.floor(times.length / 2)]!;
}

export function fmtMs(ms: number): string {
	return ms < 1 ? `${ms.toFixed(4)} ms` : `${ms.toFixed(2)} ms`;
}

/** How long `run` took and how it held up the event loop: its longest block, p99 delay and longest GC pause. */
export interface BlockingFigures<T> {
	readonly value: T;
	readonly ms: number;
	readonly maxBlockMs: number;
	readonly p99Ms: number;
	readonly maxGcMs: number;
}

export async function measureBlocking<T>(run: () => Promise<T>): Promise<BlockingFigures<T>> {
	// One turn of the event loop first: libuv's clock is read once per turn, so work just before (a forced GC of 40 ms)
	// showed as the first sample's delay and was reported as the run's longest block.
	await new Promise((resolve) => setImmediate(resolve));
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	let maxGcMs = 0;
	const gc = new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) maxGcMs = Math.max(maxGcMs, entry.duration);
	});
	gc.observe({ entryTypes: ['gc'] });
	histogram.enable();
	const start = process.hrtime.bigint();
	const value = await run();
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	histogram.disable();
	gc.disconnect();
	return { value, ms, maxBlockMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, maxGcMs };
}

/** The V8 flags `npm start` runs the bot with (scripts/node-flags): a bench that runs the bot's code runs it so too. */
export const botNodeFlags = (): string[] =>
	readFileSync(new URL('../scripts/node-flags', import.meta.url), 'utf8')
		.split(/\s+/)
		.filter(Boolean);
