/** `npm run bench`: prints every benchmark figure (timings are measured here, never asserted in tests). */
import { runCalibrateBench } from './calibrate.js';
import { runOddsBench } from './odds.js';
import { runRelrankBench } from './relrank.js';
import { runReplayBench } from './replay.js';

console.log(`pitwall benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
await runOddsBench();
runReplayBench();
await runRelrankBench();
await runCalibrateBench();
