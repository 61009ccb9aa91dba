/**
 * The big `/league import` end to end through the fake Discord: an organizer attaches a history of 10,000 races of
 * 20 (7.7 MB, bench/big-import-data.ts, under the 8 MiB limit); the file is read on a worker thread, checked and
 * stored in parts, rated with progress edits, and the summary counts it whole. Meanwhile the bot keeps answering
 * others: `/about` sent during the read and during the rating is answered before the import's summary.
 */
import { describe, expect, it } from 'vitest';
import { bigImportCsv } from '../../bench/big-import-data.js';
import {
	ATTACHMENT,
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

const bot = useLeagueBot();
// Built before the bot starts: the 7.7 MB take half a second, which the bot's loop should not wait through.
const BIG_CSV = bigImportCsv();

describe('/league import of 10,000 races', () => {
	it('is read, stored and rated while other commands are answered, and its summary counts it whole', async () => {
		const created = await bot.run('league', [sub('create', [text('name', 'Big')])], ORGANIZER);
		expect(content(created)).toContain('Created league **Big**');
		const csv = bot.fake.addAttachment('big-import.csv', BIG_CSV, 'text/csv');
		const option = { name: 'file', type: ATTACHMENT, value: String(csv['id']) };
		const handle = bot.fake.sendSlashCommand('league', [sub('import', [option, text('league', 'Big')])], ORGANIZER);
		const defer = await handle.next();
		expect(defer).toMatchObject({ kind: 'callback', type: 5 });
		expect(flagsOf(defer) & EPHEMERAL).toBe(EPHEMERAL);

		// While the file is read on its worker thread.
		const during = [content(await bot.run('about', [], MEMBER))];
		const edits: string[] = [];
		for (;;) {
			const event = await handle.next(120_000);
			expect(event.kind).toBe('edit');
			expectWithinDiscordLimits(event);
			edits.push(content(event));
			// While the races are rated (the first progress edit).
			if (edits.length === 1) during.push(content(await bot.run('about', [], MEMBER)));
			if (!content(event).startsWith('Importing…')) break;
		}
		for (const about of during) expect(about).toContain('pitwall');
		expect(edits[0]).toBe('Importing… 0 of 10000 races');
		expect(edits.at(-1)).toContain(
			'Imported 10000 races into **Big** from big-import.csv (history CSV): 2000 new players, 200000 results.\n' +
				'Dates: 1990-01-01 to 2017-05-18.',
		);
		const league = (await bot.repo.listLeagues(bot.fake.guildId)).find((l) => l.config.name === 'Big')!;
		expect((await bot.repo.loadState(league.id)).races()).toHaveLength(10_000);
	}, 300_000);
});
