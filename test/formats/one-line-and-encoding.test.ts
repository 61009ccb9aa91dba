/**
 * Messages about what was sent point where the organizer can look: the Nth racer of a one-line paste (not a "line N"
 * they never wrote), and a file in UTF-16 without a byte order mark is named as such, with no NUL echoed back.
 */
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { readLeagueFile } from '../../src/formats/league-file.js';
import { parseScoreboard } from '../../src/formats/scoreboard.js';
import { placeOf } from '../../src/formats/scoreboard-line.js';
import { organizer, world } from '../services/helpers.js';

const CONTROL = /\p{Cc}/u;

function errorsOf(text: string): string[] {
	const result = parseScoreboard(text);
	return result.ok ? [] : result.errors.map((e) => `${placeOf(e)}: ${e.message}`);
}

/** A UTF-16 LE file without a byte order mark, read as UTF-8 text (as an attachment or `readFileSync(…, 'utf8')`). */
const utf16 = (text: string): string => Buffer.from(text, 'utf16le').toString('utf8');

describe('a one-line paste', () => {
	it('names the racer, split at positions or at ";"', () => {
		expect(errorsOf('1. Alice 1:01.5 2. Bob 1:02.3 3. 1:03.0')).toEqual([expect.stringMatching(/^racer 3: /)]);
		expect(errorsOf('1. Alice; 2. Bob; 3. Alice')).toEqual([
			'racer 3: "Alice" is entered twice: on racer 1 and here (names ignore case)',
		]);
		for (const error of errorsOf('1. Alice 2. Bob 2. alice')) expect(error).not.toMatch(/\bline\b/);
	});

	it('warnings about its racers name them too; a paste of several lines keeps "line N"', () => {
		const result = parseScoreboard('1. Alice 1:01.5 2. Bob 1:00.3', {});
		expect(result.ok && result.warnings.slice(1)).toEqual([expect.stringMatching(/^racer 2: Bob's time/)]);
		expect(errorsOf('1. Alice\n2. Bob\n3. Alice')).toEqual([expect.stringMatching(/^line 3: /)]);
	});

	it('the service says "racer N" to the organizer', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'folyami', timezone: 'UTC' });
		await expect(w.services.races.submit(organizer, { text: '1. Alice; 2. Bob; 3. Alice' })).rejects.toThrow(
			/racer 3: "Alice" is entered twice/,
		);
	});
});

describe('a UTF-16 file without a byte order mark', () => {
	const text = utf16('race,player,position\nR1,Ann,1\nR1,Bob,2\n');

	it('is named as such, with how to fix it, and no control character is echoed', () => {
		expect(text).toContain('\u0000'); // what the reader gets
		for (const read of [
			() => parseHistoryCsv(text, 'cup.csv'),
			() => readLeagueFile({ file: { name: 'cup.csv', text } }),
		]) {
			let message = '';
			try {
				read();
			} catch (error) {
				message = (error as Error).message;
			}
			expect(message).toMatch(/UTF-16 without a byte order mark/);
			expect(message).toMatch(/save it as UTF-8/);
			expect(message).not.toMatch(CONTROL);
		}
	});

	it('no history CSV message quotes a control character of the file', () => {
		expect(() => parseHistoryCsv('race,play\u0007er,position\n', 'h.csv')).toThrow('unknown column "playU+0007er"');
	});
});
