/**
 * What players see of the driver and the car, at the services (docs/cars.md): `/league config cars:`, the car's part
 * on `/rating`, `/rating car:`, `/leaderboard cars:true`, `/odds` reading D + C, and `/league stats` with and without
 * cars. Every number is checked against an independent replay or backtest of the same races with the same parameters.
 */
import { describe, expect, it } from 'vitest';
import { backtest } from '../../src/analysis/backtest.js';
import { createReplay } from '../../src/league/replay.js';
import { endure } from '../../src/ratings/endure.js';
import { speed } from '../../src/ratings/speed.js';
import type { Race } from '../../src/ratings/types.js';
import { carSettingsText, withCarSettings } from '../../src/services/leagues/car-settings.js';
import { GUILD, member, organizer, world, type World } from './helpers.js';
import { carLeagueRaces } from '../support/driver-car-league.js';

const inputs = carLeagueRaces();
/** The log's races as a replay reads them (ids R1…, in order). */
const races: Race[] = inputs.map((race, i) => ({ id: `R${i + 1}`, date: race.date, entries: race.entries }));

async function carLeague(cars: boolean): Promise<{ w: World; id: string }> {
	const w = world();
	w.now.ms = Date.parse('2025-09-01T12:00:00Z');
	const info = await w.services.leagues.create(organizer, { name: 'GT Cup', headline: 'endure' });
	await w.repo.appendEvent(info.id, { type: 'league-imported', races: inputs, source: 'test', by: 'test' });
	if (cars) await w.services.leagues.configure(organizer, undefined, { cars: 'on' });
	return { w, id: info.id };
}

/** The league's endure parameters (phi from the league defaults) with cars on or off. */
const endureParams = (cars: boolean) => endure.params({ phi: 0.999653, cars });

describe('/league config cars:', () => {
	it('writes cars=true for endure and speed, keeps their other parameters, and takes it away with off', () => {
		const on = withCarSettings({ endure: { phi: 0.99, kCar: 0.1 }, glicko: { c: 2 } }, 'on');
		expect(on).toEqual({ endure: { phi: 0.99, kCar: 0.1, cars: true }, speed: { cars: true }, glicko: { c: 2 } });
		expect(withCarSettings(on, 'off')).toEqual({ endure: { phi: 0.99, kCar: 0.1 }, glicko: { c: 2 } });
		const same = { endure: { k: 0.2 } };
		expect(withCarSettings(same, undefined)).toBe(same);
		expect(carSettingsText({ params: {} })).toBeUndefined();
		expect(carSettingsText({ params: on })).toBe(
			'Cars: rated apart from drivers in endure and speed (endure: car step 0.1, keeps 57% over a winter; speed: car step 0.3, keeps 57% over a winter)',
		);
		expect(carSettingsText({ params: withCarSettings({}, 'on') })).toBe(
			'Cars: rated apart from drivers in endure and speed (car step 0.3, keeps 57% over a winter)',
		);
		expect(carSettingsText({ params: { endure: { cars: 'true', carCarry: 0.6 } } })).toBe(
			'Cars: rated apart from drivers in endure (car step 0.3, keeps 60% over a winter)',
		);
	});

	it('is an organizer’s config event: endure replays with the car part, folyami is as it was', async () => {
		const { w, id } = await carLeague(false);
		await expect(w.services.leagues.configure(member, undefined, { cars: 'on' })).rejects.toMatchObject({
			code: 'not-organizer',
		});
		const folyami = (await w.repo.ratingsAt(id, 'folyami', '2025-09-01')).standings;
		const without = (await w.repo.ratingsAt(id, 'endure', '2025-09-01')).standings;
		const seq = (await w.repo.getLeague(id))!.seq;
		const info = await w.services.leagues.configure(organizer, undefined, { cars: 'on' });
		expect(info.seq).toBe(seq + 1);
		expect(info.config.params['endure']).toEqual({ phi: 0.999653, cars: true });
		const withCars = (await w.repo.ratingsAt(id, 'endure', '2025-09-01')).standings;
		expect(withCars.find((s) => s.name === 'Alice')!.rating).not.toBe(without.find((s) => s.name === 'Alice')!.rating);
		expect((await w.repo.ratingsAt(id, 'folyami', '2025-09-01')).standings).toEqual(folyami);
		// The replay is the library's with the league's parameters: the same bits.
		const replay = createReplay(endure, endureParams(true));
		for (const race of races) replay.apply(race);
		// The bot keys players by id, the replay of the races by name.
		const mine = replay.standings('2025-09-01');
		expect(withCars.map((s) => [s.name, s.rating])).toEqual(mine.map((s) => [s.player, s.rating]));
	});
});

describe('the cars of a league that rates them', () => {
	it('/leaderboard cars:true is the replay’s cars’ table on the day, as pitwall replay prints it', async () => {
		const { w } = await carLeague(true);
		const page = await w.services.cars.page(organizer, {});
		expect(page.system).toBe('endure');
		const replay = createReplay(endure, endureParams(true));
		for (const race of races) replay.apply(race);
		expect(page.rows.map(({ rank: _rank, ...row }) => row)).toEqual(replay.carStandings('2025-09-01'));
		expect(page.rows.map((r) => r.car)).toEqual(['Ferrari', 'Team *Bold*', 'Minardi', 'Williams']);
		expect(page.rows.every((r) => r.races === 24)).toBe(true);
		// speed on request, its own table.
		const speedPage = await w.services.cars.page(organizer, { system: 'speed' });
		const speedReplay = createReplay(speed, speed.params({ cars: true }));
		for (const race of races) speedReplay.apply(race);
		expect(speedPage.rows.map((r) => r.rating)).toEqual(speedReplay.carStandings('2025-09-01').map((c) => c.rating));
	});

	it('refuses a league or a system without cars, saying how to turn them on', async () => {
		const { w } = await carLeague(false);
		await expect(w.services.cars.page(organizer, {})).rejects.toThrow(
			'**GT Cup** does not rate cars apart from drivers: an organizer can turn it on with /league config cars:on',
		);
		const on = await carLeague(true);
		await expect(on.w.services.cars.page(organizer, { system: 'glicko' })).rejects.toThrow('`glicko` has no car part');
	});

	it('/rating car: gives the part, its last race’s move, and its drivers lately (a driver who moved is not one)', async () => {
		const { w } = await carLeague(true);
		const r = await w.services.cars.car(organizer, { car: 'ferrari' });
		const replay = createReplay(endure, endureParams(true));
		let lastMove: { before: number; after: number } | undefined;
		for (const race of races) {
			const outcome = replay.apply(race);
			const move = outcome.changes.find((c) => c.car?.name === 'Ferrari')?.car;
			if (move !== undefined) lastMove = { before: move.before, after: move.after };
		}
		expect(r.car).toEqual(replay.carStandings('2025-09-01').find((c) => c.car === 'Ferrari'));
		expect(r.rank).toBe(1);
		expect(r.rated).toBe(4);
		expect(r.last).toMatchObject({ race: 'R24', date: races[23]!.date, ...lastMove });
		// Ann_e drives the Ferrari in season two; Bob, its driver in season one, left it for the Williams.
		expect(r.drivers.map((d) => d.name).sort()).toEqual(['Alice', 'Ann_e']);
		expect(r.drivers.every((d) => d.race === 'R24')).toBe(true);
		await expect(w.services.cars.car(organizer, { car: 'Nope' })).rejects.toThrow(
			'No car "Nope" has been rated in **GT Cup**. Cars: **Ferrari**, **Team \\*Bold\\***, **Minardi**, **Williams**.',
		);
	});

	it('/rating shows the driver’s part as the rating and the latest car’s part beside it', async () => {
		const { w } = await carLeague(true);
		const bob = await w.services.ratings.rating(organizer, { player: 'Bob' });
		const replay = createReplay(endure, endureParams(true));
		let bobLast: unknown;
		for (const race of races) {
			const change = replay.apply(race).changes.find((c) => c.player === 'Bob');
			if (change !== undefined) bobLast = change.car;
		}
		expect(bob.summary!.rating).toBe(replay.standings('2025-09-01').find((s) => s.player === 'Bob')!.rating);
		expect(bob.car).toEqual({ name: 'Williams', part: replay.carPart('Williams', '2025-09-01') });
		expect(bob.lastChange?.car).toEqual(bobLast);
		expect(bob.lastChange?.car?.name).toBe('Williams');
		// Without cars: no car part anywhere.
		const off = await carLeague(false);
		const plain = await off.w.services.ratings.rating(organizer, { player: 'Bob' });
		expect(plain.car).toBeUndefined();
		expect(plain.lastChange?.car).toBeUndefined();
	});

	it('/odds reads driver + latest car: P(win) of two is 1 / (1 + e^−(S_A − S_B)), S = D + C, and moves with cars', async () => {
		const on = await carLeague(true);
		const off = await carLeague(false);
		const players = 'Alice, Gus';
		const withCars = await on.w.services.odds.odds(organizer, { players });
		const without = await off.w.services.odds.odds(organizer, { players });
		const view = await on.w.repo.ratingsAt(on.id, 'endure', '2025-09-01');
		const strength = (name: string) => {
			const s = view.standings.find((row) => row.name === name)!;
			return s.rating + view.replay.carPart(s.car!, '2025-09-01')!;
		};
		expect(withCars.rows[0]!.pWin).toBeCloseTo(1 / (1 + Math.exp(-(strength('Alice') - strength('Gus')))), 12);
		// The odds move with cars on (the car's part is read, and the drivers' parts are rated apart from it).
		expect(Math.abs(withCars.rows[0]!.pWin - without.rows[0]!.pWin)).toBeGreaterThan(0.01);
		// Bob carries his own part to the Williams (his car of season two), not the Ferrari's.
		const bob = view.standings.find((row) => row.name === 'Bob')!;
		expect(bob.car).toBe('Williams');
		const bobOdds = await on.w.services.odds.odds(organizer, { players: 'Bob, Gus' });
		const sBob = bob.rating + view.replay.carPart('Williams', '2025-09-01')!;
		expect(bobOdds.rows[0]!.pWin).toBeCloseTo(1 / (1 + Math.exp(-(sBob - strength('Gus')))), 12);
		// Each row names the car part it read, so the reader sees both numbers behind the odds.
		expect(bobOdds.rows[0]!.car).toEqual({ name: 'Williams', part: view.replay.carPart('Williams', '2025-09-01') });
		expect(without.rows[0]!.car).toBeUndefined();
	});

	it('/league stats compares each of endure and speed with and without cars, as backtest does', async () => {
		const { w } = await carLeague(true);
		const stats = await w.services.stats.stats(organizer, {});
		expect(stats.cars?.map((c) => [c.system, c.on])).toEqual([
			['endure', true],
			['speed', true],
		]);
		const endureCars = stats.cars![0]!;
		expect(endureCars.with).toEqual(backtest(endure, endureParams(true), races));
		expect(endureCars.without).toEqual(backtest(endure, endureParams(false), races));
		expect(endureCars.with.winner_log_likelihood).not.toBe(endureCars.without.winner_log_likelihood);
		// The table's endure row is the league's setting: with cars.
		expect(stats.systems.find((s) => s.system === 'endure')!.backtest).toEqual(endureCars.with);
		expect(stats.cars![1]!.without).toEqual(backtest(speed, speed.params(), races));
	});

	it('/league stats says nothing of cars where no result names one', async () => {
		const w = world();
		const info = await w.services.leagues.create(organizer, { name: 'Karting' });
		const carless = inputs.map((race) => ({ ...race, entries: race.entries.map(({ car: _car, ...e }) => e) }));
		await w.repo.appendEvent(info.id, { type: 'league-imported', races: carless, source: 'test', by: 'test' });
		expect((await w.services.stats.stats(organizer, {})).cars).toBeUndefined();
		expect(GUILD).toBe(info.config.guildId);
	});
});
