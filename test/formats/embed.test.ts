/**
 * Embeds fitted to Discord's limits: every part within its own limit, all within 6,000, lists
 * shortened by whole lines with "…and N more", and discord.js's EmbedBuilder (whose setters validate the limits)
 * accepting the result.
 */
import { describe, expect, it } from 'vitest';
import { embedOf } from '../../commands/embed.js';
import { EMBED_COLOURS, EMBED_LIMITS, embedLength, fitEmbed, standingColour } from '../../src/formats/embed.js';

const line = (i: number) => `${i + 1}. **Racer ${i}** 1500.0 → 1512.3 (+12.3) · beat somebody, behind someone`;

describe('fitEmbed', () => {
	it('keeps a small embed exactly as asked', () => {
		const fitted = fitEmbed({
			title: 'Bob',
			author: 'Cup · glicko',
			colour: EMBED_COLOURS.gold,
			description: { lines: ['a', 'b'] },
			fields: [{ name: 'Rating', value: '1500.0', inline: true }, undefined, false],
			image: 'rating.png',
			footer: 'as of 2026-11-24',
		});
		expect(fitted).toEqual({
			title: 'Bob',
			author: { name: 'Cup · glicko' },
			color: EMBED_COLOURS.gold,
			description: 'a\nb',
			fields: [{ name: 'Rating', value: '1500.0', inline: true }],
			image: { url: 'attachment://rating.png' },
			footer: { text: 'as of 2026-11-24' },
		});
	});

	it('shortens a long list by whole lines, saying how many were left out, within 4,096', () => {
		const lines = Array.from({ length: 200 }, (_, i) => line(i));
		const fitted = fitEmbed({ title: 'R1', colour: 0, description: { head: ['head'], lines, tail: ['tail'] } });
		const description = fitted.description!;
		expect(description.length).toBeLessThanOrEqual(EMBED_LIMITS.description);
		const shown = description.split('\n');
		expect(shown[0]).toBe('head');
		expect(shown.at(-1)).toBe('tail');
		const kept = shown.filter((l) => /^\d+\. /.test(l));
		expect(kept).toEqual(lines.slice(0, kept.length));
		expect(shown.at(-2)).toBe(`…and ${200 - kept.length} more`);
	});

	it('keeps the whole message within 6,000 characters: the description gives way to the fields', () => {
		const long = Array.from({ length: 60 }, (_, i) => line(i));
		const fitted = fitEmbed({
			title: 'x'.repeat(300),
			colour: 0,
			description: { lines: long },
			fields: Array.from({ length: 30 }, (_, i) => ({ name: `Field ${i}`, value: { lines: long } })),
			footer: 'f'.repeat(3000),
		});
		expect(fitted.title).toHaveLength(EMBED_LIMITS.title);
		expect(fitted.footer!.text.length).toBeLessThanOrEqual(EMBED_LIMITS.footer);
		expect(fitted.fields!.length).toBeLessThanOrEqual(EMBED_LIMITS.fields);
		for (const field of fitted.fields!) expect(field.value.length).toBeLessThanOrEqual(EMBED_LIMITS.fieldValue);
		expect(embedLength(fitted)).toBeLessThanOrEqual(EMBED_LIMITS.total);
		// discord.js validates every part again.
		expect(() => embedOf({ title: 'x'.repeat(300), colour: 0, description: { lines: long } }).toJSON()).not.toThrow();
	});

	it('never sends an empty field value or title (Discord refuses them)', () => {
		const fitted = fitEmbed({ title: ' ', colour: 0, fields: [{ name: 'Check', value: { lines: [] } }] });
		expect(fitted.title).toBe('—');
		expect(fitted.fields).toEqual([{ name: 'Check', value: '—' }]);
	});

	it('colours a standing: medals for the top three, grey while provisional, blue otherwise', () => {
		expect([1, 2, 3, 4].map((rank) => standingColour(rank, false))).toEqual([
			EMBED_COLOURS.gold,
			EMBED_COLOURS.silver,
			EMBED_COLOURS.bronze,
			EMBED_COLOURS.established,
		]);
		expect(standingColour(1, true)).toBe(EMBED_COLOURS.provisional);
	});
});
