/**
 * Draws charts on a worker thread (render-worker.ts), so a burst of renders never blocks the bot's event loop
 * (measured: docs/charts.md, bench/charts.ts). Requests wait in a queue here and go to the worker two at a time,
 * answered by id; the worker starts on the first request, is referenced only while it is busy (an idle renderer never
 * keeps the process alive), is restarted after a crash, and is terminated by close() and after IDLE_MS without a
 * request: an idle worker holds 45–60 MB of the bot's RSS (its own V8 heap, Chart.js, cairo's surfaces), a cost the
 * next chart pays back in one start of the worker.
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../start-worker.js';
import type { ChartRequest, ChartSize, DrawnChart } from './draw-chart.js';
import type { WorkerReply, WorkerRequest } from './render-worker.js';

interface Pending {
	readonly resolve: (drawn: DrawnChart) => void;
	readonly reject: (error: Error) => void;
}

interface Queued extends Pending {
	readonly request: ChartRequest;
}

/**
 * Requests handed to the worker at a time; the rest wait here. Posting copies the chart data on this thread (a
 * 4-player history: about 2 ms), so a burst of 50 posted at once would block the loop for their sum; two in flight
 * keep the worker busy while each copy runs in its own turn of the loop.
 */
const MAX_IN_FLIGHT = 2;

/**
 * The worker is terminated after this long without a request, and started again by the next one. The start delays the
 * first chart after a quiet spell (a new thread loading Chart.js, canvas and the fonts: 0.7–1.2 s more than a warm
 * render through tsx at load average 4.3, less built); an idle worker otherwise holds 45–60 MB of RSS for nothing.
 * 30 s keeps it through a conversation of commands and gives the memory back between them.
 */
export const IDLE_MS = 30_000;

/**
 * Loads canvas's native library in this thread before the first worker starts, and keeps it loaded. Without it, the
 * process segfaults when the worker exits (canvas 3.2 on Node 20, measured here: worker terminate() after any
 * getContext('2d') → SIGSEGV): the library is unloaded with the worker's environment while cairo still holds
 * per-thread state. Loaded with the first chart, not at start-up: a bot that has drawn none does not hold cairo, pango
 * and their libraries (about 10 MiB of its idle RSS, bench/startup.ts).
 */
let canvasLoaded = false;
let loadingCanvas: Promise<void> | undefined;
/**
 * In three turns of the event loop, not one: its native library (cairo, pango and the rest, about 20 ms to load
 * here), then canvas's JavaScript (10 to 20 ms), then the worker's start. In one turn they blocked the loop for
 * 50 to 60 ms inside the first chart's command (bench/real-bot.ts).
 */
const loadCanvas = () =>
	(loadingCanvas ??= nextTurn()
		.then(() => loadCanvasLibrary())
		.then(nextTurn)
		.then(() => import('canvas'))
		.then(nextTurn)
		.then(() => void (canvasLoaded = true)));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** canvas's addon, loaded as `import('canvas')` then finds it (a library already loaded is not loaded again). */
function loadCanvasLibrary(): void {
	const require = createRequire(import.meta.url);
	let addon: string;
	try {
		addon = require.resolve('canvas/build/Release/canvas.node');
	} catch {
		return; // laid out otherwise: import('canvas') loads it
	}
	process.dlopen({ exports: {} }, addon);
}

export class WorkerChartRenderer {
	#worker: Worker | undefined;
	/** The idle worker being terminated: requests that arrive meanwhile wait in the queue for a new one. */
	#stopping: Promise<unknown> | undefined;
	#idleTimer: NodeJS.Timeout | undefined;
	#nextId = 1;
	readonly #inFlight = new Map<number, Pending>();
	readonly #queue: Queued[] = [];
	#closed = false;

	/** `idleMs`: how long an idle worker lives (IDLE_MS; tests shorten it). */
	constructor(
		readonly size: ChartSize,
		readonly idleMs = IDLE_MS,
	) {}

	draw(request: ChartRequest): Promise<DrawnChart> {
		if (this.#closed) return Promise.reject(new Error('The chart renderer is closed.'));
		return new Promise<DrawnChart>((resolve, reject) => {
			this.#queue.push({ request, resolve, reject });
			if (canvasLoaded) this.#pump();
			else
				loadCanvas().then(
					() => this.#pump(),
					(error: Error) => this.#failAll(new Error(`The chart renderer could not load canvas: ${error.message}`)),
				);
		});
	}

	/** Whether a worker thread is running now (tests: it stops when idle). */
	get running(): boolean {
		return this.#worker !== undefined;
	}

	async close(): Promise<void> {
		this.#closed = true;
		clearTimeout(this.#idleTimer);
		const worker = this.#worker;
		this.#worker = undefined;
		this.#failAll(new Error('The chart renderer was closed before the chart was drawn.'));
		if (worker !== undefined) await worker.terminate();
		await this.#stopping;
	}

	/** Hands queued requests to the worker up to MAX_IN_FLIGHT; the worker keeps the process alive only while busy. */
	#pump(): void {
		// A request that arrives while the idle worker is terminating waits for it to be gone, then starts a new one: two
		// workers at once would hold twice the memory that stopping it saves.
		if (this.#stopping !== undefined || this.#closed) return;
		clearTimeout(this.#idleTimer);
		while (this.#inFlight.size < MAX_IN_FLIGHT && this.#queue.length > 0) {
			const { request, resolve, reject } = this.#queue.shift()!;
			const worker = this.#ensureWorker();
			const id = this.#nextId++;
			this.#inFlight.set(id, { resolve, reject });
			worker.postMessage({ id, request, size: this.size } satisfies WorkerRequest);
		}
		if (this.#inFlight.size > 0) this.#worker?.ref();
		else if (this.#worker !== undefined) {
			this.#worker.unref();
			this.#idleTimer = setTimeout(() => this.#stopIdle(), this.idleMs).unref();
		}
	}

	/** Terminates the idle worker; a request queued meanwhile is pumped once it is gone. */
	#stopIdle(): void {
		const worker = this.#worker;
		if (worker === undefined || this.#inFlight.size > 0 || this.#queue.length > 0 || this.#closed) return;
		this.#worker = undefined; // its exit is then not a crash (the 'exit' handler ignores a worker no longer current)
		this.#stopping = worker
			.terminate()
			.catch(() => undefined)
			.finally(() => {
				this.#stopping = undefined;
				this.#pump();
			});
	}

	#ensureWorker(): Worker {
		if (this.#worker !== undefined) return this.#worker;
		const worker = startWorker(import.meta.url, 'render-worker');
		worker.unref();
		worker.on('message', (reply: WorkerReply) => this.#settle(reply));
		worker.on('error', (error) => {
			// The worker is gone: fail what it held; the next request starts a new one.
			if (this.#worker === worker) this.#worker = undefined;
			this.#failAll(new Error(`The chart worker failed: ${error.message}`));
		});
		worker.on('exit', (code) => {
			if (this.#worker !== worker) return;
			this.#worker = undefined;
			this.#failAll(new Error(`The chart worker exited (code ${code}).`));
		});
		this.#worker = worker;
		return worker;
	}

	#settle(reply: WorkerReply): void {
		const pending = this.#inFlight.get(reply.id);
		if (pending === undefined) return;
		this.#inFlight.delete(reply.id);
		if ('error' in reply) pending.reject(new Error(reply.error));
		else pending.resolve({ png: Buffer.from(reply.png), geometry: reply.geometry });
		// The next request is copied in a later turn of the loop, not in this one.
		setImmediate(() => this.#pump());
	}

	#failAll(error: Error): void {
		const pending = [...this.#inFlight.values(), ...this.#queue];
		this.#inFlight.clear();
		this.#queue.length = 0;
		for (const { reject } of pending) reject(error);
	}
}
