/**
 * relrank benchmark: one Worms League season (parse + rate with the default parameters, 21 steps, ratings with up
 * to 420 decimals), median of 15 runs per season. Target: under 200 ms per season.
 * The season files carry no redistribution licence, so they are read from ../shared/data/worms-league (relative to
 * the repo root) and the benchmark says so and returns when they are absent.
 * Run alone with `npx tsx bench/relrank.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmtMs, medianMs } from './timing.js';
import { parseGames } from '../src/ratings/relrank/games.js';
import { relrank, relrankParams } from '../src/ratings/relrank/relrank.js';

const dataDir = fileURLToPath(new URL('../../shared/data/worms-league/', import.meta.url));
const TARGET_MS = 200;

export async function runRelrankBench(): Promise<void> {
	console.log('\n== relrank: one Worms League season (parse + rate, default parameters), median of 15 runs');
	if (!existsSync(dataDir)) {
		console.log(`  skipped: ${dataDir} is absent (the Worms League files are not redistributed with pitwall)`);
		return;
	}
	const params = relrankParams();
	let worst = 0;
	for (const season of [39, 40, 41, 42]) {
		const text = readFileSync(`${dataDir}${season}games.csv`, 'utf8');
		let players = 0;
		let steps = 0;
		const ms = medianMs(() => {
			const result = relrank(parseGames(text), params);
			players = result.ratings.length;
			steps = result.steps;
		});
		worst = Math.max(worst, ms);
		const games = parseGames(text).length;
		console.log(`  season ${season}: ${games} games, ${players} players, ${steps} steps ${fmtMs(ms).padStart(12)}`);
	}
	console.log(`  slowest season ${fmtMs(worst)} (target < ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'MISSED'})`);
	await Promise.resolve();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runRelrankBench();
