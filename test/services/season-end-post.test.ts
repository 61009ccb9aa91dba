/**
 * The season-end post (season-end-post.ts): the champion, the final table, the awards from the log, the points chart.
 * Points counted by hand; ratings read from the daily standings the post says it uses.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChartRenderer } from '../../src/charts/create-chart-renderer.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { createServices } from '../../src/services/index.js';
import { pointsRace } from '../../src/services/seasons/season-end-post.js';
import { addRace, organizer, type World } from './helpers.js';

const charts = createChartRenderer();
const dir = mkdtempSync(join(tmpdir(), 'pitwall-season-end-'));
afterAll(async () => {
	await charts.close();
	rmSync(dir, { recursive: true, force: true });
});

function chartWorld(): World {
	const now = { ms: Date.parse('2027-01-05T12:00:00Z') };
	const repo = createLeagueRepository(createMemoryStore(), { clock: () => new Date(now.ms) });
	const services = createServices(repo, { clock: () => new Date(now.ms), charts });
	return { repo, services, now };
}

describe('the season-end post', () => {
	it('names the champion, shows the final table, the awards and the points chart', async () => {
		const w = chartWorld();
		const info = await w.services.leagues.create(organizer, { name: 'Kart' });
		await w.services.leagues.configure(organizer, undefined, { points: '10,6,4,3' });
		await addRace(w, '1. Old\n2. Ann', undefined, '2025-11-01'); // last season: Old and Ann are veterans
		await addRace(w, '1. Ann\n2. Bob\n3. Old\n4. Cid', undefined, '2026-03-01');
		await addRace(w, '1. Bob\n2. Ann\n3. Cid', undefined, '2026-04-01');
		await addRace(w, '1. Ann\n2. Cid\n3. Bob', undefined, '2026-05-01');
		const post = await w.services.standings.seasonEndPost(info.id, '2026');
		expect(post).toBeDefined();
		// Ann 10 + 6 + 10 = 26 (2 wins, 3 races); Bob 6 + 10 + 4 = 20; Cid 3 + 4 + 6 = 13; Old 4.
		expect(post!.content).toBe('🏆 **Ann** is the **2026** champion of **Kart**: 26 points, 2 wins in 3 races.');
		const embed = post!.embeds![0]!;
		expect(embed.title).toBe('Final table · 2026');
		expect(embed.description!.split('\n').map((l) => l.replace(/ · \d+\.\d†?$/u, ''))).toEqual([
			'1. **Ann** 26 pts · 2 wins · 3 podiums · 3 races',
			'2. **Bob** 20 pts · 1 win · 3 podiums · 3 races',
			'3. **Cid** 13 pts · 0 wins · 2 podiums · 3 races',
			'4. **Old** 4 pts · 0 wins · 1 podium · 1 race',
		]);
		// The awards, from the headline system's (folyami: shown as computed) daily standings of 2025-12-31 and
		// 2026-12-31, the season's last day.
		expect(info.config.headline).toBe('folyami');
		const days = await w.services.daily.onDays(info, ['2025-12-31', '2026-12-31']);
		const on = (day: string, name: string) => {
			const state = days.get(day)!.systems[info.config.headline]!;
			const id = { Ann: '#2', Old: '#1', Bob: '#3', Cid: '#4' }[name]!;
			return state.find((s) => s.player === id)!.rating;
		};
		const gains = ['Ann', 'Old'].map((name) => on('2026-12-31', name) - on('2025-12-31', name));
		const best = gains[0]! >= gains[1]! ? 'Ann' : 'Old';
		const awards = embed.fields!.find((f) => f.name.startsWith('Awards'))!.value;
		expect(awards).toContain(`Biggest rating gain: **${best}** `);
		const newcomer = on('2026-12-31', 'Bob') >= on('2026-12-31', 'Cid') ? 'Bob' : 'Cid';
		expect(awards).toContain(`Best newcomer: **${newcomer}** ${on('2026-12-31', newcomer).toFixed(1)}`);
		expect(awards).toContain('Most races: **Ann**, **Bob**, **Cid** (3)');
		// The chart: the PNG attached and shown as the embed's image.
		expect(embed.image).toEqual({ url: 'attachment://season.png' });
		const png = post!.files![0]!.data;
		expect(png.subarray(1, 4).toString()).toBe('PNG');
		writeFileSync(join(process.env['SEASON_PNG_DIR'] ?? dir, 'season.png'), png);
		expect(await w.services.standings.seasonEndPost(info.id, '2019')).toBeUndefined();
	}, 30_000);

	it('adds each driver’s counted points race by race, deductions at their race', () => {
		const result = (race: string, points: number, dropped = false) => ({
			race,
			points,
			status: 'finished' as const,
			dropped,
		});
		const table = {
			rounds: [{ id: 'R2' }, { id: 'R5' }, { id: 'R7' }],
			drivers: [
				{
					name: 'Ann',
					results: [result('R2', 10), result('R5', 6, true), result('R7', 10)],
					deductions: [{ id: 'P1', race: 'R5', player: '#1', points: 3, reason: 'x' }],
				},
				{ name: 'Bob', results: [result('R5', 10)], deductions: [] },
			],
		} as unknown as Parameters<typeof pointsRace>[0];
		expect(pointsRace(table)).toEqual({
			rounds: ['R2', 'R5', 'R7'],
			series: [
				{ name: 'Ann', points: [10, 7, 17] }, // 10; the dropped 6 counts nothing, −3 at R5; +10
				{ name: 'Bob', points: [0, 10, 10] },
			],
		});
	});
});
