/**
 * `pitwall demo` shows the sample league as the bot shows it: the console's ZakStunts league (the same history, the
 * parameters a new league starts with) gives the same top ten, to the digit shown, under every system, and the same
 * odds for a race of the folyami top five; `--raw` prints the numbers as computed, which the shown ones are made of.
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_GUILD_ID } from '../../src/console/console-interaction.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { POINTS_CENTRE, POINTS_PER_UNIT } from '../../src/formats/rating-scale.js';
import { consoleWorld } from '../console/console-session.js';
import { runCli } from './run-cli.js';

/** `name rating` of each standings row of the demo's block for `system`. */
function demoRows(out: string, system: string): string[] {
	const block = out.split(`\n${system}: `)[1]!.split('\n\n')[0]!;
	return [...block.matchAll(/^\s+\d+ {2}(.+?) +(-?\d+\.\d+)(?: +\S+)? +\d+(?: \(provisional\))?$/gmu)].map(
		(m) => `${m[1]} ${m[2]}`,
	);
}

describe('pitwall demo', () => {
	it('shows the top ten and the odds the console shows for its sample league', async () => {
		const demo = await runCli('demo');
		expect(demo.code).toBe(0);
		const w = consoleWorld(() => new Date('2026-11-20T12:00:00Z'));
		await ensureSampleLeague(w.repo, CONSOLE_GUILD_ID);
		const systems = ['folyami', 'glicko', 'endure', 'speed'];
		const { out: console } = await w.type([
			...systems.map((system) => `/leaderboard system:${system}`),
			'/odds players:Argammon,Ayrton,FinRok,MiDiaN,Duplode',
		]);
		const boards = console.split('== Leaderboard ==').slice(1);
		systems.forEach((system, i) => {
			// "1. Argammon 2438.0 · 55 races" (the leaderboard marks provisional players with †).
			const shown = [...boards[i]!.matchAll(/^\d+\. (.+?)†? (-?\d+\.\d)(?: \([^)]*\))? · \d+ races?$/gmu)]
				.slice(0, 10)
				.map((m) => `${m[1]} ${m[2]}`);
			expect(shown, system).toHaveLength(10);
			expect(demoRows(demo.out, system), system).toEqual(shown);
		});
		expect(demoRows(demo.out, 'folyami')[0]).toBe('Argammon 2438.0');
		expect(demoRows(demo.out, 'endure')[0]).toBe('Argammon 2578.5');
		const odds = console.split('== Odds: 5 racers ==')[1]!.split('\n').slice(1, 6);
		for (const line of odds) expect(demo.out).toContain(`    ${line}\n`);
		expect(odds[0]).toMatch(/^Argammon \(2438\.0\): win 36\.2%/u);
	});

	it('--raw prints the computed numbers the shown ones come from', async () => {
		const [shown, raw] = [await runCli('demo', '--top', '3'), await runCli('demo', '--top', '3', '--raw')];
		expect(raw.out).toContain('Numbers as computed (--raw).');
		const rating = (out: string, system: string) => Number(demoRows(out, system)[0]!.split(' ').at(-1));
		// endure: 1500 + R · 400/ln 10, by hand for Argammon's R = 6.208: 1500 + 6.208 · 173.7178 = 2578.44 (±0.1).
		expect(rating(raw.out, 'endure')).toBeCloseTo(6.208, 3);
		expect(
			Math.abs(POINTS_CENTRE + rating(raw.out, 'endure') * POINTS_PER_UNIT - rating(shown.out, 'endure')),
		).toBeLessThan(0.1);
		// folyami and glicko are shown as computed, one decimal.
		expect(rating(raw.out, 'folyami').toFixed(1)).toBe(rating(shown.out, 'folyami').toFixed(1));
		expect(raw.out).toMatch(/^ +Argammon +0\.36\d\d {2}0\.82\d\d {2}2\.24\d$/mu);
	});
});
