/**
 * Running a league week to week, typed into the console as an organizer does: /rating compare: with the head-to-head
 * record, /league config chart-theme:, and /league delete (Confirm) then /league undelete. Each number checked against
 * the races typed here.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { consoleWorld } from './console-session.js';

const outDir = mkdtempSync(join(tmpdir(), 'pitwall-console-week-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const now = () => new Date('2026-11-27T12:00:00Z');

describe('a league week to week, in the console', () => {
	it('shows the head-to-head record beside the compared ratings', async () => {
		const w = consoleWorld(now);
		const { out, code } = await w.type([
			'/league create name:Kart Club system:glicko',
			'/race submit date:2026-11-01 results:"1. Ann\n2. Bob\n3. Cy"',
			'confirm',
			'/race submit date:2026-11-08 results:"1. Bob\n2. Ann"',
			'confirm',
			'/race submit date:2026-11-15 results:"1. Ann\n2. Cy"',
			'confirm',
			'/race submit date:2026-11-22 results:"1. Ann\n2. Bob\n3. Cy"',
			'confirm',
			'/rating player:Ann compare:Bob,Cy chart:false',
		]);
		expect(code).toBe(0);
		// Ann against Bob: ahead in R1 and R4, behind in R2; against Cy: ahead in R1, R3 and R4.
		expect(out).toContain('Head to head');
		expect(out).toContain('vs Bob: 2–1 in 3 races · last R4 (2026-11-22): ahead');
		expect(out).toContain('vs Cy: 3–0 in 3 races · last R4 (2026-11-22): ahead');
	});

	it('ends a season with its champion, final table, chart and awards', async () => {
		const w = consoleWorld(now, outDir);
		const { out } = await w.type([
			'/league create name:Kart Club system:glicko',
			'/season start name:"Autumn Cup" date:2026-11-01 races:2',
			'/race submit date:2026-11-01 results:"1. Ann\n2. Bob\n3. Cy"',
			'confirm',
			'/race submit date:2026-11-08 results:"1. Bob\n2. Ann\n3. Cy"',
			'confirm',
			'/season end date:2026-11-20',
		]);
		// F1 points: Ann 25 + 18 = 43, Bob 18 + 25 = 43, Cy 15 + 15 = 30. Ann and Bob are equal on points and on wins and
		// seconds (one of each): they share the title.
		expect(out).toContain('Season Autumn Cup of Kart Club ends on 2026-11-20 after 2 races of 2 planned.');
		expect(out).toContain(
			'🏆 Ann and Bob share the Autumn Cup title of Kart Club: 43 points each, equal on every place.',
		);
		expect(out).toContain('Final table · Autumn Cup');
		// Everyone raced twice; all three are newcomers of the season.
		expect(out).toContain('Most races: Ann, Bob, Cy (2)');
		// Bob's rating after his win in R2, as the preview of R2 showed it (1500.0 → 1694.4), the best of the three.
		expect(out).toContain('Best newcomer: Bob 1694.4');
		expect(out).toContain('1. Bob (exp. 2.00) — 1500.0 → 1694.4 (+194.4)');
	});

	it('deletes a league behind a Confirm, with its export, and brings it back', async () => {
		const w = consoleWorld(now, outDir);
		const { out } = await w.type([
			'/league create name:Kart Club',
			'/race submit date:2026-11-01 results:"1. Ann\n2. Bob"',
			'confirm',
			'/league config chart-theme:light',
			'/league delete',
			'confirm',
			'/league info',
			'/league undelete name:Kart Club',
			'/league info',
		]);
		expect(out).toContain('Charts: light');
		expect(out).toContain('Delete Kart Club? 1 race, 2 players');
		// The export goes with the preview, whatever is pressed next.
		expect(readdirSync(outDir).filter((f) => f.endsWith('-kart-club-history.csv'))).toHaveLength(1);
		expect(out).toContain('Deleted Kart Club. /league undelete name:Kart Club brings it back.');
		// The channel's announcement says it again: the console shows the confirmation once.
		expect(out).not.toContain('The league Kart Club was deleted by an organizer.');
		expect(out).toContain('This server has no league yet');
		expect(out).toContain('Kart Club is back, with every race and rating it had.');
		expect(out.split('Players: 2 · Races: 1')).toHaveLength(2); // /league info once the league is back
	});
});
