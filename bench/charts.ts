/**
 * Chart renderer benchmark (src/charts), on the realistic samples of test/support/chart-samples.ts:
 * - median ms per chart, warm renderer, 30 renders of each kind: on the calling thread (config, draw and PNG
 *   encoding) and through the worker (the same plus the round trip); target < 60 ms;
 * - how long one render blocks the thread that draws it (config and draw; PNG encoding runs on libuv's pool);
 * - the event-loop delay (p99 and max, perf_hooks.monitorEventLoopDelay) during a burst of 50 concurrent renders,
 *   on the calling thread and through the worker: the figure behind drawing on a worker (docs/charts.md).
 * `npx tsx bench/charts.ts --write <dir>` also writes every sample chart in both themes as PNG files there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createChartRenderer, type MeasuredChartRenderer } from '../src/charts/create-chart-renderer.js';
import type { ChartRequest } from '../src/charts/draw-chart.js';
import { drawChart } from '../src/charts/draw-chart.js';
import { fmtMs } from './timing.js';
import { sampleLeaderboard, sampleOdds, sampleRatingHistory } from '../test/support/chart-samples.js';

const TARGET_MS = 60;
const BLOCK_LIMIT_MS = 50;
const RUNS = 31;
const BURST = 50;

function samples(theme: 'dark' | 'light'): [string, ChartRequest][] {
	return [
		['history, 1 player (3 years, ±2 RD band)', { kind: 'ratingHistory', chart: sampleRatingHistory(1), theme }],
		['history, 4 players', { kind: 'ratingHistory', chart: sampleRatingHistory(4), theme }],
		['leaderboard, top 20 with whiskers', { kind: 'leaderboard', chart: sampleLeaderboard(20), theme }],
		['odds, 12 players', { kind: 'odds', chart: sampleOdds(12), theme }],
		['odds, head-to-head', { kind: 'odds', chart: sampleOdds(2), theme }],
	];
}

function median(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeRenders(draw: () => Promise<unknown>): Promise<number[]> {
	for (let i = 0; i < 3; i++) await draw();
	const times: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now();
		await draw();
		times.push(performance.now() - start);
	}
	return times;
}

/** The synchronous part of each render on this thread: what a render holds the event loop for. */
async function blockTimes(request: ChartRequest): Promise<number[]> {
	const times: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const start = performance.now();
		const drawn = drawChart(request);
		times.push(performance.now() - start);
		await drawn;
	}
	return times;
}

interface LoopDelay {
	readonly p99: number;
	readonly max: number;
	readonly totalMs: number;
}

async function loopDelayDuring(work: () => Promise<unknown>): Promise<LoopDelay> {
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	histogram.enable();
	// The monitor records the gap between two ticks of its timer, and a reset forgets the last tick: let it tick
	// after the reset, or a block that starts at once is never seen.
	await new Promise((resolve) => setTimeout(resolve, 20));
	histogram.reset();
	await new Promise((resolve) => setTimeout(resolve, 5));
	const start = performance.now();
	await work();
	const totalMs = performance.now() - start;
	await new Promise((resolve) => setTimeout(resolve, 5));
	histogram.disable();
	return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6, totalMs };
}

function burst(draw: (request: ChartRequest) => Promise<unknown>): () => Promise<unknown> {
	const requests = samples('dark').map(([, request]) => request);
	return () => Promise.all(Array.from({ length: BURST }, (_, i) => draw(requests[i % requests.length]!)));
}

export async function writeSampleCharts(dir: string): Promise<string[]> {
	mkdirSync(dir, { recursive: true });
	const written: string[] = [];
	const names = ['history-1', 'history-4', 'leaderboard-20', 'odds-12', 'odds-2'];
	for (const theme of ['dark', 'light'] as const) {
		for (const [i, [, request]] of samples(theme).entries()) {
			const path = join(dir, `${names[i]}-${theme}.png`);
			writeFileSync(path, (await drawChart(request)).png);
			written.push(path);
		}
	}
	return written;
}

export async function runChartsBench(): Promise<void> {
	console.log(`\n== charts: 800×400 PNG, median ms of ${RUNS} renders after warm-up (target < ${TARGET_MS} ms)`);
	// Rendering is CPU-bound: the machine's other load moves these figures, so it is printed with them.
	console.log(`  load average ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores at the start`);
	console.log(
		`  ${'chart'.padEnd(42)}${'this thread'.padStart(13)}${'worker'.padStart(13)}${'blocks (med/max)'.padStart(22)}`,
	);
	const worker: MeasuredChartRenderer = createChartRenderer();
	try {
		for (const [label, request] of samples('dark')) {
			const inThread = median(await timeRenders(() => drawChart(request)));
			const viaWorker = median(await timeRenders(() => worker.draw(request)));
			const blocks = await blockTimes(request);
			const verdict = Math.max(inThread, viaWorker) < TARGET_MS ? 'met' : 'MISSED';
			console.log(
				`  ${label.padEnd(42)}${fmtMs(inThread).padStart(13)}${fmtMs(viaWorker).padStart(13)}` +
					`${`${fmtMs(median(blocks))} / ${fmtMs(Math.max(...blocks))}`.padStart(22)}   (${verdict})`,
			);
		}
		console.log(`\n== charts: event-loop delay during ${BURST} concurrent renders (mixed kinds), ms`);
		const onThread = await loopDelayDuring(burst((request) => drawChart(request)));
		const onWorker = await loopDelayDuring(burst((request) => worker.draw(request)));
		// The same wait with no render at all: what the machine's other load alone does to the loop.
		const idle = await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, onWorker.totalMs)));
		for (const [label, result] of [
			['on this thread', onThread],
			['on the worker', onWorker],
			['idle, as long', idle],
		] as const) {
			const verdict = result.max <= BLOCK_LIMIT_MS ? 'within' : 'OVER';
			console.log(
				`  ${label.padEnd(16)} p99 ${fmtMs(result.p99).padStart(11)}   max ${fmtMs(result.max).padStart(11)}   ` +
					`burst done in ${fmtMs(result.totalMs).padStart(11)}   (${verdict} the ${BLOCK_LIMIT_MS} ms limit)`,
			);
		}
	} finally {
		await worker.close();
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const at = process.argv.indexOf('--write');
	if (at !== -1) {
		const dir = process.argv[at + 1];
		if (dir === undefined)
			throw new Error('--write needs a directory: npx tsx bench/charts.ts --write /tmp/pitwall-charts');
		for (const path of await writeSampleCharts(dir)) console.log(path);
	} else {
		await runChartsBench();
	}
}
