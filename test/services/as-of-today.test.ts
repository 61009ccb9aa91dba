/**
 * Every read is "as of today": idle growth in /rating, /leaderboard and /odds, and the bot and the
 * `pitwall` CLI agreeing to the last digit on the same history and day.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { leagueHistoryCsv } from '../support/league-history.js';
import { main } from '../../src/cli/main.js';
import { glicko } from '../../src/ratings/glicko.js';
import { leagueParamArgs, leagueParams } from '../support/league-params.js';
import { addRace, member, organizer, world, type World } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-asof-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let w: World;
let league: string;
const DAY = 86_400_000;

/** The league's confirmed races as a history CSV with player names, as `pitwall` reads it. */
async function historyFile(name: string): Promise<string> {
	const path = join(dir, name);
	writeFileSync(path, await leagueHistoryCsv(w.repo, league));
	return path;
}

async function cli(...argv: string[]): Promise<string[][]> {
	let out = '';
	let err = '';
	const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
	expect(err).toBe('');
	expect(code).toBe(0);
	return out
		.trimEnd()
		.split('\n')
		.slice(1)
		.map((line) => line.split(','));
}

beforeEach(async () => {
	w = world(); // the clock starts at 2026-03-01T12:00Z
	league = (
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko', timezone: 'Europe/Budapest' })
	).id;
	await addRace(w, '1. Alice\n2. Bob\n3. Carol');
	w.now.ms += 7 * DAY;
	await addRace(w, '1. Bob\n2. Carol\n3. Dave');
	w.now.ms += 7 * DAY;
	await addRace(w, '1. Carol\n2. Bob\n3. Dave');
});

describe('ratings as of today', () => {
	it('races without a date are dated the day they are confirmed', async () => {
		const state = await w.repo.loadState(league);
		expect(state.races().map((r) => r.date)).toEqual(['2026-03-01', '2026-03-08', '2026-03-15']);
	});

	it('/rating grows an idle Glicko player’s RD day by day and says how long they have been idle', async () => {
		const atLastRace = (await w.services.ratings.rating(member, { player: 'Alice' })).summary!;
		let previous = 0;
		let rdAtLastRace = 0;
		for (const idle of [14, 30, 290]) {
			w.now.ms = Date.parse('2026-03-01T12:00:00Z') + idle * DAY;
			const r = await w.services.ratings.rating(member, { player: 'Alice' });
			expect(r.idle).toMatchObject({ lastDate: '2026-03-01', days: idle, atLastRace: { rating: atLastRace.rating } });
			const grown = glicko.elapse(
				{ rating: atLastRace.rating, rd: r.idle!.atLastRace.uncertainty!, races: 1 },
				idle,
				leagueParams(glicko),
			);
			expect(r.summary!.uncertainty).toBe(grown.rd);
			expect(r.summary!.uncertainty!).toBeGreaterThan(previous);
			previous = r.summary!.uncertainty!;
			rdAtLastRace = r.idle!.atLastRace.uncertainty!;
		}
		// 290 idle days: RD² grew by c²·t (glicko.pdf step 1) under the league's c, still below the newcomer's 350.
		const { c } = leagueParams(glicko);
		expect(previous ** 2 - rdAtLastRace ** 2).toBeCloseTo(c * c * 290, 6);
		expect(previous).toBeLessThan(350);
	});

	it('the preview’s “before” is grown to the race day', async () => {
		w.now.ms += 100 * DAY;
		const board = await w.services.leaderboard.page(member, {});
		const preview = await w.services.races.submit(organizer, { text: '1. Alice\n2. Dave' });
		const alice = preview.lines.find((l) => l.name === 'Alice')!;
		expect(alice.before!.uncertainty).toBe(board.rows.find((r) => r.name === 'Alice')!.uncertainty);
	});

	it('bot and CLI agree to the last digit: /leaderboard = pitwall replay --as-of, /odds = pitwall odds --as-of', async () => {
		w.now.ms += 290 * DAY; // 2026-12-30 at 12:00Z is still 2026-12-30 in Budapest
		const day = '2026-12-30';
		const file = await historyFile('cup.csv');
		for (const system of ['folyami', 'glicko', 'endure', 'speed']) {
			const board = await w.services.leaderboard.page(member, { system });
			expect(board.asOf).toBe(day);
			const rows = await cli('replay', '--system', system, '--input', file, '--as-of', day, ...leagueParamArgs(system));
			expect(
				rows.map(([player, rating, uncertainty, races, provisional]) => ({
					player,
					rating,
					uncertainty,
					races,
					provisional,
				})),
			).toEqual(
				board.rows.map((r) => ({
					player: r.name,
					rating: String(r.rating),
					uncertainty: r.uncertainty === undefined ? '' : String(r.uncertainty),
					races: String(r.races),
					provisional: String(r.provisional),
				})),
			);
			const odds = await w.services.odds.odds(member, { players: 'Alice, Bob, Carol, Dave', system });
			expect(odds.asOf).toBe(day);
			const cliOdds = await cli(
				'odds',
				'--system',
				system,
				'--input',
				file,
				'--players',
				'Alice,Bob,Carol,Dave',
				'--as-of',
				day,
				...leagueParamArgs(system),
			);
			expect(cliOdds).toEqual(
				odds.rows.map((r) => [r.name, String(r.pWin), String(r.pTop3), String(r.expectedPosition)]),
			);
		}
	});

	it('an idle player’s odds use the grown RD: they differ from the odds at the last race', async () => {
		const atRaceDay = await w.services.odds.odds(member, { players: 'Alice, Carol' });
		w.now.ms += 290 * DAY;
		const later = await w.services.odds.odds(member, { players: 'Alice, Carol' });
		expect(later.rows[0]!.pWin).not.toBe(atRaceDay.rows[0]!.pWin);
		// More uncertainty pulls the head-to-head toward a coin flip.
		expect(Math.abs(later.headToHead! - 0.5)).toBeLessThan(Math.abs(atRaceDay.headToHead! - 0.5));
	});

	it('a race dated after today makes every read as of that day', async () => {
		await addRace(w, '1. Alice\n2. Bob', undefined, '2026-03-20');
		const r = await w.services.ratings.rating(member, { player: 'Carol' });
		expect(r.asOf).toBe('2026-03-20');
		expect(r.idle).toMatchObject({ lastDate: '2026-03-15', days: 5 });
	});
});
