/**
 * The local console's reading of a typed slash command, checked against the command's JSON definition (the same
 * `data` Discord gets):
 *
 *   /name [group] [subcommand] opt:value opt:"quoted value with spaces and \n escapes" …
 *
 * An unquoted text value runs to the end of the line or to the next option of the command (`results:1. Alice
 * 1:23.456; 2. Bob 1:24.010 date:2026-03-01`); a quoted value may span lines (the console reads on: continuesQuote).
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

/** A quoted value still open at the end of the text: the console reads the next lines on (console-loop.ts). */
export class UnclosedQuoteError extends ConsoleLineError {}

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
			if (!closed)
				throw new UnclosedQuoteError(`unbalanced quote: ${quote} opened at column ${start + 1} is not closed`);
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
	const text = line.trim().replace(/^\//, '');
	// The command's words (name, group, subcommand) are plain words; the options after them are read by optionTokens.
	const word = (at: number): { key: string | undefined; value: string; start: number; end: number } | undefined => {
		const start = at + (/^\s*/u.exec(text.slice(at))?.[0].length ?? 0);
		if (start >= text.length) return undefined;
		const value = /^\S+/u.exec(text.slice(start))![0];
		const key = /^([-_\p{L}\p{N}]+):/u.exec(value)?.[1];
		return { key, value, start, end: start + value.length };
	};
	const first = word(0);
	if (!first || first.key !== undefined) throw new ConsoleLineError('expected a command name, e.g. /about (type help)');
	const name = first.value.toLowerCase();
	const command = commands.find((c) => c.name === name);
	if (!command) throw new ConsoleLineError(`unknown command /${name} (known: ${names(commands)})`);

	let at = first.end;
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
		const next = word(at);
		if (!next || next.key !== undefined) {
			throw new ConsoleLineError(`${path} needs a subcommand: ${names(branches())}`);
		}
		const branch = branches().find((o) => o.name === next.value.toLowerCase());
		if (!branch) throw new ConsoleLineError(`unknown subcommand ${path} ${next.value} (known: ${names(branches())})`);
		if (branch.type === ApplicationCommandOptionType.SubcommandGroup) group = branch.name;
		else subcommand = branch.name;
		path += ` ${branch.name}`;
		level = 'options' in branch && branch.options ? branch.options : [];
		at = next.end;
	}

	const leaves = level as readonly APIApplicationCommandBasicOption[];
	const options: ConsoleOption[] = [];
	for (const token of optionTokens(text, at, leaves, path)) {
		const option = leaves.find((o) => o.name === token.key)!;
		if (options.some((o) => o.name === option.name)) throw new ConsoleLineError(`option ${option.name} given twice`);
		options.push({ name: option.name, type: option.type, value: typed(option, token.value) });
	}
	const missing = leaves.filter((o) => o.required && !options.some((given) => given.name === o.name));
	if (missing.length > 0) {
		throw new ConsoleLineError(`${path} needs ${missing.map(describeOption).join(' ')}`);
	}
	return { name, group, subcommand, options };
}

/** Where a quoted value ends: the index after its closing quote, and the value with its escapes read. */
function readQuoted(line: string, at: number): { value: string; end: number } {
	const quote = line[at]!;
	let value = '';
	let i = at + 1;
	while (i < line.length) {
		const c = line[i]!;
		if (c === '\\' && i + 1 < line.length) {
			const next = line[i + 1]!;
			value += ESCAPES[next] ?? `\\${next}`;
			i += 2;
		} else if (c === quote) {
			return { value, end: i + 1 };
		} else {
			value += c;
			i++;
		}
	}
	throw new UnclosedQuoteError(`unbalanced quote: ${quote} opened at column ${at + 1} is not closed`);
}

/**
 * The options after the command's words, each `name:value` with a name of the command's. A quoted value ends at its
 * quote (and may span lines). An unquoted text value runs on, spaces and all, as Discord takes a text option, to the
 * end of the line or to the next ` name:` whose name is an option of the command (`results:1. Alice 1:23.456; 2. Bob
 * date:2026-03-01`: `1:` is no option, `date:` is); runs of spaces in it are one space. Other values are one word.
 */
function optionTokens(
	line: string,
	from: number,
	leaves: readonly APIApplicationCommandBasicOption[],
	path: string,
): { key: string; value: string }[] {
	const tokens: { key: string; value: string }[] = [];
	const known = new Set(leaves.map((o) => o.name.toLowerCase()));
	let i = from;
	while (i < line.length) {
		while (i < line.length && /\s/.test(line[i]!)) i++;
		if (i >= line.length) break;
		const keyMatch = /^([-_\p{L}\p{N}]+):/u.exec(line.slice(i));
		if (!keyMatch) {
			const word = /^\S+/u.exec(line.slice(i))![0];
			const hint = leaves.length > 0 ? `options are name:value (${names(leaves)})` : `${path} takes no options`;
			throw new ConsoleLineError(`unexpected "${word}": ${hint}`);
		}
		const key = keyMatch[1]!.toLowerCase();
		const option = leaves.find((o) => o.name === key);
		if (!option) {
			const hint = leaves.length > 0 ? `known: ${names(leaves)}` : `${path} takes no options`;
			throw new ConsoleLineError(`unknown option ${key} for ${path} (${hint})`);
		}
		i += keyMatch[0].length;
		const quote = line[i];
		if (quote === '"' || quote === "'") {
			const { value, end } = readQuoted(line, i);
			if (end < line.length && !/\s/.test(line[end]!)) {
				throw new ConsoleLineError(`expected a space after the closing ${quote} at column ${end}`);
			}
			tokens.push({ key, value });
			i = end;
		} else if (option.type === ApplicationCommandOptionType.String) {
			let end = line.length;
			for (const next of line.slice(i).matchAll(/\s([-_\p{L}\p{N}]+):/gu)) {
				if (known.has(next[1]!.toLowerCase())) {
					end = i + next.index;
					break;
				}
			}
			const value = line
				.slice(i, end)
				.split('\n')
				.map((part) => part.trim().replace(/[^\S\n]+/gu, ' '))
				.join('\n')
				.trim();
			tokens.push({ key, value });
			i = end;
		} else {
			let value = '';
			while (i < line.length && !/\s/.test(line[i]!)) value += line[i++];
			tokens.push({ key, value });
		}
	}
	return tokens;
}

/** Whether a line ends inside a quoted option value, so the next lines continue it (the console reads them on). */
export function continuesQuote(line: string, commands: readonly CommandData[]): boolean {
	try {
		parseLine(line, commands);
		return false;
	} catch (error) {
		return error instanceof UnclosedQuoteError;
	}
}
