/** How long work yields to the event loop (src/event-loop.ts). */
import { describe, expect, it } from 'vitest';
import { createSlicer, yieldToEventLoop } from '../src/event-loop.js';

describe('yielding to the event loop', () => {
	it('resumes one yielded task per turn of the loop, however many tasks yield at once', async () => {
		const marks: string[] = [];
		let observing = true;
		// Scheduled from inside its own callback, this runs once per turn of the loop: `|` marks each turn.
		const observe = () => {
			marks.push('|');
			if (observing) setImmediate(observe);
		};
		setImmediate(observe);
		const task = async (name: string) => {
			for (let i = 0; i < 5; i++) {
				await yieldToEventLoop();
				marks.push(name);
			}
		};
		await Promise.all(['a', 'b', 'c'].map(task));
		observing = false;
		expect(marks.filter((m) => m !== '|')).toHaveLength(15);
		// Never two tasks in one turn (with a setImmediate each, the three ran back to back: `abc|abc|…`).
		const turns = marks.join('').split('|');
		expect(Math.max(...turns.map((turn) => turn.length))).toBe(1);
	});

	it('a slicer is due once its budget has passed, and not again until that long after its pause', async () => {
		const slicer = createSlicer(5);
		expect(slicer.due()).toBe(false);
		const until = performance.now() + 6;
		while (performance.now() < until);
		expect(slicer.due()).toBe(true);
		await slicer.pause();
		expect(slicer.due()).toBe(false);
	});

	it("a long loop begun in a resumed turn shares that turn's budget with the piece that finished before it", async () => {
		const busy = (ms: number) => {
			const until = performance.now() + ms;
			while (performance.now() < until);
		};
		const first = createSlicer(20);
		await first.pause(); // now at the start of a turn
		busy(12); // the first loop finishes mid-slice; its caller starts the next one in the same turn
		const second = createSlicer(20);
		busy(10);
		// 22 ms into the turn: counted from its own start (10 ms) it would run on and the two slices add up.
		expect(second.due()).toBe(true);
		await second.pause();
		expect(second.due()).toBe(false);
	});
});
