/**
 * `/league import` benchmark (issue 8 §1): the service's import of ZakStunts (test fixture, 293 races) or F1
 * 1970-2021 (Ergast dump in ../shared/data/f1, ~880 races; skipped when absent) into a new league on a SQLite
 * store: wall time, the longest event-loop stall during it (a 10 ms timer's worst lateness), peak RSS, the size of
 * the one league-imported record, then the time of /league export. One source per process, so peak RSS is the
 * import's: `npx tsx bench/league-import.ts zakstunts|f1`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtMs } from './timing.js';
import type { LeagueFileInput } from '../src/formats/league-file.js';
import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { openSqliteStore } from '../src/storage/sqlite-store.js';

const source = process.argv[2] ?? 'zakstunts';
const zakPath = fileURLToPath(new URL('../test/fixtures/zakstunts/zakstunts-race-positions.csv', import.meta.url));
const f1Dir = fileURLToPath(new URL('../../shared/data/f1/', import.meta.url));
const named = (path: string) => ({ name: path.slice(path.lastIndexOf('/') + 1), text: readFileSync(path, 'utf8') });

let input: LeagueFileInput;
if (source === 'f1') {
	if (!existsSync(join(f1Dir, 'results.csv'))) {
		console.log(`F1: skipped (no Ergast dump in ${f1Dir})`);
		process.exit(0);
	}
	input = {
		file: named(join(f1Dir, 'results.csv')),
		races: named(join(f1Dir, 'races.csv')),
		drivers: named(join(f1Dir, 'drivers.csv')),
		from: 1970,
		to: 2021,
	};
} else input = { file: named(zakPath) };

const dir = mkdtempSync(join(tmpdir(), 'pitwall-bench-import-'));
const file = join(dir, 'bench.sqlite');
const repo = createLeagueRepository(
	await openSqliteStore(file, (error) => {
		throw error;
	}),
);
const services = createServices(repo);
const actor = { userId: 'bench', guildId: 'g', manageGuild: true, roles: [] };
await services.leagues.create(actor, { name: 'Bench' });

let worstStall = 0;
let last = performance.now();
const timer = setInterval(() => {
	const now = performance.now();
	worstStall = Math.max(worstStall, now - last - 10);
	last = now;
}, 10);
const start = performance.now();
let progressCalls = 0;
const summary = await services.transfer.importFile(actor, { league: 'Bench', ...input }, () => progressCalls++);
const importMs = performance.now() - start;
clearInterval(timer);

const [, imported] = await repo.readEvents(summary.league.id);
const recordBytes = Buffer.byteLength(JSON.stringify(imported));
const exportStart = performance.now();
const exported = await services.transfer.exportFiles(actor, 'Bench');
const exportMs = performance.now() - exportStart;
await repo.close();
const fileBytes = statSync(file).size;
rmSync(dir, { recursive: true, force: true });

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(
	`${source}: ${summary.races} races, ${summary.entries} results, ${summary.players} players; ` +
		`import ${fmtMs(importMs)} (worst event-loop stall ${fmtMs(worstStall)}, ${progressCalls} progress calls), ` +
		`peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, league-imported record ${mib(recordBytes)}, ` +
		`SQLite file ${mib(fileBytes)}; export ${fmtMs(exportMs)} (history ${mib(exported.history.length)})`,
);
