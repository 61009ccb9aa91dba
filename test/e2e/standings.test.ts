/**
 * The championship end to end through the fake Discord: /standings answers a member publicly with the season's
 * table (within Discord's limits, mentions off, within 3 s); /race penalty previews a time penalty to its organizer
 * only, with Confirm / Cancel, and Confirm stores it and announces it; a member's /race penalty is refused.
 */
import { describe, expect, it } from 'vitest';
import {
	content,
	EPHEMERAL,
	embedsOf,
	flagsOf,
	MEMBER,
	expectWithinDiscordLimits,
	ORGANIZER,
	sub,
	text,
	useLeagueBot,
	visible,
	type LeagueBot,
} from './league-bot.js';

const bot: LeagueBot = useLeagueBot();
const NUMBER = 10;
const seconds = (value: number) => ({ name: 'seconds', type: NUMBER, value });

describe('/standings and /race penalty end to end', () => {
	it('shows the table, previews a time penalty to its organizer, stores it on Confirm', async () => {
		await bot.run('league', [sub('create', [text('name', 'Cup')])], ORGANIZER);
		for (const [results, date] of [
			['1. Ann 1:40.000\n2. Bob 1:42.000\n3. Cid 1:44.500', '2026-01-10'],
			['1. Bob\n2. Cid\n3. Ann', '2026-01-17'],
		] as const) {
			const preview = await bot.preview([text('results', results), text('date', date)]);
			await bot.click(preview.confirm!);
		}

		const started = performance.now();
		const table = await bot.run('standings', [], MEMBER);
		expect(performance.now() - started).toBeLessThan(3000);
		expect(flagsOf(table) & EPHEMERAL).toBe(0);
		expectWithinDiscordLimits(table);
		const [embed] = embedsOf(table);
		expect(embed).toMatchObject({ title: 'Championship · 2026', author: { name: 'Cup' } });
		// F1 points. Ann 25 + 15 = 40, Bob 18 + 25 = 43, Cid 15 + 18 = 33.
		expect(
			String(embed!['description'])
				.split('\n')
				.map((l) => l.replace(/ · \d+\.\d†?$/u, '')),
		).toEqual([
			'1. **Bob** 43 pts · 1 win · 2 podiums · 2 races',
			'2. **Ann** 40 pts · 1 win · 2 podiums · 2 races',
			'3. **Cid** 33 pts · 0 wins · 2 podiums · 2 races',
		]);
		expect(String((embed!['footer'] as { text?: string } | undefined)?.text)).toMatch(
			/^points f1 · every result counts · 2 races/,
		);

		// A member may not penalise.
		await bot.expectRefusal(
			'race',
			[sub('penalty', [text('race', 'R1'), text('player', 'Ann'), seconds(5), text('reason', 'x')])],
			MEMBER,
			/^Only league organizers/,
		);

		// The organizer's preview: ephemeral, the order after, Confirm and Cancel.
		const handle = bot.fake.sendSlashCommand(
			'race',
			[sub('penalty', [text('race', 'R1'), text('player', 'Ann'), seconds(5), text('reason', 'track limits')])],
			ORGANIZER,
		);
		const defer = await handle.next();
		expect(defer).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(defer) & EPHEMERAL).toBe(EPHEMERAL);
		const preview = await handle.next();
		expectWithinDiscordLimits(preview);
		expect(visible(preview)).toContain('Penalty preview: R1');
		expect(visible(preview)).toContain('Ann: P1 → P3');
		const rows = ('data' in preview ? preview.data?.['components'] : []) as { components: { custom_id: string }[] }[];
		const ids = rows.flatMap((row) => row.components.map((c) => c.custom_id));
		const confirm = ids.find((id) => id.startsWith('race-penalty:confirm:'));
		expect(ids.some((id) => id.startsWith('race-penalty:cancel:'))).toBe(true);

		const click = bot.fake.clickButton(confirm!, ORGANIZER);
		const ack = await click.next();
		expect(ack).toMatchObject({ kind: 'callback', type: 6 });
		const stored = await click.next();
		expectWithinDiscordLimits(stored);
		expect(content(stored)).toBe(
			'Penalty **P1**: **Ann** +5 s in R1 (“track limits”). Given. Ratings were replayed from R1 on.',
		);
		const announced = await click.next();
		expectWithinDiscordLimits(announced);
		expect(flagsOf(announced) & EPHEMERAL).toBe(0);
		expect(content(announced)).toBe(
			'Penalty **P1**: **Ann** +5 s in R1 (“track limits”). Ratings were replayed from R1 on.',
		);

		// R1 is now Bob 25, Cid 18, Ann 15: Bob 50, Cid 36, Ann 30.
		const after = await bot.run('standings', [], MEMBER);
		expect(String(embedsOf(after)[0]!['description'])).toMatch(
			/^1\. \*\*Bob\*\* 50 pts .*\n2\. \*\*Cid\*\* 36 pts .*\n3\. \*\*Ann\*\* 30 pts /u,
		);
		expect(visible(after)).toContain('P1 Ann +5 s in R1: track limits');
	});
});
