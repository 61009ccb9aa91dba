/**
 * Names that look blank or like another name are refused, the same way on every path a name comes in by: a pasted
 * scoreboard, a history CSV, `/league import`, `/player rename`, `/league create`, a season's name. Whitespace (a tab,
 * a no-break space, several spaces) becomes one space, so "A\tnn" and "A nn" are one player.
 */
import { describe, expect, it } from 'vitest';
import { parseHistoryCsv } from '../../src/formats/history-csv.js';
import { parseScoreboard } from '../../src/formats/scoreboard.js';
import { codePointLabel, nameProblem, normalizeName } from '../../src/league/player-names.js';
import { LeagueError, newName } from '../../src/league/race-log-checks.js';
import { addRace, GUILD, organizer, world } from '../services/helpers.js';

/** Every code point Unicode says shows nothing: Default_Ignorable_Code_Point or General_Category Cf (4,206). */
const invisible: string[] = [];
for (let code = 0; code <= 0x10ffff; code++) {
	if (code >= 0xd800 && code <= 0xdfff) continue;
	const char = String.fromCodePoint(code);
	if (/[\p{Default_Ignorable_Code_Point}\p{Cf}]/u.test(char)) invisible.push(char);
}

/** Every whitespace code point a regular expression's \s knows, control characters aside (they are refused). */
const spaces: string[] = [];
for (let code = 0; code <= 0xffff; code++) {
	const char = String.fromCodePoint(code);
	if (/\s/u.test(char) && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(char)) spaces.push(char);
}

describe('names that look blank or like another name', () => {
	it('covers every default-ignorable and format code point', () => {
		expect(invisible).toHaveLength(4206);
	});

	it('refuses every one of them inside a name, alone, and beside an emoji (but for an emoji sequence)', () => {
		const accepted = invisible.filter((char) => nameProblem(`A${char}nn`) === undefined);
		expect(accepted.map(codePointLabel)).toEqual([]);
		expect(invisible.filter((char) => nameProblem(char) === undefined).map(codePointLabel)).toEqual([]);
		expect(invisible.filter((char) => nameProblem(`Ann ${char}`) === undefined).map(codePointLabel)).toEqual([]);
		// After an emoji, only its variation selectors belong to it.
		expect(invisible.filter((char) => nameProblem(`🏁${char}Ann`) === undefined).map(codePointLabel)).toEqual([
			'U+FE0E',
			'U+FE0F',
		]);
	});

	it('keeps emoji sequences and the joiners of scripts that need them', () => {
		for (const name of [
			'👨‍👩‍👧 Fan', // ZWJ family
			'🏳️‍🌈 Racer', // flag, VS16, ZWJ, rainbow
			'❤️ Ann', // VS16
			'1️⃣ Team', // keycap: digit, VS16, U+20E3
			'👍🏽‍♂ Bo', // skin tone, ZWJ, male sign
			'🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scot', // tag sequence
			'مه‌رداد', // Persian with ZWNJ (U+200C)
			'क्‍ष', // Devanagari with ZWJ
		]) {
			expect(nameProblem(name), name).toBeUndefined();
		}
		// The same joiners in a Latin name show nothing: refused.
		expect(nameProblem('A\u200Cnn')).toContain('U+200C');
		expect(nameProblem('A\u200Dnn')).toContain('U+200D');
		expect(nameProblem('مه\u200Cx')).toContain('U+200C');
	});

	it('refuses a name with no visible character', () => {
		expect(nameProblem('\u2800')).toMatch(/looks blank/);
		expect(nameProblem('\u0301\u0302')).toMatch(/looks blank/);
		expect(nameProblem('\u3164')).toContain('U+3164');
		expect(nameProblem('  ')).toBe('expected a player name');
	});

	it('makes every kind of whitespace inside a name one space', () => {
		expect(spaces.length).toBeGreaterThan(15);
		for (const space of spaces) {
			expect(nameProblem(`A${space}nn`), codePointLabel(space)).toBeUndefined();
			expect(normalizeName(`A${space}${space}nn`), codePointLabel(space)).toBe('A nn');
		}
		expect(normalizeName('A\tnn')).toBe('A nn');
	});

	it('refuses them the same on every path: paste, history CSV, rename, league and season names', () => {
		for (const char of ['\u3164', '\u034F', '\u115F', '\u200B', '\uFE0F', '\u{E0100}', '\u180E', '\u00AD']) {
			const label = codePointLabel(char);
			const pasted = parseScoreboard(`1. A${char}nn\n2. Bob`);
			expect(pasted.ok, label).toBe(false);
			expect(() => parseHistoryCsv(`race,player,position\nR1,A${char}nn,1\nR1,Bob,2\n`, 'h.csv'), label).toThrow(label);
			for (const what of ['player name', 'league name', 'season name', 'alias']) {
				expect(() => newName(`A${char}nn`, what), `${what} ${label}`).toThrow(LeagueError);
				expect(() => newName(char, what), `${what} ${label}`).toThrow(LeagueError);
			}
		}
	});
});

describe('through the services', () => {
	it('/league create and /player rename refuse U+3164 and U+034F, alone or inside a name', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'folyami', timezone: 'UTC' });
		await addRace(w, '1. Ann\n2. Bob');
		for (const bad of ['\u3164', '\u034F', 'A\u3164nn', 'Cu\u034Fp']) {
			await expect(
				w.services.leagues.create(organizer, { name: bad, headline: 'folyami', timezone: 'UTC' }),
			).rejects.toThrow(/U\+3164|U\+034F/);
			await expect(w.services.players.rename(organizer, { player: 'Ann', name: bad })).rejects.toThrow(
				/U\+3164|U\+034F/,
			);
		}
	});

	it('/league import reads "A\\tnn" and "A nn" as one player, "A nn"', async () => {
		const w = world();
		await w.services.leagues.create(organizer, { name: 'Cup', headline: 'folyami', timezone: 'UTC' });
		const text = 'race,player,position\nR1,A\tnn,1\nR1,Bob,2\nR2,A nn,2\nR2,Bob,1\nR3,"A  nn",1\nR3,Bob,2\n';
		await w.services.transfer.importFile(organizer, { league: 'Cup', file: { name: 'cup.csv', text } });
		const state = await w.repo.loadState((await w.repo.listLeagues(GUILD))[0]!.id);
		expect(state.players().map((p) => p.name)).toEqual(['A nn', 'Bob']);
	});

	it('the league log refuses a new racer whose name is not tidied (a reader that forgot)', async () => {
		const w = world();
		const league = await w.services.leagues.create(organizer, { name: 'Cup', headline: 'folyami', timezone: 'UTC' });
		const entries = [
			{ player: 'A\tnn', position: 1, status: 'finished' as const },
			{ player: 'Bob', position: 2, status: 'finished' as const },
		];
		await expect(
			w.repo.appendEvent(league.id, { type: 'race-submitted', race: { entries }, by: organizer.userId }),
		).rejects.toThrow('has a tab or several spaces between its words');
	});
});
