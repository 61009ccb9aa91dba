/**
 * The championship typed in the console as an organizer does it: races, /standings, a time penalty previewed and
 * confirmed, a points deduction, a team, the teams' table, a withdrawal (real registry, router, services).
 */
import { describe, expect, it } from 'vitest';
import { consoleActor, consoleWorld } from './console-session.js';

describe('/standings and /race penalty in the console', () => {
	it('shows the table, previews and stores a time penalty, deducts points, sets teams, withdraws', async () => {
		const { services, type } = consoleWorld(() => new Date('2026-03-10T12:00:00Z'));
		await services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		const { code, out } = await type([
			'/race submit results:"1. Alice 1:40.000; 2. Bob 1:42.000; 3. Carol 1:44.500" date:2026-03-01',
			'confirm',
			'/race submit results:"1. Bob; 2. Carol; 3. Alice" date:2026-03-08',
			'confirm',
			'/standings',
			'/race penalty race:R1 player:Alice seconds:5 reason:"track limits"',
			'confirm',
			'/race penalty race:R2 player:Bob points:10 reason:"unsafe rejoin"',
			'/player team player:Alice team:Red',
			'/player team player:Carol team:Red',
			'/player team player:Bob team:Blue',
			'/standings',
			'/standings teams:true',
			'/race penalty-withdraw penalty:P1 reason:"review"',
			'/race penalty race:R2 player:Bob seconds:3 reason:"no time"',
		]);
		expect(code).toBe(0);
		// F1 points. R1: Alice 25, Bob 18, Carol 15. R2: Bob 25, Carol 18, Alice 15.
		expect(out).toContain('== Championship · 2026 ==  Sunday Cup');
		expect(out).toMatch(/1\. Bob 43 pts · 1 win · 2 podiums · 2 races · \d+\.\d/);
		expect(out).toMatch(/2\. Alice 40 pts · 1 win · 2 podiums · 2 races/);
		expect(out).toMatch(/3\. Carol 33 pts · 0 wins · 2 podiums · 2 races/);
		// The penalty preview: Alice 1:45.000 now third.
		expect(out).toContain('== Penalty preview: R1 ==  Sunday Cup');
		expect(out).toContain('Alice: P1 → P3');
		expect(out).toContain('3. Alice 1:45.000');
		expect(out).toContain('Penalty P1: Alice +5 s in R1 (“track limits”). Given.');
		expect(out).toContain('Penalty P2: Bob −10 points in R2 (“unsafe rejoin”). The championship table counts it');
		// After P1 and P2. R1: Bob 25, Carol 18, Alice 15. Bob 50 - 10 = 40, Carol 36, Alice 30.
		expect(out).toMatch(/1\. Bob 40 pts \(10 deducted\) · 2 wins/);
		expect(out).toMatch(/2\. Carol 36 pts · 0 wins/);
		expect(out).toMatch(/3\. Alice 30 pts · 0 wins/);
		expect(out).toContain('P2 Bob −10 points in R2: unsafe rejoin');
		// Teams: Red = Carol 36 + Alice 30 = 66; Blue = Bob 50 - 10 = 40.
		expect(out).toContain('== Teams’ championship · 2026 ==  Sunday Cup');
		expect(out).toMatch(/1\. Red 66 pts · 0 wins · 4 podiums · Carol, Alice/);
		expect(out).toMatch(/2\. Blue 40 pts \(10 deducted\) · 2 wins/);
		expect(out).toContain('Withdrew penalty P1 (Alice +5 s in R1): “review”. R1 is as before it');
		expect(out).toContain('R2 has no finish time for Bob');
	});
});
