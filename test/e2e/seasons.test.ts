/**
 * Seasons end to end through the fake Discord: an organizer's /season start answers publicly with what it does to
 * ratings; a member's is refused (organizers only, checked by the service) and stores nothing; /season list shows the
 * seasons with their races so far and planned, within Discord's limits, mentions off, within 3 s.
 */
import { describe, expect, it } from 'vitest';
import {
	content,
	EPHEMERAL,
	expectWithinDiscordLimits,
	flagsOf,
	MEMBER,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
} from './league-bot.js';
import type { ReplyEvent } from './fake-discord.js';
import { esc } from '../../commands/shared.js';

const bot = useLeagueBot();
/** A season name with a role mention in it, as replies show it: escaped, pinging nobody. */
const SPRING = esc('Spring <@&1> Cup');

function publicWithinLimits(event: ReplyEvent): void {
	expect(flagsOf(event) & EPHEMERAL).toBe(0);
	expectWithinDiscordLimits(event);
}

describe('/season end to end', () => {
	it('an organizer starts seasons, a member cannot, and /season list shows them', async () => {
		await bot.run('league', [sub('create', [text('name', 'Cup')])], ORGANIZER);
		await bot.run('league', [sub('config', [text('season-reset', 'restart')])], ORGANIZER);
		const started = performance.now();
		const first = await bot.run(
			'season',
			[sub('start', [text('name', 'Spring <@&1> Cup'), text('date', '2020-03-01'), text('races', 2)])],
			ORGANIZER,
		);
		expect(performance.now() - started).toBeLessThan(3000);
		publicWithinLimits(first);
		expect(content(first)).toContain(`Season **${SPRING}** of **Cup** starts on 2020-03-01 (2 races planned).`);
		expect(content(first)).toContain(`Every rating restarts at the first race of **${SPRING}**.`);

		const preview = await bot.preview([text('results', '1. Ann\n2. Bob'), text('date', '2020-03-08')]);
		await bot.click(preview.confirm!);

		// Refused and stored nothing: the organizer's Summer below would otherwise be a second "Summer".
		await bot.expectRefusal(
			'season',
			[sub('start', [text('name', 'Summer'), text('date', '2020-06-01')])],
			MEMBER,
			/^Only league organizers/,
		);
		await bot.expectRefusal(
			'season',
			[sub('start', [text('name', 'spring <@&1> cup'), text('date', '2020-06-01')])],
			ORGANIZER,
			/already has a season named/,
		);
		await bot.expectRefusal(
			'season',
			[sub('start', [text('name', 'Summer'), text('date', '2020-02-30')])],
			ORGANIZER,
			/"2020-02-30" is not a day of the calendar: February 2020 has 29 days/,
		);

		const second = await bot.run(
			'season',
			[sub('start', [text('name', 'Summer'), text('date', '2020-06-01')])],
			ORGANIZER,
		);
		publicWithinLimits(second);
		expect(content(second)).toContain(`**${SPRING}** ended on 2020-05-31.`);

		const list = await bot.run('season', [sub('list')], MEMBER);
		publicWithinLimits(list);
		expect(content(list).split('\n')).toEqual([
			'Seasons of **Cup**:',
			'**Summer** · from 2020-06-01 · 0 races · open',
			`**${SPRING}** · 2020-03-01 – 2020-05-31 · 1/2 races · ended`,
			'Every rating restarts at the first race of each season.',
		]);
	});
});
