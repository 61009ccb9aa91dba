/**
 * Whether a command stored anything, known without the command saying so. When Discord refuses or fails a command's
 * answer, the router sends a short fallback that must tell the truth: "stored all the same" after a Confirm that
 * stored a race, "nothing was changed" after a read. Every write of every service goes through the repository that
 * createServices wraps (observed-writes.ts, src/services/index.ts) with `countWrite` among its listeners, and the
 * router runs each interaction under `countingWrites`, so the count is right for every command, including ones
 * written after this.
 *
 * AsyncLocalStorage carries the count through the command's awaits to the repository calls it makes; a write made
 * outside any interaction (the results inbox, the daily job) counts nowhere.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<{ stored: number }>();

/** Runs `work`, counting the writes that complete under it (its awaited calls and theirs). */
export function countingWrites<T>(work: () => Promise<T>): Promise<T> {
	return current.run({ stored: 0 }, work);
}

/** Whether a write completed under the `countingWrites` this runs in (false outside one). */
export function storedSoFar(): boolean {
	return (current.getStore()?.stored ?? 0) > 0;
}

/**
 * Counts a completed write (observed-writes.ts: a league created, an event appended, once it resolved; an append
 * resolves only once its event is stored, ports.ts) in the interaction it was made under.
 */
export function countWrite(): void {
	const count = current.getStore();
	if (count !== undefined) count.stored++;
}
