/** `npm run bench`: prints every benchmark figure (timings are measured here, never asserted in tests). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runCalibrateBench } from './calibrate.js';
import { runChartsBench } from './charts.js';
import { runForecastBench } from './forecast.js';
import { runOddsBench } from './odds.js';
import { runRelrankBench } from './relrank.js';
import { runReplayBench } from './replay.js';
import { runResultFilesBench } from './result-files.js';
import { runRoleSyncBench } from './role-sync.js';
import { runUncertaintyBench } from './uncertainty.js';
import { botNodeFlags } from './timing.js';

console.log(`pitwall benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
await runOddsBench();
runForecastBench();
runReplayBench();
await runRelrankBench();
await runCalibrateBench();
runUncertaintyBench();
await runChartsBench();
await runResultFilesBench();
await runRoleSyncBench();

/**
 * Runs a benchmark file in a process of its own (with `npm start`'s allocator setting and V8 flags), passing `args`. tsx is loaded
 * with --import so that `nodeArgs` reach the process that runs the file (through tsx's cli, which starts a child of
 * its own, --expose-gc did not: gc() was missing).
 */
const own = (file: string, { nodeArgs = [], args = [] }: { nodeArgs?: string[]; args?: string[] } = {}) => {
	const script = fileURLToPath(new URL(file, import.meta.url));
	const child = spawnSync(process.execPath, [...botNodeFlags(), ...nodeArgs, '--import', 'tsx', script, ...args], {
		stdio: 'inherit',
		env: { ...process.env, MALLOC_ARENA_MAX: '2' },
	});
	if (child.status !== 0) process.exitCode = child.status ?? 1;
};
// The daily job's benchmark measures event-loop blocks: in a process of its own, where the previous run's garbage
// can be collected before each run is timed (--expose-gc).
own('./jobs.ts', { nodeArgs: ['--expose-gc'] });
// The storage benchmark measures process RSS, so it runs in a process of its own, with the allocator setting
// `npm start` uses (MALLOC_ARENA_MAX=2: glibc's per-thread arenas for SQLite's worker threads cost RSS, not speed).
own('./storage.ts');
// `/league import` measures peak RSS too: one process per source (bench/league-import.ts).
// `big`: a generated 10,000-race history (7.7 MB), read on a worker thread and stored in parts.
for (const source of ['zakstunts', 'f1', 'big']) own('./league-import.ts', { args: [source] });
// The big league: a generated 15,000-race league; the file runs its measuring phases in processes of
// their own (RSS, cold open), with --expose-gc.
own('./big-league.ts');
// The real bot (its own process as `npm start` runs it: discord.js, the chart worker, SQLite) on the 15,000-race
// league through the fake Discord: its peak RSS, its longest event-loop block, and reads during a void's replay.
own('./real-bot.ts');
// `/league calibrate` on a 10,000-race league: the event-loop delay while its worker runs, in a process
// of its own.
own('./league-calibrate.ts');
// The league web pages under a fixed 200 requests/s (latency under load): its own process, the server in a child.
own('./pages.ts');
// Start-up: the built bot's first answer against node importing discord.js and canvas alone, its idle RSS, and the
// sources through tsx for comparison (bench/startup.ts).
own('./startup.ts');
