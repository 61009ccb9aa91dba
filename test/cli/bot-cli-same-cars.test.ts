/**
 * With cars rated apart from drivers (docs/cars.md), the bot and `pitwall replay --param cars=true` give the same
 * bits: the drivers' parts and the cars' table (/leaderboard cars:true) of a league whose results name cars, imported
 * as the history CSV the CLI reads, on the last race's day and on a later day of a new year (the cars carried over).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeHistoryCsv } from '../../src/formats/history-csv.js';
import { leagueParamArgs } from '../support/league-params.js';
import { carLeagueRaces } from '../support/driver-car-league.js';
import { organizer, world } from '../services/helpers.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-same-cars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inputs = carLeagueRaces();
const file = join(dir, 'cars.csv');
writeFileSync(file, writeHistoryCsv(inputs.map((race, i) => ({ id: `R${i + 1}`, ...race }))));

interface CliCars {
	players: { player: string; rating: number; uncertainty: number | null; races: number; provisional: boolean }[];
	cars: { car: string; rating: number; races: number; last_date: string | null }[];
}

async function cli(system: string, asOf: string): Promise<CliCars> {
	const args = ['--system', system, '--input', file, '--format', 'json', '--as-of', asOf, '--param', 'cars=true'];
	const { code, out } = await runCli('replay', ...args, ...leagueParamArgs(system));
	expect(code).toBe(0);
	return JSON.parse(out) as CliCars;
}

describe('the bot and pitwall replay give the same cars', () => {
	it('the drivers’ parts and the cars’ table, bit for bit, for endure and speed, on two days', async () => {
		const w = world();
		w.now.ms = Date.parse('2026-02-01T12:00:00Z');
		const info = await w.services.leagues.create(organizer, { name: 'GT Cup', headline: 'endure' });
		await w.repo.appendEvent(info.id, { type: 'league-imported', races: inputs, source: 'cars.csv', by: 'test' });
		await w.services.leagues.configure(organizer, undefined, { cars: 'on' });
		let compared = 0;
		for (const system of ['endure', 'speed']) {
			for (const day of [inputs.at(-1)!.date!, '2026-02-01']) {
				const view = await w.repo.ratingsAt(info.id, system, day);
				const theirs = await cli(system, day);
				expect(view.standings.map((s) => [s.name, s.rating, s.races])).toEqual(
					theirs.players.map((p) => [p.player, p.rating, p.races]),
				);
				const ours = view.replay.carStandings(day);
				expect(ours.map((c) => [c.car, c.rating, c.races, c.lastDate ?? null])).toEqual(
					theirs.cars.map((c) => [c.car, c.rating, c.races, c.last_date]),
				);
				ours.forEach((c, i) => expect(Object.is(c.rating, theirs.cars[i]!.rating)).toBe(true));
				compared += ours.length;
			}
			// What /leaderboard cars:true shows is that table (today: 2026-02-01, a winter after the last race).
			const page = await w.services.cars.page(organizer, { system });
			expect(page.asOf).toBe('2026-02-01');
			expect(page.rows.map((r) => r.rating)).toEqual((await cli(system, '2026-02-01')).cars.map((c) => c.rating));
		}
		expect(compared).toBe(16);
	});

	it('prints the cars’ table after the players in CSV, and none with cars off', async () => {
		const on = await runCli(
			'replay',
			'--system',
			'endure',
			'--input',
			file,
			'--param',
			'cars=true',
			'--scale',
			'shown',
		);
		const [players, cars] = on.out.trimEnd().split('\n\n');
		expect(players!.split('\n')[0]).toBe('player,rating,uncertainty,races,provisional');
		const rows = cars!.split('\n');
		expect(rows[0]).toBe('car,rating,races,last_date');
		expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual(['Ferrari', 'Team *Bold*', 'Minardi', 'Williams']);
		// Shown: the part on the points scale as a difference, C·400/ln 10.
		const raw = await runCli(
			'replay',
			'--system',
			'endure',
			'--input',
			file,
			'--param',
			'cars=true',
			'--format',
			'json',
		);
		const rawCars = (JSON.parse(raw.out) as CliCars).cars;
		expect(rawCars).toHaveLength(4);
		expect(Number(rows[1]!.split(',')[1])).toBeCloseTo(rawCars[0]!.rating * (400 / Math.LN10), 9);
		// Cars off: the players alone, and JSON stays an array.
		const off = await runCli('replay', '--system', 'endure', '--input', file);
		expect(off.out).not.toContain('car,rating');
		const offJson = await runCli('replay', '--system', 'endure', '--input', file, '--format', 'json');
		expect(Array.isArray(JSON.parse(offJson.out))).toBe(true);
	});
});
