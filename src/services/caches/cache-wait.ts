/**
 * A read of a cache that has to replay a whole big league first (a first read after a start, or after a change that
 * replays history: 5-20 s for 15,000 races of 20 racers on a loaded machine, bench/real-bot.ts) can choose not to
 * wait for it: the replay goes on in its queue, and the reader answers without that part, saying so, rather than
 * keeping a user on "thinking…". A short replay (a few races on top, a small league) is always waited for, so an
 * answer leaves a part out only when waiting for it would take seconds.
 */

/** Races to replay from which a replay is long enough that a reader with a wait may answer without it. */
export const LONG_REPLAY = 1_000;

/** How long /rating waits for a long replay of its league's caches before answering without their parts. */
export const READ_WAIT_MS = 1_500;

/**
 * How long a read made while a change replays its league's ratings (it answers from the ratings before the change,
 * saying so) waits for a long replay of the caches: not at all. Waiting would give nothing back: that replay shares
 * the one thread with the change's, and the answer is already marked as from before the change.
 */
export const READ_WAIT_DURING_CHANGE_MS = 0;

/**
 * `work`'s value; or, when `waitMs` is set and `long()` still says a long replay is running after waiting `waitMs`
 * for it, `{ pending: true }` (the work goes on: a later read finds it done). A failure the reader did not wait for
 * is nobody's: the cache rebuilds on the next read.
 */
export async function unlessLong<T>(
	work: Promise<T>,
	waitMs: number | undefined,
	long: () => boolean,
): Promise<{ readonly value: T } | { readonly pending: true }> {
	if (waitMs === undefined) return { value: await work };
	work.catch(() => {});
	const done = work.then((value) => ({ value }));
	for (;;) {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
		const settled = await Promise.race([done, late]).finally(() => clearTimeout(timer));
		if (settled !== undefined) return settled;
		if (long()) return { pending: true };
	}
}
