/**
 * Why did my rating move, end to end through the fake Discord: /rating and /race show explain a Folyami
 * race with the rating module's own numbers (folyamiPair, fieldOdds), and a 100-racer race stays within Discord's
 * embed limits in the preview and in /race show.
 */
import { describe, expect, it } from 'vitest';
import { fmtDelta, fmtRating } from '../../commands/shared.js';
import { replayHistory } from '../../src/league/replay.js';
import { folyami, folyamiPair } from '../../src/ratings/folyami.js';
import type { Race } from '../../src/ratings/types.js';
import { embedLength, type EmbedData } from '../../src/formats/embed.js';
import { embedsOf, visible, MEMBER, ORGANIZER, sub, text, useLeagueBot } from './league-bot.js';
import { leagueParams } from '../support/league-params.js';

const bot = useLeagueBot();
const { run, preview, click } = bot;

const params = leagueParams(folyami);
const R1: Race = {
	id: 'R1',
	entries: ['#1', '#2', '#3'].map((player, i) => ({ player, position: i + 1, status: 'finished' })),
};
const shown = (before: number, after: number) => Number(fmtRating(after)) - Number(fmtRating(before));

describe('why did my rating move, through the fake Discord', () => {
	it('/rating explains the last race: place vs expected, opponents, and parts that add up on screen', async () => {
		await run('league', [sub('create', [text('name', 'Kart Club'), text('system', 'folyami')])], ORGANIZER);
		const p = await preview([text('results', '1. Alice; 2. Bob; 3. Carol'), text('name', 'Round 1 *Monza*')]);
		// Three newcomers at 1500: each is expected in the middle, 2nd.
		expect(p.text).toContain('1. **Alice** *(new player)* (exp. 2.00) — 1500.0 →');
		await click(p.confirm!);

		const replay = replayHistory(folyami, params, [R1]);
		const carol = replay.player('#3')!.state;
		const newcomer = folyami.newcomer(params);
		// Carol's two terms, as the reference engine's pair deltas (Carol is y in both pairs).
		const vsAlice = folyamiPair(newcomer, 1, newcomer, 3, params).deltaY;
		const vsBob = folyamiPair(newcomer, 2, newcomer, 3, params).deltaY;
		expect(vsBob).toBeLessThan(vsAlice); // the nearer place weighs more (remoteness)
		const change = shown(1500, carol.rating);

		const body = visible(await run('rating', [text('player', 'Carol')]));
		expect(body).toMatch(
			new RegExp(
				`In R1 “Round 1 \\\\\\*Monza\\\\\\*” \\(\\d{4}-\\d\\d-\\d\\d\\): 3rd of 3, expected 2\\.00 · 1500\\.0 → ${fmtRating(carol.rating)} \\(${fmtDelta(change)}\\)`,
			),
		);
		expect(body).toContain('Beat nobody; lost to 2, the strongest Alice (1500.0).');
		// One part (the two ahead): it is the shown change itself; the largest single term is Bob's.
		expect(body).toContain(
			`Change ${fmtDelta(change)} = ${fmtDelta(change)} from the 2 ahead (largest: ${fmtDelta(vsBob)} vs Bob)`,
		);
		expect(body).not.toMatch(/#\d/);
		expect(body).not.toContain('Best race');
	});

	it('/race show explains every racer; /rating names the best and worst races', async () => {
		const p = await preview([text('results', '1. Carol; 2. Bob; 3. Alice')]);
		await click(p.confirm!);
		const show = visible(await run('race', [sub('show', [text('race', 'R2')])]));
		expect(show).toContain('`folyami`: place vs expected (exp.)');
		const lines = show.split('\n').filter((line) => /^\d\. /.test(line));
		expect(lines).toHaveLength(3);
		expect(lines[0]).toMatch(/^1\. Carol · exp\. 2\.\d\d · \d+\.\d → \d+\.\d \(\+\d+\.\d\) · beat Alice$/);
		expect(lines[1]).toMatch(/^2\. Bob · exp\. \d\.\d\d · .* · beat Alice, behind Carol$/);
		expect(lines[2]).toMatch(/^3\. Alice · exp\. 1\.\d\d · .* · behind Bob$/);
		// Every change shown is the difference of the two ratings shown.
		for (const line of lines) {
			const [, before, after, delta] = /(\d+\.\d) → (\d+\.\d) \(([+−]\d+\.\d)\)/.exec(line)!;
			expect(Number(delta!.replace('−', '-'))).toBeCloseTo(Number(after) - Number(before), 9);
		}
		const alice = visible(await run('rating', [text('player', 'Alice')], MEMBER));
		expect(alice).toMatch(/Best race: R1 \(\d{4}-\d\d-\d\d\), 1st of 3, expected 2\.00 \(\+1\.00 place\), \+\d+\.\d/);
		expect(alice).toMatch(
			/Worst race: R2 \(\d{4}-\d\d-\d\d\), 3rd of 3, expected 1\.\d\d \(−1\.\d\d places\), −\d+\.\d/,
		);
	});

	it('a 100-racer race fits Discord’s embed limits, clipped with "and N more"', async () => {
		// Letters only: a trailing number would read as a points column.
		const names = Array.from(
			{ length: 100 },
			(_, i) => `Racer ${String.fromCharCode(65 + Math.floor(i / 26), 97 + (i % 26))}`,
		);
		const p = await preview([text('results', names.map((n, i) => `${i + 1}. ${n}`).join('; '))]);
		const [previewEmbed] = embedsOf(p.edit);
		expect(String(previewEmbed!['description']).length).toBeLessThanOrEqual(4096);
		expect(embedLength(previewEmbed as unknown as EmbedData)).toBeLessThanOrEqual(6000);
		expect(p.text).toMatch(/…and \d+ more\n100 new players will be created\./);
		const stored = await click(p.confirm!);
		const id = /Stored as \*\*(R\d+)\*\*/.exec(visible(stored[1]!))![1]!;
		const reply = await run('race', [sub('show', [text('race', id)])]);
		const [raceEmbed] = embedsOf(reply);
		expect(String(raceEmbed!['description']).length).toBeLessThanOrEqual(4096);
		const show = visible(reply);
		const kept = show.split('\n').filter((l) => /^\d+\. Racer /.test(l)).length;
		expect(show).toContain(`…and ${100 - kept} more`);
		expect(kept).toBeGreaterThan(20);
	});
});
