/** `/forecast` at the service level, and the forecast settings of `/league config`. */
import { describe, expect, it } from 'vitest';
import { forecastEmbed } from '../../commands/forecast.js';
import { member, organizer, addRace, eventCount, world, type World } from './helpers.js';

/** World clock: 2026-03-01. Two races last year, two this year (Alice wins both, Bob second, Carol third). */
async function league(): Promise<{ w: World; id: string }> {
	const w = world();
	const id = (await w.services.leagues.create(organizer, { name: 'Cup' })).id;
	await addRace(w, '1. Bob\n2. Alice\n3. Carol', undefined, '2025-05-01');
	await addRace(w, '1. Carol\n2. Bob\n3. Alice', undefined, '2025-06-01');
	await addRace(w, '1. Alice\n2. Bob\n3. Carol\n4. Dave', undefined, '2026-01-10');
	await addRace(w, '1. Alice\n2. Bob\n3. Dave', undefined, '2026-02-10');
	return { w, id };
}

describe('forecast service', () => {
	it('counts this year’s points under the table, simulates the rest, and sorts favourites first', async () => {
		const { w } = await league();
		const f = await w.services.forecast.forecast(member, { racesLeft: 1, seasons: 20_000 });
		expect(f.year).toBe(2026);
		expect(f.racesSoFar).toBe(2);
		expect(f.pointsText).toBe('f1');
		const points = Object.fromEntries(f.rows.map((r) => [r.name, r.pointsNow]));
		// Alice 25 + 25, Bob 18 + 18, Carol 15, Dave 12 + 15.
		expect(points).toEqual({ Alice: 50, Bob: 36, Carol: 15, Dave: 27 });
		// Alice is 14 ahead of Bob with one race (25 at most, 7 over second) left: champion for sure.
		expect(f.rows[0]).toMatchObject({ name: 'Alice', pTitle: 1, pTitleError: 0 });
		expect(f.rows.reduce((s, r) => s + r.pTitle, 0)).toBeCloseTo(1, 12);
		expect(f.seasons).toBe(20_000);
	});

	it('uses the league’s points and dropped results from /league config, and a points option over them', async () => {
		const { w, id } = await league();
		const info = await w.services.leagues.configure(organizer, undefined, { points: '3,2,1', bestResults: 1 });
		expect(info.config).toMatchObject({ points: [3, 2, 1], bestResults: 1 });
		const f = await w.services.forecast.forecast(member, { racesLeft: 2, seasons: 5_000 });
		expect(f.pointsText).toBe('3,2,1');
		expect(Object.fromEntries(f.rows.map((r) => [r.name, r.pointsNow]))).toEqual({
			Alice: 3,
			Bob: 2,
			Carol: 1,
			Dave: 1,
		});
		const motogp = await w.services.forecast.forecast(member, { racesLeft: 2, points: 'motogp', seasons: 5_000 });
		expect(motogp.pointsText).toBe('motogp');
		expect(motogp.rows.find((r) => r.name === 'Bob')!.pointsNow).toBe(20);
		// Back to the defaults: F1 points, every result counts.
		const reset = await w.services.leagues.configure(organizer, undefined, { points: 'default', bestResults: 0 });
		expect(reset.config.points).toBeUndefined();
		expect(reset.config.bestResults).toBeUndefined();
		expect(await eventCount(w, id)).toBeGreaterThan(0);
	});

	it('before this year’s first race, forecasts from zero with the latest race’s drivers, and the reply says which race', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup' });
		await addRace(w, '1. Bob\n2. Alice\n3. Carol', undefined, '2025-05-01');
		await addRace(w, '1. Carol\n2. Bob', undefined, '2025-06-01');
		const f = await w.services.forecast.forecast(member, { racesLeft: 3, seasons: 2_000 });
		expect(f.racesSoFar).toBe(0);
		expect(f.contendersFrom).toBe('2025-06-01');
		expect(f.rows.map((r) => r.name).sort()).toEqual(['Bob', 'Carol']); // Alice was not in the latest race
		expect(JSON.stringify(forecastEmbed(f, undefined).fields)).toContain(
			'No race yet in 2026: a season from zero with the drivers of the latest race (2025-06-01), 3 left; f1 points.',
		);
	});

	it('after this year’s first race the reply counts it in the singular', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup' });
		await addRace(w, '1. Bob\n2. Alice', undefined, '2026-02-01');
		const f = await w.services.forecast.forecast(member, { racesLeft: 1, seasons: 2_000 });
		expect(JSON.stringify(forecastEmbed(f, undefined).fields)).toContain('1 race so far in 2026, 1 left; f1 points.');
	});

	it('with no race left, the reply gives the final standings without a Monte Carlo error', async () => {
		const { w } = await league();
		const embed = forecastEmbed(
			await w.services.forecast.forecast(member, { racesLeft: 0, seasons: 1_000 }),
			undefined,
		);
		expect(embed.description).toMatchObject({
			lines: [
				'1. **Alice** (50 pts): title 100.0% · top 3 100.0% · expected 50.0 pts',
				'2. **Bob** (36 pts): title 0.0% · top 3 100.0% · expected 36.0 pts',
				'3. **Dave** (27 pts): title 0.0% · top 3 100.0% · expected 27.0 pts',
				'4. **Carol** (15 pts): title 0.0% · top 3 0.0% · expected 15.0 pts',
			],
		});
		const how = JSON.stringify(embed.fields);
		expect(how).toContain('No race left: these are the final standings');
		expect(how).not.toContain('seasons simulated');
	});

	it('refuses races-left 0 for a season from zero: nothing to forecast', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup' });
		await addRace(w, '1. Bob\n2. Alice', undefined, '2025-05-01');
		await expect(w.services.forecast.forecast(member, { racesLeft: 0 })).rejects.toMatchObject({
			code: 'forecast-nothing',
			message: 'No race yet in 2026 and none left: nothing to forecast. Give races-left of at least 1.',
		});
		// An undated history: its forecast is always a season from zero.
		await w.services.leagues.create(organizer, { name: 'Zak' });
		const text = 'race,player,position\nC1,Ann,1\nC1,Bob,2\n';
		await w.services.transfer.importFile(organizer, { league: 'Zak', file: { name: 'zak.csv', text } });
		await expect(w.services.forecast.forecast(member, { racesLeft: 0, league: 'Zak' })).rejects.toMatchObject({
			code: 'forecast-nothing',
			message: expect.stringMatching(/^With races-left 0 there is nothing to forecast: an undated league/) as string,
		});
		expect(
			(await w.services.forecast.forecast(member, { racesLeft: 1, league: 'Zak', seasons: 1_000 })).rows,
		).toHaveLength(2);
	});

	it('takes races-left from last year when not given', async () => {
		const { w } = await league();
		// Last year: 2 races; this year so far: 2. Nothing to take: asked for.
		await expect(w.services.forecast.forecast(member, {})).rejects.toMatchObject({ code: 'races-left-needed' });
		await addRace(w, '1. Bob\n2. Alice', undefined, '2025-07-01');
		const f = await w.services.forecast.forecast(member, { seasons: 1_000 });
		expect(f.racesLeft).toBe(1);
		expect(f.racesLeftFromLastYear).toBe(true);
	});

	it('refuses bad input with specific messages and stores nothing', async () => {
		const { w, id } = await league();
		const before = await eventCount(w, id);
		const forecast = (input: object) => w.services.forecast.forecast(member, input);
		await expect(forecast({ racesLeft: 51 })).rejects.toThrow(
			'Races left must be a whole number from 0 to 50, not 51.',
		);
		await expect(forecast({ racesLeft: 2, points: '10,x' })).rejects.toThrow(
			'Points: "x" (place 2) is not a non-negative number',
		);
		const configure = (input: object) => w.services.leagues.configure(organizer, undefined, input);
		await expect(configure({ points: '' })).rejects.toThrow('Points: the points list is empty');
		await expect(configure({ bestResults: -1 })).rejects.toThrow('Best results must be a whole number from 0');
		await expect(w.services.leagues.configure(member, undefined, { points: 'f1' })).rejects.toThrow(
			/Only league organizers/,
		);
		expect(await eventCount(w, id)).toBe(before);
		const empty = world();
		await empty.services.leagues.create(organizer, { name: 'Empty' });
		await expect(empty.services.forecast.forecast(member, { racesLeft: 3 })).rejects.toMatchObject({
			code: 'forecast-empty',
		});
	});
});
