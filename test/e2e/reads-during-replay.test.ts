/**
 * Through Discord: a /rating, /leaderboard or /odds sent while a /race void replays the league's ratings answers at
 * once, from the ratings before the void, and its first line says so; the void's own answer comes once the replay is
 * over, and a /rating after it shows the new ratings without the notice.
 */
import { describe, expect, it } from 'vitest';
import { gatedSnapshots, within } from '../support/gated-snapshots.js';
import { content, expectWithinDiscordLimits, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

const gate = gatedSnapshots();
const bot = useLeagueBot({ store: gate.store, repo: { ratingEvery: 2 } });
const NOTICE = /^⏳ Ratings are being recomputed after R1 was voided: these are from before that\./;

describe('reads during a replay, through the fake Discord', () => {
	it('answer at once from the ratings before the change, saying so', async () => {
		await bot.run('league', [sub('create', [text('name', 'Cup')])], ORGANIZER);
		for (const results of ['1. Alice\n2. Bob\n3. Carol', '1. Bob\n2. Alice\n3. Carol', '1. Carol\n2. Bob\n3. Alice']) {
			const { confirm } = await bot.preview([text('results', results)], ORGANIZER);
			await bot.click(confirm!, ORGANIZER);
		}
		const before = visible(await bot.run('rating', [text('player', 'Alice')]));
		expect(before).not.toMatch(/recomputed/);

		gate.close();
		const voiding = bot.fake.sendSlashCommand(
			'race',
			[sub('void', [text('race', 'R1'), text('reason', 'duplicate')])],
			ORGANIZER,
		);
		await gate.entered;
		const during = await within(3000, bot.run('rating', [text('player', 'Alice')]), '/rating');
		expect(content(during)).toMatch(NOTICE);
		expectWithinDiscordLimits(during);
		// The same embed as before the void: the ratings from before it.
		expect(visible(during).replace(NOTICE, '').split('\n').slice(1).join('\n')).toBe(before);
		const board = await within(3000, bot.run('leaderboard', []), '/leaderboard');
		expect(content(board)).toMatch(NOTICE);
		const odds = await within(3000, bot.run('odds', [text('players', 'Alice, Bob')]), '/odds');
		expect(content(odds)).toMatch(NOTICE);

		gate.open();
		let answer = await voiding.next(5000);
		if (answer.kind === 'callback' && answer.type === 5) answer = await voiding.next(5000);
		expect(content(answer)).toMatch(/^Voided/);
		const after = visible(await bot.run('rating', [text('player', 'Alice')]));
		expect(after).not.toMatch(/recomputed/);
		expect(after).not.toBe(before);
	});
});
