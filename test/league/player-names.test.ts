import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
	codePointLabel,
	damerauLevenshtein,
	looksLikeTypo,
	lookupSuggestions,
	nameKey,
	nameProblem,
	normalizeName,
	typoNote,
	typoThreshold,
} from '../../src/league/player-names.js';

describe('damerauLevenshtein (unrestricted, Lowrance-Wagner)', () => {
	it.each<[string, string, number]>([
		['', '', 0],
		['', 'abc', 3],
		['kitten', 'sitting', 3], // Levenshtein's classic example: 2 substitutions + 1 insertion
		['alcie', 'alice', 1], // one transposition (plain Levenshtein: 2)
		['ca', 'abc', 2], // transpose then insert: the unrestricted distance (optimal string alignment gives 3)
		['abcdef', 'badcfe', 3], // three transpositions
		['🏎️a', 'a🏎️', 2], // code points: 🏎️ is two (U+1F3CE U+FE0F), moved across one character
		['Zoë', 'Zoe', 1],
	])('%s → %s = %i', (a, b, distance) => {
		expect(damerauLevenshtein(a, b)).toBe(distance);
		expect(damerauLevenshtein(b, a)).toBe(distance);
	});

	const str = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 7 });
	it('is a metric bounded by the lengths', () => {
		fc.assert(
			fc.property(str, str, str, (a, b, c) => {
				const ab = damerauLevenshtein(a, b);
				expect(damerauLevenshtein(a, a)).toBe(0);
				expect(ab === 0).toBe(a === b);
				expect(damerauLevenshtein(b, a)).toBe(ab);
				expect(ab).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
				expect(ab).toBeLessThanOrEqual(Math.max(a.length, b.length));
				expect(damerauLevenshtein(a, c)).toBeLessThanOrEqual(ab + damerauLevenshtein(b, c));
			}),
			{ numRuns: 200 },
		);
	});

	it('with a limit, is exact up to it and limit + 1 beyond', () => {
		fc.assert(
			fc.property(str, str, fc.nat({ max: 4 }), (a, b, limit) => {
				expect(damerauLevenshtein(a, b, limit)).toBe(Math.min(damerauLevenshtein(a, b), limit + 1));
			}),
			{ numRuns: 200 },
		);
	});

	it('is 1 for any single edit: insertion, deletion, substitution, adjacent transposition', () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 2, maxLength: 8 }), fc.nat(), (s, k) => {
				const i = k % (s.length - 1);
				const swapped = s.slice(0, i) + s[i + 1]! + s[i]! + s.slice(i + 2);
				expect(damerauLevenshtein(s, swapped)).toBe(s[i] === s[i + 1] ? 0 : 1);
				expect(damerauLevenshtein(s, s.slice(0, i) + s.slice(i + 1))).toBe(1);
				expect(damerauLevenshtein(s, s.slice(0, i) + 'x' + s.slice(i))).toBe(1);
				expect(damerauLevenshtein(s, s.slice(0, i) + 'x' + s.slice(i + 1))).toBe(1);
			}),
			{ numRuns: 100 },
		);
	});
});

describe('looksLikeTypo', () => {
	const known = ['Alice', 'Bob', 'Carol', 'Christopher', 'Al', 'Jon'];

	it('suggests Alice for Alcie (a transposition)', () => {
		expect(looksLikeTypo('Alcie', known)).toEqual(['Alice']);
	});

	it('compares ignoring case, and suggests a known name differing only in case', () => {
		expect(looksLikeTypo('ALCIE', known)).toEqual(['Alice']);
		expect(looksLikeTypo('bob', known)).toEqual(['Bob']);
	});

	it('returns nothing for a known name or a distant one', () => {
		expect(looksLikeTypo('Alice', known)).toEqual([]);
		expect(looksLikeTypo('Zed', known)).toEqual([]);
	});

	it('allows 2 edits from 6 characters, 1 edit for 3 to 5, only case below 3', () => {
		expect([0, 1, 2, 3, 5, 6, 40].map(typoThreshold)).toEqual([0, 0, 0, 1, 1, 2, 2]);
		expect(looksLikeTypo('Kristopher', known)).toEqual(['Christopher']); // 2 edits, 10+ characters
		expect(looksLikeTypo('Caorl', known)).toEqual(['Carol']); // 1 edit, 5 characters
		expect(looksLikeTypo('Cxrxl', known)).toEqual([]); // 2 edits, 5 characters
		expect(looksLikeTypo('Bo', known)).toEqual([]); // 1 edit, but 2 characters
		expect(looksLikeTypo('AL', known)).toEqual(['Al']);
		expect(looksLikeTypo('John', known)).toEqual(['Jon']);
	});

	it('sorts by distance, then name, and returns at most 3', () => {
		expect(looksLikeTypo('Maxx', ['Mary', 'Max', 'Maxi', 'Mack', 'Manx'])).toEqual(['Manx', 'Max', 'Maxi']);
	});

	it('names the known player in a known name plus an extra word, before nearer spellings', () => {
		expect(looksLikeTypo('Al 82', ['Al', 'Bo'])).toEqual(['Al']); // too short for an edit, but Al + "82"
		expect(looksLikeTypo('Alice -', ['Alice', 'Alice B'])).toEqual(['Alice', 'Alice B']);
		expect(looksLikeTypo('[RED] Jo', ['Jo'])).toEqual(['Jo']);
		expect(looksLikeTypo('Jo Bloggs Smith', ['Jo'])).toEqual([]); // two extra words: not flagged
		expect(typoNote('Alice 82', 'Alice')).toBe('"82" looks like an extra column or a stray mark, not part of the name');
		expect(typoNote('[RED] Jo', 'jo')).toBe('"[RED]" looks like an extra column or a stray mark, not part of the name');
	});

	it('names the known player in a known name with an invisible character', () => {
		expect(looksLikeTypo('Al\u200C', ['Al', 'Bo'])).toEqual(['Al']);
		expect(looksLikeTypo('B\u00ADo', ['Al', 'Bo'])).toEqual(['Bo']);
		expect(typoNote('B\u00ADo', 'Bo')).toBe('the name has the invisible character U+00AD');
		expect(typoNote('Alcie', 'Alice')).toBeUndefined();
	});
});

describe('names', () => {
	it('normalises to NFC with collapsed whitespace', () => {
		expect(normalizeName('  Zoe\u0308 \t Smith\u00a0 ')).toBe('Zoë Smith');
		expect(nameKey('ZOË  smith')).toBe('zoë smith');
	});

	it.each<[string, string | undefined]>([
		['Alice', undefined],
		['👨‍👩‍👧 family', undefined], // zero-width joiners stay allowed
		['@everyone', undefined],
		['', 'expected a player name'],
		['  \t ', 'expected a player name'],
		['a\u0000b', 'the name contains the character U+0000: control and invisible formatting characters are not allowed'],
		['a\u0085b', 'the name contains the character U+0085: control and invisible formatting characters are not allowed'],
		['a\u2066b', 'the name contains the character U+2066: control and invisible formatting characters are not allowed'],
		['a\uD800b', 'the name contains the character U+D800: control and invisible formatting characters are not allowed'],
		['x'.repeat(32), undefined],
		['x'.repeat(33), `the name "${'x'.repeat(33)}" is 33 characters long: at most 32`],
		['🏎'.repeat(32), undefined], // 32 code points (64 UTF-16 units)
		// every invisible format character (Unicode category Cf), not only a listed few.
		[
			'Al\u200Eice',
			'the name contains the character U+200E: control and invisible formatting characters are not allowed',
		],
		[
			'Al\u00ADice',
			'the name contains the character U+00AD: control and invisible formatting characters are not allowed',
		],
		[
			'Al\u061Cice',
			'the name contains the character U+061C: control and invisible formatting characters are not allowed',
		],
		[
			'Al\u{E0041}ice',
			'the name contains the character U+E0041: control and invisible formatting characters are not allowed',
		],
		['🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scot', undefined], // a flag's tag sequence stays allowed
		[
			'\u{E0067}\u{E007F}Scot',
			'the name contains the character U+E0067: control and invisible formatting characters are not allowed',
		],
		// A name starting with # would read as a player id (#1): the race log never lets a player have one.
		['#1', 'the name "#1" starts with #, as player ids do (#1): start it with another character'],
		[' #12 Max', 'the name "#12 Max" starts with #, as player ids do (#1): start it with another character'],
		['Max #12', undefined],
	])('nameProblem(%j)', (name, problem) => {
		expect(nameProblem(name)).toBe(problem);
	});

	it('refuses every format character (Cf) and default-ignorable code point between two letters, and no visible character of the BMP', () => {
		for (let code = 0; code <= 0xffff; code++) {
			if (code >= 0xd800 && code <= 0xdfff) continue;
			const char = String.fromCodePoint(code);
			const invisible = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u.test(char) && code !== 9;
			expect(nameProblem(`a${char}b`) !== undefined, codePointLabel(char)).toBe(invisible);
		}
	});
});

describe('lookupSuggestions', () => {
	const drivers = ['Max Verstappen', 'Lewis Hamilton', 'Mick Schumacher', 'Michael Schumacher', 'Alice', 'Bo'];

	it('offers whole-name typos first, as looksLikeTypo does', () => {
		expect(lookupSuggestions('Lewis Hamiltn', drivers)).toEqual(['Lewis Hamilton']);
		expect(lookupSuggestions('alcie', drivers)).toEqual(['Alice']);
	});

	it('otherwise names whose word is the query, or a typo of it, nearest first', () => {
		expect(lookupSuggestions('Verstapen', drivers)).toEqual(['Max Verstappen']);
		expect(lookupSuggestions('hamilton', drivers)).toEqual(['Lewis Hamilton']);
		expect(lookupSuggestions('Schumacher', drivers)).toEqual(['Michael Schumacher', 'Mick Schumacher']);
		expect(lookupSuggestions('Max', drivers)).toEqual(['Max Verstappen']);
	});

	it('suggests nothing for short or multi-word queries that match no whole name, nor for distant words', () => {
		expect(lookupSuggestions('Bo', ['Bob Smith'])).toEqual([]); // under 3 characters: too many near words
		expect(lookupSuggestions('Max Hamilton', drivers)).toEqual([]);
		expect(lookupSuggestions('Vettel', drivers)).toEqual([]);
	});
});
