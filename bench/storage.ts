/**
 * Storage benchmark (targets): a league of 10,000 races and 2,000 players in SQLite (temp dir), every
 * race system kept up to date. Prints the median rating read (warm: the bot's running process; cold: a fresh
 * repository that loads the snapshots), the median confirmed submission (store + rating update of all systems), the
 * median void of a race 1,000 races back, and RSS (peak of samples; `RSS_TRACE=1` prints each sample). At handler
 * level (the services the slash commands call, on the same league): the median `/rating` call for the player with
 * the most races, and the median confirmed submission through the race service (scoreboard → preview → confirm).
 * Run alone with `npx tsx bench/storage.ts`.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtMs } from './timing.js';
import type { RaceInput } from '../src/league/league-events.js';
import { createServices, type Actor } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import type { LeagueRepository } from '../src/storage/ports.js';
import { type FileGuard, guardFile } from '../src/storage/file-guard.js';
import { guardSqliteFiles } from '../src/storage/sqlite-header-guard.js';
import { openSqliteStore } from '../src/storage/sqlite-store.js';

const RACES = 10_000;
const PLAYERS = 2_000;

/** Deterministic races: 8-20 drivers from the pool, some DNF, one race a day. */
export function* races(seed: number): Generator<RaceInput> {
	let a = seed >>> 0;
	const random = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = Math.imul(a ^ (a >>> 15), a | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	for (let day = Date.UTC(2000, 0, 1); ; day += 86_400_000) {
		const field = new Set<number>();
		const size = 8 + Math.floor(random() * 13);
		while (field.size < size) field.add(Math.floor(random() * PLAYERS));
		const entries = [...field].map((p, i) => ({
			player: `Driver ${String(p).padStart(4, '0')}`,
			position: i + 1,
			time: 60 + i + random(),
			status: random() < 0.05 ? ('DNF' as const) : ('finished' as const),
		}));
		yield { date: new Date(day).toISOString().slice(0, 10), mode: 'tt', entries };
	}
}

/**
 * What the SQLite store's file checks cost a write (file-guard.ts, sqlite-header-guard.ts): two checks, one before the
 * write and one before it is acknowledged, each a `stat` of the path and reads of the database, -shm and -wal headers.
 * Measured on the open store's files; the guard's descriptors stay open while the store's connection is (closing one
 * would drop SQLite's locks), and are left to the process's exit.
 */
async function fileChecksPerWrite(file: string): Promise<{ all: number; inode: number }> {
	// From the -wal's header: reading the database file here would close a descriptor of it, dropping SQLite's locks.
	const pageSize = readFileSync(`${file}-wal`).readUInt32BE(8);
	const notLost = () => Promise.reject(new Error('not lost'));
	const perWrite = async (guard: FileGuard) => {
		const n = 20_000;
		for (let i = 0; i < 1000; i++) await guard.check();
		const ms = await time(async () => {
			for (let i = 0; i < n; i++) await guard.check();
		});
		return (2 * ms * 1000) / n;
	};
	const inode = await perWrite(guardFile(file, notLost));
	const all = await perWrite(guardFile(file, notLost, guardSqliteFiles(file, pageSize).look));
	return { all, inode };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(run: () => Promise<unknown>): Promise<number> {
	const start = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - start) / 1e6;
}
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export async function runStorageBench(): Promise<void> {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-bench-'));
	const file = join(dir, 'bench.sqlite');
	const open = async (): Promise<LeagueRepository> =>
		createLeagueRepository(await openSqliteStore(file, (e) => console.error(e)));
	let peak = 0;
	const sample = (label?: string) => {
		peak = Math.max(peak, process.memoryUsage().rss);
		if (process.env.RSS_TRACE !== undefined && label !== undefined) {
			const { rss, heapUsed } = process.memoryUsage();
			console.log(`  [${label}] rss ${mb(rss)} heap ${mb(heapUsed)}`);
		}
	};
	try {
		console.log(`\n== Storage: ${RACES} races, ${PLAYERS} players, SQLite (WAL), every race system`);
		const repo = await open();
		const { id } = await repo.createLeague(
			{ guildId: 'bench', name: 'Bench', headline: 'folyami', params: {}, timezone: 'UTC' },
			'bench',
		);
		const source = races(42);
		const build = await time(async () => {
			for (let i = 0; i < RACES; i++) {
				await repo.appendEvent(id, { type: 'race-submitted', race: source.next().value as RaceInput, by: 'bench' });
				if (i % 1000 === 0) sample(`build ${i}`);
			}
		});
		sample('built');
		const players = (await repo.loadState(id)).players().length;
		console.log(`  build: ${RACES} submissions in ${(build / 1000).toFixed(1)} s, ${players} players`);

		const reads: number[] = [];
		for (let i = 0; i < 50; i++) reads.push(await time(() => repo.ratingsAt(id, 'folyami')));
		const submits: number[] = [];
		for (let i = 0; i < 50; i++) {
			const race = source.next().value as RaceInput;
			submits.push(await time(() => repo.appendEvent(id, { type: 'race-submitted', race, by: 'bench' })));
		}
		sample();
		const checkMicros = await fileChecksPerWrite(file);
		const cold: number[] = [];
		for (let i = 0; i < 5; i++) {
			const fresh = await open();
			cold.push(await time(() => fresh.ratingsAt(id, 'folyami')));
			await fresh.close();
			sample('cold');
		}
		const voids: number[] = [];
		const total = (await repo.loadState(id)).races().length;
		for (let i = 0; i < 5; i++) {
			const race = `R${total - 1000 - i * 7}`;
			voids.push(await time(() => repo.appendEvent(id, { type: 'race-voided', race, reason: 'bench', by: 'bench' })));
			sample('void');
		}

		// Handler level: what /rating and /race submit + Confirm run, minus Discord (after the voids, so the figures
		// above are measured on the league as before).
		const services = createServices(repo);
		const actor: Actor = { userId: 'bench', guildId: 'bench', manageGuild: true, roles: [] };
		const state = await repo.loadState(id);
		const raceCount = new Map<string, number>();
		for (const race of state.races()) {
			if (race.status !== 'confirmed') continue;
			for (const e of race.entries) raceCount.set(e.player, (raceCount.get(e.player) ?? 0) + 1);
		}
		const [busiest, busiestRaces] = [...raceCount].reduce((a, b) => (b[1] > a[1] ? b : a));
		const busiestName = state.resolve(busiest)!.name;
		const handlerReads: number[] = [];
		for (let i = 0; i < 50; i++) {
			handlerReads.push(await time(() => services.ratings.rating(actor, { player: busiestName })));
		}
		const handlerSubmits: number[] = [];
		for (let i = 0; i < 50; i++) {
			const race = source.next().value as RaceInput;
			let place = 0;
			const text = race.entries
				.map((e) => (e.status === 'DNF' ? `${e.player} DNF` : `${++place}. ${e.player} ${e.time!.toFixed(3)}`))
				.join('\n');
			handlerSubmits.push(
				await time(async () => {
					const preview = await services.races.submit(actor, { text, date: race.date });
					await services.races.confirm(actor, preview.id);
				}),
			);
		}
		sample('handlers');
		console.log(`  rating read (warm, median of 50):           ${fmtMs(median(reads))}   target < 20 ms`);
		console.log(`  rating read (cold repository, median of 5): ${fmtMs(median(cold))}`);
		console.log(`  confirmed submission, all systems (med 50): ${fmtMs(median(submits))}   target < 50 ms`);
		console.log(
			`  file checks per write (deleted, replaced, overwritten in place): ${checkMicros.all.toFixed(1)} µs, of which ` +
				`the inode's stat ${checkMicros.inode.toFixed(1)} µs   target: a few µs`,
		);
		console.log(
			`  /rating service call, ${busiestRaces}-race player (med 50): ${fmtMs(median(handlerReads))}   target < 20 ms`,
		);
		console.log(`  /race submit preview + confirm (med 50):    ${fmtMs(median(handlerSubmits))}   target < 50 ms`);
		console.log(`  void 1,000 races back, all systems (med 5): ${fmtMs(median(voids))}   target < 1 s`);
		console.log(`  RSS: ${mb(process.memoryUsage().rss)} now, ${mb(peak)} peak   target < 250 MB`);
		console.log(`  SQLite file: ${mb(statSync(file).size)}`);
		await repo.close();
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runStorageBench();
