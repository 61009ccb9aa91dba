/**
 * Names typed by users (players, races, seasons) are escaped for Discord wherever an embed title or field name shows
 * them, as in every other part of a reply: `@everyone` carries a zero-width space (no mention is formed, it reads as
 * typed) and `*`, `_` are backslashed (shown, not read as markdown). Checked on the real payloads of every command
 * that puts a name in a title. Embed author names are plain text on Discord (no markdown, no mention): not escaped.
 */
import { describe, expect, it } from 'vitest';
import { embedsOf, ORGANIZER, sub, text, useLeagueBot, type LeagueBot } from './league-bot.js';
import type { Json } from './fake-discord.js';

const bot: LeagueBot = useLeagueBot();

/** The titles and field names of an answer's embeds. */
const titles = (embeds: Json[]): string[] =>
	embeds.flatMap((embed) => [
		typeof embed['title'] === 'string' ? embed['title'] : '',
		...((embed['fields'] as Json[] | undefined) ?? []).map((f) => String(f['name'])),
	]);

/** No mention can form and no user `*` or `_` is read as markdown. */
function expectEscaped(where: string, parts: string[]): void {
	for (const part of parts) {
		expect(part, where).not.toMatch(/@(?!\u200B)/u);
		expect(part, where).not.toMatch(/(?<!\\)[*_]/u);
	}
}

describe('user text in embed titles', () => {
	it('is escaped in /rating, /race show and previews, /leaderboard, /standings, /forecast and merge previews', async () => {
		await bot.run('league', [sub('create', [text('name', 'Cup'), text('headline', 'glicko')])], ORGANIZER);
		await bot.run('season', [sub('start', [text('name', '*Spring*'), text('date', '2020-01-01')])], ORGANIZER);
		const preview = await bot.preview([
			text('results', '1. @everyone\n2. B_o_b\n3. Carol'),
			text('name', '*Round* @here'),
		]);
		const seen: [string, string[]][] = [['race preview', titles(embedsOf(preview.edit))]];
		expect(preview.text).toContain('Race preview: \\*Round\\* @\u200Bhere');
		const confirmed = await bot.click(preview.confirm!);
		seen.push(['race announcement', confirmed.flatMap((event) => titles(embedsOf(event)))]);

		const rating = embedsOf(await bot.run('rating', [text('player', '@everyone')]));
		expect(rating[0]?.['title']).toBe('@\u200Beveryone');
		seen.push(['/rating', titles(rating)]);
		seen.push(['/rating B_o_b', titles(embedsOf(await bot.run('rating', [text('player', 'B_o_b')])))]);
		seen.push(['/race show', titles(embedsOf(await bot.run('race', [sub('show', [text('race', 'R1')])])))]);
		seen.push(['/odds', titles(embedsOf(await bot.run('odds', [text('players', '@everyone, B_o_b')])))]);
		seen.push(['/leaderboard', titles(embedsOf(await bot.run('leaderboard', [text('season', '*Spring*')])))]);
		seen.push(['/standings', titles(embedsOf(await bot.run('standings', [text('season', '*Spring*')])))]);
		seen.push(['/forecast', titles(embedsOf(await bot.run('forecast', [text('races-left', 2)])))]);
		await bot.click((await bot.preview([text('results', '1. Carl\n2. Carol')])).confirm!);
		const merge = await bot.run('player', [sub('merge', [text('from', 'Carl'), text('into', 'B_o_b')])], ORGANIZER);
		seen.push(['merge preview', titles(embedsOf(merge))]);

		for (const [where, parts] of seen) {
			expect(parts.join(''), `${where} has a title`).not.toBe('');
			expectEscaped(where, parts);
		}
	});
});
