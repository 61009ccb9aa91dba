import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { raceSystems } from '../../src/ratings/index.js';
import { addRace, member, organizer, world } from '../services/helpers.js';
import { leagueParamArgs } from '../support/league-params.js';
import { runCli } from './run-cli.js';

/**
 * A seasoned league (named seasons, a soft carry-over) read by the bot and by `pitwall replay` with the same seasons:
 * the same numbers for every system, on a day inside the current season and at the end of the first one.
 */

const dir = mkdtempSync(join(tmpdir(), 'pitwall-seasons-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

/** Times so that stk rates the races too. */
const races: [string, string, string[]][] = [
	['R1', '2025-09-06', ['Bob', 'Alice', 'Carol', 'Dave']],
	['R2', '2025-10-04', ['Alice', 'Bob', 'Carol', 'Dave']],
	['R3', '2025-11-15', ['Carol', 'Dave', 'Alice']],
	['R4', '2026-01-17', ['Alice', 'Carol', 'Bob', 'Eve']],
	['R5', '2026-02-07', ['Eve', 'Dave', 'Alice', 'Bob']],
];
const STARTS = ['2025-09-01', '2026-01-10'];

const historyCsv = () => {
	const lines = ['race,date,player,position,time'];
	for (const [id, date, order] of races) {
		order.forEach((name, i) => lines.push(`${id},${date},${name},${i + 1},${90 + i * 1.5}`));
	}
	const path = join(dir, 'history.csv');
	writeFileSync(path, lines.join('\n') + '\n');
	return path;
};

describe('pitwall replay agrees with the bot on a seasoned league', () => {
	it('soft carry-over at each named season: the leaderboard today and at the end of the first season', async () => {
		const w = world(); // clock: 2026-03-01
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		await w.services.leagues.configure(organizer, undefined, { seasonReset: 'soft', seasonShare: 35 });
		await w.services.seasons.start(organizer, { name: 'Autumn', date: STARTS[0] });
		for (const [id, date, order] of races) {
			if (id === 'R4') await w.services.seasons.start(organizer, { name: 'Winter', date: STARTS[1], races: 6 });
			await addRace(w, order.map((name, i) => `${i + 1}. ${name} 1:${30 + i * 1.5}`).join('\n'), undefined, date);
		}
		const path = historyCsv();
		const seasonArgs = ['--season-reset=soft', '--season-share=35', `--season-starts=${STARTS.join(',')}`];
		for (const system of raceSystems) {
			for (const [asOf, season] of [
				['2026-03-01', undefined],
				['2026-01-09', 'Autumn'],
			] as const) {
				const board = await w.services.leaderboard.page(member, { system: system.id, season });
				expect(board.asOf).toBe(asOf);
				const cli = await run(
					'replay',
					`--system=${system.id}`,
					`--input=${path}`,
					`--as-of=${asOf}`,
					...seasonArgs,
					...leagueParamArgs(system.id),
				);
				expect(cli.code, cli.err).toBe(0);
				const rows = cli.out
					.trimEnd()
					.split('\n')
					.slice(1)
					.map((line) => line.split(','));
				expect(
					rows.map((r) => r[0]),
					`${system.id} ${asOf}`,
				).toEqual(board.rows.map((r) => r.name));
				rows.forEach(([, rating, uncertainty, count], i) => {
					const row = board.rows[i]!;
					expect(Number(rating), `${system.id} ${asOf} ${row.name}`).toBe(row.rating);
					expect(uncertainty === '' ? undefined : Number(uncertainty)).toBe(row.uncertainty);
					expect(Number(count)).toBe(row.races);
				});
			}
		}
		// Without the seasons the CLI gives other numbers: the check above is not blind to them.
		const plain = await run(
			'replay',
			'--system=glicko',
			`--input=${path}`,
			'--as-of=2026-03-01',
			...leagueParamArgs('glicko'),
		);
		const board = await w.services.leaderboard.page(member, { system: 'glicko' });
		expect(Number(plain.out.split('\n')[1]!.split(',')[1])).not.toBe(board.rows[0]!.rating);
	});
});
