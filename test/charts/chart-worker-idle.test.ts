import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHART_SIZE } from '../../src/charts/chart-size.js';
import { drawChart, type ChartRequest } from '../../src/charts/draw-chart.js';
import { WorkerChartRenderer } from '../../src/charts/worker-chart-renderer.js';
import { sampleLeaderboard, sampleOdds, sampleRatingHistory } from '../support/chart-samples.js';

// The chart worker is stopped after `idleMs` without a request (it holds 45–60 MB) and started again by the next one.
// Only setTimeout is faked: the worker's own messages and its termination stay real.
const IDLE_MS = 30_000;
const leaderboard: ChartRequest = { kind: 'leaderboard', chart: sampleLeaderboard(8), theme: 'light' };
const odds: ChartRequest = { kind: 'odds', chart: sampleOdds(5), theme: 'dark' };
const history: ChartRequest = { kind: 'ratingHistory', chart: sampleRatingHistory(3), theme: 'dark' };

let renderer: WorkerChartRenderer | undefined;
afterEach(async () => {
	vi.useRealTimers();
	vi.restoreAllMocks();
	await renderer?.close();
	renderer = undefined;
});

const fakeTimeouts = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

/** The worker's chart equals the one drawn on this thread: same geometry, same PNG bytes. */
async function expectDrawnRight(request: ChartRequest, drawn: Promise<{ png: Buffer; geometry: unknown }>) {
	const [viaWorker, here] = await Promise.all([drawn, drawChart(request)]);
	expect(viaWorker.geometry).toEqual(here.geometry);
	expect(viaWorker.png.equals(here.png)).toBe(true);
}

describe('the chart worker stops when idle', () => {
	it('terminates the worker after idleMs without a request and starts a new one for the next chart', async () => {
		fakeTimeouts();
		const terminate = vi.spyOn(Worker.prototype, 'terminate');
		renderer = new WorkerChartRenderer(DEFAULT_CHART_SIZE, IDLE_MS);
		await expectDrawnRight(leaderboard, renderer.draw(leaderboard));
		await new Promise((resolve) => setImmediate(resolve)); // the pump after the reply arms the idle timer
		expect(renderer.running).toBe(true);

		vi.advanceTimersByTime(IDLE_MS - 1);
		expect(renderer.running).toBe(true);
		expect(terminate).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(renderer.running).toBe(false);
		expect(terminate).toHaveBeenCalledTimes(1);
		expect(await terminate.mock.results[0]!.value).toBe(1); // the thread really ended (terminated: exit code 1)

		await expectDrawnRight(odds, renderer.draw(odds));
		expect(renderer.running).toBe(true);
	});

	it('keeps a worker that is used: each request starts the idle time again', async () => {
		fakeTimeouts();
		const terminate = vi.spyOn(Worker.prototype, 'terminate');
		renderer = new WorkerChartRenderer(DEFAULT_CHART_SIZE, IDLE_MS);
		for (let i = 0; i < 3; i++) {
			await renderer.draw(i % 2 ? odds : leaderboard);
			await new Promise((resolve) => setImmediate(resolve));
			vi.advanceTimersByTime(IDLE_MS - 1_000);
		}
		expect(renderer.running).toBe(true);
		expect(terminate).not.toHaveBeenCalled();
	});

	it('never stops a worker that is drawing, however long the chart takes', async () => {
		fakeTimeouts();
		renderer = new WorkerChartRenderer(DEFAULT_CHART_SIZE, IDLE_MS);
		await renderer.draw(odds);
		await new Promise((resolve) => setImmediate(resolve));
		const drawing = renderer.draw(history);
		vi.advanceTimersByTime(IDLE_MS * 2); // the timer armed before this request must not fire
		expect(renderer.running).toBe(true);
		await expectDrawnRight(history, drawing);
	});

	it('serves every request that arrives while the idle worker is being terminated', async () => {
		fakeTimeouts();
		const terminate = vi.spyOn(Worker.prototype, 'terminate');
		renderer = new WorkerChartRenderer(DEFAULT_CHART_SIZE, IDLE_MS);
		await renderer.draw(leaderboard);
		await new Promise((resolve) => setImmediate(resolve));
		vi.advanceTimersByTime(IDLE_MS); // terminate() called: its promise is still pending in this turn of the loop
		expect(terminate).toHaveBeenCalledTimes(1);
		const burst = [odds, history, leaderboard, { ...odds, theme: 'light' } as const];
		const drawn = burst.map((request) => renderer!.draw(request));
		for (const [n, request] of burst.entries()) await expectDrawnRight(request, drawn[n]!);
		expect(renderer.running).toBe(true);
		expect(terminate).toHaveBeenCalledTimes(1); // the new worker serves them all and is not stopped meanwhile
	});

	it('close() during the termination refuses later charts and fails the waiting ones clearly', async () => {
		fakeTimeouts();
		renderer = new WorkerChartRenderer(DEFAULT_CHART_SIZE, IDLE_MS);
		await renderer.draw(odds);
		await new Promise((resolve) => setImmediate(resolve));
		vi.advanceTimersByTime(IDLE_MS);
		const waiting = expect(renderer.draw(leaderboard)).rejects.toThrow('closed before the chart was drawn');
		await renderer.close();
		await waiting;
		await expect(renderer.draw(odds)).rejects.toThrow('closed');
		expect(renderer.running).toBe(false);
	});
});
