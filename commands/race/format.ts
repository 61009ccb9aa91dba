/** Race previews and race views as embeds. Every name and reason is escaped. */
import type { RaceRecord } from '../../src/league/race-log.js';
import { displayTime } from '../../src/formats/display-time.js';
import { EMBED_COLOURS, type EmbedField, type EmbedSpec } from '../../src/formats/embed.js';
import type { RatingScale } from '../../src/formats/rating-scale.js';
import type { EditPreview, RacePreview, RaceView } from '../../src/services/races/race-service.js';
import type { PreviewLine } from '../../src/services/races/race-preview.js';
import { leagueScale } from '../../src/services/ratings/shown-scale.js';
import { beforeAfter, racerWhy } from '../rating/why-text.js';
import { effectField } from '../rating-effect-text.js';
import { esc, fmtPosition } from '../shared.js';
import { plural } from '../../src/formats/plural.js';

const CONFIRM_WINDOW = 'within 15 minutes';

function place(line: { position: number; status: string }): string {
	return line.status === 'finished' ? `${line.position}.` : `${line.status}`;
}

/** `2. **Bob** *(new player)* 1:02.345 (exp. 3.10) — 1500.0 → 1512.3 (+12.3)`. */
export function previewLine(scale: RatingScale, line: PreviewLine): string {
	const parts = [place(line), `**${esc(line.name)}**${line.isNew ? ' *(new player)*' : ''}`];
	if (line.time !== undefined) parts.push(displayTime(line.time));
	// What the result file adds (an inferred status, penalties, the class), in italics: check it before Confirm.
	if (line.note !== undefined) parts.push(`*(${esc(line.note)})*`);
	if (line.expectedRank !== undefined && Number.isFinite(line.expectedRank))
		parts.push(`(exp. ${fmtPosition(line.expectedRank)})`);
	if (line.before && line.after) {
		parts.push(`— ${beforeAfter(scale, line.before.rating, line.after.rating)}`);
	} else if (line.status === 'DNS' || line.status === 'DSQ') {
		parts.push('— not rated');
	}
	return parts.join(' ');
}

/** The warnings to look at before confirming; `lines` are formatted already (names escaped). */
const checkField = (lines: readonly string[]): EmbedField | undefined =>
	lines.length > 0 ? { name: 'Check', value: { lines } } : undefined;

const warningLines = (warnings: readonly string[]) => warnings.map((w) => `- ${esc(w)}`);

/** The preview of a submission: each racer's place, time, expected place and rating change; what to check. */
export function previewEmbed(preview: RacePreview): EmbedSpec {
	const scale = leagueScale(preview.league, preview.system);
	const when = preview.datedToday ? `Dated today, ${preview.date} (no date given)` : `On ${preview.date}`;
	const newcomers = preview.lines.filter((l) => l.isNew).length;
	const warnings = [
		...(preview.unrated ? [`- \`${preview.system}\` cannot rate this race: ${esc(preview.unrated)}`] : []),
		...warningLines(preview.warnings),
	];
	return {
		title: `Race preview${preview.name ? `: ${esc(preview.name)}` : ''}`,
		author: preview.league.config.name,
		colour: warnings.length > 0 ? EMBED_COLOURS.warning : EMBED_COLOURS.neutral,
		description: {
			head: [
				...(preview.source !== undefined ? [esc(preview.source)] : []),
				...(preview.accepted !== undefined ? [esc(preview.accepted)] : []),
				`${when} · rating changes under \`${preview.system}\`, expected place (exp.) before the race`,
			],
			lines: preview.lines.map((line) => previewLine(scale, line)),
			tail: newcomers > 0 ? [`${plural(newcomers, 'new player')} will be created.`] : [],
		},
		fields: [checkField(warnings)],
		footer: `Nothing is stored until you press Confirm (${CONFIRM_WINDOW}).`,
	};
}

/** The announcement of a confirmed race: its lines as previewed, for everyone. */
export function storedEmbed(race: string, preview: RacePreview): EmbedSpec {
	const scale = leagueScale(preview.league, preview.system);
	return {
		title: `${race}${preview.name ? `: ${esc(preview.name)}` : ''}`,
		author: preview.league.config.name,
		colour: EMBED_COLOURS.stored,
		description: {
			head: [`${preview.date} · rating changes under \`${preview.system}\``],
			lines: preview.lines.map((line) => previewLine(scale, line)),
		},
	};
}

/** `**R3** “Night race” in **Cup** · 2026-01-05 · submitted by <@…>`: one line of /race list. */
export function raceHeader(race: RaceRecord, leagueName: string): string {
	const status = race.status === 'voided' ? ' · **voided**' : '';
	const name = race.name ? ` “${esc(race.name)}”` : '';
	return `**${race.id}**${name} in **${esc(leagueName)}**${race.date ? ` · ${race.date}` : ''}${status} · submitted by ${userRef(race.submittedBy)}`;
}

/** A stored race: results with each racer's explanation under the headline system, and its history. */
export function raceEmbed(view: RaceView): EmbedSpec {
	const { race, why } = view;
	const scale = why && leagueScale(view.league, why.system);
	const byPlayer = new Map((why?.racers ?? []).map((w) => [w.player, w]));
	const lines = [...view.entries]
		.sort((a, b) => rankKey(a) - rankKey(b))
		.map((e) => {
			const line = `${place(e)} ${esc(e.name)}${e.time !== undefined ? ` ${displayTime(e.time)}` : ''}`;
			const w = byPlayer.get(e.player);
			if (w !== undefined && scale !== undefined) return `${line} · ${racerWhy(scale, w)}`;
			return why !== undefined && (e.status === 'DNS' || e.status === 'DSQ') ? `${line} · not rated` : line;
		});
	const head = [
		[race.date, race.status === 'voided' ? '**voided**' : undefined, `submitted by ${userRef(race.submittedBy)}`]
			.filter(Boolean)
			.join(' · '),
	];
	if (why !== undefined) {
		head.push(`\`${why.system}\`: place vs expected (exp.), rating change, strongest beaten and ahead`);
		if (why.unrated !== undefined) head.push(`⚠ \`${why.system}\` did not rate this race: ${esc(why.unrated)}`);
	}
	const history = race.edits.map(
		(edit) => `- ${edit.kind} by ${userRef(edit.by)} on ${edit.at.slice(0, 10)}: ${esc(edit.reason)}`,
	);
	return {
		title: `${race.id}${race.name ? `: ${esc(race.name)}` : ''}`,
		author: view.league.config.name,
		colour: race.status === 'voided' ? EMBED_COLOURS.voided : EMBED_COLOURS.stored,
		description: { head, lines },
		fields: [history.length > 0 && { name: 'History', value: { lines: history } }],
	};
}

const rankKey = (e: { position: number; status: string }) => (e.status === 'finished' ? 0 : 1e6) + e.position;

/** A Discord user id as a mention (never pings: replies disable mentions); anything else (`cli`) as text. */
const userRef = (id: string) => (/^\d{5,20}$/.test(id) ? `<@${id}>` : esc(id));

/** What confirming a correction does to today's ratings: the race's racers, then how many others move. */
function correctionEffect(preview: EditPreview): EmbedField {
	const { effect } = preview;
	return effectField(preview.league, effect, {
		through: `through the races after ${preview.race}`,
		still:
			effect.earlierSeason !== undefined
				? `Today's ratings do not change: ${preview.race} is of the ${effect.earlierSeason} season, and ratings restart every year.`
				: "Today's ratings do not change.",
	});
}

/** The results of a correction preview, as stored and as they would become. */
export function editPreviewEmbed(preview: EditPreview): EmbedSpec {
	const results = (entries: EditPreview['before']) =>
		[...entries]
			.sort((a, b) => rankKey(a) - rankKey(b))
			.map((e) => `${place(e)} ${esc(e.name)}${e.time !== undefined ? ` ${displayTime(e.time)}` : ''}`);
	return {
		title: `Correction preview: ${preview.race}`,
		author: preview.league.config.name,
		colour:
			preview.warnings.length > 0 || preview.effect.unrated !== undefined
				? EMBED_COLOURS.warning
				: EMBED_COLOURS.neutral,
		description: [
			`Reason: ${esc(preview.reason)}`,
			...(preview.date !== undefined ? [`Date: ${preview.date.before ?? 'none'} → ${preview.date.after}`] : []),
			...(preview.name !== undefined
				? [
						`Name: ${preview.name.before !== undefined ? `“${esc(preview.name.before)}”` : 'none'} → “${esc(preview.name.after)}”`,
					]
				: []),
		].join('\n'),
		fields: [
			{ name: 'Now', value: { lines: results(preview.before) }, inline: true },
			{ name: 'After the correction', value: { lines: results(preview.after) }, inline: true },
			correctionEffect(preview),
			checkField([
				...(preview.effect.unrated !== undefined
					? [`- \`${preview.effect.system}\` would not rate the corrected race: ${esc(preview.effect.unrated)}`]
					: []),
				...warningLines(preview.warnings),
			]),
		],
		footer: `Nothing changes until you press Confirm (${CONFIRM_WINDOW}); then ratings are replayed from this race on.`,
	};
}
