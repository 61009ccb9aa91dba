/**
 * Long work (a replay of thousands of races, a job over every league) is cut into pieces that each take well under
 * 50 ms, with this between them, so that no interaction waits behind it (issue 7 §2).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Races replayed between two yields: about 3-10 ms of rating work on these machines. */
export const RACES_PER_SLICE = 100;

/** Log events applied between two yields when a league's state is rolled forward. */
export const EVENTS_PER_SLICE = 100;

/** Days of standings computed between two yields (each day: every player's state grown and summarised). */
export const DAYS_PER_SLICE = 5;
