/**
 * Every race sample of test/fixtures/results attached to `/race submit` through the real discord.js client and the
 * fake Discord, exactly as an organizer's upload arrives (the file's own bytes): the preview within 3 s, ephemeral, no
 * pings, within Discord's limits, saying what the file was read as and marking inferred retirements; Confirm stores
 * one race.
 */
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { expect, it } from 'vitest';
import { raceSamples, RESULTS_DIR } from '../formats/results/support.js';
import { ATTACHMENT, embedsOf, mentionsOf, ORGANIZER, sub, text, useLeagueBot, visible } from './league-bot.js';

const root = RESULTS_DIR;
const races = raceSamples().map(({ path }) => path);

const bot = useLeagueBot();

it(`every race sample (${races.length}) attached to /race submit previews within 3 s and Confirm stores it`, async () => {
	for (const [i, path] of races.entries()) {
		const league = `F${i}`;
		const created = await bot.run('league', [sub('create', [text('name', league)])], ORGANIZER);
		expect(visible(created)).toContain(`Created league **${league}**`);
		const bytes = readFileSync(path);
		const file = bot.fake.addAttachment(basename(path), bytes, 'application/octet-stream');
		const started = performance.now();
		const p = await bot.preview([
			text('league', league),
			{ name: 'file', type: ATTACHMENT, value: String(file['id']) },
		]);
		const where = relative(root, path);
		expect(performance.now() - started, where).toBeLessThan(3000);
		expect(p.text, where).toMatch(/Read as /u);
		expect(mentionsOf(p.edit), where).toEqual({ parse: [] });
		// Discord's embed limits: 4,096 characters of description, 6,000 in all.
		const [embed] = embedsOf(p.edit);
		const description = String(embed!['description']);
		const fields = (embed!['fields'] as { name: string; value: string }[] | undefined) ?? [];
		const total =
			String(embed!['title']).length +
			description.length +
			fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0) +
			String((embed!['footer'] as { text: string }).text).length +
			String((embed!['author'] as { name: string }).name).length;
		expect(description.length, where).toBeLessThanOrEqual(4096);
		expect(total, where).toBeLessThanOrEqual(6000);
		const stored = await bot.click(p.confirm!);
		expect(visible(stored[1]!), where).toMatch(
			new RegExp(`^Stored as \\*\\*R1\\*\\* in \\*\\*${league}\\*\\*\\.`, 'u'),
		);
	}
});
