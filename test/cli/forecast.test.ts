import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addRace, member, organizer, world } from '../services/helpers.js';
import { leagueParamArgs } from '../support/league-params.js';
import { runCli } from './run-cli.js';

/** `pitwall forecast`: the numbers of the bot's /forecast for the same history and day. */

const dir = mkdtempSync(join(tmpdir(), 'pitwall-forecast-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

const races: [string, string, string[]][] = [
	['R1', '2025-09-01', ['Bob', 'Alice', 'Carol', 'Dave']],
	['R2', '2026-01-10', ['Alice', 'Bob', 'Carol', 'Dave']],
	['R3', '2026-02-01', ['Carol', 'Dave', 'Alice', 'Bob']],
	['R4', '2026-02-20', ['Alice', 'Carol', 'Bob', 'Eve']],
];

const historyCsv = () => {
	const lines = ['race,date,player,position'];
	for (const [id, date, order] of races) order.forEach((name, i) => lines.push(`${id},${date},${name},${i + 1}`));
	const path = join(dir, 'history.csv');
	writeFileSync(path, lines.join('\n') + '\n');
	return path;
};

describe('pitwall forecast', () => {
	it('gives the numbers of /forecast for the same history, day, system and points', async () => {
		const w = world(); // clock: 2026-03-01
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await w.services.leagues.configure(organizer, undefined, { points: '10,6,4,3', bestResults: 2 });
		for (const [, date, order] of races) {
			await addRace(w, order.map((name, i) => `${i + 1}. ${name}`).join('\n'), undefined, date);
		}
		const bot = await w.services.forecast.forecast(member, { racesLeft: 3, seasons: 20_000, seed: 9 });
		const cli = await run(
			'forecast',
			historyCsv(),
			'--races-left=3',
			'--points=10,6,4,3',
			'--best-results=2',
			'--system=glicko',
			'--as-of=2026-03-01',
			'--seasons=20000',
			'--seed=9',
			...leagueParamArgs('glicko'), // the league was created with the new-league defaults
		);
		expect(cli.code, cli.err).toBe(0);
		expect(cli.err).toContain(
			'forecast 2026 as of 2026-03-01: 3 races so far, 3 left, 10,6,4,3 points, best 2 results',
		);
		const rows = cli.out
			.trimEnd()
			.split('\n')
			.slice(1)
			.map((line) => line.split(','));
		expect(rows.map((r) => r[0])).toEqual(bot.rows.map((r) => r.name));
		rows.forEach(([, pointsNow, pTitle, se, pTop3, expected], i) => {
			const row = bot.rows[i]!;
			expect([pointsNow, pTitle, se, pTop3, expected].map(Number)).toEqual([
				row.pointsNow,
				row.pTitle,
				row.pTitleError,
				row.pTop3,
				row.expectedPoints,
			]);
		});
		// Eve raced once this year, and is a contender; the simulation is not trivial.
		expect(bot.rows).toHaveLength(5);
		expect(bot.rows.filter((r) => r.pTitle > 0).length).toBeGreaterThan(1);
	});

	it('reads an undated history (the sample league has no dates) as a season from zero, as /forecast does', async () => {
		const lines = ['race,date,player,position'];
		for (const [id, , order] of races) order.forEach((name, i) => lines.push(`${id},,${name},${i + 1}`));
		const text = lines.join('\n') + '\n';
		const path = join(dir, 'undated.csv');
		writeFileSync(path, text);
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Undated' });
		await w.services.transfer.importFile(organizer, { league: 'Undated', file: { name: 'undated.csv', text } });
		await expect(w.services.forecast.forecast(member, {})).rejects.toThrow(/races have no dates.*give races-left/);
		const bot = await w.services.forecast.forecast(member, { racesLeft: 4, seasons: 20_000, seed: 3 });
		expect(bot.undated).toBe(true);
		expect(bot.racesSoFar).toBe(0);
		const cli = await run(
			'forecast',
			path,
			'--races-left=4',
			'--seasons=20000',
			'--seed=3',
			...leagueParamArgs('folyami'),
		);
		expect(cli.code, cli.err).toBe(0);
		expect(cli.err).toContain("forecast of an undated history: a season from zero with the latest race's 4 drivers");
		const rows = cli.out
			.trimEnd()
			.split('\n')
			.slice(1)
			.map((line) => line.split(','));
		// R4's drivers, no points yet; the numbers are the bot's, bit for bit.
		expect(rows.map((r) => r[0]).sort()).toEqual(['Alice', 'Bob', 'Carol', 'Eve']);
		expect(rows.map((r) => r[0])).toEqual(bot.rows.map((r) => r.name));
		rows.forEach(([, pointsNow, pTitle, se, pTop3, expected], i) => {
			const row = bot.rows[i]!;
			expect([pointsNow, pTitle, se, pTop3, expected].map(Number)).toEqual([
				0,
				row.pTitle,
				row.pTitleError,
				row.pTop3,
				row.expectedPoints,
			]);
		});
		expect(bot.rows.reduce((sum, r) => sum + r.pTitle, 0)).toBeCloseTo(1, 12);
	});

	it('refuses bad options with the reason', async () => {
		const path = historyCsv();
		expect((await run('forecast', path)).err).toContain('missing required option --races-left');
		expect((await run('forecast', path, '--races-left=x')).err).toContain(
			'--races-left must be a whole number from 0 to 200, got "x"',
		);
		expect((await run('forecast', path, '--races-left=2', '--points=1,-1')).err).toContain(
			'--points: "-1" (place 2) is not a non-negative number',
		);
		expect((await run('forecast', '--races-left=2')).err).toContain('give the history CSV');
		expect((await run('forecast', path, '--races-left=2', '--seasons=0')).code).toBe(2);
	});
});
