import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systems } from '../../src/ratings/index.js';
import { runCli } from './run-cli.js';

const root = join(import.meta.dirname, '../..');
const sampleLeague = join(root, 'data/sample-league.csv');
const dir = mkdtempSync(join(tmpdir(), 'pitwall-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
};

const run = runCli;

const close = (actual: number, expected: number, tolerance = 1e-12): void => {
	expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(expected)));
};
const parseCsv = (text: string): string[][] =>
	text
		.trimEnd()
		.split('\n')
		.map((line) => line.split(','));

/** Three equal newcomers, A > B > C (the spec's example: endure +0.30, -0.06, -0.24; speed +0.24, +0.06, -0.30 at k = 0.36). */
const threeEqual = file(
	'three.csv',
	'race,date,player,position\nR1,2021-01-01,A,1\nR1,2021-01-01,B,2\nR1,2021-01-01,C,3\n',
);

describe('pitwall replay', () => {
	it('prints player,rating,uncertainty,races,provisional by rating, and writes --history', async () => {
		const history = join(dir, 'history-out.csv');
		const { code, out, err } = await run('replay', '--system', 'endure', '--input', threeEqual, '--history', history);
		expect(err).toBe('');
		expect(code).toBe(0);
		const rows = parseCsv(out);
		expect(rows[0]).toEqual(['player', 'rating', 'uncertainty', 'races', 'provisional']);
		expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[4]])).toEqual([
			['A', '0.36', '1', 'true'],
			['B', '0.36', '1', 'true'],
			['C', '0.36', '1', 'true'],
		]);
		[0.3, -0.06, -0.24].forEach((expected, i) => close(Number(rows[i + 1]![1]), expected));
		const written = parseCsv(readFileSync(history, 'utf8'));
		expect(written[0]).toEqual(['race', 'player', 'position', 'rating_before', 'rating_after']);
		expect(written.slice(1).map((r) => r.slice(0, 4))).toEqual([
			['R1', 'A', '1', '0'],
			['R1', 'B', '2', '0'],
			['R1', 'C', '3', '0'],
		]);
		expect(written[1]![4]).toBe(rows[1]![1]);
	});

	it('--scale shown prints endure as the bot shows it: 1500 + R·400/ln 10, and √k in points (extended form)', async () => {
		const base = parseCsv((await run('replay', '--system', 'endure', '--input', threeEqual, '--scale', 'shown')).out);
		// The spec's example (+0.30, −0.06, −0.24) in points; the base form's k is no player's uncertainty.
		[0.3, -0.06, -0.24].forEach((r, i) => close(Number(base[i + 1]![1]), 1500 + (r * 400) / Math.LN10));
		expect(base.slice(1).map((row) => row[2])).toEqual(['', '', '']);
		const ext = ['--param', 'extended=true'];
		const raw = parseCsv((await run('replay', '--system', 'endure', '--input', threeEqual, ...ext)).out);
		const shown = parseCsv(
			(await run('replay', '--system', 'endure', '--input', threeEqual, ...ext, '--scale', 'shown')).out,
		);
		for (let i = 1; i <= 3; i++) {
			close(Number(shown[i]![1]), 1500 + (Number(raw[i]![1]) * 400) / Math.LN10);
			close(Number(shown[i]![2]), (Math.sqrt(Number(raw[i]![2])) * 400) / Math.LN10);
		}
		const bad = await run('replay', '--system', 'endure', '--input', threeEqual, '--scale', 'elo');
		expect([bad.code, bad.err]).toEqual([2, expect.stringContaining('--scale must be raw or shown, not "elo"')]);
	});

	it('--as-of grows every player to that day and leaves out races dated after it; the default is the last race', async () => {
		const twoRaces = file(
			'two-races.csv',
			'race,date,player,position\nR1,2021-01-01,A,1\nR1,2021-01-01,B,2\nR2,2021-03-01,B,1\nR2,2021-03-01,C,2\n',
		);
		const rows = async (...extra: string[]) =>
			parseCsv((await run('replay', '--system', 'glicko', '--input', twoRaces, ...extra)).out).slice(1);
		expect(await rows()).toEqual(await rows('--as-of', '2021-03-01'));
		const later = await rows('--as-of', '2021-06-01');
		const atLast = await rows();
		const rd = (table: string[][], player: string) => Number(table.find((r) => r[0] === player)![2]);
		for (const player of ['A', 'B', 'C']) expect(rd(later, player)).toBeGreaterThan(rd(atLast, player));
		const early = await rows('--as-of', '2021-02-01');
		expect(early.map((r) => r[0]).sort()).toEqual(['A', 'B']);
		const bad = await run('replay', '--system', 'glicko', '--input', twoRaces, '--as-of', '2021-02-30');
		expect(bad.code).toBe(2);
		expect(bad.err).toContain('--as-of "2021-02-30" is not a day of the calendar: February 2021 has 28 days.');
	});

	it('prints numbers at full double precision (String round trip)', async () => {
		const { out } = await run('replay', '--system', 'speed', '--input', threeEqual, '--param', 'k=0.1');
		for (const row of parseCsv(out).slice(1)) expect(String(Number(row[1]))).toBe(row[1]);
		close(Number(parseCsv(out)[1]![1]), (0.1 * 2) / 3);
	});

	it('replays the sample league with every registered system', async () => {
		for (const id of Object.keys(systems)) {
			const { code, out, err } = await run('replay', '--system', id, '--input', sampleLeague);
			expect(code, `${id}: ${err}`).toBe(0);
			// stk needs finish times, which the sample lacks: it skips every race and says so
			expect(parseCsv(out)).toHaveLength(id === 'stk' ? 1 : 250);
			if (id === 'stk') expect(err).toMatch(/^warning: stk could not rate 293 race\(s\)/);
		}
	});
});

describe('pitwall odds', () => {
	it('grows ratings up to the last dated race before computing odds', async () => {
		// phi = 0.5 per idle day: A, B, C idle two days until R2 on 2021-01-03, so R = 0.25·(0.30, -0.06, -0.24)
		const input = file(
			'odds.csv',
			'race,date,player,position\nR1,2021-01-01,A,1\nR1,2021-01-01,B,2\nR1,2021-01-01,C,3\nR2,2021-01-03,D,1\nR2,2021-01-03,E,2\n',
		);
		const { code, out, err } = await run(
			'odds',
			'--system',
			'endure',
			'--input',
			input,
			'--players',
			'A, B,C',
			'--param',
			'phi=0.5',
		);
		expect(err).toBe('');
		expect(code).toBe(0);
		const rows = parseCsv(out);
		expect(rows[0]).toEqual(['player', 'p_win', 'p_top3', 'expected_position']);
		// endure P(win) by inclusion-exclusion (specs/endure-elo.md): P_i = Σ_{C ⊆ others} (-1)^|C| λ_i/(λ_i + Σ_C λ)
		const lambda = [0.3, -0.06, -0.24].map((r) => Math.exp(-0.25 * r));
		const [a, b, c] = lambda as [number, number, number];
		const pA = 1 - a / (a + b) - a / (a + c) + a / (a + b + c);
		close(Number(rows[1]![1]), pA);
		expect(rows.slice(1).map((r) => r[0])).toEqual(['A', 'B', 'C']);
		expect(rows.slice(1).map((r) => r[2])).toEqual(['1', '1', '1']);
	});

	it('rates unknown players as newcomers with a warning', async () => {
		const { code, out, err } = await run('odds', '--system', 'speed', '--input', threeEqual, '--players', 'A,Zed');
		expect(code).toBe(0);
		expect(err).toBe('warning: Zed has no rated race in the history; rated as a newcomer\n');
		const rows = parseCsv(out);
		// speed: A has R = 0.24, Zed 0: P(A) = e^0.24/(e^0.24 + 1)
		close(Number(rows[1]![1]), Math.exp(0.24) / (Math.exp(0.24) + 1));
	});
});

describe('pitwall backtest', () => {
	const twice = file(
		'twice.csv',
		'race,date,player,position\nR1,2021-01-01,A,1\nR1,2021-01-01,B,2\nR1,2021-01-01,C,3\nR2,2021-02-01,A,1\nR2,2021-02-01,B,2\nR2,2021-02-01,C,3\n',
	);

	it('prints JSON per system with the hand-checked speed-Elo numbers', async () => {
		const { code, out, err } = await run('backtest', '--input', twice, '--systems', 'speed,endure');
		expect(err).toBe('');
		expect(code).toBe(0);
		const report = JSON.parse(out) as Record<
			string,
			{ races: number; winner_log_likelihood: number; p_winner_quartiles: number[]; brier_winner: number }
		>;
		expect(Object.keys(report)).toEqual(['speed', 'endure']);
		// R1: three newcomers, P(A) = 1/3. R2: speed R = (0.24, 0.06, -0.30), P(A) = e^0.24/Σ e^R.
		const mu = [0.24, 0.06, -0.3].map(Math.exp) as [number, number, number];
		const p2 = mu[0] / (mu[0] + mu[1] + mu[2]);
		expect(report.speed!.races).toBe(2);
		close(report.speed!.winner_log_likelihood, Math.log(1 / 3) + Math.log(p2));
		close(report.speed!.p_winner_quartiles[1]!, (1 / 3 + p2) / 2);
		const brier2 = (p2 - 1) ** 2 + (mu[1] ** 2 + mu[2] ** 2) / (mu[0] + mu[1] + mu[2]) ** 2;
		close(report.speed!.brier_winner, ((2 / 3) ** 2 + 2 / 9 + brier2) / 2);
	});

	it('--reset yearly restarts ratings each year; it needs dates', async () => {
		const yearly = file(
			'yearly.csv',
			'race,date,player,position\nR1,2021-12-01,A,1\nR1,2021-12-01,B,2\nR2,2022-01-01,A,1\nR2,2022-01-01,B,2\n',
		);
		const { out } = await run('backtest', '--input', yearly, '--systems', 'speed', '--reset', 'yearly');
		close(
			(JSON.parse(out) as { speed: { winner_log_likelihood: number } }).speed.winner_log_likelihood,
			2 * Math.log(1 / 2),
		);
		const undated = file('undated.csv', 'race,player,position\nR1,A,1\nR1,B,2\n');
		const failed = await run('backtest', '--input', undated, '--systems', 'speed', '--reset', 'yearly');
		expect(failed.code).toBe(2);
		expect(failed.err).toContain('--reset yearly needs dated races; race R1 has no date');
	});

	it('targets --param system.name=value at one system and plain name=value at every system that knows it', async () => {
		const both = await run('backtest', '--input', twice, '--systems', 'speed,endure', '--param', 'k=0.1');
		const one = await run('backtest', '--input', twice, '--systems', 'speed,endure', '--param', 'speed.k=0.1');
		const none = await run('backtest', '--input', twice, '--systems', 'speed,endure');
		const ll = (text: string, id: string): number =>
			(JSON.parse(text) as Record<string, { winner_log_likelihood: number }>)[id]!.winner_log_likelihood;
		expect(ll(one.out, 'speed')).toBe(ll(both.out, 'speed'));
		expect(ll(one.out, 'endure')).toBe(ll(none.out, 'endure'));
		expect(ll(both.out, 'endure')).not.toBe(ll(none.out, 'endure'));
		const unknown = await run('backtest', '--input', twice, '--systems', 'speed,endure', '--param', 'nope=1');
		expect(unknown.code).toBe(2);
		expect(unknown.err).toMatch(/--param nope: no selected system has a parameter "nope" \(speed: k, .*; endure: k, /);
		const notSelected = await run('backtest', '--input', twice, '--systems', 'speed', '--param', 'endure.k=1');
		expect(notSelected.code).toBe(2);
		expect(notSelected.err).toContain('--param endure.k: system endure is not selected (speed)');
		const badValue = await run('backtest', '--input', twice, '--systems', 'speed', '--param', 'k=-1');
		expect(badValue.code).toBe(2);
		expect(badValue.err).toContain('speed: parameter k must be at least');
	});
});

describe('pitwall import', () => {
	it('zakstunts: prints the history CSV (the shipped sample league) and a summary on stderr', async () => {
		const { code, out, err } = await run(
			'import',
			'zakstunts',
			join(root, 'test/fixtures/zakstunts/zakstunts-race-positions.csv'),
		);
		expect(code).toBe(0);
		expect(out).toBe(readFileSync(sampleLeague, 'utf8'));
		expect(err).toMatch(/imported 293 races, 4052 entries, 249 players\n$/);
	});

	it('r4k: prints the Race for Kicks history CSV (21 races, dated) and a summary naming the undated .cfg', async () => {
		const { code, out, err } = await run('import', 'r4k', join(root, 'test/fixtures/r4k'));
		expect(code).toBe(0);
		expect(out.startsWith('race,date,player,position,time,status\n2017-01,2017-02-16,Duplode,1,34.13,\n')).toBe(true);
		expect(parseCsv(out).filter((row) => row[0] === '2020-06')).toHaveLength(12);
		expect(err).toContain('2020-05: no thisrace.cfg, dated by its latest posted replay (2020-11-25)');
		expect(err).toMatch(/imported 21 races, 119 entries, 19 players\n$/);
		expect(await run('import', 'r4k', dir)).toMatchObject({
			code: 2,
			err: expect.stringContaining('has no race folder with a thisrace.sb') as unknown,
		});
	});

	const f1 = join(import.meta.dirname, '../../../shared/data/f1');
	it.skipIf(!existsSync(join(f1, 'results.csv')))(
		'ergast --from 1970 --to 2021: 873 races [needs ../shared/data/f1, not redistributable]',
		async () => {
			const { code, out, err } = await run('import', 'ergast', f1, '--from', '1970', '--to', '2021');
			expect(code).toBe(0);
			expect(err).toMatch(/imported 873 races, 21279 entries, \d+ players\n$/);
			expect(
				out.startsWith(
					'race,date,player,position,time,status,car\n1970-01 South African Grand Prix,1970-03-07,Jack Brabham,1,',
				),
			).toBe(true);
		},
	);

	it('rejects an unknown source and a bad year', async () => {
		expect(await run('import', 'iracing', 'x')).toMatchObject({
			code: 2,
			err: expect.stringContaining('unknown source "iracing"; known: zakstunts, ergast, r4k') as unknown,
		});
		expect(await run('import', 'ergast', dir, '--from', '70')).toMatchObject({
			code: 2,
			err: expect.stringContaining('--from must be a year (YYYY), got "70"') as unknown,
		});
	});
});

describe('pitwall errors', () => {
	it('an unknown system lists the known ones (exit 2)', async () => {
		const { code, err } = await run('replay', '--system', 'elo', '--input', threeEqual);
		expect(code).toBe(2);
		expect(err).toContain(`unknown system "elo"; known: ${Object.keys(systems).join(', ')}`);
	});

	it('a bad history row fails with file:line and exit 2', async () => {
		const bad = file('bad.csv', 'race,player,position\nR1,A,1\nR1,B,x\n');
		const { code, out, err } = await run('replay', '--system', 'speed', '--input', bad);
		expect(code).toBe(2);
		expect(out).toBe('');
		expect(err).toBe(`pitwall replay: ${bad}:3: position must be an integer of at least 1, got "x"\n`);
	});

	it('missing or unknown options, a missing file and an unknown command are usage errors (exit 2)', async () => {
		expect(await run('replay', '--system', 'speed')).toMatchObject({
			code: 2,
			err: expect.stringContaining('missing required option --input') as unknown,
		});
		expect(await run('replay', '--system', 'speed', '--input', threeEqual, '--bogus')).toMatchObject({
			code: 2,
			err: expect.stringContaining("Unknown option '--bogus'") as unknown,
		});
		expect(await run('replay', '--system', 'speed', '--input', join(dir, 'none.csv'))).toMatchObject({
			code: 2,
			err: expect.stringContaining('cannot read') as unknown,
		});
		expect(await run('frobnicate')).toMatchObject({
			code: 2,
			err: expect.stringContaining('unknown command "frobnicate"; known: replay, odds, backtest, import') as unknown,
		});
		expect(await run('odds', '--system', 'speed', '--input', threeEqual, '--players', 'A,,B')).toMatchObject({
			code: 2,
		});
		expect(await run('replay', '--system', 'speed', '--input', threeEqual, '--param', 'k')).toMatchObject({
			code: 2,
			err: expect.stringContaining('--param expects name=value, got "k"') as unknown,
		});
	});

	it('prints help: the command list and each command usage', async () => {
		const overview = await run('--help');
		expect(overview.code).toBe(0);
		for (const name of ['replay', 'odds', 'backtest', 'import']) expect(overview.out).toContain(`  ${name}`);
		expect((await run('backtest', '--help')).out).toMatch(/^usage: pitwall backtest --input/);
		expect((await run()).code).toBe(2);
	});
});

describe('the pitwall script', () => {
	it('runs as `tsx src/cli/main.ts` and exits with the command’s code', () => {
		const tsx = join(root, 'node_modules/.bin/tsx');
		const ok = spawnSync(tsx, ['src/cli/main.ts', 'replay', '--system', 'speed', '--input', threeEqual], {
			cwd: root,
			encoding: 'utf8',
		});
		expect(ok.status).toBe(0);
		expect(ok.stdout.split('\n')[0]).toBe('player,rating,uncertainty,races,provisional');
		const bad = spawnSync(tsx, ['src/cli/main.ts', 'replay', '--system', 'elo', '--input', threeEqual], {
			cwd: root,
			encoding: 'utf8',
		});
		expect(bad.status).toBe(2);
		expect(bad.stderr).toContain('unknown system "elo"');
	});
});
