/** Replies as the console prints them: Discord's markdown made readable, embeds as lines. */
import { describe, expect, it } from 'vitest';
import { markdownToText, renderMessage } from '../../src/console/render.js';
import { escapeForDiscord } from '../../src/formats/discord-escape.js';

describe('console rendering', () => {
	it('shows bold as bold on a terminal and plain in a pipe; italics, ticks and escapes are undone', () => {
		const line = `1. **${escapeForDiscord('Bob*_x')}** *(new player)* under \`glicko\`: line 3\\: ok`;
		expect(markdownToText(line, false)).toBe('1. Bob*_x (new player) under glicko: line 3: ok');
		expect(markdownToText('**Bob**', true)).toBe('\x1b[1mBob\x1b[22m');
		expect(markdownToText('2 × 3 * 4', false)).toBe('2 × 3 * 4'); // a lone star is no markup
	});

	it('prints an embed: title with author, description, inline fields on one line, others indented, footer', () => {
		const { text } = renderMessage(
			{
				embeds: [
					{
						title: 'Bob',
						author: { name: 'Cup · glicko' },
						description: '**Provisional**: its RD is above 110.',
						fields: [
							{ name: 'Rating', value: '1500.0', inline: true },
							{ name: 'RD', value: '350.0', inline: true },
							{ name: 'Why the last race moved it', value: 'In R1: 1st of 2\nBeat 1 racer' },
						],
						image: { url: 'attachment://rating.png' },
						footer: { text: 'as of 2026-11-24' },
					},
				],
			},
			{ outDir: '/nonexistent', now: () => new Date(0) },
		);
		expect(text.split('\n')).toEqual([
			'== Bob ==  Cup · glicko',
			'Provisional: its RD is above 110.',
			'Rating: 1500.0 · RD: 350.0',
			'Why the last race moved it:',
			'  In R1: 1st of 2',
			'  Beat 1 racer',
			'-- as of 2026-11-24',
		]);
	});
});
