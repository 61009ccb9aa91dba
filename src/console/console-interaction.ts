/**
 * Console stand-ins for the interactions the router and handlers use (STYLE.md 14: plain objects, cast once). The
 * console user is the organizer (Manage Server) of one fixed local guild. Replies are rendered as text (render.ts);
 * a message with buttons arms them, so the next typed `confirm`/`cancel` becomes a ButtonInteraction.
 */
import { UserFacingError } from '../discord/errors.js';
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import {
	ApplicationCommandOptionType,
	ComponentType,
	InteractionType,
	PermissionFlagsBits,
	PermissionsBitField,
	type AutocompleteInteraction,
	type ButtonInteraction,
	type ChatInputCommandInteraction,
} from 'discord.js';
import type { AutocompleteChoice, AutocompleteRequest } from './completer.js';
import { ConsoleLineError, type ConsoleOption, type ParsedLine } from './line-parser.js';
import { isEphemeralPayload, renderMessage, type ConsoleButton, type RenderOptions } from './render.js';

/** The local guild, channel and user: fixed ids, so the store keeps one league set across runs. */
export const CONSOLE_GUILD_ID = '100000000000000001';
export const CONSOLE_CHANNEL_ID = '100000000000000002';
export const CONSOLE_USER_ID = '100000000000000003';
const APP_ID = '100000000000000004';

export interface ConsoleUser {
	readonly id: string;
	readonly username: string;
	readonly globalName: string;
	readonly displayName: string;
	readonly tag: string;
	readonly bot: false;
	toString(): string;
}

export function consoleUser(id: string, username: string): ConsoleUser {
	return {
		id,
		username,
		globalName: username,
		displayName: username,
		tag: username,
		bot: false,
		toString: () => `<@${id}>`,
	};
}

/** A stable 18-digit id for `@name`, so the same name is the same user in every run. */
export function userIdFor(name: string): string {
	let hash = 0xcbf29ce484222325n;
	for (const byte of Buffer.from(name.toLowerCase(), 'utf8')) {
		hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
	}
	return `2${(hash % 10n ** 17n).toString().padStart(17, '0')}`;
}

/** What the console session shares with its interactions. */
export interface ConsoleSession extends RenderOptions {
	readonly write: (text: string) => void;
	/** Called with the buttons of every rendered message that sets components. */
	readonly armButtons: (buttons: readonly ConsoleButton[], message: ConsoleMessage) => void;
	readonly nextId: () => string;
}

export interface ConsoleMessage {
	readonly id: string;
	content: string;
	components: readonly ConsoleButton[];
	/** Only the console user would see it in Discord; kept by its edits. */
	readonly ephemeral: boolean;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
	'.csv': 'text/csv',
	'.txt': 'text/plain',
	'.json': 'application/json',
	'.png': 'image/png',
};

/** A local file as a Discord attachment; the url is a data: URL, so handlers can `fetch(attachment.url)` it. */
function attachmentOf(path: string, id: string) {
	let data: Buffer;
	try {
		data = readFileSync(path);
	} catch (error) {
		throw new ConsoleLineError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
	}
	const contentType = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
	const url = `data:${contentType};base64,${data.toString('base64')}`;
	return { id, name: basename(path), url, proxyURL: url, size: data.length, contentType, attachment: url };
}

function resolveValue(option: ConsoleOption, nextId: () => string): unknown {
	const value = option.value;
	if (typeof value !== 'object') return value;
	if (value.kind === 'file') return attachmentOf(value.path, nextId());
	const id = value.id ?? userIdFor(value.name ?? '');
	return consoleUser(id, value.name ?? id);
}

function optionResolver(parsed: ParsedLine, nextId: () => string) {
	const values = new Map(
		parsed.options.map((option) => [option.name, { option, value: resolveValue(option, nextId) }]),
	);
	const get = (name: string, type: ApplicationCommandOptionType, required = false): unknown => {
		const hit = values.get(name);
		if (!hit) {
			if (required) throw new TypeError(`Required option "${name}" not found.`);
			return null;
		}
		if (hit.option.type !== type) {
			throw new TypeError(`Option "${name}" is of type ${hit.option.type}; expected ${type}.`);
		}
		return hit.value;
	};
	const data = parsed.options.map((option) => ({
		name: option.name,
		type: option.type,
		value: values.get(option.name)?.value,
	}));
	return {
		data,
		get: (name: string, required = false) => {
			const hit = data.find((option) => option.name === name);
			if (!hit && required) throw new TypeError(`Required option "${name}" not found.`);
			return hit ?? null;
		},
		getString: (name: string, required?: boolean) => get(name, ApplicationCommandOptionType.String, required),
		getInteger: (name: string, required?: boolean) => get(name, ApplicationCommandOptionType.Integer, required),
		getNumber: (name: string, required?: boolean) => get(name, ApplicationCommandOptionType.Number, required),
		getBoolean: (name: string, required?: boolean) => get(name, ApplicationCommandOptionType.Boolean, required),
		getUser: (name: string, required?: boolean) => get(name, ApplicationCommandOptionType.User, required),
		getMember: (name: string) => {
			const user = get(name, ApplicationCommandOptionType.User) as ConsoleUser | null;
			return user && { user, id: user.id, displayName: user.displayName };
		},
		getAttachment: (name: string, required?: boolean) => get(name, ApplicationCommandOptionType.Attachment, required),
		getChannel: () => null,
		getRole: () => null,
		getMentionable: () => null,
		getSubcommand: (required = true) => {
			if (parsed.subcommand === undefined && required) throw new TypeError('A subcommand was not selected.');
			return parsed.subcommand ?? null;
		},
		getSubcommandGroup: (required = false) => {
			if (parsed.group === undefined && required) throw new TypeError('A subcommand group was not selected.');
			return parsed.group ?? null;
		},
		getFocused: (full = false) => (full ? { name: '', type: ApplicationCommandOptionType.String, value: '' } : ''),
	};
}

/**
 * A message the bot posts by itself rather than as an answer (the results inbox's preview, which Discord would show
 * in the league's channel): printed, and its buttons armed for the next line. Returns its id.
 */
export function showChannelMessage(session: ConsoleSession, payload: unknown): ConsoleMessage {
	const message: ConsoleMessage = { id: session.nextId(), content: '', components: [], ephemeral: false };
	const rendered = renderMessage(payload, session, false);
	if (rendered.text !== '') session.write(`${rendered.text}\n`);
	message.content = rendered.text;
	if (rendered.buttons !== undefined) {
		message.components = rendered.buttons;
		session.armButtons(rendered.buttons, message);
	}
	return message;
}

/**
 * A Confirm answers twice on Discord: its own message (the preview, seen by the organizer alone) becomes what was
 * done, and the channel is told in a message of its own (confirm-buttons.ts). The console has one reader and one
 * stream, where the two would say the same thing one after the other ("Edited R1 …", then "Edited. Ratings were
 * replayed …"): after a button has updated its message, a message for everyone it sends shows its embeds (the race
 * card) without repeating its text, which the updated message already says.
 */
function announced(payload: unknown): unknown {
	if (isEphemeralPayload(payload) || typeof payload !== 'object' || payload === null) return payload;
	return { ...payload, content: undefined };
}

/** Reply state and methods shared by the command and the button interaction. */
function replies(session: ConsoleSession, clicked: ConsoleMessage | undefined) {
	const state = { deferred: false, replied: false, ephemeral: null as boolean | null };
	/** The message editReply edits: the deferred or sent reply, or (after deferUpdate/update) the clicked message. */
	let current: ConsoleMessage | undefined;
	const show = (payload: unknown, target?: ConsoleMessage): ConsoleMessage => {
		// Discord keeps a message's visibility for its edits; a new message takes it from its own flags.
		const msg = target ?? { id: session.nextId(), content: '', components: [], ephemeral: isEphemeralPayload(payload) };
		const rendered = renderMessage(payload, session, msg.ephemeral);
		if (rendered.text !== '') session.write(`${rendered.text}\n`);
		msg.content = rendered.text;
		if (rendered.buttons !== undefined) {
			msg.components = rendered.buttons;
			session.armButtons(rendered.buttons, msg);
		}
		return msg;
	};
	const acknowledge = () => {
		if (state.deferred || state.replied)
			throw new Error('The reply to this interaction has already been sent or deferred.');
	};
	return {
		state,
		/** Makes `message` the one editReply edits (a button's update of the message it belongs to). */
		target: (message: ConsoleMessage) => (current = message),
		methods: {
			get deferred() {
				return state.deferred;
			},
			get replied() {
				return state.replied;
			},
			get ephemeral() {
				return state.ephemeral;
			},
			isRepliable: () => true,
			async deferReply(options?: unknown) {
				acknowledge();
				state.deferred = true;
				state.ephemeral = isEphemeralPayload(options);
				// The "thinking…" message: nothing is printed until it is edited.
				current = { id: session.nextId(), content: '', components: [], ephemeral: state.ephemeral };
				return Promise.resolve(undefined);
			},
			async reply(payload: unknown) {
				acknowledge();
				state.replied = true;
				state.ephemeral = isEphemeralPayload(payload);
				current = show(payload);
				return Promise.resolve(current);
			},
			async editReply(payload: unknown) {
				if (!state.deferred && !state.replied)
					throw new Error('The reply to this interaction has not been sent or deferred.');
				state.replied = true;
				current = show(payload, current ?? clicked);
				return Promise.resolve(current);
			},
			async followUp(payload: unknown) {
				if (!state.deferred && !state.replied)
					throw new Error('The reply to this interaction has not been sent or deferred.');
				return Promise.resolve(show(clicked !== undefined && state.replied ? announced(payload) : payload));
			},
			async fetchReply() {
				return Promise.resolve(current ?? clicked);
			},
			async deleteReply() {
				return Promise.resolve();
			},
			async showModal() {
				// Discord opens a form here; the console has none: the scoreboard comes with the command.
				return Promise.reject(
					new UserFacingError(
						'no-forms',
						'The console has no forms: give the scoreboard as results:"1. Alice 1:23.456\\n2. Bob" (\\n starts a new line).',
					),
				);
			},
			_show: show,
		},
	};
}

function base(session: ConsoleSession) {
	const user = consoleUser(CONSOLE_USER_ID, 'console');
	const permissions = new PermissionsBitField(
		PermissionFlagsBits.ManageGuild | PermissionFlagsBits.SendMessages | PermissionFlagsBits.AttachFiles,
	);
	const now = session.now();
	return {
		id: session.nextId(),
		applicationId: APP_ID,
		guildId: CONSOLE_GUILD_ID,
		guild: { id: CONSOLE_GUILD_ID, name: 'Local console' },
		channelId: CONSOLE_CHANNEL_ID,
		channel: { id: CONSOLE_CHANNEL_ID, name: 'console' },
		user,
		member: {
			user,
			id: user.id,
			displayName: user.displayName,
			nickname: null,
			permissions,
			roles: { cache: new Map<string, unknown>() },
		},
		memberPermissions: permissions,
		appPermissions: permissions,
		locale: 'en-US',
		guildLocale: 'en-US',
		createdAt: now,
		createdTimestamp: now.getTime(),
		inGuild: () => true,
		inCachedGuild: () => false,
		inRawGuild: () => true,
		isAutocomplete: () => false,
		isContextMenuCommand: () => false,
		isModalSubmit: () => false,
		isStringSelectMenu: () => false,
		isAnySelectMenu: () => false,
	};
}

/** A ChatInputCommandInteraction for a parsed line. Reading an attachment may throw ConsoleLineError. */
export function createConsoleCommand(parsed: ParsedLine, session: ConsoleSession): ChatInputCommandInteraction {
	const options = optionResolver(parsed, session.nextId);
	const { methods } = replies(session, undefined);
	const interaction = {
		...base(session),
		type: InteractionType.ApplicationCommand,
		commandName: parsed.name,
		commandId: `cmd-${parsed.name}`,
		commandType: 1,
		options,
		isCommand: () => true,
		isChatInputCommand: () => true,
		isButton: () => false,
		isMessageComponent: () => false,
	};
	Object.defineProperties(interaction, Object.getOwnPropertyDescriptors(methods));
	return interaction as unknown as ChatInputCommandInteraction;
}

/** A ButtonInteraction for a pressed button of `message`. */
export function createConsoleButton(
	button: ConsoleButton,
	message: ConsoleMessage,
	session: ConsoleSession,
): ButtonInteraction {
	const { state, methods, target } = replies(session, message);
	const interaction = {
		...base(session),
		type: InteractionType.MessageComponent,
		customId: button.customId,
		componentType: ComponentType.Button,
		message,
		component: { customId: button.customId, label: button.label, type: ComponentType.Button },
		isCommand: () => false,
		isChatInputCommand: () => false,
		isButton: () => true,
		isMessageComponent: () => true,
		async deferUpdate() {
			if (state.deferred || state.replied)
				throw new Error('The reply to this interaction has already been sent or deferred.');
			state.deferred = true;
			target(message);
			return Promise.resolve(undefined);
		},
		async update(payload: unknown) {
			if (state.deferred || state.replied)
				throw new Error('The reply to this interaction has already been sent or deferred.');
			state.replied = true;
			target(message);
			return Promise.resolve(methods._show(payload, message));
		},
	};
	Object.defineProperties(interaction, Object.getOwnPropertyDescriptors(methods));
	return interaction as unknown as ButtonInteraction;
}

/**
 * An AutocompleteInteraction for TAB (completer.ts): routed like Discord's, so the command's own `autocomplete`
 * handler answers through the autocomplete service; `respond` hands its choices back to the completer.
 */
export function createConsoleAutocomplete(
	request: AutocompleteRequest,
	session: ConsoleSession,
	respond: (choices: readonly AutocompleteChoice[]) => void,
): AutocompleteInteraction {
	const typed = [...request.options, { ...request.focused, focused: true }];
	const raw = (name: string): string | null => typed.find((option) => option.name === name)?.value ?? null;
	const numeric = (name: string): number | null => {
		const value = raw(name);
		return value === null || value.trim() === '' || !Number.isFinite(Number(value)) ? null : Number(value);
	};
	let responded = false;
	const interaction = {
		...base(session),
		type: InteractionType.ApplicationCommandAutocomplete,
		commandName: request.name,
		commandId: `cmd-${request.name}`,
		commandType: 1,
		options: {
			data: typed,
			getFocused: (full = false) => (full ? { ...request.focused, focused: true } : request.focused.value),
			getString: (name: string) => raw(name),
			getInteger: numeric,
			getNumber: numeric,
			getBoolean: (name: string) => {
				const value = raw(name)?.toLowerCase();
				return value === undefined ? null : ['true', 'yes', 'y', '1'].includes(value);
			},
			getSubcommand: (required = true) => {
				if (request.subcommand === undefined && required) throw new TypeError('A subcommand was not selected.');
				return request.subcommand ?? null;
			},
			getSubcommandGroup: () => request.group ?? null,
		},
		get responded() {
			return responded;
		},
		isAutocomplete: () => true,
		isCommand: () => false,
		isChatInputCommand: () => false,
		isButton: () => false,
		isMessageComponent: () => false,
		async respond(choices: readonly AutocompleteChoice[]) {
			if (responded) throw new Error('The reply to this interaction has already been sent or deferred.');
			responded = true;
			respond(choices);
			return Promise.resolve();
		},
	};
	return interaction as unknown as AutocompleteInteraction;
}
