/**
 * What a change to the history does to today's ratings, as the previews of `/race edit` and `/player merge` show it
 * (src/services/races/rating-effect.ts): the players it is about, each now → after with their place, then how many others
 * move. Names are escaped; numbers are rounded as everywhere (why-text.ts), so a change is the difference shown.
 */
import type { EmbedField } from '../src/formats/embed.js';
import type { RatingScale } from '../src/formats/rating-scale.js';
import type { RatingEffect, RatingMove } from '../src/services/races/rating-effect.js';
import type { LeagueInfo } from '../src/storage/ports.js';
import { leagueScale } from '../src/services/ratings/shown-scale.js';
import { beforeAfter, shownRating } from './rating/why-text.js';
import { esc } from './shared.js';
import { plural } from '../src/formats/plural.js';

/** `**Alice** 1612.4 → 1598.0 (−14.4) · #3 → #4`; a side without a rating reads `gone` ("not rated", "merged"). */
export function moveLine(scale: RatingScale, move: RatingMove, gone = 'not rated'): string {
	const { now, after } = move;
	const name = `**${esc(move.name)}**`;
	if (now !== undefined && after !== undefined) {
		const rating =
			shownRating(scale, now.rating) === shownRating(scale, after.rating)
				? `${shownRating(scale, after.rating)} (no change)`
				: beforeAfter(scale, now.rating, after.rating);
		return `${name} ${rating} · #${now.rank}${now.rank === after.rank ? '' : ` → #${after.rank}`}`;
	}
	if (after !== undefined) return `${name} not rated → ${shownRating(scale, after.rating)} · #${after.rank}`;
	if (now !== undefined) return `${name} ${shownRating(scale, now.rating)} → ${gone} · #${now.rank} → none`;
	return `${name} not rated`;
}

export interface EffectTexts {
	/** Where the others move: `through the races after R12`. */
	readonly through: string;
	/** The line when no rating moves at all. */
	readonly still: string;
	/** How a focus player without a rating after the change reads (default "not rated"). */
	readonly gone?: string | undefined;
}

/** The field `Ratings on <day> under \`system\``: the focus players' lines, then the others in one line. */
export function effectField(league: LeagueInfo, effect: RatingEffect, texts: EffectTexts): EmbedField {
	const scale = leagueScale(league, effect.system);
	const { others } = effect;
	// A move is what the reader can see: a shown rating (one decimal) or a place that changes.
	const shows = (m: RatingMove) =>
		m.now === undefined ||
		m.after === undefined ||
		m.now.rank !== m.after.rank ||
		shownRating(scale, m.now.rating) !== shownRating(scale, m.after.rating);
	const seen = others.filter(shows);
	const unseen = others.length - seen.length;
	const first = seen[0];
	const focusMoves = effect.focus.some((m) => m.now?.rating !== m.after?.rating);
	const moves = (n: number) => `${plural(n, 'other player')} ${n === 1 ? 'moves' : 'move'} ${texts.through}`;
	const tail =
		others.length === 0
			? [focusMoves ? "No other player's rating changes." : texts.still]
			: first === undefined
				? [`${moves(unseen)}, each too little to show at one decimal.`]
				: [
						`${moves(seen.length)}, the most ${moveLine(scale, first)}` +
							(unseen > 0 ? `; ${unseen} more, too little to show.` : '.'),
					];
	return {
		name: `Ratings ${effect.day !== undefined ? `on ${effect.day}` : 'now'} under \`${effect.system}\``,
		value: { lines: effect.focus.map((m) => moveLine(scale, m, texts.gone)), tail },
	};
}
