/**
 * Long work (a replay of thousands of races, a job over every league) is cut into pieces that each take well under
 * 50 ms, with this between them, so that no interaction waits behind it (issue 7 §2).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Races replayed between two yields: about 5-20 ms of rating work on these machines. */
export const RACES_PER_SLICE = 200;
