import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { handleShutdownSignals, SHUTDOWN_TIMEOUT_MS, type Shutdown } from '../src/shutdown.js';

function setUp(options: { timeoutMs?: number } = {}) {
	const exits: number[] = [];
	const target = Object.assign(new EventEmitter(), { exit: (code: number) => void exits.push(code) });
	const lines: string[] = [];
	let clock = 0;
	const shutdown = handleShutdownSignals({
		log: createLogger({ level: 'info', write: (line) => lines.push(line) }),
		process: target,
		now: () => clock,
		...options,
	});
	const messages = () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
	return { target, exits, shutdown, messages, advance: (ms: number) => (clock += ms) };
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('handleShutdownSignals', () => {
	let current: Shutdown | undefined;
	afterEach(() => {
		current?.dispose();
		vi.useRealTimers();
	});

	it.each(['SIGTERM', 'SIGINT'] as const)('%s closes the steps newest first, then exits 0', async (signal) => {
		const { target, exits, shutdown, messages } = setUp();
		current = shutdown;
		const closed: string[] = [];
		for (const name of ['store', 'charts', 'client', 'scheduler'])
			shutdown.add(name, async () => {
				await settle();
				closed.push(name);
			});
		target.emit(signal, signal);
		await vi.waitFor(() => expect(exits).toEqual([0]));
		expect(closed).toEqual(['scheduler', 'client', 'charts', 'store']);
		expect(messages()).toEqual(['shutting down', 'stopped']);
	});

	it('a failing step is logged, the later ones still run, and the exit code is 1', async () => {
		const { target, exits, shutdown, messages } = setUp();
		current = shutdown;
		const closed: string[] = [];
		shutdown.add('store', () => void closed.push('store'));
		shutdown.add('client', () => Promise.reject(new Error('socket already closed')));
		target.emit('SIGTERM', 'SIGTERM');
		await vi.waitFor(() => expect(exits).toEqual([1]));
		expect(closed).toEqual(['store']);
		expect(messages()).toEqual(['shutting down', 'shutdown step failed', 'stopped']);
	});

	it('a shutdown that hangs exits 1 after the timeout (10 s by default)', async () => {
		vi.useFakeTimers();
		const { target, exits, shutdown, messages } = setUp();
		current = shutdown;
		shutdown.add('stuck', () => new Promise(() => undefined));
		target.emit('SIGTERM', 'SIGTERM');
		await vi.advanceTimersByTimeAsync(SHUTDOWN_TIMEOUT_MS - 1);
		expect(exits).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(exits).toEqual([1]);
		expect(messages()).toContain('shutdown took too long: exiting without finishing it');
	});

	it('a second signal forces the exit; the same signal delivered twice at once (npm forwarding it) does not', async () => {
		const { target, exits, shutdown, messages, advance } = setUp();
		current = shutdown;
		shutdown.add('stuck', () => new Promise(() => undefined));
		target.emit('SIGINT', 'SIGINT');
		advance(5);
		target.emit('SIGINT', 'SIGINT');
		await settle();
		expect(exits).toEqual([]);
		advance(2_000);
		target.emit('SIGTERM', 'SIGTERM');
		expect(exits).toEqual([1]);
		expect(messages()).toEqual(['shutting down', 'second signal: exiting without finishing the shutdown']);
	});

	it('dispose stops listening', () => {
		const { target, shutdown } = setUp();
		shutdown.dispose();
		expect(target.listenerCount('SIGTERM') + target.listenerCount('SIGINT')).toBe(0);
	});
});
