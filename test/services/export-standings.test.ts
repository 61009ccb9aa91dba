/**
 * `/league export`'s standings file shows the numbers /leaderboard and /rating show (endure and speed as points, the
 * extended form's uncertainty as ±), with the computed values beside them in `rating_raw` and `uncertainty_raw`.
 */
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/formats/csv.js';
import { POINTS_CENTRE, POINTS_PER_UNIT } from '../../src/formats/rating-scale.js';
import { CONSOLE_GUILD_ID } from '../../src/console/console-interaction.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { consoleActor, consoleWorld } from '../console/console-session.js';

describe('the export’s standings', () => {
	it('are the leaderboard’s and /rating’s numbers, with the raw values beside', async () => {
		const w = consoleWorld(() => new Date('2026-11-20T12:00:00Z'));
		const { league } = await ensureSampleLeague(w.repo, CONSOLE_GUILD_ID);
		await w.services.leagues.configure(consoleActor, league.id, { parameters: 'endure.extended=true' });
		const exported = await w.services.transfer.exportFiles(consoleActor, league.id);
		const [header, ...rows] = readCsv(exported.standings).map((r) => r.fields);
		const col = (name: string) => header!.indexOf(name);
		const of = (system: string) => rows.filter((r) => r[col('system')] === system);

		const { out } = await w.type([
			'/leaderboard system:endure',
			'/leaderboard system:folyami',
			'/rating player:Ayrton system:endure',
		]);
		const [endureBoard, folyamiBoard] = out.split('== Leaderboard ==').slice(1);
		const board = (text: string) =>
			[...text.matchAll(/^\d+\. (.+?)†? (-?\d+\.\d)(?: \([^)]*\))? · \d+ races?$/gmu)].map((m) => `${m[1]} ${m[2]}`);
		const line = (r: string[]) => `${r[col('player')]} ${r[col('rating')]}`;
		expect(of('endure').slice(0, 15).map(line)).toEqual(board(endureBoard!));
		expect(of('folyami').slice(0, 15).map(line)).toEqual(board(folyamiBoard!));

		const leader = of('endure')[0]!;
		// The extended form ranks Ayrton first (Argammon leads the base form).
		expect(leader[col('player')]).toBe('Ayrton');
		// /rating prints "Rating: 2578.5 · Uncertainty: ±59.2 · …": the file has the same two numbers.
		expect(out).toContain(`Rating: ${leader[col('rating')]} · Uncertainty: ±${leader[col('uncertainty')]} ·`);
		// Shown = 1500 + R·400/ln 10 and ± = √k·400/ln 10 of the raw columns (rating-scale.ts), to the digit shown.
		const raw = Number(leader[col('rating_raw')]);
		const k = Number(leader[col('uncertainty_raw')]);
		expect((POINTS_CENTRE + raw * POINTS_PER_UNIT).toFixed(1)).toBe(leader[col('rating')]);
		expect((Math.sqrt(k) * POINTS_PER_UNIT).toFixed(1)).toBe(leader[col('uncertainty')]);
		expect(raw).toBeGreaterThan(1);
		expect(raw).toBeLessThan(10);
		// Folyami has no uncertainty per player: empty, raw included.
		expect(of('folyami')[0]![col('uncertainty')]).toBe('');
	});
});
