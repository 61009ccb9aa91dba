/** `/race submit`: parse the scoreboard (text or .csv attachment), answer with a preview and Confirm / Cancel. */
import {
	MessageFlags,
	LabelBuilder,
	ModalBuilder,
	TextInputBuilder,
	TextInputStyle,
	type Attachment,
	type ChatInputCommandInteraction,
	type ModalSubmitInteraction,
} from 'discord.js';
import { customId, type CommandContext, type ModalHandler } from '../../src/discord/command.js';
import { downloadAttachment, sizeText } from '../../src/services/races/attachment-download.js';
import type { SubmitInput } from '../../src/services/races/race-service.js';
import type { RaceFile } from '../../src/services/races/submission.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { answer } from '../../src/discord/reply.js';
import { actorOf, esc, servicesOf } from '../shared.js';
import { embedOf } from '../embed.js';
import { previewComponents } from './buttons.js';
import { previewEmbed } from './format.js';

export const MAX_ATTACHMENT_BYTES = 256 * 1024;
/** A sim's result file: rFactor 2 files reach 2 MB. */
export const MAX_RESULT_FILE_BYTES = 8 * 1024 * 1024;

export interface CsvAttachmentLimits {
	/** Largest file read (default MAX_ATTACHMENT_BYTES). */
	readonly maxBytes: number;
	/** What the file should be, for the refusal: "scoreboard", "history". */
	readonly what: string;
	/** The file name endings taken (default `.csv`). */
	readonly extensions?: readonly string[];
	/** Longest the download may take (default 15 s; tests shorten it). */
	readonly timeoutMs?: number;
}

/** Checks name and declared size before downloading; then reads at most `maxBytes` as UTF-8. */
export async function readCsvAttachment(
	file: Attachment,
	{ maxBytes, what, timeoutMs, extensions = ['.csv'] }: CsvAttachmentLimits = {
		maxBytes: MAX_ATTACHMENT_BYTES,
		what: 'scoreboard',
	},
): Promise<string> {
	if (!extensions.some((extension) => file.name.toLowerCase().endsWith(extension))) {
		throw new UserFacingError(
			'bad-file',
			`The file must be a ${extensions.join(' or ')} ${what}; "${esc(file.name)}" is not. Nothing was stored.`,
		);
	}
	if (file.size > maxBytes) {
		throw new UserFacingError(
			'file-too-large',
			`The file is ${sizeText(file.size)}: at most ${sizeText(maxBytes)}. Nothing was stored.`,
		);
	}
	const bytes = await downloadAttachment(file.url, { maxBytes, timeoutMs });
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw new UserFacingError('file-not-text', 'The file is not UTF-8 text. Nothing was stored.');
	}
}

/**
 * A result file's bytes: any name (Discord names a long pasted message `message.txt`; the content decides what it
 * is, src/formats/results/read-file.ts), declared size checked before the download.
 */
async function raceFileOf(file: Attachment): Promise<RaceFile> {
	if (file.size > MAX_RESULT_FILE_BYTES) {
		throw new UserFacingError(
			'file-too-large',
			`The file is ${sizeText(file.size)}: at most ${sizeText(MAX_RESULT_FILE_BYTES)}. Nothing was stored.`,
		);
	}
	return { name: file.name, bytes: await downloadAttachment(file.url, { maxBytes: MAX_RESULT_FILE_BYTES }) };
}

/** The form `/race submit` opens without `results` or a file: a scoreboard pasted as it is, on many lines. */
export const SUBMIT_FORM = 'race-form';
const FORM_RESULTS_MAX = 4000; // Discord's limit for a text input

function submitForm(given: { league?: string | null; date?: string | null; name?: string | null }): ModalBuilder {
	const short = (id: string, label: string, value: string | null | undefined, max: number, placeholder: string) => {
		const input = new TextInputBuilder()
			.setCustomId(id)
			.setStyle(TextInputStyle.Short)
			.setRequired(false)
			.setMaxLength(max)
			.setPlaceholder(placeholder);
		if (value) input.setValue(value.slice(0, max));
		return new LabelBuilder().setLabel(label).setTextInputComponent(input);
	};
	const results = new TextInputBuilder()
		.setCustomId('results')
		.setStyle(TextInputStyle.Paragraph)
		.setRequired(true)
		.setMaxLength(FORM_RESULTS_MAX)
		.setPlaceholder('1. Alice 1:23.456\n2. Bob 1:24.010\nCarol DNF');
	return new ModalBuilder()
		.setCustomId(customId(SUBMIT_FORM, 'submit'))
		.setTitle('Submit a race')
		.addLabelComponents(
			new LabelBuilder()
				.setLabel('Scoreboard')
				.setDescription('Paste it as it is: one racer per line, in finishing order')
				.setTextInputComponent(results),
			short('league', 'League (empty: the server’s only league)', given.league, 64, 'League name'),
			short('date', 'Date (empty: today)', given.date, 10, 'YYYY-MM-DD'),
			short('name', 'Race name (optional)', given.name, 100, 'Round 4 — Monza'),
		);
}

/** Previews a submission and answers with it and its Confirm / Cancel buttons (slash command and form alike). */
async function previewReply(
	interaction: ChatInputCommandInteraction | ModalSubmitInteraction,
	ctx: CommandContext,
	input: SubmitInput,
): Promise<void> {
	const preview = await servicesOf(ctx).races.submit(actorOf(interaction), input);
	await answer(
		interaction,
		{ embeds: [embedOf(previewEmbed(preview))], components: previewComponents(preview) },
		{ ephemeral: true },
	);
}

const optional = (value: string | null | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

export async function submit(interaction: ChatInputCommandInteraction, ctx: CommandContext): Promise<void> {
	const file = interaction.options.getAttachment('file');
	const results = interaction.options.getString('results');
	const given = {
		league: interaction.options.getString('league'),
		date: interaction.options.getString('date'),
		name: interaction.options.getString('name'),
	};
	if (!file && !results?.trim()) {
		// A form for a scoreboard pasted as it is (a string option is one line). Only an organizer gets it: checked
		// first, so nobody pastes a whole scoreboard to be refused.
		await servicesOf(ctx).races.checkSubmitter(actorOf(interaction), optional(given.league));
		await interaction.showModal(submitForm(given));
		return;
	}
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	await previewReply(interaction, ctx, {
		league: optional(given.league),
		...(file ? { file: await raceFileOf(file) } : { text: results ?? '' }),
		carClass: optional(interaction.options.getString('class')),
		date: optional(given.date),
		name: optional(given.name),
	});
}

/** The form's submission: the same preview as the slash command's. */
export const submitFormHandler = {
	prefix: SUBMIT_FORM,
	async execute(interaction, _args, ctx) {
		const field = (id: string) => interaction.fields.getTextInputValue(id);
		await previewReply(interaction, ctx, {
			league: optional(field('league')),
			text: field('results'),
			date: optional(field('date')),
			name: optional(field('name')),
		});
	},
} satisfies ModalHandler;
