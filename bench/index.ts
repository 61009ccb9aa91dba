/** `npm run bench`: prints every benchmark figure (timings are measured here, never asserted in tests). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCalibrateBench } from './calibrate.js';
import { runChartsBench } from './charts.js';
import { runJobsBench } from './jobs.js';
import { runOddsBench } from './odds.js';
import { runRelrankBench } from './relrank.js';
import { runReplayBench } from './replay.js';

console.log(`pitwall benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
await runOddsBench();
runReplayBench();
await runRelrankBench();
await runCalibrateBench();
await runChartsBench();
await runJobsBench();

// The storage benchmark measures process RSS, so it runs in a process of its own, with the allocator setting
// `npm start` uses (MALLOC_ARENA_MAX=2: glibc's per-thread arenas for SQLite's worker threads cost RSS, not speed).
const storageBench = fileURLToPath(new URL('./storage.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const child = spawnSync(process.execPath, [tsx, storageBench], {
	stdio: 'inherit',
	env: { ...process.env, MALLOC_ARENA_MAX: '2' },
});
if (child.status !== 0) process.exitCode = child.status ?? 1;

// `/league import` measures peak RSS too: one process per source (bench/league-import.ts).
const importBench = fileURLToPath(new URL('./league-import.ts', import.meta.url));
for (const source of ['zakstunts', 'f1']) {
	const run = spawnSync(process.execPath, [tsx, importBench, source], { stdio: 'inherit' });
	if (run.status !== 0) process.exitCode = run.status ?? 1;
}
