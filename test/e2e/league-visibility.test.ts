/**
 * `/league config visibility:` end to end (real discord.js client, fake Discord; docs/web.md): the public reply says
 * the league's visibility and never an unlisted league's secret; the organizer alone is told the page's address.
 */
import { describe, expect, it } from 'vitest';
import { content, EPHEMERAL, flagsOf, MEMBER, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

const bot = useLeagueBot();

describe('/league config visibility:', () => {
	it('unlisted: the secret link goes to the organizer alone; /league info shows the setting only', async () => {
		await bot.run('league', [sub('create', [text('name', 'Night Cup')])], ORGANIZER);
		const handle = bot.fake.sendSlashCommand('league', [sub('config', [text('visibility', 'unlisted')])], ORGANIZER);
		const reply = await handle.next();
		const settings = reply.kind === 'callback' && reply.type === 5 ? await handle.next() : reply;
		const [league] = await bot.repo.listLeagues(bot.fake.guildId);
		const secret = league!.config.webSecret!;
		expect(secret).toMatch(/^[0-9a-f]{24}$/);
		expect(flagsOf(settings) & EPHEMERAL).toBe(0);
		expect(visible(settings)).toContain('Web page: unlisted (only with its secret link)');
		expect(JSON.stringify(settings)).not.toContain(secret);
		const link = await handle.next();
		expect(link.kind).toBe('followup');
		expect(flagsOf(link) & EPHEMERAL).toBe(EPHEMERAL);
		expect(content(link)).toContain(`/leagues/${encodeURIComponent(`${league!.id}-${secret}`)}`);
		expect(content(link)).toContain('Only people with this link can open it');
		const info = await bot.run('league', [sub('info', [])], MEMBER);
		expect(visible(info)).toContain('Web page: unlisted (only with its secret link)');
		expect(JSON.stringify(info)).not.toContain(secret);
	});

	it('public, then private: the setting shows; private adds no link', async () => {
		const publicReply = await bot.run('league', [sub('config', [text('visibility', 'public')])], ORGANIZER);
		expect(visible(publicReply)).toContain('Web page: public (listed on the bot’s front page)');
		const handle = bot.fake.sendSlashCommand('league', [sub('config', [text('visibility', 'private')])], ORGANIZER);
		const first = await handle.next();
		const settings = first.kind === 'callback' && first.type === 5 ? await handle.next() : first;
		expect(visible(settings)).not.toContain('Web page:');
		const [league] = await bot.repo.listLeagues(bot.fake.guildId);
		expect(league!.config.visibility).toBeUndefined();
	});
});
