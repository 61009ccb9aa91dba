/**
 * Draws charts on one long-lived worker thread (render-worker.ts), so a burst of renders never blocks the bot's
 * event loop (measured: docs/charts.md, bench/charts.ts). Requests queue in the worker's message port and are answered
 * by id; the worker starts on the first request, is referenced only while requests are pending (an idle renderer
 * never keeps the process alive), is restarted after a crash, and is terminated by close().
 */
import { Worker } from 'node:worker_threads';
// Keeps canvas's native library loaded in the main thread too. Without it, the process segfaults when the worker
// exits (canvas 3.2 on Node 20, measured here: worker terminate() after any getContext('2d') → SIGSEGV): the
// library is unloaded with the worker's environment while cairo still holds per-thread state.
import 'canvas';
import type { ChartRequest, ChartSize, DrawnChart } from './draw-chart.js';
import type { WorkerReply, WorkerRequest } from './render-worker.js';

interface Pending {
	readonly resolve: (drawn: DrawnChart) => void;
	readonly reject: (error: Error) => void;
}

/** The worker's entry, next to this file with the same extension: `.ts` under tsx and vitest, `.js` when built. */
function workerUrl(): URL {
	const extension = /\.[cm]?[jt]s$/.exec(new URL(import.meta.url).pathname)?.[0] ?? '.js';
	return new URL(`./render-worker${extension}`, import.meta.url);
}

/**
 * A worker that can load TypeScript when this module is TypeScript: `--import tsx` in a worker's execArgv is not
 * applied on Node 20 (ERR_UNKNOWN_FILE_EXTENSION, measured), so a one-line bootstrap registers tsx's loader in the
 * worker and then imports the entry.
 */
function startWorker(): Worker {
	const entry = workerUrl();
	if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
	const tsx = import.meta.resolve('tsx/esm/api');
	const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
	return new Worker(bootstrap, { eval: true });
}

export class WorkerChartRenderer {
	#worker: Worker | undefined;
	#nextId = 1;
	readonly #pending = new Map<number, Pending>();
	#closed = false;

	constructor(readonly size: ChartSize) {}

	draw(request: ChartRequest): Promise<DrawnChart> {
		if (this.#closed) return Promise.reject(new Error('The chart renderer is closed.'));
		const worker = this.#ensureWorker();
		const id = this.#nextId++;
		return new Promise<DrawnChart>((resolve, reject) => {
			this.#pending.set(id, { resolve, reject });
			if (this.#pending.size === 1) worker.ref();
			worker.postMessage({ id, request, size: this.size } satisfies WorkerRequest);
		});
	}

	async close(): Promise<void> {
		this.#closed = true;
		const worker = this.#worker;
		this.#worker = undefined;
		this.#failAll(new Error('The chart renderer was closed before the chart was drawn.'));
		if (worker !== undefined) await worker.terminate();
	}

	#ensureWorker(): Worker {
		if (this.#worker !== undefined) return this.#worker;
		const worker = startWorker();
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
		const pending = this.#pending.get(reply.id);
		if (pending === undefined) return;
		this.#pending.delete(reply.id);
		if (this.#pending.size === 0) this.#worker?.unref();
		if ('error' in reply) pending.reject(new Error(reply.error));
		else pending.resolve({ png: Buffer.from(reply.png), geometry: reply.geometry });
	}

	#failAll(error: Error): void {
		const pending = [...this.#pending.values()];
		this.#pending.clear();
		for (const { reject } of pending) reject(error);
	}
}
