/** `/league import` and `/league export`: a whole history in, the log and the standings out, as files. */
import { MessageFlags, type Attachment, type ChatInputCommandInteraction } from 'discord.js';
import type { CommandContext } from '../../src/discord/command.js';
import { answer, NO_MENTIONS } from '../../src/discord/reply.js';
import type { NamedText } from '../../src/formats/league-file.js';
import type {
	ImportSummary,
	LeagueExportFiles,
	PlayerFactCounts,
} from '../../src/services/transfer/league-transfer-service.js';
import { readCsvAttachment } from '../race/submit.js';
import { actorOf, clip, esc, servicesOf } from '../shared.js';
import { plural } from '../../src/formats/plural.js';
import { paramText } from '../../src/formats/param-text.js';
import type { LeagueConfig } from '../../src/league/league-events.js';

/** An import file may be a league's whole history (Ergast's F1 results.csv is 1.6 MB): 8 MiB per file. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;

/** The progress message is edited at most this often (Discord rate-limits edits). */
export const PROGRESS_EVERY_MS = 1000;

const FORMAT_NAMES = { history: 'history CSV', zakstunts: 'ZakStunts', ergast: 'Ergast F1' } as const;
const WARNINGS_SHOWN = 8;

export function importSummaryText(s: ImportSummary, file: string): string {
	const dates =
		s.firstDate === undefined
			? 'Dates: none (the races are undated).'
			: `Dates: ${s.firstDate} to ${s.lastDate ?? s.firstDate}${s.undated > 0 ? ` (${plural(s.undated, 'race')} undated)` : ''}.`;
	const warnings = s.warnings.slice(0, WARNINGS_SHOWN).map((w) => `- ${esc(w)}`);
	if (s.warnings.length > WARNINGS_SHOWN) warnings.push(`- …and ${s.warnings.length - WARNINGS_SHOWN} more`);
	return clip(
		[
			`Imported ${plural(s.races, 'race')} into **${esc(s.league.config.name)}** from ${esc(file)} (${FORMAT_NAMES[s.format]}): ${plural(s.players, 'new player')}, ${plural(s.entries, 'result')}.`,
			dates,
			...(givenText(s.given) === undefined ? [] : [`From the players file: ${givenText(s.given)!}.`]),
			...(warnings.length > 0 ? [`Warnings (${s.warnings.length}):`, ...warnings] : []),
			'Every rating is up to date: see /leaderboard.',
		].join('\n'),
	);
}

export async function importLeague(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const { transfer } = servicesOf(ctx);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const o = interaction.options;
	const read = async (file: Attachment | null): Promise<NamedText | undefined> =>
		file === null
			? undefined
			: { name: file.name, text: await readCsvAttachment(file, { maxBytes: MAX_IMPORT_BYTES, what: 'history' }) };
	const file = (await read(o.getAttachment('file', true)))!;
	const races = await read(o.getAttachment('races'));
	const drivers = await read(o.getAttachment('drivers'));
	const players = await read(o.getAttachment('players'));

	// Edits of the progress message go one after another, at most once a second; the summary waits for the last.
	let edits = Promise.resolve();
	let last = -Infinity;
	const progress = (done: number, total: number) => {
		const now = performance.now();
		if (done < total && now - last < PROGRESS_EVERY_MS) return;
		last = now;
		const content = `Importing… ${done} of ${plural(total, 'race')}`;
		// editReply, not answer(): after the first edit the reply counts as sent, and answer() would follow up.
		edits = edits
			.then(() => interaction.editReply({ content, allowedMentions: NO_MENTIONS }))
			.then(
				() => {},
				() => {},
			);
	};
	try {
		const summary = await transfer.importFile(
			actorOf(interaction),
			{
				league: o.getString('league') ?? undefined,
				file,
				races,
				drivers,
				players,
				from: o.getInteger('from') ?? undefined,
				to: o.getInteger('to') ?? undefined,
			},
			progress,
		);
		await edits;
		await interaction.editReply({ content: importSummaryText(summary, file.name), allowedMentions: NO_MENTIONS });
	} finally {
		await edits; // an error reply (the router's) must not be overwritten by a late progress edit
	}
}

/** `2 aliases, 1 Discord link and 3 sim ids`, or undefined for none. */
function givenText(c: PlayerFactCounts): string | undefined {
	const parts = [
		c.aliases > 0 && plural(c.aliases, 'alias', 'aliases'),
		c.links > 0 && plural(c.links, 'Discord link'),
		c.simIds > 0 && plural(c.simIds, 'sim id'),
	].filter((part): part is string => typeof part === 'string');
	if (parts.length === 0) return undefined;
	return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** The `/league config` line that gives another league every setting this one's ratings depend on. */
function settingsCommand(config: LeagueConfig): string {
	const params = paramText(config.params);
	return [
		'/league config',
		`system:${config.headline}`,
		`reset:${config.reset ?? 'none'}`,
		`retirements:${config.retirements ?? 'ordered'}`,
		...(params === '' ? [] : [`parameters:${params}`]),
	].join(' ');
}

/** An export's files as reply attachments, named after the league's id (`zakstunts-history.csv`, …). */
export function exportAttachments(x: LeagueExportFiles): {
	readonly slug: string;
	readonly files: { attachment: Buffer; name: string }[];
} {
	const slug = x.league.id.slice(x.league.id.indexOf('.') + 1);
	const files = [
		{ attachment: Buffer.from(x.history, 'utf8'), name: `${slug}-history.csv` },
		...(x.voided === undefined ? [] : [{ attachment: Buffer.from(x.voided, 'utf8'), name: `${slug}-voided.csv` }]),
		{ attachment: Buffer.from(x.standings, 'utf8'), name: `${slug}-standings.csv` },
		...(x.players === undefined ? [] : [{ attachment: Buffer.from(x.players, 'utf8'), name: `${slug}-players.csv` }]),
	];
	return { slug, files };
}

export async function exportLeague(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const { transfer } = servicesOf(ctx);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const x = await transfer.exportFiles(actorOf(interaction), interaction.options.getString('league') ?? undefined);
	const { slug, files } = exportAttachments(x);
	const content = clip(
		[
			`Export of **${esc(x.league.config.name)}**: ${plural(x.races, 'race')} in ${slug}-history.csv${x.voidedRaces > 0 ? ` (${plural(x.voidedRaces, 'voided race')} apart, in ${slug}-voided.csv)` : ''}, and the standings of every system as of ${x.asOf} in ${slug}-standings.csv.`,
			'The history imports into a new league with /league import and is what `pitwall calibrate`, `backtest` and `replay` read.',
			`For the same ratings there, give that league these settings first: \`${settingsCommand(x.league.config)}\``,
			...(x.players === undefined
				? []
				: [
						`The players' ${givenText(x.given)!} are in ${slug}-players.csv: give it to /league import as players: with the history.`,
					]),
		].join('\n'),
	);
	await answer(interaction, { content, files }, { ephemeral: true });
}
