/**
 * The chart worker thread (rendering must not stall the bot). It owns the ChartJSNodeCanvas instances
 * (chart-canvas.ts) and draws the requests one at a time, in order; the PNG goes back as a transferred ArrayBuffer, with the
 * geometry. Errors go back as messages, so one bad chart never kills the worker.
 */
import '../worker-at-normal-priority.js'; // first: see there
import { parentPort, type MessagePort } from 'node:worker_threads';
import { drawChart, type ChartRequest, type ChartSize } from './draw-chart.js';
import type { ChartGeometry } from './chart-geometry.js';

export interface WorkerRequest {
	readonly id: number;
	readonly request: ChartRequest;
	readonly size: ChartSize;
}

export type WorkerReply =
	| { readonly id: number; readonly png: ArrayBuffer; readonly geometry: ChartGeometry }
	| { readonly id: number; readonly error: string };

const port = parentPort;
if (port === null) throw new Error('render-worker.ts runs as a worker thread (see worker-chart-renderer.ts).');

async function answer(message: WorkerRequest, to: MessagePort): Promise<void> {
	try {
		const { png, geometry } = await drawChart(message.request, message.size);
		// A copy the size of the PNG (canvas's Buffer may sit in a shared pool), then moved, not cloned.
		const bytes = new Uint8Array(png.byteLength);
		bytes.set(png);
		to.postMessage({ id: message.id, png: bytes.buffer, geometry } satisfies WorkerReply, [bytes.buffer]);
	} catch (error) {
		to.postMessage({
			id: message.id,
			error: error instanceof Error ? error.message : String(error),
		} satisfies WorkerReply);
	}
}

// One chart at a time, in arrival order: the PNG encoding runs on libuv's pool, and letting a burst start 50 of them
// at once would crowd the 2 cores the bot's own thread needs.
let queue = Promise.resolve();
port.on('message', (message: WorkerRequest) => {
	queue = queue.then(() => answer(message, port));
});
