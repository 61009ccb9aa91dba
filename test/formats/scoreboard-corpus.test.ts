import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScoreboard } from '../../src/formats/scoreboard.js';
import { writeScoreboardCsv } from '../../src/formats/scoreboard-csv.js';

/**
 * The corpus of pastes: one paste per source in test/fixtures/scoreboards (hand-written, see PROVENANCE.md),
 * each with what it must parse to: `name.expected.csv` (as `pitwall scoreboard` prints it) and `name.warnings.txt`,
 * or `name.errors.txt` for a paste that must be refused; `name.known.txt` lists the league's players when given.
 */
const corpus = join(import.meta.dirname, '../fixtures/scoreboards');
const SIDE_FILES = /\.(?:known|warnings|errors)\.txt$/u;
const names = readdirSync(corpus)
	.filter((file) => file.endsWith('.txt') && !SIDE_FILES.test(file))
	.map((file) => file.slice(0, -'.txt'.length))
	.sort();
const read = (file: string): string | undefined =>
	existsSync(join(corpus, file)) ? readFileSync(join(corpus, file), 'utf8') : undefined;
const linesOf = (text: string | undefined): string[] => (text ?? '').split('\n').filter((line) => line !== '');

describe('scoreboard corpus', () => {
	it('has a paste for each source the issue names, each with its expected result', () => {
		expect(names.length).toBeGreaterThanOrEqual(10);
		for (const name of names) {
			expect(read(`${name}.expected.csv`) !== undefined || read(`${name}.errors.txt`) !== undefined, name).toBe(true);
		}
	});

	it.each(names)('%s', (name) => {
		const known = read(`${name}.known.txt`);
		const result = parseScoreboard(read(`${name}.txt`)!, known === undefined ? {} : { knownPlayers: linesOf(known) });
		const errors = read(`${name}.errors.txt`);
		if (errors !== undefined) {
			expect(result.ok).toBe(false);
			if (!result.ok)
				expect(result.errors.map((error) => `line ${error.line}: ${error.message}`)).toEqual(linesOf(errors));
			return;
		}
		if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.errors)}`);
		expect(writeScoreboardCsv(result.entries)).toBe(read(`${name}.expected.csv`));
		expect(result.warnings).toEqual(linesOf(read(`${name}.warnings.txt`)));
		// The printed CSV is itself a scoreboard that reads back to the same entries.
		const again = parseScoreboard(writeScoreboardCsv(result.entries));
		expect(again.ok && again.entries).toEqual(result.entries);
	});
});
