/**
 * The car's part in replies (docs/cars.md): `/rating car:`, the car line of a driver's `/rating`, and the cars' table
 * of `/leaderboard cars:true`. A car's part C is shown on the drivers' scale as a difference (no offset): on endure's
 * and speed's points scale C·400/ln 10, so "driver 1712.0 · car +85.0" is a strength of 1797.0 in the odds.
 */
import { standingColour, EMBED_COLOURS, type EmbedSpec } from '../../src/formats/embed.js';
import type { RatingScale } from '../../src/formats/rating-scale.js';
import { plural } from '../../src/formats/plural.js';
import type { CarLastChange } from '../../src/services/caches/change-cache.js';
import { carParamsOf } from '../../src/services/leagues/car-settings.js';
import type { CarRating, CarsPage } from '../../src/services/ratings/car-service.js';
import { leagueScale } from '../../src/services/ratings/shown-scale.js';
import { esc, fmtDelta, fmtRating } from '../shared.js';

/** A car's part as shown, rounded to 0.1 (a number, so that sums of shown numbers add up on screen). */
const shownPart = (scale: RatingScale, raw: number): number => Number(scale.difference(raw).toFixed(1));

/** `+85.0`: a car's part as shown. */
export const carPartText = (scale: RatingScale, raw: number): string => fmtDelta(shownPart(scale, raw));

/** `+80.2 → +85.0 (+4.8)`: a car's move in a race, the change being the difference of the two parts shown. */
export function carMoveText(scale: RatingScale, before: number, after: number): string {
	const change = shownPart(scale, after) - shownPart(scale, before);
	return `${carPartText(scale, before)} → ${carPartText(scale, after)} (${fmtDelta(change)})`;
}

/** The line `/rating`'s explanation of the last race adds for the car: `Car **Ferrari**: +80.2 → +85.0 (+4.8)`. */
export const carWhyLine = (scale: RatingScale, car: { name: string; before: number; after: number }): string =>
	`Car **${esc(car.name)}**: ${carMoveText(scale, car.before, car.after)}`;

/**
 * A driver's strength in the odds, D + C, as the sum of the two numbers shown (each rounded to 0.1), so that the
 * three numbers on screen add up.
 */
export const strengthText = (scale: RatingScale, driver: number, car: number): string =>
	fmtRating(Number(fmtRating(scale.rating(driver))) + shownPart(scale, car));

/** `R40 “Monza” (2021-09-12)`. */
const raceText = (last: CarLastChange & { raceName?: string | undefined }) =>
	`${esc(last.race)}${last.raceName ? ` “${esc(last.raceName)}”` : ''}${last.date ? ` (${last.date})` : ''}`;

/** The year of a day (YYYY-MM-DD). */
const yearOf = (day: string) => Number(day.slice(0, 4));

/** `/rating car:`: the car's part, rank, races, last race and the drivers who raced it lately. */
export function carEmbed(r: CarRating): EmbedSpec {
	const scale = leagueScale(r.league, r.system);
	const { car } = r;
	const inline = (name: string, value: string) => ({ name, value, inline: true });
	const carry = carParamsOf(r.league.config, r.system)?.carCarry;
	const winters = car.lastDate === undefined ? 0 : yearOf(r.asOf) - yearOf(car.lastDate);
	const carried =
		winters > 0 && carry !== undefined
			? [
					`Carried over to ${yearOf(r.asOf)}: a car keeps ${+(carry * 100).toFixed(2)}% of its part over each winter (${plural(winters, 'winter')} since its last race).`,
				]
			: [];
	return {
		title: esc(car.car),
		author: `${r.league.config.name} · ${r.system} · car`,
		colour: standingColour(r.rank, false),
		description: [
			'A racer’s strength is the driver’s part plus the car’s part: the odds read both, the leaderboard the driver’s.',
			...carried,
		].join('\n'),
		fields: [
			inline('Car part', carPartText(scale, car.rating)),
			inline('Rank', `${r.rank} of ${plural(r.rated, 'car')}`),
			inline('Races', String(car.races)),
			r.last && {
				name: 'Last race',
				value: `${raceText(r.last)}: ${carMoveText(scale, r.last.before, r.last.after)}`,
			},
			r.drivers.length > 0 && {
				name: 'Drivers lately',
				value: {
					lines: r.drivers.map(
						(d) =>
							`**${esc(d.name)}**${d.rating === undefined ? '' : ` ${fmtRating(scale.rating(d.rating))}`} · last in it ${esc(d.race)}${d.date ? ` (${d.date})` : ''}`,
					),
				},
			},
		],
		footer: footerText(r.asOf, scale, car.rating),
	};
}

/** `as of 2026-11-24`; on the points scale the raw part too, for whoever checks it against the CLI. */
function footerText(asOf: string, scale: RatingScale, raw: number): string {
	const head = `as of ${asOf}`;
	return scale.kind === 'points' ? `${head} · car part = C × 400/ln 10 · raw C ${raw.toFixed(4)}` : head;
}

/** `/leaderboard cars:true`: one page of the cars by part. */
export function carsEmbed(board: CarsPage): EmbedSpec {
	const scale = leagueScale(board.league, board.system);
	const row = (r: CarsPage['rows'][number]) =>
		`${r.rank}. **${esc(r.car)}** ${carPartText(scale, r.rating)} · ${plural(r.races, 'race')}${r.lastDate ? ` · last ${r.lastDate}` : ''}`;
	return {
		title: 'Cars',
		author: `${board.league.config.name} · ${board.system}`,
		colour: EMBED_COLOURS.gold,
		description: { lines: board.rows.map(row) },
		footer: `as of ${board.asOf} · page ${board.page}/${board.pages} · ${plural(board.total, 'car')} · a racer’s strength is driver + car`,
	};
}
