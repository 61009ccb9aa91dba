/**
 * The local console's reading of a typed slash command, checked against the command's JSON definition (the same
 * `data` Discord gets):
 *
 *   /name [group] [subcommand] opt:value opt:"quoted value with spaces and \n escapes" …
 *
 * Values are typed as Discord would type them: string, integer, number, boolean (true/false/yes/no), user (`@name`
 * or a raw id), attachment (`file:path/to/file.csv` or a bare path, read by the caller). Every problem is a
 * ConsoleLineError with a message for the user; nothing here touches the file system.
 */
import {
	ApplicationCommandOptionType,
	type APIApplicationCommandBasicOption,
	type APIApplicationCommandOption,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

export class ConsoleLineError extends Error {
	override readonly name = 'ConsoleLineError';
}

/** A user option as typed: `@Alice` → { name: 'Alice' }; `123456789012345678` → { id }. */
export type ConsoleUserValue = { readonly kind: 'user'; readonly id?: string; readonly name?: string };
/** An attachment option: the local path to read. */
export type ConsoleFileValue = { readonly kind: 'file'; readonly path: string };

export type ConsoleOptionValue = string | number | boolean | ConsoleUserValue | ConsoleFileValue;

export interface ConsoleOption {
	readonly name: string;
	readonly type: ApplicationCommandOptionType;
	readonly value: ConsoleOptionValue;
}

export interface ParsedLine {
	readonly name: string;
	readonly group: string | undefined;
	readonly subcommand: string | undefined;
	readonly options: readonly ConsoleOption[];
}

type CommandData = Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, 'name' | 'options'>;

interface Token {
	/** `key` of a `key:value` token; undefined for a bare word. */
	readonly key: string | undefined;
	readonly value: string;
	/** The value was typed in quotes (nothing continues it). */
	readonly quoted?: boolean;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\' };

/** Splits a line into bare words and `key:value` pairs; values may be "double" or 'single' quoted with escapes. */
export function tokenizeLine(line: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < line.length) {
		while (i < line.length && /\s/.test(line[i]!)) i++;
		if (i >= line.length) break;
		const start = i;
		const keyMatch = /^([-_\p{L}\p{N}]+):/u.exec(line.slice(i));
		let key: string | undefined;
		if (keyMatch) {
			key = keyMatch[1]!.toLowerCase();
			i += keyMatch[0].length;
		}
		let value = '';
		const quote = line[i];
		const quoted = quote === '"' || quote === "'";
		if (quoted) {
			i++;
			let closed = false;
			while (i < line.length) {
				const c = line[i]!;
				if (c === '\\' && i + 1 < line.length) {
					const next = line[i + 1]!;
					value += ESCAPES[next] ?? `\\${next}`;
					i += 2;
				} else if (c === quote) {
					closed = true;
					i++;
					break;
				} else {
					value += c;
					i++;
				}
			}
			if (!closed) throw new ConsoleLineError(`unbalanced quote: ${quote} opened at column ${start + 1} is not closed`);
			if (i < line.length && !/\s/.test(line[i]!)) {
				throw new ConsoleLineError(`expected a space after the closing ${quote} at column ${i}`);
			}
		} else {
			while (i < line.length && !/\s/.test(line[i]!)) value += line[i++];
		}
		tokens.push({ key, value, ...(quoted && { quoted }) });
	}
	return tokens;
}

/**
 * Discord takes everything typed into a text option, spaces included, and so does the console: bare words after an
 * unquoted text value continue it, joined by single spaces (`/rating player:Lewis Hamilton`, `/odds players:Ann, Bob
 * Smith`). Other bare words stay as they are (and are refused).
 */
function continueTextValues(tokens: readonly Token[], leaves: readonly APIApplicationCommandBasicOption[]): Token[] {
	const merged: Token[] = [];
	for (const token of tokens) {
		const previous = merged.at(-1);
		const continues =
			token.key === undefined &&
			previous?.key !== undefined &&
			previous.quoted !== true &&
			leaves.find((o) => o.name === previous.key)?.type === ApplicationCommandOptionType.String;
		if (continues) merged[merged.length - 1] = { ...previous, value: `${previous.value} ${token.value}` };
		else merged.push(token);
	}
	return merged;
}

const TYPE_NAMES: Partial<Record<ApplicationCommandOptionType, string>> = {
	[ApplicationCommandOptionType.String]: 'text',
	[ApplicationCommandOptionType.Integer]: 'integer',
	[ApplicationCommandOptionType.Number]: 'number',
	[ApplicationCommandOptionType.Boolean]: 'true/false',
	[ApplicationCommandOptionType.User]: '@name or user id',
	[ApplicationCommandOptionType.Attachment]: 'file:path',
};

/** Whether the console can take an option of this type (channel, role and mentionable options it cannot). */
export const consoleTakes = (type: ApplicationCommandOptionType): boolean => TYPE_NAMES[type] !== undefined;

/** How `help` shows an option: `name:<type>` or `[name:<type>]`. */
export function describeOption(option: APIApplicationCommandOption): string {
	const text = `${option.name}:<${TYPE_NAMES[option.type] ?? ApplicationCommandOptionType[option.type]}>`;
	return option.required ? text : `[${text}]`;
}

function typed(option: APIApplicationCommandBasicOption, raw: string): ConsoleOptionValue {
	const bad = (): never => {
		throw new ConsoleLineError(`option ${option.name} expects ${TYPE_NAMES[option.type] ?? 'a value'}, got "${raw}"`);
	};
	let value: ConsoleOptionValue;
	switch (option.type) {
		case ApplicationCommandOptionType.String:
			if (option.min_length !== undefined && raw.length < option.min_length) bad();
			if (option.max_length !== undefined && raw.length > option.max_length) bad();
			value = raw;
			break;
		case ApplicationCommandOptionType.Integer:
			if (!/^[-+]?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) bad();
			value = Number(raw);
			break;
		case ApplicationCommandOptionType.Number:
			if (raw.trim() === '' || !Number.isFinite(Number(raw))) bad();
			value = Number(raw);
			break;
		case ApplicationCommandOptionType.Boolean: {
			const word = raw.toLowerCase();
			if (['true', 'yes', 'y', '1'].includes(word)) value = true;
			else if (['false', 'no', 'n', '0'].includes(word)) value = false;
			else return bad();
			break;
		}
		case ApplicationCommandOptionType.User:
			if (/^<@!?\d{17,20}>$/.test(raw) || /^\d{17,20}$/.test(raw)) value = { kind: 'user', id: raw.replace(/\D/g, '') };
			else if (/^@\S+$/.test(raw)) value = { kind: 'user', name: raw.slice(1) };
			else return bad();
			break;
		case ApplicationCommandOptionType.Attachment: {
			const path = raw.startsWith('file:') ? raw.slice('file:'.length) : raw;
			if (path === '') bad();
			value = { kind: 'file', path };
			break;
		}
		default:
			throw new ConsoleLineError(
				`option ${option.name} has type ${ApplicationCommandOptionType[option.type]}, which the console cannot take`,
			);
	}
	if (
		(option.type === ApplicationCommandOptionType.Integer || option.type === ApplicationCommandOptionType.Number) &&
		typeof value === 'number'
	) {
		if (option.min_value !== undefined && value < option.min_value) {
			throw new ConsoleLineError(`option ${option.name} must be at least ${option.min_value}`);
		}
		if (option.max_value !== undefined && value > option.max_value) {
			throw new ConsoleLineError(`option ${option.name} must be at most ${option.max_value}`);
		}
	}
	if ('choices' in option && option.choices && option.choices.length > 0) {
		const choices = option.choices as readonly { name: string; value: string | number }[];
		const hit = choices.find((choice) => choice.value === value || choice.name.toLowerCase() === raw.toLowerCase());
		if (!hit) {
			throw new ConsoleLineError(
				`option ${option.name} must be one of ${choices.map((choice) => String(choice.value)).join(', ')}`,
			);
		}
		value = hit.value;
	}
	return value;
}

const names = (options: readonly { name: string }[]): string => options.map((option) => option.name).join(', ');

/** Parses a line (leading `/` optional) against the registry's definitions. */
export function parseLine(line: string, commands: readonly CommandData[]): ParsedLine {
	const tokens = tokenizeLine(line.trim().replace(/^\//, ''));
	const first = tokens[0];
	if (!first || first.key !== undefined) throw new ConsoleLineError('expected a command name, e.g. /about (type help)');
	const name = first.value.toLowerCase();
	const command = commands.find((c) => c.name === name);
	if (!command) throw new ConsoleLineError(`unknown command /${name} (known: ${names(commands)})`);

	let rest = tokens.slice(1);
	let level: readonly APIApplicationCommandOption[] = command.options ?? [];
	let group: string | undefined;
	let subcommand: string | undefined;
	let path = `/${name}`;
	const branches = () =>
		level.filter(
			(o) =>
				o.type === ApplicationCommandOptionType.Subcommand || o.type === ApplicationCommandOptionType.SubcommandGroup,
		);
	while (branches().length > 0) {
		const word = rest[0];
		if (!word || word.key !== undefined) {
			throw new ConsoleLineError(`${path} needs a subcommand: ${names(branches())}`);
		}
		const branch = branches().find((o) => o.name === word.value.toLowerCase());
		if (!branch) throw new ConsoleLineError(`unknown subcommand ${path} ${word.value} (known: ${names(branches())})`);
		if (branch.type === ApplicationCommandOptionType.SubcommandGroup) group = branch.name;
		else subcommand = branch.name;
		path += ` ${branch.name}`;
		level = 'options' in branch && branch.options ? branch.options : [];
		rest = rest.slice(1);
	}

	const leaves = level as readonly APIApplicationCommandBasicOption[];
	const options: ConsoleOption[] = [];
	for (const token of continueTextValues(rest, leaves)) {
		if (token.key === undefined) {
			const hint = leaves.length > 0 ? `options are name:value (${names(leaves)})` : `${path} takes no options`;
			throw new ConsoleLineError(`unexpected "${token.value}": ${hint}`);
		}
		const option = leaves.find((o) => o.name === token.key);
		if (!option) {
			const known = leaves.length > 0 ? `known: ${names(leaves)}` : `${path} takes no options`;
			throw new ConsoleLineError(`unknown option ${token.key} for ${path} (${known})`);
		}
		if (options.some((o) => o.name === option.name)) throw new ConsoleLineError(`option ${option.name} given twice`);
		options.push({ name: option.name, type: option.type, value: typed(option, token.value) });
	}
	const missing = leaves.filter((o) => o.required && !options.some((given) => given.name === o.name));
	if (missing.length > 0) {
		throw new ConsoleLineError(`${path} needs ${missing.map(describeOption).join(' ')}`);
	}
	return { name, group, subcommand, options };
}
