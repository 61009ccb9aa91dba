/**
 * The driver and the car as a player meets them in the console (docs/cars.md): the organizer turns cars on, then
 * /rating shows the driver's part with the car's beside it, /rating car: one car, /leaderboard cars:true the cars'
 * table, /odds reads driver + car, and cars off takes it all back (real registry, router, services, memory store).
 */
import { describe, expect, it } from 'vitest';
import { carLeagueRaces } from '../support/driver-car-league.js';
import { consoleActor, consoleWorld } from './console-session.js';

describe('cars in the console', () => {
	it('turns cars on and off, and shows the driver, the car and the cars’ table', async () => {
		const { services, repo, type } = consoleWorld(() => new Date('2025-09-01T12:00:00Z'));
		const info = await services.leagues.create(consoleActor, { name: 'GT Cup', headline: 'endure' });
		await repo.appendEvent(info.id, { type: 'league-imported', races: carLeagueRaces(), source: 'x', by: 'test' });
		const { code, out } = await type([
			'/league config cars:on',
			'/rating player:Bob',
			'/rating car:williams',
			'/leaderboard cars:true',
			'/league config cars:off',
			'/rating player:Bob',
			'/leaderboard cars:true',
		]);
		expect(code).toBe(0);
		const [on, off] = out.split('Updated GT Cup.').slice(1);
		expect(on).toContain('Cars: rated apart from drivers in endure and speed (car step 0.3, keeps 57% over a winter)');
		// Bob moved from the Ferrari to the Williams: his car is his latest.
		const line =
			/^Driver: (\d+\.\d) · Car: ([+−]\d+\.\d) \(Williams\) · Strength \(driver \+ car\): (\d+\.\d) · Rank: \d of 8/mu.exec(
				on!,
			);
		expect(line).not.toBeNull();
		const [, driver, car, strength] = line!;
		expect(Number(strength)).toBeCloseTo(Number(driver) + Number(car!.replace('−', '-')), 6);
		expect(on).toMatch(/^ {2}Car Williams: [+−]\d+\.\d → [+−]\d+\.\d \([+−]\d+\.\d\)$/mu);
		expect(on).toContain('== Williams ==  GT Cup · endure · car');
		expect(on).toContain(`Car part: ${car!} · Rank: 4 of 4 cars · Races: 24`);
		expect(on).toMatch(/^== Cars == {2}GT Cup · endure\n1\. Ferrari \+\d+\.\d · 24 races · last 2025-08-02\n/mu);
		expect(on).toContain(`4. Williams ${car!} · 24 races · last 2025-08-02`);
		// Off: one rating per racer again.
		expect(off).not.toContain('Cars: rated');
		expect(off).toMatch(/^Rating: \d+\.\d · Rank: \d of 8/mu);
		expect(off).not.toContain('Car Williams');
		expect(off).toContain('GT Cup does not rate cars apart from drivers');
	});
});
