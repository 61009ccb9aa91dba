/**
 * The championship table as an embed (`/standings` and the season-end post show the same rows): the top of the table,
 * the member's own row below it when further down, the penalties in force, and a footer with the points table and the
 * dropped-results rule. Names and reasons are escaped; numbers as /leaderboard shows them (one decimal).
 */
import { escapeForDiscord as esc } from '../../formats/discord-escape.js';
import { EMBED_COLOURS, type EmbedSpec } from '../../formats/embed.js';
import { plural } from '../../formats/plural.js';
import { penaltyAmountText } from '../../league/penalties.js';
import { leaguePageUrl } from '../web/league-web-service.js';
import type { Championship, StandingsRow } from './standings-service.js';

const fmtRating = (x: number): string => x.toFixed(1);
const minus = (text: string): string => text.replace('-', '−');

/** Rows shown at the top of the table; the member's own row is added below when it is further down. */
export const STANDINGS_TOP = 20;

/** `86` or `85.5`: points as the table counts them (fractional tables exist: 0.5 for a half-points race). */
export const fmtPoints = (points: number): string =>
	minus(Number.isInteger(points) ? String(points) : String(Number(points.toFixed(2))));

const placeText = (row: { place: number; shared: boolean }) => `${row.place}${row.shared ? '=' : ''}.`;

/** `3. **Ann** 86 pts · 2 wins · 4 podiums · 5 races · 1612.4†` (dropped and deducted points said where there are). */
export function driverLine(row: StandingsRow): string {
	const extra = [
		row.droppedPoints > 0 ? `${fmtPoints(row.droppedPoints)} dropped` : undefined,
		row.deducted > 0 ? `${fmtPoints(row.deducted)} deducted` : undefined,
	].filter((text): text is string => text !== undefined);
	const rating = row.rating === undefined ? '' : ` · ${fmtRating(row.rating)}${row.provisional === true ? '†' : ''}`;
	return (
		`${placeText(row)} **${esc(row.name)}** ${fmtPoints(row.points)} pts${extra.length > 0 ? ` (${extra.join(', ')})` : ''}` +
		` · ${plural(row.wins, 'win')} · ${plural(row.podiums, 'podium')} · ${plural(row.races, 'race')}${rating}`
	);
}

/** The footer: the points table, the dropped-results rule, the day, what † means. */
function footer(table: Championship): string {
	const best =
		table.bestResults === undefined ? 'every result counts' : `best ${plural(table.bestResults, 'result')} count`;
	return `points ${table.pointsText} · ${best} · ${plural(table.races, 'race')} · as of ${table.asOf} · rating: ${table.system}, † provisional`;
}

export function standingsEmbed(table: Championship, web?: string): EmbedSpec {
	const top = table.drivers.slice(0, STANDINGS_TOP);
	const mine = table.drivers.findIndex((r) => r.player === table.me);
	const lines = top.map(driverLine);
	if (mine >= STANDINGS_TOP) lines.push('…', driverLine(table.drivers[mine]!));
	const more = table.drivers.length - top.length - (mine >= STANDINGS_TOP ? 1 : 0);
	const penalties = table.penalties.map((p) => {
		const name = table.drivers.find((r) => r.player === p.player)?.name ?? p.player;
		return `${p.id} ${esc(name)} ${penaltyAmountText(p)} in ${p.race}: ${esc(p.reason)}`;
	});
	return {
		title: `Championship · ${esc(table.season.name)}`,
		author: table.league.config.name,
		colour: EMBED_COLOURS.gold,
		description: { lines, ...(more > 0 && { tail: [`…and ${plural(more, 'more driver')}`] }) },
		fields: [penalties.length > 0 && { name: 'Penalties', value: { lines: penalties } }],
		url: leaguePageUrl(web, table.league),
		footer: footer(table),
	};
}

export function teamsEmbed(table: Championship, web?: string): EmbedSpec {
	const lines = table.teams
		.slice(0, STANDINGS_TOP)
		.map(
			(t) =>
				`${placeText(t)} **${esc(t.team)}** ${fmtPoints(t.points)} pts${t.deducted > 0 ? ` (${fmtPoints(t.deducted)} deducted)` : ''}` +
				` · ${plural(t.wins, 'win')} · ${plural(t.podiums, 'podium')} · ${t.drivers.slice(0, 4).map(esc).join(', ')}`,
		);
	return {
		title: `Teams’ championship · ${esc(table.season.name)}`,
		author: table.league.config.name,
		colour: EMBED_COLOURS.gold,
		description: { lines },
		url: leaguePageUrl(web, table.league),
		footer: `points ${table.pointsText} · every result counts for the team · ${plural(table.races, 'race')} · as of ${table.asOf}`,
	};
}
