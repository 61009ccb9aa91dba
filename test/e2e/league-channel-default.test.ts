/**
 * `/league rename` and `/league config channel-default:` end to end (the REAL discord.js client, the fake Discord):
 * in the channel made a league's default, /rating without the league option answers from that league; in another
 * channel of the server it is refused, saying how to set a default.
 */
import { describe, expect, it } from 'vitest';
import type { RawOption } from './fake-discord-wire.js';
import { content, EPHEMERAL, flagsOf, MEMBER, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

const bot = useLeagueBot();
const { run, expectRefusal, preview, click } = bot;
const flag = (name: string, value: boolean): RawOption => ({ name, type: 5, value });

async function race(league: string, results: string): Promise<void> {
	const p = await preview([text('results', results), text('league', league)]);
	const events = await click(p.confirm!);
	expect(content(events[1]!)).toMatch(/^Stored/);
}

describe('a channel’s default league', () => {
	let other = '';

	it('two leagues with Alice in both', async () => {
		for (const name of ['Cup', 'Night']) {
			expect(content(await run('league', [sub('create', [text('name', name)])], ORGANIZER))).toContain(
				`Created league **${name}**`,
			);
		}
		await race('Cup', '1. Alice\n2. Bob');
		await race('Night', '1. Dora\n2. Alice');
		other = bot.fake.addChannel('general');
	});

	it('without a default, /rating asks for the league and says a channel default exists', async () => {
		await expectRefusal(
			'rating',
			[text('player', 'Alice')],
			MEMBER,
			/^This server has 2 leagues \(\*\*Cup\*\*, \*\*Night\*\*\): choose one with the league option, or an organizer can make one the default of this channel with \/league config channel-default:true\.$/,
		);
	});

	it('/league config channel-default:true makes Night the league of this channel, and /league info shows it', async () => {
		await expectRefusal(
			'league',
			[sub('config', [text('league', 'Night'), flag('channel-default', true)])],
			MEMBER,
			/^Only league organizers \(Manage Server permission\) can do this\.$/,
		);
		const set = await run(
			'league',
			[sub('config', [text('league', 'Night'), flag('channel-default', true)])],
			ORGANIZER,
		);
		const here = `<#${bot.fake.channelId}>`;
		expect(content(set)).toMatch(
			new RegExp(
				`^Updated \\*\\*Night\\*\\*\\.\\n${here} now means \\*\\*Night\\*\\* for commands without the league option\\.\\n`,
			),
		);
		expect(content(set)).toContain(`Default league of: ${here}`);
		const info = await run('league', [sub('info')], MEMBER);
		expect(content(info)).toMatch(/^\*\*Night\*\*\n/);
		expect(content(info)).toContain(`Default league of: ${here}`);
	});

	it('/rating without league: answers from Night in this channel and is refused in another', async () => {
		const here = await run('rating', [text('player', 'Alice')], MEMBER);
		expect(flagsOf(here) & EPHEMERAL).toBe(0);
		expect(visible(here)).toMatch(/^Night · folyami/m);
		await expectRefusal(
			'rating',
			[text('player', 'Alice')],
			{ ...MEMBER, channelId: other },
			/^This server has 2 leagues \(\*\*Cup\*\*, \*\*Night\*\*\): choose one with the league option, or an organizer can make one the default of this channel with \/league config channel-default:true\.$/,
		);
		// The league option still wins.
		expect(visible(await run('rating', [text('player', 'Alice'), text('league', 'Cup')], MEMBER))).toMatch(
			/^Cup · folyami/m,
		);
	});

	it('setting Cup here moves the channel and says from which', async () => {
		const moved = await run(
			'league',
			[sub('config', [text('league', 'Cup'), flag('channel-default', true)])],
			ORGANIZER,
		);
		expect(content(moved)).toContain(
			`<#${bot.fake.channelId}> now means **Cup** for commands without the league option (moved from **Night**).`,
		);
		expect(visible(await run('rating', [text('player', 'Alice')], MEMBER))).toMatch(/^Cup · folyami/m);
	});

	it('/league rename keeps the id and the channel; a taken name is refused', async () => {
		const before = (await bot.repo.listLeagues(bot.fake.guildId)).map((l) => l.id);
		await expectRefusal(
			'league',
			[sub('rename', [text('name', 'night')])],
			ORGANIZER,
			/^Another league of this server is named \*\*Night\*\*: choose another name\. Nothing was changed\.$/,
		);
		await expectRefusal('league', [sub('rename', [text('name', 'Spring')])], MEMBER, /^Only league organizers/);
		const renamed = await run('league', [sub('rename', [text('name', 'Spring Cup')])], ORGANIZER);
		const cupId = before[0]!;
		expect(content(renamed)).toBe(
			`Renamed **Cup** to **Spring Cup**. Its id stays \`${cupId}\`: commands, links and the results inbox keep working.`,
		);
		expect((await bot.repo.listLeagues(bot.fake.guildId)).map((l) => l.id)).toEqual(before);
		expect(content(await run('league', [sub('info')], MEMBER))).toMatch(/^\*\*Spring Cup\*\*\n/);
		expect(visible(await run('rating', [text('player', 'Alice')], MEMBER))).toMatch(/^Spring Cup · folyami/m);
	});
});
