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
});
