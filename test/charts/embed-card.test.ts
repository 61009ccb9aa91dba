/** The README's embed pictures (src/charts/embed-card.ts): a PNG as wide as Discord's embed, growing with content. */
import { describe, expect, it } from 'vitest';
import { drawEmbedCard } from '../../src/charts/embed-card.js';
import { EMBED_COLOURS } from '../../src/formats/embed.js';
import { PNG_SIGNATURE } from '../jobs/helpers.js';

const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('drawEmbedCard', () => {
	it('draws a card whose height follows its lines, in both themes', async () => {
		const embed = {
			title: 'Bob',
			color: EMBED_COLOURS.gold,
			fields: [{ name: 'Rating', value: '1500.0', inline: true }],
		};
		const short = await drawEmbedCard(embed, { theme: 'dark' });
		const long = await drawEmbedCard(
			{ ...embed, description: Array.from({ length: 10 }, (_, i) => `${i + 1}. **Racer** 1:0${i}.000`).join('\n') },
			{ theme: 'light' },
		);
		expect(short.subarray(0, 8)).toEqual(PNG_SIGNATURE);
		expect(size(short).width).toBe(size(long).width);
		expect(size(long).height).toBeGreaterThan(size(short).height + 10 * 15);
	});
});
