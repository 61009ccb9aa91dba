/** Worker of test/support/priority-main.ts: starts as the bot's workers do and posts its own nice value. */
import '../../src/worker-at-normal-priority.js';
import { getPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

parentPort!.postMessage(getPriority(0));
