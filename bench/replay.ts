/**
 * Replay benchmark: the whole ZakStunts history (293 races, 4052 entries) under each race system, and openskill.js's
 * `rate` replay of the same races (Plackett-Luce, its default model) in the same process for comparison.
 * Run alone with `npx tsx bench/replay.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rate, rating, type Rating } from 'openskill';
import { fmtMs, medianMs } from './timing.js';
import { parseHistoryCsv } from '../src/formats/history-csv.js';
import { replayHistory } from '../src/league/replay.js';
import { rankRace } from '../src/ratings/race.js';
import { raceSystems } from '../src/ratings/index.js';
import { UnratableRaceError, type Race } from '../src/ratings/types.js';

const samplePath = fileURLToPath(new URL('../data/sample-league.csv', import.meta.url));

function openskillReplay(races: readonly Race[]): Map<string, Rating> {
	const ratings = new Map<string, Rating>();
	for (const race of races) {
		const ranked = rankRace(race);
		if (ranked.length < 2) continue;
		const teams = ranked.map((entry) => [ratings.get(entry.player) ?? rating()]);
		const result = rate(teams, { rank: ranked.map((entry) => entry.rank) });
		ranked.forEach((entry, i) => ratings.set(entry.player, result[i]![0]!));
	}
	return ratings;
}

export function runReplayBench(): void {
	const races = parseHistoryCsv(readFileSync(samplePath, 'utf8'), samplePath);
	const entries = races.reduce((sum, race) => sum + race.entries.length, 0);
	console.log(`\n== Replay of the ZakStunts history (${races.length} races, ${entries} entries), median of 15 runs`);
	const openskillMs = medianMs(() => openskillReplay(races));
	for (const system of raceSystems) {
		const params: unknown = system.params();
		let skipped = 0;
		const ms = medianMs(() => {
			skipped = 0;
			replayHistory(system, params, races, {}, (outcome) => {
				if (outcome.skipped !== undefined) skipped++;
			});
		});
		const note = skipped > 0 ? ` (${skipped} races not ratable: ${UnratableRaceError.name})` : '';
		console.log(`  ${system.id.padEnd(8)} ${fmtMs(ms).padStart(12)}${note}`);
		if (system.id === 'folyami') {
			console.log(
				`  openskill rate() replay of the same races: ${fmtMs(openskillMs)}; folyami/openskill time ratio ${(ms / openskillMs).toFixed(3)}`,
			);
		}
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runReplayBench();
