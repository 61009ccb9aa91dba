/**
 * Child process of test/thread-priority.test.ts: favours its main thread as the bot does, starts a worker thread the
 * way the bot starts its workers, and prints what each thread's nice value is then.
 */
import { getPriority } from 'node:os';
import { favourMainThread } from '../../src/thread-priority.js';
import { startWorker } from '../../src/start-worker.js';

const result = favourMainThread();
const worker = startWorker(import.meta.url, 'priority-worker');
const workerNice = await new Promise<number>((resolve, reject) => {
	worker.once('message', resolve);
	worker.once('error', reject);
});
await worker.terminate();
process.stdout.write(JSON.stringify({ result, main: getPriority(process.pid), worker: workerNice }));
