/** Text of race previews and race views. Every name and reason is escaped. */
import type { RaceRecord } from '../../src/league/race-log.js';
import { formatTime } from '../../src/formats/scoreboard.js';
import type { RacePreview, RaceView } from '../../src/services/race-service.js';
import type { PreviewLine } from '../../src/services/race-preview.js';
import { clip, esc, fmtDelta, fmtRating } from '../shared.js';

function place(line: { position: number; status: string }): string {
	return line.status === 'finished' ? `${line.position}.` : `${line.status}`;
}

export function previewLine(line: PreviewLine): string {
	const parts = [place(line), `**${esc(line.name)}**${line.isNew ? ' *(new player)*' : ''}`];
	if (line.time !== undefined) parts.push(formatTime(line.time));
	if (line.before && line.after) {
		parts.push(
			`— ${fmtRating(line.before.rating)} → ${fmtRating(line.after.rating)} (${fmtDelta(line.after.rating - line.before.rating)})`,
		);
	} else if (line.status === 'DNS' || line.status === 'DSQ') {
		parts.push('— not rated');
	}
	return parts.join(' ');
}

export function previewText(preview: RacePreview): string {
	const head = [
		`**Race preview** for **${esc(preview.league.config.name)}**`,
		preview.name ? `“${esc(preview.name)}”` : undefined,
		preview.datedToday ? `dated today, ${preview.date} (no date given)` : `on ${preview.date}`,
		`· rating changes under \`${preview.system}\``,
	]
		.filter(Boolean)
		.join(' ');
	const lines = [head, ...preview.lines.map(previewLine)];
	if (preview.unrated) lines.push(`⚠ \`${preview.system}\` cannot rate this race: ${esc(preview.unrated)}`);
	const newcomers = preview.lines.filter((l) => l.isNew).length;
	if (newcomers > 0) lines.push(`${newcomers} new player${newcomers === 1 ? '' : 's'} will be created.`);
	if (preview.warnings.length > 0) lines.push('**Check:**', ...preview.warnings.map((w) => `- ${esc(w)}`));
	lines.push(`Nothing is stored until you press Confirm (within 15 minutes).`);
	return clip(lines.join('\n'));
}

export function raceHeader(race: RaceRecord, leagueName: string): string {
	const status = race.status === 'voided' ? ' · **voided**' : '';
	const name = race.name ? ` “${esc(race.name)}”` : '';
	return `**${race.id}**${name} in **${esc(leagueName)}**${race.date ? ` · ${race.date}` : ''}${status} · submitted by ${userRef(race.submittedBy)}`;
}

export function raceText(view: RaceView): string {
	const lines = [raceHeader(view.race, view.league.config.name)];
	for (const e of [...view.entries].sort((a, b) => rankKey(a) - rankKey(b))) {
		lines.push(`${place(e)} ${esc(e.name)}${e.time !== undefined ? ` ${formatTime(e.time)}` : ''}`);
	}
	for (const edit of view.race.edits) {
		lines.push(`- ${edit.kind} by ${userRef(edit.by)} on ${edit.at.slice(0, 10)}: ${esc(edit.reason)}`);
	}
	return clip(lines.join('\n'));
}

const rankKey = (e: { position: number; status: string }) => (e.status === 'finished' ? 0 : 1e6) + e.position;

/** A Discord user id as a mention (never pings: replies disable mentions); anything else (`cli`) as text. */
const userRef = (id: string) => (/^\d{5,20}$/.test(id) ? `<@${id}>` : esc(id));
