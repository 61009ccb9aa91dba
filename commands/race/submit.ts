/** `/race submit`: parse the scoreboard (text or .csv attachment), answer with a preview and Confirm / Cancel. */
import {
	ActionRowBuilder,
	ButtonBuilder,
	ButtonStyle,
	MessageFlags,
	type Attachment,
	type ChatInputCommandInteraction,
} from 'discord.js';
import { customId, type CommandContext } from '../../src/discord/command.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { answer } from '../../src/discord/reply.js';
import { actorOf, esc, servicesOf } from '../shared.js';
import { previewText } from './format.js';

export const MAX_ATTACHMENT_BYTES = 256 * 1024;

export interface CsvAttachmentLimits {
	/** Largest file read (default MAX_ATTACHMENT_BYTES). */
	readonly maxBytes: number;
	/** What the file should be, for the refusal: "scoreboard", "history". */
	readonly what: string;
}

const sizeText = (bytes: number) =>
	// Rounded up, so a file just over the limit never reads as the limit itself.
	bytes >= 1024 * 1024 ? `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MiB` : `${Math.ceil(bytes / 1024)} KiB`;

/** Checks name and declared size before downloading; then reads at most `maxBytes` as UTF-8. */
export async function readCsvAttachment(
	file: Attachment,
	{ maxBytes, what }: CsvAttachmentLimits = { maxBytes: MAX_ATTACHMENT_BYTES, what: 'scoreboard' },
): Promise<string> {
	if (!file.name.toLowerCase().endsWith('.csv')) {
		throw new UserFacingError(
			'bad-file',
			`The file must be a .csv ${what}; "${esc(file.name)}" is not. Nothing was stored.`,
		);
	}
	if (file.size > maxBytes) {
		throw new UserFacingError(
			'file-too-large',
			`The file is ${sizeText(file.size)}: at most ${sizeText(maxBytes)}. Nothing was stored.`,
		);
	}
	const response = await fetch(file.url);
	if (!response.ok)
		throw new UserFacingError('file-unreadable', `Could not download the file (HTTP ${response.status}).`);
	const bytes = new Uint8Array(await response.arrayBuffer());
	if (bytes.length > maxBytes) {
		throw new UserFacingError('file-too-large', `The file is larger than ${sizeText(maxBytes)}. Nothing was stored.`);
	}
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw new UserFacingError('file-not-text', 'The file is not UTF-8 text. Nothing was stored.');
	}
}

/**
 * Discord's string options are one line: when the text has no line break, `;` separates racers
 * (`1. Alice 1:23.4; 2. Bob 1:24.0`).
 */
export function resultsText(text: string): string {
	return /[\r\n]/.test(text) ? text : text.split(';').join('\n');
}

export async function submit(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const { races } = servicesOf(ctx);
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const file = interaction.options.getAttachment('file');
	const text = file ? await readCsvAttachment(file) : resultsText(interaction.options.getString('results', true));
	const preview = await races.submit(actorOf(interaction), {
		league: interaction.options.getString('league') ?? undefined,
		text,
		date: interaction.options.getString('date') ?? undefined,
		name: interaction.options.getString('name') ?? undefined,
	});
	const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder()
			.setCustomId(customId('race', 'confirm', preview.id))
			.setLabel('Confirm')
			.setStyle(ButtonStyle.Success),
		new ButtonBuilder()
			.setCustomId(customId('race', 'cancel', preview.id))
			.setLabel('Cancel')
			.setStyle(ButtonStyle.Secondary),
	);
	await answer(interaction, { content: previewText(preview), components: [row] }, { ephemeral: true });
}
