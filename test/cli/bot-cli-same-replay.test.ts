/**
 * The bot and the `pitwall` CLI run the same replay: on the same history, every number of `pitwall replay --format
 * json` equals the bot's ratings bit for bit (Object.is), for every race system, whether the bot replayed the history
 * in one go, restarted from a rating snapshot, or took the races one at a time.
 *
 * The bot keys players by id (`#12`) and the CLI by name, and both order a tie group by that key before rating it;
 * the systems sum the tied racers' terms in that order, so the two once differed in the last place (ZakStunts: 26 of
 * 249 endure players, 3 speed players). The sample league has 25 tied places, so it shows it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { raceInputOf, SAMPLE_LEAGUE_FILE } from '../../src/console/sample-league.js';
import { parseHistoryCsv, writeHistoryCsv } from '../../src/formats/history-csv.js';
import { LEAGUE_DEFAULTS } from '../../src/league/league-defaults.js';
import type { Standing } from '../../src/league/replay.js';
import { raceSystems } from '../../src/ratings/index.js';
import type { Race } from '../../src/ratings/types.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import type { Store } from '../../src/storage/ports.js';
import { leagueParamArgs } from '../support/league-params.js';
import { mulberry32 } from '../support/mulberry32.js';
import { GUILD, world, type World } from '../services/helpers.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-same-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Snapshots every few races, so a reopened repository restores from one and replays only a tail. */
const RATING_EVERY = 16;
const SYSTEMS = raceSystems.map((s) => s.id);

const sample = parseHistoryCsv(readFileSync(SAMPLE_LEAGUE_FILE, 'utf8'), 'sample-league.csv');

/**
 * The first `n` sample races dated `gap` days apart from 2024-06-01 (a year boundary inside, idle growth and
 * forgetting between races), with finish times: each place 0.5–1.5 s behind the one before, a tie the same time.
 */
function timedDated(n: number, gap: number): Race[] {
	const random = mulberry32(23);
	return sample.slice(0, n).map((race, i) => {
		const date = new Date(Date.UTC(2024, 5, 1) + i * gap * 86_400_000).toISOString().slice(0, 10);
		const timeOf = new Map<number, number>();
		let time = 90;
		for (const position of [...new Set(race.entries.map((e) => e.position))].sort((a, b) => a - b)) {
			time += 0.5 + random();
			timeOf.set(position, Math.round(time * 1000) / 1000);
		}
		return { ...race, date, entries: race.entries.map((e) => ({ ...e, time: timeOf.get(e.position)! })) };
	});
}

function historyFile(name: string, races: readonly Race[]): string {
	const path = join(dir, name);
	writeFileSync(path, writeHistoryCsv(races));
	return path;
}

interface Row {
	readonly player: string;
	readonly rating: number;
	readonly uncertainty: number | null;
	readonly races: number;
	readonly provisional: boolean;
}

async function cliRows(system: string, file: string, asOf: string | undefined): Promise<Row[]> {
	const { code, out } = await runCli(
		'replay',
		'--system',
		system,
		'--input',
		file,
		'--format',
		'json',
		...(asOf === undefined ? [] : ['--as-of', asOf]),
		...leagueParamArgs(system),
	);
	expect(code).toBe(0);
	return JSON.parse(out) as Row[];
}

/** Every number of the bot's standings is the CLI's, bit for bit; returns how many numbers were compared. */
function expectSameBits(system: string, bot: readonly (Standing & { name: string })[], cli: readonly Row[]): number {
	expect(bot.map((r) => r.name)).toEqual(cli.map((r) => r.player));
	const differing: string[] = [];
	bot.forEach((row, i) => {
		const other = cli[i]!;
		const same =
			Object.is(row.rating, other.rating) &&
			Object.is(row.uncertainty ?? null, other.uncertainty) &&
			row.races === other.races &&
			row.provisional === other.provisional;
		if (!same)
			differing.push(`${row.name}: bot ${row.rating} ± ${row.uncertainty}, cli ${other.rating} ± ${other.uncertainty}`);
	});
	expect(differing, `${system}: ${differing.length} of ${bot.length} players differ`).toEqual([]);
	return bot.length * 2;
}

async function newLeague(w: World): Promise<string> {
	const league = await w.repo.createLeague(
		{ guildId: GUILD, name: 'Same Replay', headline: 'folyami', params: LEAGUE_DEFAULTS, timezone: 'UTC' },
		'test',
	);
	return league.id;
}

const open = (store: Store): World => world(store, { repo: { ratingEvery: RATING_EVERY } });

async function expectBotEqualsCli(w: World, league: string, file: string, asOf: string | undefined): Promise<void> {
	let compared = 0;
	for (const system of SYSTEMS) {
		const view = await w.repo.ratingsAt(league, system, asOf);
		compared += expectSameBits(system, view.standings, await cliRows(system, file, asOf));
	}
	expect(compared).toBeGreaterThan(0);
}

describe('the bot and pitwall replay give the same bits', () => {
	it('the sample league (ZakStunts, 293 races, ties) imported at once, and after a restart from a snapshot', async () => {
		const store = createMemoryStore();
		const w = open(store);
		const league = await newLeague(w);
		await w.repo.appendEvent(league, {
			type: 'league-imported',
			races: sample.map(raceInputOf),
			source: 'sample-league.csv',
			by: 'test',
		});
		await expectBotEqualsCli(w, league, SAMPLE_LEAGUE_FILE, undefined);
		// Endure and speed, the systems the tie order showed in, rate every player of the sample.
		expect((await w.repo.ratingsAt(league, 'endure')).standings).toHaveLength(249);
		// Another process on the same store: its ratings come from a snapshot and the races after it.
		await expectBotEqualsCli(open(store), league, SAMPLE_LEAGUE_FILE, undefined);
	});

	it('a dated, timed ZakStunts history appended one race at a time, read after each, across a restart, grown to a later day', async () => {
		const races = timedDated(80, 7);
		const file = historyFile('timed.csv', races);
		const store = createMemoryStore();
		const first = open(store);
		const league = await newLeague(first);
		const append = async (w: World, race: Race) => {
			await w.repo.appendEvent(league, { type: 'race-submitted', race: raceInputOf(race), by: 'test' });
			for (const system of SYSTEMS) await w.repo.ratingsAt(league, system);
		};
		for (const race of races.slice(0, 45)) await append(first, race);
		const second = open(store); // a restart halfway: the rest is applied to a replay restored from a snapshot
		for (const race of races.slice(45)) await append(second, race);
		const last = races.at(-1)!.date!;
		const later = '2027-02-01'; // idle growth (Glicko RD) and forgetting (endure φ) over months
		for (const day of [last, later]) {
			await expectBotEqualsCli(second, league, file, day);
			await expectBotEqualsCli(open(store), league, file, day);
		}
		// stk rates only timed races: it did here.
		expect((await second.repo.ratingsAt(league, 'stk', last)).standings.length).toBeGreaterThan(50);
	});
});
