/**
 * Players' names in any script are drawn as glyphs, not as "tofu" boxes. DejaVu Sans (the charts' font) has no CJK,
 * fullwidth or most emoji; Pango falls back, through fontconfig, to the fonts scripts/setup.sh installs (Droid Sans
 * Fallback, Noto Color Emoji). A missing glyph is drawn as a box whose left edge is a line the box's full height:
 * that is what this test looks for.
 */
import { createCanvas } from 'canvas';
import { describe, expect, it } from 'vitest';
import { CHART_FONT_FAMILY, registerChartFont } from '../../src/charts/chart-font.js';

/** The ink in the leftmost inked pixel column of `text` drawn at 40 px: a missing glyph's box edge is about 38. */
function leftEdgeInk(text: string): number {
	registerChartFont();
	const size = 64;
	const ctx = createCanvas(size, size).getContext('2d');
	ctx.fillStyle = '#ffffff';
	ctx.fillRect(0, 0, size, size);
	ctx.font = `40px "${CHART_FONT_FAMILY}"`;
	ctx.fillStyle = '#000000';
	ctx.fillText(text, 8, 48);
	const pixels = ctx.getImageData(0, 0, size, size).data;
	for (let x = 0; x < size; x++) {
		let ink = 0;
		for (let y = 0; y < size; y++) if (pixels[(y * size + x) * 4]! < 128) ink++;
		if (ink > 0) return ink;
	}
	return 0;
}

describe('chart text in every script', () => {
	it('a code point no font has is drawn as a box (the check below can fail)', () => {
		expect(leftEdgeInk('\uE000')).toBeGreaterThan(30);
	});

	it('draws CJK, fullwidth and emoji names with real glyphs', () => {
		for (const text of ['一', '李', 'Ｗ', '🏁', '🏎', '🍎', 'Ж', 'A']) {
			expect(leftEdgeInk(text), text).toBeLessThan(10);
		}
	});
});
