/**
 * Work in steps: the domain's long loops (a big import's checks, a standings table after a change) are generators
 * that pause between steps and return their result. Run at once here; the storage layer runs them in slices of the
 * event loop (src/storage/in-slices.ts), since this folder knows no clock.
 */

/** A generator's result, run to its end at once. */
export function toEnd<T>(steps: Generator<void, T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done === true) return next.value;
	}
}
