import { clipLines } from '../../src/formats/clip-text.js';
import { plural } from '../../src/formats/plural.js';
import type { Season } from '../../src/league/seasons.js';
import type {
	CarryOver,
	SeasonEnded,
	SeasonLine,
	SeasonListing,
	SeasonStarted,
} from '../../src/services/seasons/season-service.js';
import { esc } from '../shared.js';

/** The replies of `/season` and the carry-over line of `/league info` (docs/seasons.md). */

/** `30%`, `12.5%`: a soft reset's share as the organizer gave it. */
export const sharePercentText = (share: number): string => `${Number((share * 100).toFixed(1))}%`;

/**
 * What a season's first race does to ratings, in a sentence: `Ratings carry over into **Winter Cup**.`, `Every rating
 * restarts at the first race of **Winter Cup**.`, `Every rating moves 30% toward the league's mean at the first race
 * of **Winter Cup**.` Without a season: of each season.
 */
export function carryOverText(carry: CarryOver, season?: string): string {
	const first = season === undefined ? 'each season' : `**${esc(season)}**`;
	const main =
		carry.mode === 'carry'
			? `Ratings carry over ${season === undefined ? 'from one season to the next' : `into ${first}`}.`
			: carry.mode === 'restart'
				? `Every rating restarts at the first race of ${first}.`
				: `Every rating moves ${sharePercentText(carry.share ?? 0)} of the way toward the league’s mean at the first race of ${first}.`;
	return carry.yearly ? `${main} Every rating also restarts at each calendar year (yearly reset).` : main;
}

/** `/league info`'s setting: `ratings carry over`, `ratings restart`, `ratings move 30% toward the league’s mean`. */
export function carryOverSetting(carry: CarryOver): string {
	if (carry.mode === 'soft') return `ratings move ${sharePercentText(carry.share ?? 0)} toward the league’s mean`;
	return carry.mode === 'carry' ? 'ratings carry over' : 'ratings restart';
}

const daysText = (season: Season): string =>
	season.end === undefined ? `from ${season.start}` : `${season.start} – ${season.end}`;

export function seasonStartedText(r: SeasonStarted): string {
	const planned = r.season.plannedRaces === undefined ? '' : ` (${plural(r.season.plannedRaces, 'race')} planned)`;
	const lines = [
		`Season **${esc(r.season.name)}** of **${esc(r.league.config.name)}** starts on ${r.season.start}${planned}.`,
	];
	if (r.closed !== undefined) lines.push(`**${esc(r.closed.name)}** ended on ${r.closed.end ?? r.season.start}.`);
	if (r.replacesYears) {
		lines.push(
			'The league’s seasons are now the ones started with /season start (they were the calendar years of its races).',
		);
	}
	lines.push(carryOverText(r.carryOver, r.season.name));
	if (r.racesInIt > 0) {
		const moves = r.carryOver.mode !== 'carry';
		lines.push(
			`${plural(r.racesInIt, 'race')} already stored ${r.racesInIt === 1 ? 'is' : 'are'} dated in it` +
				(moves ? ': their ratings were recomputed.' : '.'),
		);
	}
	return lines.join('\n');
}

export function seasonEndedText(r: SeasonEnded): string {
	const lines = [
		`Season **${esc(r.season.name)}** of **${esc(r.league.config.name)}** ends on ${r.season.end ?? ''} after ${plural(r.races, 'race')}` +
			`${r.season.plannedRaces === undefined ? '' : ` of ${r.season.plannedRaces} planned`}.`,
	];
	if (r.racesAfter > 0) {
		lines.push(
			`${plural(r.racesAfter, 'race')} dated after that day ${r.racesAfter === 1 ? 'belongs' : 'belong'} to no season until the next one starts.`,
		);
	}
	lines.push(
		'Ratings do not change at an end: what carries over happens at the next season’s first race (/season start).',
	);
	return lines.join('\n');
}

const STATUS_TEXT: Readonly<Record<SeasonLine['status'], string>> = {
	upcoming: 'upcoming',
	open: 'open',
	ended: 'ended',
};

/** `**Winter Cup** · 2027-01-09 – 2027-03-31 · 8/8 races · ended` */
export function seasonLine(line: SeasonLine): string {
	const { season } = line;
	const races =
		season.plannedRaces === undefined
			? plural(line.races, 'race')
			: `${line.races}/${season.plannedRaces} ${season.plannedRaces === 1 ? 'race' : 'races'}`;
	return `**${esc(season.name)}** · ${daysText(season)} · ${races} · ${STATUS_TEXT[line.status]}`;
}

/** The list, newest first (a long list loses its oldest seasons, counted), with the carry-over under it. */
export function seasonListText(r: SeasonListing): string {
	const name = esc(r.league.config.name);
	if (r.seasons.length === 0) {
		return (
			`**${name}** has no season yet: its seasons are the calendar years of its dated races until an organizer ` +
			`starts one with /season start.\n${carryOverText(r.carryOver)}`
		);
	}
	const implicit = r.seasons[0]!.season.implicit;
	const head = [
		implicit
			? `Seasons of **${name}**: the calendar years of its races (an organizer names seasons with /season start).`
			: `Seasons of **${name}**:`,
	];
	const body = [...r.seasons].reverse().map(seasonLine);
	return clipLines(head, body, [carryOverText(r.carryOver)]);
}
