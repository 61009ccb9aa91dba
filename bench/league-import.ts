/**
 * `/league import` benchmark: the service's import of ZakStunts (test fixture, 293 races), F1 1970-2021
 * (Ergast dump in ../shared/data/f1, ~880 races; skipped when absent) or a generated history of 10,000 races of 20
 * (`big`: 200,000 lines, 7.7 MB; big-import-data.ts) into a new league on a SQLite store: wall time, the longest
 * event-loop stall during it (a 10 ms timer's worst lateness) and the main thread's CPU in it, peak RSS, the
 * league-imported event's size and the largest record stored (a big import is stored in parts), then the time of
 * /league export. One source per process, so peak RSS is the import's:
 * `node $(cat scripts/node-flags) --import tsx bench/league-import.ts zakstunts|f1|big`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtMs } from './timing.js';
import type { LeagueFileInput } from '../src/formats/league-file.js';
import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { allEntityNames } from '../src/storage/migrate-store.js';
import { openSqliteStore } from '../src/storage/sqlite-store.js';

const source = process.argv[2] ?? 'zakstunts';
const zakPath = fileURLToPath(new URL('../test/fixtures/zakstunts/zakstunts-race-positions.csv', import.meta.url));
const f1Dir = fileURLToPath(new URL('../../shared/data/f1/', import.meta.url));
const named = (path: string) => ({ name: path.slice(path.lastIndexOf('/') + 1), text: readFileSync(path, 'utf8') });

let input: LeagueFileInput;
if (source === 'big') {
	// Written by a process of its own and read back as a download would be: the generator's garbage is not this one's.
	const csv = join(mkdtempSync(join(tmpdir(), 'pitwall-bench-big-')), 'big-import.csv');
	const generator = fileURLToPath(new URL('./big-import-data.ts', import.meta.url));
	execFileSync(process.execPath, ['--import', 'tsx', generator, csv]);
	input = { file: named(csv) };
	rmSync(dirname(csv), { recursive: true, force: true });
} else if (source === 'f1') {
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

// The longest block of the event loop: a 10 ms timer's worst lateness, and the CPU the main thread spent meanwhile.
// On a busy machine a timer is also late when the process waits for a core: the CPU tells a block from a wait.
let worstStall = 0;
let worstStallCpu: number | undefined;
/** The most CPU the main thread spent between two ticks of the timer: the longest block, waits for a core left out. */
let worstBusy: number | undefined;
let last = performance.now();
let lastCpu = mainThreadCpuMs();
const timer = setInterval(() => {
	const now = performance.now();
	const cpu = mainThreadCpuMs();
	if (now - last - 10 > worstStall) {
		worstStall = now - last - 10;
		worstStallCpu = cpu === undefined || lastCpu === undefined ? undefined : cpu - lastCpu;
	}
	if (cpu !== undefined && lastCpu !== undefined) worstBusy = Math.max(worstBusy ?? 0, cpu - lastCpu);
	last = now;
	lastCpu = cpu;
}, 10);
const start = performance.now();
let progressCalls = 0;
const summary = await services.transfer.importFile(actor, { league: 'Bench', ...input }, () => progressCalls++);
const importMs = performance.now() - start;
clearInterval(timer);
const importPeak = process.resourceUsage().maxRSS * 1024;

const [, imported] = await repo.readEvents(summary.league.id);
const eventBytes = Buffer.byteLength(JSON.stringify(imported));
const exportStart = performance.now();
const exported = await services.transfer.exportFiles(actor, 'Bench');
const exportMs = performance.now() - exportStart;
await repo.close();
const fileBytes = statSync(file).size;
const largest = await largestRecord(file);
rmSync(dir, { recursive: true, force: true });

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(
	`${source}: ${summary.races} races, ${summary.entries} results, ${summary.players} players; ` +
		`import ${fmtMs(importMs)} (worst event-loop stall ${fmtMs(worstStall)}` +
		`${worstStallCpu === undefined ? '' : `, main thread busy ${worstStallCpu} ms of it`}` +
		`${worstBusy === undefined ? '' : `; longest main-thread CPU between two ticks ${worstBusy} ms`}, ` +
		`${progressCalls} progress calls), peak RSS ${mib(importPeak)} (${mib(process.resourceUsage().maxRSS * 1024)} ` +
		`with the export), league-imported event ${mib(eventBytes)}, ` +
		`largest record ${mib(largest.bytes)} (${largest.key}), ` +
		`SQLite file ${mib(fileBytes)}; export ${fmtMs(exportMs)} (history ${mib(exported.history.length)})`,
);

/** The largest record in the store and its key: what one write or read of the store must carry at once. */
async function largestRecord(path: string): Promise<{ key: string; bytes: number }> {
	const store = await openSqliteStore(path, (error) => {
		throw error;
	});
	let largest = { key: '(none)', bytes: 0 };
	try {
		for (const name of allEntityNames) {
			for await (const [key, value] of store.scan!(name)) {
				const bytes = Buffer.byteLength(JSON.stringify(value));
				if (bytes > largest.bytes) largest = { key: `${name}:${key}`, bytes };
			}
		}
	} finally {
		await store.close();
	}
	return largest;
}

/** CPU time of the main thread so far (Linux's /proc, in 10 ms ticks), in ms; undefined where there is no /proc. */
function mainThreadCpuMs(): number | undefined {
	try {
		const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // utime and stime are fields 14 and 15
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return undefined;
	}
}
