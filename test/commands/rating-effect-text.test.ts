/**
 * The rating effect as the edit and merge previews show it (commands/rating-effect-text.ts): a player counts as moving
 * when what the reader sees moves (the rating at one decimal, or the place), and the line never says a player "moves"
 * while showing "(no change)" (a merge preview did, in the console).
 */
import { describe, expect, it } from 'vitest';
import { effectField } from '../../commands/rating-effect-text.js';
import type { RatingEffect, RatingMove } from '../../src/services/races/rating-effect.js';
import type { LeagueInfo } from '../../src/storage/ports.js';

const league = {
	id: 'g.cup',
	seq: 9,
	config: { guildId: 'g', name: 'Cup', headline: 'glicko', params: {}, timezone: 'UTC' },
} as LeagueInfo;
const move = (name: string, now: number, after: number, rank = 3): RatingMove => ({
	player: `#${name}`,
	name,
	now: { rating: now, rank },
	after: { rating: after, rank },
});
const effect = (others: RatingMove[]): RatingEffect => ({
	system: 'glicko',
	day: '2026-11-25',
	focus: [move('Ann', 1600, 1612.34, 1)],
	others,
});
const tailOf = (e: RatingEffect) => {
	const value = effectField(league, e, { through: 'through the races after R2', still: 'Nothing moves.' }).value;
	return typeof value === 'string' ? [value] : (value.tail ?? []);
};

describe('the rating effect line of a preview', () => {
	it('counts the others whose shown rating or place moves, and the rest apart', () => {
		const seen = move('Bob', 1500, 1497.66);
		const unseen = move('Cy', 1500.01, 1500.04);
		expect(tailOf(effect([seen, unseen]))).toEqual([
			'1 other player moves through the races after R2, the most **Bob** 1500.0 → 1497.7 (−2.3) · #3; 1 more, ' +
				'too little to show.',
		]);
		expect(tailOf(effect([seen]))).toEqual([
			'1 other player moves through the races after R2, the most **Bob** 1500.0 → 1497.7 (−2.3) · #3.',
		]);
	});

	it('others who only move below the last digit shown are said to, not shown as "(no change)"', () => {
		expect(tailOf(effect([move('Cy', 1500.01, 1500.04), move('Dee', 1400.2, 1400.21)]))).toEqual([
			'2 other players move through the races after R2, each too little to show at one decimal.',
		]);
		// A place that changes is seen, even when the rating shows the same.
		const passed = { ...move('Eve', 1450.01, 1450.02), after: { rating: 1450.02, rank: 4 } };
		expect(tailOf(effect([passed]))[0]).toMatch(
			/^1 other player moves .* the most \*\*Eve\*\* 1450\.0 \(no change\) · #3 → #4\.$/,
		);
	});

	it('without others: the focus moving, or nothing at all', () => {
		expect(tailOf(effect([]))).toEqual(["No other player's rating changes."]);
		expect(tailOf({ ...effect([]), focus: [move('Ann', 1600, 1600)] })).toEqual(['Nothing moves.']);
	});
});
