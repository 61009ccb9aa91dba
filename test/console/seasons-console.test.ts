/**
 * Seasons typed in the console as an organizer runs them: a soft carry-over set, two seasons started around races,
 * the list, the leaderboard as the first season ended, and the forecast's races left from the season's plan.
 */
import { describe, expect, it } from 'vitest';
import { consoleActor, consoleWorld } from './console-session.js';

describe('/season in the console', () => {
	it('starts seasons, lists them, shows the leaderboard as a season ended and forecasts the planned races left', async () => {
		const { services, type } = consoleWorld(() => new Date('2027-02-20T12:00:00Z'));
		await services.leagues.create(consoleActor, { name: 'Sunday Cup', headline: 'glicko' });
		const { code, out } = await type([
			'/league config season-reset:soft season-share:30',
			'/season start name:"2026 Autumn" date:2026-09-01 races:3',
			'/race submit results:"1. Alice; 2. Bob" date:2026-09-10',
			'confirm',
			'/race submit results:"1. Bob; 2. Carol" date:2026-10-10',
			'confirm',
			'/season start name:"2027 Winter Cup" date:2027-01-09 races:4',
			'/race submit results:"1. Carol; 2. Alice; 3. Bob" date:2027-01-15',
			'confirm',
			'/season list',
			'/leaderboard season:"2026 autumn" chart:false',
			'/leaderboard chart:false',
			'/forecast chart:false',
			'/season end date:2027-01-01',
		]);
		expect(code).toBe(0);
		expect(out).toContain('At a season’s first race: ratings move 30% toward the league’s mean');
		expect(out).toContain('Season 2026 Autumn of Sunday Cup starts on 2026-09-01 (3 races planned).');
		// A league without races had no calendar-year seasons to replace: nothing said of them.
		expect(out).not.toContain('The league’s seasons are now');
		expect(out).toContain('Season 2027 Winter Cup of Sunday Cup starts on 2027-01-09 (4 races planned).');
		expect(out).toContain('2026 Autumn ended on 2027-01-08.');
		expect(out).toContain(
			'Every rating moves 30% of the way toward the league’s mean at the first race of 2027 Winter Cup.',
		);
		// Glicko-1, two newcomers (1500, RD 350): the winner gains 162.2 (glicko.pdf step 2 by hand).
		expect(out).toContain('1. Alice (new player) (exp. 1.50) — 1500.0 → 1662.2 (+162.2)');
		// At the end of 2026 Autumn: Alice 1662.2, Bob 1502.6, Carol 1268.3; mean 1477.7. The first race of the Winter
		// Cup finds each 30% closer to it: Alice 1662.2 − 0.3·184.5 = 1606.9, Bob 1502.6 − 0.3·24.9 = 1495.1, Carol
		// 1268.3 + 0.3·209.4 = 1331.1.
		expect(out).toContain('1. Carol (exp. 2.33) — 1331.1 →');
		expect(out).toContain('2. Alice (exp. 1.71) — 1606.9 →');
		expect(out).toContain('3. Bob (exp. 1.96) — 1495.1 →');
		expect(out).toContain(
			[
				'Seasons of Sunday Cup:',
				'2027 Winter Cup · from 2027-01-09 · 1/4 races · open',
				'2026 Autumn · 2026-09-01 – 2027-01-08 · 2/3 races · ended',
			].join('\n'),
		);
		// The leaderboard as 2026 Autumn ended: before the move, each grown to its last day.
		const autumn = out.slice(out.indexOf('== Leaderboard · 2026 Autumn =='));
		expect(autumn).toMatch(/^== Leaderboard · 2026 Autumn == {2}Sunday Cup · glicko\n1\. Alice† 1662\.2 \(RD /);
		expect(autumn).toContain('2. Bob† 1502.6');
		expect(autumn).toContain('3. Carol† 1268.3');
		expect(autumn).toContain('-- as of 2027-01-08 ·');
		expect(out).toContain('== Championship forecast · 2027 Winter Cup ==');
		expect(out).toContain('1 race so far in 2027 Winter Cup, 3 left (of the 4 planned for the season)');
		expect(out).toContain('2027 Winter Cup started on 2027-01-09: it cannot end before that day.');
	});
});
