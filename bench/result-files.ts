/**
 * Reading the sims' result files (src/formats/results): each fixture through readRaceFile as the bot reads it, and
 * the largest one submitted through the race service, with the longest event-loop block while it is read (the
 * target: under 50 ms at a time).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRaceFile } from '../src/formats/results/read-file.js';
import { createServices } from '../src/services/index.js';
import { createLeagueRepository } from '../src/storage/league-repository.js';
import { createMemoryStore } from '../src/storage/memory-store.js';
import { fmtMs, medianMs } from './timing.js';

const root = fileURLToPath(new URL('../test/fixtures/results', import.meta.url));

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : name.endsWith('.md') ? [] : [path];
	});
}

export async function runResultFilesBench(): Promise<void> {
	console.log('\n## Result files (test/fixtures/results, readRaceFile: decode, detect, read, to scoreboard)');
	const rows = files(root).map((path) => {
		const bytes = readFileSync(path);
		let kind = 'refused';
		const ms = medianMs(
			() => {
				try {
					const reading = readRaceFile(bytes);
					kind = reading.kind === 'results' ? reading.file.format : 'scoreboard';
				} catch {
					kind = 'refused';
				}
			},
			{ warmup: 2, runs: 7 },
		);
		return { path: relative(root, path), bytes: bytes.length, ms, kind };
	});
	const total = rows.reduce((sum, r) => sum + r.ms, 0);
	console.log(`${rows.length} files, ${fmtMs(total)} in all; the five slowest:`);
	for (const r of rows.toSorted((a, b) => b.ms - a.ms).slice(0, 5)) {
		console.log(
			`  ${fmtMs(r.ms).padStart(10)}  ${(r.bytes / 1024).toFixed(0).padStart(6)} KiB  ${r.kind.padEnd(12)} ${r.path}`,
		);
	}
	const largest = rows.toSorted((a, b) => b.bytes - a.bytes)[0]!;
	const repo = createLeagueRepository(createMemoryStore());
	const services = createServices(repo);
	const organizer = { userId: '800000000000000001', guildId: '900000000000000001', manageGuild: true, roles: [] };
	await services.leagues.create(organizer, { name: 'Bench' });
	const bytes = readFileSync(join(root, largest.path));
	const submit = () => services.races.submit(organizer, { file: { name: 'race', bytes } });
	await submit(); // warm
	const figures = await longestGap(submit);
	console.log(
		`largest: ${largest.path} (${(largest.bytes / 1024 / 1024).toFixed(2)} MiB, ${largest.kind}): read ${fmtMs(largest.ms)}; ` +
			`/race submit preview ${fmtMs(figures.ms)}, longest event-loop block ${fmtMs(figures.maxGapMs)} (target < 50 ms)`,
	);
	// A file near the 8 MiB limit (the largest padded with the whitespace JSON allows): read on a worker thread.
	const near = Buffer.concat([bytes, Buffer.alloc(7 * 1024 * 1024 - bytes.length, 0x20)]);
	const big = await longestGap(() => services.races.submit(organizer, { file: { name: 'race', bytes: near } }));
	console.log(
		`7 MiB (the same, padded): /race submit preview ${fmtMs(big.ms)} (read on a worker thread, its start included), ` +
			`longest event-loop block ${fmtMs(big.maxGapMs)}`,
	);
}

/**
 * The longest time between two turns of a 1 ms interval while `run` goes on (and a little after, so a block at its
 * end is seen): monitorEventLoopDelay's histogram reported 11 ms for a 26 ms synchronous read here.
 */
async function longestGap(run: () => Promise<unknown>): Promise<{ ms: number; maxGapMs: number }> {
	let last = performance.now();
	let maxGapMs = 0;
	const timer = setInterval(() => {
		const now = performance.now();
		maxGapMs = Math.max(maxGapMs, now - last);
		last = now;
	}, 1);
	await new Promise((resolve) => setTimeout(resolve, 10));
	const start = performance.now();
	await run();
	const ms = performance.now() - start;
	await new Promise((resolve) => setTimeout(resolve, 10));
	clearInterval(timer);
	return { ms, maxGapMs };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runResultFilesBench();
