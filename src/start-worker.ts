import { Worker } from 'node:worker_threads';

/**
 * Starts the worker whose entry is `entry` (a file name without extension) beside the module at `moduleUrl`, with the
 * caller's extension: `.ts` under tsx and vitest, `.js` when built. In the build every module is bundled into a file
 * directly in dist/ and every worker is an entry of its own there (scripts/build.ts), so `./render-worker.js` beside
 * the caller's bundle file is the built worker. A TypeScript worker needs a one-line bootstrap
 * that registers tsx's loader in the worker and then imports the entry: `--import tsx` in a worker's execArgv is not
 * applied on Node 20 (ERR_UNKNOWN_FILE_EXTENSION, measured). The chart renderer and `/league calibrate` use it.
 */
export function startWorker(moduleUrl: string, entry: string): Worker {
	const extension = /\.[cm]?[jt]s$/.exec(new URL(moduleUrl).pathname)?.[0] ?? '.js';
	const url = new URL(`./${entry}${extension}`, moduleUrl);
	if (!url.pathname.endsWith('.ts')) return new Worker(url);
	const tsx = import.meta.resolve('tsx/esm/api');
	const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
	return new Worker(bootstrap, { eval: true });
}
