/**
 * Renders what a handler sends (reply/editReply/followUp/update payloads) as console text: content, embeds as plain
 * lines, buttons as `[confirm] [cancel]`, and files (charts) written to `outDir` with their absolute paths printed.
 * An ephemeral message starts with `(only you can see this)`, as Discord marks it (dim on a terminal).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ComponentType, MessageFlags, type APIEmbed } from 'discord.js';

/** A button the next typed line may press. */
export interface ConsoleButton {
	readonly customId: string;
	readonly label: string;
	readonly disabled: boolean;
}

export interface RenderedMessage {
	readonly text: string;
	/** Undefined when the payload did not set components (an edit keeps the previous ones). */
	readonly buttons: readonly ConsoleButton[] | undefined;
	readonly files: readonly string[];
}

export interface RenderOptions {
	/** Where attachments are written (created on demand); printed paths are absolute. */
	readonly outDir: string;
	readonly now: () => Date;
	/** ANSI styling (a terminal): the ephemeral marker dim. Plain text otherwise (pipes, tests). */
	readonly color?: boolean;
}

/** The line Discord shows under a message only its user sees. */
export const EPHEMERAL_MARKER = '(only you can see this)';

const dim = (text: string, color: boolean | undefined): string => (color ? `\x1b[2m${text}\x1b[22m` : text);

/**
 * Discord's markdown as a terminal shows it: `**bold**` bold (ANSI) on a terminal, plain in a pipe; italic stars and
 * code ticks dropped; escapes (`\*`, `\:`) undone and the zero-width spaces that break mentions removed. Mentions
 * (`<@…>`) stay as they are.
 */
export function markdownToText(text: string, color: boolean | undefined): string {
	return text
		.replace(/\*\*(.+?)\*\*/g, (_, inner: string) => (color ? `\x1b[1m${inner}\x1b[22m` : inner))
		.replace(/(?<![\\\w])\*(?=\S)(.+?)(?<=\S)\*(?!\w)/g, '$1')
		.replace(/(?<!\\)`/g, '')
		.replace(/\\([^A-Za-z0-9\s])/g, '$1')
		.replace(/\u200b/g, '');
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/** Builders (EmbedBuilder, ActionRowBuilder…) and API objects alike, as API JSON. */
function toJson(value: unknown): Json {
	if (isObject(value) && typeof value['toJSON'] === 'function') return (value['toJSON'] as () => Json)();
	return isObject(value) ? value : {};
}

function embedLines(embed: APIEmbed): string[] {
	const lines: string[] = [];
	// The title with the author after it (`== Argammon ==  ZakStunts · folyami`), as Discord shows them together.
	const author = embed.author?.name;
	if (embed.title) lines.push(`== ${embed.title} ==${author ? `  ${author}` : ''}`);
	else if (author) lines.push(author);
	if (embed.url) lines.push(embed.url);
	if (embed.description) lines.push(embed.description);
	let inline: string[] = [];
	const flush = () => {
		if (inline.length > 0) lines.push(inline.join(' · '));
		inline = [];
	};
	for (const field of embed.fields ?? []) {
		// Short inline fields side by side on one line, as Discord lays them out in a row.
		if (field.inline === true && !field.value.includes('\n')) {
			inline.push(`${field.name}: ${field.value}`);
			continue;
		}
		flush();
		if (field.value.includes('\n')) lines.push(`${field.name}:`, ...field.value.split('\n').map((l) => `  ${l}`));
		else lines.push(`${field.name}: ${field.value}`);
	}
	flush();
	// An attached image is printed as the file written below; another URL as itself.
	if (embed.image?.url && !embed.image.url.startsWith('attachment://')) lines.push(`(image: ${embed.image.url})`);
	if (embed.footer?.text) lines.push(`-- ${embed.footer.text}`);
	if (embed.timestamp) lines.push(`-- ${embed.timestamp}`);
	return lines;
}

function buttonsOf(components: unknown[]): ConsoleButton[] {
	const buttons: ConsoleButton[] = [];
	for (const row of components.map(toJson)) {
		for (const component of Array.isArray(row['components']) ? row['components'].map(toJson) : []) {
			if (component['type'] !== ComponentType.Button || typeof component['custom_id'] !== 'string') continue;
			const label = typeof component['label'] === 'string' ? component['label'] : component['custom_id'];
			buttons.push({ customId: component['custom_id'], label, disabled: component['disabled'] === true });
		}
	}
	return buttons;
}

/** The word a button answers to: its label in lower case with spaces as dashes (`Confirm` → `confirm`). */
export const buttonWord = (button: ConsoleButton): string => button.label.trim().toLowerCase().replace(/\s+/g, '-');

function fileOf(file: unknown, index: number): { name: string; data: Buffer | string | undefined } {
	if (Buffer.isBuffer(file)) return { name: `file-${index}`, data: file };
	if (typeof file === 'string') return { name: basename(file), data: undefined };
	const json = isObject(file) ? file : {};
	const data = json['attachment'] ?? json['data'];
	const name = typeof json['name'] === 'string' ? json['name'] : `file-${index}`;
	if (Buffer.isBuffer(data) || typeof data === 'string') return { name, data };
	if (data instanceof Uint8Array) return { name, data: Buffer.from(data) };
	return { name, data: undefined };
}

/** Whether a payload asks to be ephemeral (`flags: MessageFlags.Ephemeral`). */
export function isEphemeralPayload(payload: unknown): boolean {
	return isObject(payload) && typeof payload['flags'] === 'number' && (payload['flags'] & MessageFlags.Ephemeral) !== 0;
}

/**
 * Writes one message's files and returns its text. Never throws for an odd payload: it prints what it can.
 * `ephemeral` is the message's visibility when the payload cannot say it (an edit of a deferred ephemeral reply, a
 * button's update of an ephemeral message); by default the payload's flags decide.
 */
export function renderMessage(
	payload: unknown,
	options: RenderOptions,
	ephemeral = isEphemeralPayload(payload),
): RenderedMessage {
	const body: Json = typeof payload === 'string' ? { content: payload } : isObject(payload) ? payload : {};
	const lines: string[] = [];
	if (ephemeral) lines.push(dim(EPHEMERAL_MARKER, options.color));
	const text: string[] = [];
	if (typeof body['content'] === 'string' && body['content'] !== '') text.push(body['content']);
	for (const embed of Array.isArray(body['embeds']) ? body['embeds'] : []) {
		text.push(...embedLines(toJson(embed)));
	}
	lines.push(...text.map((line) => markdownToText(line, options.color)));
	const files: string[] = [];
	const given = Array.isArray(body['files']) ? body['files'] : [];
	given.forEach((file, index) => {
		const { name, data } = fileOf(file, index);
		if (data === undefined || typeof data === 'string') {
			lines.push(`(file ${name}${typeof data === 'string' ? `: ${data}` : ''})`);
			return;
		}
		mkdirSync(options.outDir, { recursive: true });
		const stamp = options.now().toISOString().replace(/[:.]/g, '-');
		// Absolute, so the path can be opened (or clicked in a terminal) from anywhere.
		const path = resolve(join(options.outDir, `${stamp}-${name.replace(/[^\w.-]+/g, '_')}`));
		writeFileSync(path, data);
		files.push(path);
		lines.push(`file written: ${path}`);
	});
	let buttons: ConsoleButton[] | undefined;
	if (Array.isArray(body['components'])) {
		buttons = buttonsOf(body['components']);
		const active = buttons.filter((button) => !button.disabled);
		if (active.length > 0) lines.push(`${active.map((b) => `[${buttonWord(b)}]`).join(' ')}  (type one to press it)`);
	}
	return { text: lines.join('\n'), buttons, files };
}
