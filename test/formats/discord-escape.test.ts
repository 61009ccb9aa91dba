import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeForDiscord } from '../../src/formats/discord-escape.js';

const Z = '\u200B';

/** What Discord shows: a backslash before a punctuation character shows that character; zero-width spaces vanish. */
const rendered = (text: string): string => text.replace(/\\([^\p{L}\p{N}\s])/gu, '$1').replaceAll(Z, '');

describe('escapeForDiscord', () => {
	it.each<[string, string]>([
		['Alice', 'Alice'],
		['@everyone', `@${Z}everyone`],
		['@here', `@${Z}here`],
		['<@123>', `<${Z}@${Z}123\\>`],
		['<@&7>', `<${Z}@${Z}&7\\>`],
		['<#42>', `<${Z}\\#42\\>`],
		['**bold** _it_', '\\*\\*bold\\*\\* \\_it\\_'],
		['`code`', '\\`code\\`'],
		['||spoiler||', '\\|\\|spoiler\\|\\|'],
		['~~x~~', '\\~\\~x\\~\\~'],
		['> quote', '\\> quote'],
		['# Big', '\\# Big'],
		['- item', '\\- item'],
		['1. first', '1\\. first'],
		['[a](https://x.y)', '\\[a\\](https\\://x.y)'],
		['back\\slash', 'back\\\\slash'],
		['Jean-Luc 2.0', 'Jean-Luc 2.0'],
		['Zoë 🏎️', 'Zoë 🏎️'],
	])('%j → %j', (name, escaped) => {
		expect(escapeForDiscord(name)).toBe(escaped);
	});

	it('renders as the original text and leaves no mention or markdown active', () => {
		const unit = fc.constantFrom(
			'a',
			' ',
			'@',
			'<',
			'>',
			'#',
			'&',
			'*',
			'_',
			'~',
			'`',
			'|',
			'\\',
			'[',
			']',
			':',
			'-',
			'1',
			'.',
			'é',
		);
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 24 }), (text) => {
				const escaped = escapeForDiscord(text);
				expect(rendered(escaped)).toBe(text);
				expect(escaped).not.toMatch(/@(?!\u200B)|<(?!\u200B)/u);
				expect(escaped).not.toMatch(/(?<!\\)(?:\\\\)*[*_~`|>[\]#:]/u);
			}),
			{ numRuns: 200 },
		);
	});
});
