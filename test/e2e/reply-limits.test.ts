/**
 * Replies that used to pass Discord's 2,000 characters, through the REAL discord.js client and the
 * fake Discord: a scoreboard with many long bad lines, /player merge after 400 shared races, and a server with 40
 * leagues. Each answer stays within the limit, ephemeral, and says how much it left out.
 */
import { describe, expect, it } from 'vitest';
import { ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

const bot = useLeagueBot();
const { run } = bot;

describe('replies within Discord’s limits', () => {
	it('a scoreboard with 40 long bad lines: whole lines, "…and N more", under 2,000 characters', async () => {
		await run('league', [sub('create', [text('name', 'Cup')])], ORGANIZER);
		const bad = Array.from({ length: 40 }, (_, i) => `${i + 1}. ${'Racer'.repeat(36)}${i} 1:0${i % 10}.000`);
		const options = [sub('submit', [text('results', bad.join('; '))])];
		const body = visible(await bot.expectRefusal('race', options, ORGANIZER, /^The scoreboard has problems/));
		expect(body.length).toBeGreaterThan(1000); // long enough to matter
		expect(body.length).toBeLessThanOrEqual(2000);
		expect(body).toMatch(/^The scoreboard has problems, nothing was stored:\nracer 1: /);
		expect(body).toMatch(/\n…and \d+ more$/);
		expect(await bot.repo.readEvents((await bot.repo.listLeagues(bot.fake.guildId))[0]!.id)).toHaveLength(1);
	});

	it('/player merge of two players who shared 400 races: the refusal names a few and counts them', async () => {
		const [league] = await bot.repo.listLeagues(bot.fake.guildId);
		const races = Array.from({ length: 400 }, (_, i) => ({
			date: '2026-01-01',
			entries: [
				{ player: 'Ann', position: 1 + (i % 2), status: 'finished' as const },
				{ player: 'Ann Two', position: 2 - (i % 2), status: 'finished' as const },
			],
		}));
		await bot.repo.appendEvent(league!.id, { type: 'league-imported', races, source: 'test', by: 'test' });
		const merge = [sub('merge', [text('from', 'Ann Two'), text('into', 'Ann')])];
		const body = visible(await bot.expectRefusal('player', merge, ORGANIZER, /^Cannot merge Ann Two into Ann/));
		expect(body.length).toBeLessThanOrEqual(300);
		expect(body).toMatch(/both raced in R1, R2, R3, R4, R5, R6, R7, R8 and 392 more \(400 races\)/);
	});

	it('a server with 40 leagues: "which league?" names eight and counts the rest', async () => {
		for (let i = 2; i <= 40; i++) {
			await run(
				'league',
				[sub('create', [text('name', `League number ${String(i).padStart(2, '0')} of the server`)])],
				ORGANIZER,
			);
		}
		expect(await bot.repo.listLeagues(bot.fake.guildId)).toHaveLength(40);
		const body = visible(await bot.expectRefusal('leaderboard', [], ORGANIZER, /^This server has 40 leagues/));
		expect(body).toMatch(/^This server has 40 leagues \((\*\*[^*]+\*\*, ){7}\*\*[^*]+\*\* and 32 more\): choose one/);
		expect(body.length).toBeLessThanOrEqual(2000);
	});
});
