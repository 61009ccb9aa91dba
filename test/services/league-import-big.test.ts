import { describe, expect, it } from 'vitest';
import { bigImportCsv } from '../../bench/big-import-data.js';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { LeagueFileError, readLeagueFile } from '../../src/formats/league-file.js';
import {
	OFF_THREAD_CHARS,
	TEXT_PART_CHARS,
	readLeagueFileOffThread,
} from '../../src/services/transfer/read-league-file.js';
import { organizer, world } from './helpers.js';

/**
 * The big `/league import` (10,000 races of 20, 7.7 MB: bench/big-import-data.ts): the file is read on a worker
 * thread, with the same races and the same refusals as a read on the bot's thread; the import and its export read
 * back to the same history.
 */

const BIG = bigImportCsv();

describe('a big league file', () => {
	it('is read on a worker thread into the same races as on this thread', async () => {
		expect(BIG.length).toBeGreaterThan(OFF_THREAD_CHARS);
		const input = { file: { name: 'big-import.csv', text: BIG } };
		const here = readLeagueFile(input);
		const there = await readLeagueFileOffThread(input);
		expect(there.format).toBe('history');
		expect(there.races).toHaveLength(10_000);
		expect(there.races).toEqual(JSON.parse(JSON.stringify(here.races)));
		expect(there.warnings).toEqual(here.warnings);
	}, 60_000);

	it('reaches the worker in parts put back together exactly, a character split across two parts included', async () => {
		// A name with a flag (two UTF-16 code units) whose halves fall on either side of the first part's end.
		const header = 'race,date,player,position,time,status\n';
		const row = (race: number, name: string, position: number) => `${race},2020-01-01,${name},${position},,\n`;
		let text = header;
		let race = 1;
		for (; text.length < TEXT_PART_CHARS - 100; race++) text += row(race, 'Ann', 1) + row(race, 'Bob', 2);
		// A third racer of the last race whose name's length brings the flag's row where it must start (names: 32 at most).
		const before = `1000000,2020-01-01,Ny`.length;
		const room = TEXT_PART_CHARS - 1 - text.length - before;
		const filler = Array.from({ length: 30 }, (_, n) => `C${'z'.repeat(n)}`).find((name) => {
			const left = room - row(race - 1, name, 3).length;
			return left >= 0 && left <= 28;
		})!;
		text += row(race - 1, filler, 3);
		const padding = 'x'.repeat(TEXT_PART_CHARS - 1 - text.length - before);
		text += row(1_000_000, `Ny${padding}🏁`, 1) + row(1_000_000, 'Ann', 2);
		expect(text.charCodeAt(TEXT_PART_CHARS - 1)).toBe('🏁'.charCodeAt(0)); // the high half ends the first part
		const input = { file: { name: 'split.csv', text } };
		const there = await readLeagueFileOffThread(input, 0);
		expect(there.races).toEqual(JSON.parse(JSON.stringify(readLeagueFile(input).races)));
		expect(there.races.at(-1)!.entries[0]!.player).toBe(`Ny${padding}🏁`);
	}, 60_000);

	it('with a bad row deep inside is refused on the worker thread as on this one, naming the line', async () => {
		const lines = BIG.split('\n');
		lines[150_000] = lines[150_000]!.replace(/,\d+,([\d.]*),/, ',first,$1,'); // a position that is no number
		const input = { file: { name: 'big-import.csv', text: lines.join('\n') } };
		const message = (() => {
			try {
				readLeagueFile(input);
			} catch (error) {
				return (error as Error).message;
			}
			return 'read';
		})();
		expect(message).toMatch(/^big-import\.csv:150001: position must be an integer/);
		const refusal = readLeagueFileOffThread(input);
		await expect(refusal).rejects.toBeInstanceOf(LeagueFileError);
		await expect(refusal).rejects.toThrow(message);
	}, 60_000);

	it('imported and exported, reads back as the same history', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Big' });
		const summary = await w.services.transfer.importFile(organizer, {
			league: 'Big',
			file: { name: 'big-import.csv', text: BIG },
		});
		expect(summary).toMatchObject({ races: 10_000, entries: 200_000, players: 2_000, undated: 0 });
		expect([summary.firstDate, summary.lastDate]).toEqual(['1990-01-01', '2017-05-18']); // 9,999 days later
		const exported = await w.services.transfer.exportFiles(organizer, 'Big');
		expect(exported.races).toBe(10_000);
		const strip = (races: ReturnType<typeof parseHistoryCsv>) =>
			races.map((race) => ({ date: race.date, entries: race.entries.map((e) => [e.player, e.position, e.status]) }));
		expect(strip(parseHistoryCsv(exported.history, 'export.csv'))).toEqual(
			strip(parseHistoryCsv(BIG, 'big-import.csv')),
		);
	}, 240_000);
});
