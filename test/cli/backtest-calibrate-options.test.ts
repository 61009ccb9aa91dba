import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backtest, type BacktestResult } from '../../src/analysis/backtest.js';
import { loadHistory } from '../../src/cli/command.js';
import { writeHistoryCsv } from '../../src/formats/history-csv.js';
import { endure } from '../../src/ratings/endure.js';
import { carLeague } from '../support/car-league.js';
import { runCli as run } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-backtest-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Three seasons from 2001 of a league with cars, the last racer of every third race retiring. */
const league = join(dir, 'league.csv');
writeFileSync(league, writeHistoryCsv(carLeague(21, { seasons: 3, racesPerSeason: 10, retireEvery: 3 })));
const races = loadHistory(league);
const undated = join(dir, 'undated.csv');
writeFileSync(undated, 'race,player,position\nR1,A,1\nR1,B,2\n');

const report = (out: string): Record<string, BacktestResult> => JSON.parse(out) as Record<string, BacktestResult>;

describe('pitwall backtest --retirements and --score-from', () => {
	it('reads retirements as told, as the library does', async () => {
		const ordered = await run('backtest', '--input', league, '--systems', 'endure');
		const excluded = await run('backtest', '--input', league, '--systems', 'endure', '--retirements', 'excluded');
		expect(excluded.code).toBe(0);
		const ll = (out: string): number => report(out).endure!.winner_log_likelihood;
		expect(ll(excluded.out)).toBe(
			backtest(endure, endure.params(), races, { retirements: 'excluded' }).winner_log_likelihood,
		);
		expect(ll(excluded.out)).not.toBe(ll(ordered.out));
		expect(ll(ordered.out)).toBe(backtest(endure, endure.params(), races).winner_log_likelihood);
		const bad = await run('backtest', '--input', league, '--systems', 'endure', '--retirements', 'last');
		expect(bad.code).toBe(2);
		expect(bad.err).toContain('--retirements must be one of ordered, tied, excluded, got "last"');
	});

	it('scores from a day, and says how many races and from when', async () => {
		const args = ['--input', league, '--systems', 'endure', '--param', 'cars=true', '--retirements', 'excluded'];
		const { code, out, err } = await run('backtest', ...args, '--score-from', '2002-01-01');
		expect(code).toBe(0);
		const result = report(out).endure!;
		const scored = races.filter((race) => race.date! >= '2002-01-01');
		expect(result.races).toBe(scored.length);
		expect(result.replayed_before).toBe(races.length - scored.length);
		expect(result.first_scored).toEqual({ race: scored[0]!.id, date: scored[0]!.date });
		const params = endure.params({ cars: true });
		expect(result.winner_log_likelihood).toBe(
			backtest(endure, params, races, { retirements: 'excluded', scoreFrom: '2002-01-01' }).winner_log_likelihood,
		);
		expect(err).toBe(
			`backtest endure: ${scored.length} races scored from 2002-01-01 (the first: ${scored[0]!.id}, ` +
				`${scored[0]!.date}); the ${races.length - scored.length} races before it only rated\n`,
		);
	});

	it('refuses a day that is not one, and a history without dates', async () => {
		const bad = await run('backtest', '--input', league, '--systems', 'endure', '--score-from', '2002-13-01');
		expect(bad.code).toBe(2);
		expect(bad.err).toContain('--score-from');
		const noDates = await run('backtest', '--input', undated, '--systems', 'endure', '--score-from', '2002-01-01');
		expect(noDates.code).toBe(2);
		expect(noDates.err).toContain('--score-from needs dated races; no race of the history has a date');
	});
});

describe('pitwall calibrate with cars and --score-from', () => {
	it('searches kCar and carCarry with --param cars=true, and scores from the day', async () => {
		const { code, out } = await run(
			'calibrate',
			'--input',
			league,
			'--system',
			'endure',
			'--param',
			'cars=true',
			'--score-from',
			'2002-01-01',
			'--max-evaluations',
			'12',
		);
		expect(code).toBe(0);
		const scored = races.filter((race) => race.date! >= '2002-01-01');
		expect(out).toContain(
			`(${scored.length} races scored from 2002-01-01, the first on ${scored[0]!.date}; rated from the first race)`,
		);
		expect(out).toMatch(/\n {2}kCar +0\.3 → /);
		expect(out).toMatch(/\n {2}carCarry +0\.57 → /);
		const without = await run('calibrate', '--input', league, '--system', 'endure', '--max-evaluations', '4');
		expect(without.out).not.toContain('kCar');
	});

	it('--choices prints a cars column and tries both', async () => {
		const { code, out } = await run(
			'calibrate',
			'--input',
			league,
			'--system',
			'speed',
			'--choices',
			'--score-from',
			'2002-01-01',
		);
		expect(code).toBe(0);
		const lines = out.split('\n');
		expect(lines[0]).toContain('(scored from 2002-01-01): 18 combinations');
		expect(lines[1]).toMatch(/retirements +reset +forgetting +cars +races +LL/);
		const rows = lines.slice(2, 20);
		expect(rows.filter((row) => /^ {2}\S+ +\S+ +\S+ +on /.test(row))).toHaveLength(9);
		expect(rows.filter((row) => /^ {2}\S+ +\S+ +\S+ +off /.test(row))).toHaveLength(9);
		expect(out).toMatch(/\nbest: .*, cars (on|off)/);
		expect(out).toMatch(/settings \(for \/league config\): .*speed\.cars=(true|false)/);
	});
});
