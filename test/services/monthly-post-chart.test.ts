/**
 * The monthly post's chart: titled with the period, each player's move in places since the period began beside their
 * name, in the league's chart theme. Checked against a recording renderer and by hand from the races below.
 */
import { describe, expect, it } from 'vitest';
import type { ChartRenderer, ChartTheme, LeaderboardChart } from '../../src/charts/chart-types.js';
import { createRankingComposer } from '../../src/services/posts/ranking-composer.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { movedText } from '../../src/charts/chart-text.js';
import { organizer } from './helpers.js';

function recordingCharts(drawn: { chart: LeaderboardChart; theme: ChartTheme | undefined }[]): ChartRenderer {
	return {
		leaderboard: (chart: LeaderboardChart, theme?: ChartTheme) => {
			drawn.push({ chart, theme });
			return Promise.resolve(Buffer.from('png'));
		},
	} as unknown as ChartRenderer;
}

describe('the monthly post chart', () => {
	it('is titled with the month and shows who moved, in the league theme', async () => {
		const now = { iso: '2026-10-20T12:00:00Z' };
		const repo = createLeagueRepository(createMemoryStore(), { clock: () => new Date(now.iso) });
		const services = createServices(repo, { clock: () => new Date(now.iso) });
		const league = await services.leagues.create(organizer, { name: 'Cup', headline: 'glicko' });
		const race = async (text: string, date: string) => {
			const preview = await services.races.submit(organizer, { text, date });
			await services.races.confirm(organizer, preview.id);
		};
		// September: Ann ahead of Bob ahead of Cy. October: Cy wins twice, and Dee arrives.
		await race('1. Ann\n2. Bob\n3. Cy', '2026-09-10');
		await race('1. Ann\n2. Bob\n3. Cy', '2026-09-20');
		await race('1. Cy\n2. Dee\n3. Bob\n4. Ann', '2026-10-05');
		await race('1. Cy\n2. Dee\n3. Bob\n4. Ann', '2026-10-12');
		await services.leagues.configure(organizer, undefined, { chartTheme: 'light' });
		const drawn: { chart: LeaderboardChart; theme: ChartTheme | undefined }[] = [];
		const composer = createRankingComposer({ repo, daily: services.daily, charts: recordingCharts(drawn) });
		now.iso = '2026-11-01T12:00:00Z';
		await composer.compose(league.id, '2026-11', { now: new Date(now.iso), late: false });
		expect(drawn).toHaveLength(1);
		const { chart, theme } = drawn[0]!;
		expect(theme).toBe('light');
		expect(chart.heading).toBe('Monthly ranking, October 2026');
		// Places on 2026-09-30 (the day before the period) against now, read from the standings the composer used.
		const daily = await services.daily.onDays(league, ['2026-09-30']);
		const before = daily.get('2026-09-30')!.systems.glicko!.map((s) => s.player);
		const after = (await repo.ratingsAt(league.id, 'glicko', '2026-11-01')).standings.map((s) => s.player);
		const state = await repo.loadState(league.id);
		const nameOf = (id: string) => state.resolve(id)!.name;
		expect(before.map(nameOf)).toEqual(['Ann', 'Bob', 'Cy']);
		expect(after.map(nameOf)[0]).toBe('Cy');
		const expected = after.map((player, i) => {
			const was = before.indexOf(player);
			return [nameOf(player), was === -1 ? 'new' : was - i];
		});
		expect(chart.rows.map((r) => [r.name, r.moved])).toEqual(expected);
		// Cy climbed two places; Dee is new.
		expect(chart.rows.find((r) => r.name === 'Cy')!.moved).toBe(2);
		expect(chart.rows.find((r) => r.name === 'Dee')!.moved).toBe('new');
	});

	it('writes a move as ▲n, ▼n or new, and nothing for no move', () => {
		expect([2, -1, 0, 'new', undefined].map((m) => movedText(m as number | 'new' | undefined))).toEqual([
			' ▲2',
			' ▼1',
			'',
			' new',
			'',
		]);
	});
});
