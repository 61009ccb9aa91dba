/** The bot's own event-loop and memory log (PITWALL_EVENT_LOOP_LOG), which bench/real-bot.ts reads. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEventLoopLog } from '../src/event-loop-log.js';

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the event-loop log', () => {
	it('writes, every interval, the longest delay and the memory outside V8’s heap: ArrayBuffers and the RSS', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'pitwall-loop-log-'));
		dirs.push(dir);
		const file = join(dir, 'loop.jsonl');
		const stop = startEventLoopLog(file, 20);
		// 16 MiB of numbers outside the heap, held until the log has its last line.
		const held = new Float64Array(2 * 2 ** 20);
		await new Promise((resolve) => setTimeout(resolve, 10)); // the monitor's first ticks: it measures from them
		const busyUntil = performance.now() + 30;
		while (performance.now() < busyUntil); // a block of 30 ms
		await new Promise((resolve) => setTimeout(resolve, 60));
		stop();
		const lines = readFileSync(file, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line) as Record<string, number>);
		expect(lines.length).toBeGreaterThanOrEqual(2);
		expect(Math.max(...lines.map((l) => l.maxMs!))).toBeGreaterThanOrEqual(29);
		const last = lines.at(-1)!;
		expect(last.buffersMb).toBeGreaterThanOrEqual(16);
		expect(held.byteLength).toBe(16 * 2 ** 20); // still held when the last line was written
		// The process's RSS: node's code and libraries besides the heap.
		expect(last.rssMb).toBeGreaterThan(last.heapMb!);
	});
});
