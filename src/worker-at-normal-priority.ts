import { workerAtNormalPriority } from './thread-priority.js';

/**
 * Imported first by each worker thread's entry, for this one effect. ES modules evaluate their imports before their
 * own body, so a call in the entry's body would come after its libraries had loaded (the chart worker's chart.js and
 * canvas: about 100 ms) at the main thread's raised priority (thread-priority.ts).
 */
workerAtNormalPriority();
