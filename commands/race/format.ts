/** Text of race previews and race views. Every name and reason is escaped. */
import type { RaceRecord } from '../../src/league/race-log.js';
import { displayTime } from '../../src/formats/display-time.js';
import type { EditPreview, RacePreview, RaceView } from '../../src/services/race-service.js';
import type { PreviewLine } from '../../src/services/race-preview.js';
import { beforeAfter, racerWhy } from '../rating/why-text.js';
import { clipLines, esc, fmtPosition } from '../shared.js';

function place(line: { position: number; status: string }): string {
	return line.status === 'finished' ? `${line.position}.` : `${line.status}`;
}

export function previewLine(line: PreviewLine): string {
	const parts = [place(line), `**${esc(line.name)}**${line.isNew ? ' *(new player)*' : ''}`];
	if (line.time !== undefined) parts.push(displayTime(line.time));
	if (line.expectedRank !== undefined && Number.isFinite(line.expectedRank))
		parts.push(`(exp. ${fmtPosition(line.expectedRank)})`);
	if (line.before && line.after) {
		parts.push(`— ${beforeAfter(line.before.rating, line.after.rating)}`);
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
	const tail: string[] = [];
	if (preview.unrated) tail.push(`⚠ \`${preview.system}\` cannot rate this race: ${esc(preview.unrated)}`);
	const newcomers = preview.lines.filter((l) => l.isNew).length;
	if (newcomers > 0) tail.push(`${newcomers} new player${newcomers === 1 ? '' : 's'} will be created.`);
	if (preview.warnings.length > 0) tail.push('**Check:**', ...preview.warnings.map((w) => `- ${esc(w)}`));
	tail.push(`Nothing is stored until you press Confirm (within 15 minutes).`);
	return clipLines([head], preview.lines.map(previewLine), tail);
}

export function raceHeader(race: RaceRecord, leagueName: string): string {
	const status = race.status === 'voided' ? ' · **voided**' : '';
	const name = race.name ? ` “${esc(race.name)}”` : '';
	return `**${race.id}**${name} in **${esc(leagueName)}**${race.date ? ` · ${race.date}` : ''}${status} · submitted by ${userRef(race.submittedBy)}`;
}

export function raceText(view: RaceView): string {
	const head = [raceHeader(view.race, view.league.config.name)];
	const why = view.why;
	if (why !== undefined) {
		head[0] += ` · \`${why.system}\`: place vs expected (exp.), rating change, strongest beaten and ahead`;
		if (why.unrated !== undefined) head.push(`⚠ \`${why.system}\` did not rate this race: ${esc(why.unrated)}`);
	}
	const byPlayer = new Map((why?.racers ?? []).map((w) => [w.player, w]));
	const lines = [...view.entries]
		.sort((a, b) => rankKey(a) - rankKey(b))
		.map((e) => {
			const line = `${place(e)} ${esc(e.name)}${e.time !== undefined ? ` ${displayTime(e.time)}` : ''}`;
			const w = byPlayer.get(e.player);
			if (w !== undefined) return `${line} · ${racerWhy(w)}`;
			return why !== undefined && (e.status === 'DNS' || e.status === 'DSQ') ? `${line} · not rated` : line;
		});
	const tail = view.race.edits.map(
		(edit) => `- ${edit.kind} by ${userRef(edit.by)} on ${edit.at.slice(0, 10)}: ${esc(edit.reason)}`,
	);
	return clipLines(head, lines, tail);
}

const rankKey = (e: { position: number; status: string }) => (e.status === 'finished' ? 0 : 1e6) + e.position;

/** A Discord user id as a mention (never pings: replies disable mentions); anything else (`cli`) as text. */
const userRef = (id: string) => (/^\d{5,20}$/.test(id) ? `<@${id}>` : esc(id));

/** The results of a correction preview, as stored and as they would become (issue 8 §3). */
export function editPreviewText(preview: EditPreview): string {
	const results = (entries: EditPreview['before']) =>
		[...entries]
			.sort((a, b) => rankKey(a) - rankKey(b))
			.map((e) => `${place(e)} ${esc(e.name)}${e.time !== undefined ? ` ${displayTime(e.time)}` : ''}`);
	const head = [
		`**Correction preview** of **${preview.race}** in **${esc(preview.league.config.name)}** · reason: ${esc(preview.reason)}`,
		'**Now:**',
		...results(preview.before),
		'**After the correction:**',
	];
	const tail = [
		...(preview.warnings.length > 0 ? ['**Check:**', ...preview.warnings.map((w) => `- ${esc(w)}`)] : []),
		'Nothing changes until you press Confirm (within 15 minutes); then ratings are replayed from this race on.',
	];
	return clipLines(head, results(preview.after), tail);
}
