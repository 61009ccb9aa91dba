/**
 * The monthly post of a league whose races carry no dates (the console's sample league, an undated import) does not
 * say "0 races since 2026-11-01" with no moves as if nothing happened: its races are counted by the day they were
 * stored, and the post says the table is the standings after all of them, without moves (no day before the period
 * tells them: an undated race counts on every day).
 */
import { describe, expect, it } from 'vitest';
import { CONSOLE_GUILD_ID } from '../../src/console/console-interaction.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import type { EmbedData } from '../../src/formats/embed.js';
import { createRankingComposer } from '../../src/services/posts/ranking-composer.js';
import { consoleWorld } from '../console/console-session.js';

const textOf = (embed: EmbedData | undefined) =>
	[embed?.description ?? '', ...(embed?.fields ?? []).flatMap((f) => [f.name, f.value])].join('\n');

describe('the monthly post of an undated league', () => {
	it('counts the races stored in the period and says why there are no moves', async () => {
		const now = { iso: '2026-11-20T12:00:00Z' };
		const w = consoleWorld(() => new Date(now.iso));
		const { league } = await ensureSampleLeague(w.repo, CONSOLE_GUILD_ID);
		const composer = createRankingComposer({ repo: w.repo, daily: w.services.daily });

		now.iso = '2026-12-01T12:00:00Z';
		const december = await composer.compose(league.id, '2026-12', { now: new Date(now.iso), late: false });
		const text = textOf(december?.embeds?.[0]);
		expect(text).toContain('293 races stored since 2026-11-01 · 249 rated players (top 20 below)');
		expect(text).toContain(
			"No race of ZakStunts carries a date, so the table is the standings after all 293 races, without the month's moves.",
		);
		expect(text).not.toContain('0 races since');
		expect(text).not.toContain('Biggest gains');
		expect(text).not.toContain('Newcomers');
		expect(text).toContain('R1 (undated, stored 2026-11-20)');

		now.iso = '2027-01-01T12:00:00Z';
		const january = await composer.compose(league.id, '2027-01', { now: new Date(now.iso), late: false });
		expect(textOf(january?.embeds?.[0])).toContain('0 races stored since 2026-12-01');
	});
});
