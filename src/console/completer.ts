/**
 * TAB completion for the console, read from the same command definitions the router and the line
 * parser use (the registry's `data`), never from a list of its own:
 *
 *   /ra⇥                      → /race            (commands; `help`, `exit` and armed buttons as bare words)
 *   /race su⇥                 → /race submit     (subcommand groups and subcommands)
 *   /rating pl⇥               → /rating player:  (option names not given yet, of a type the console can take)
 *   /rating system:gl⇥        → system:glicko    (choices, true/false)
 *   /race submit file:da⇥     → file:data/       (paths, for attachment options)
 *   /rating player:Ren⇥       → player:"Renato Biker"   (options with `autocomplete: true`: asked through `ask`,
 *                                                         i.e. the command's own autocomplete handler)
 *
 * The answer is readline's `[completions, substring]`: each completion replaces the word under the cursor whole,
 * so a case-insensitive or inner match (`ren` → `Renato Biker`) still completes.
 */
import {
	ApplicationCommandOptionType,
	type APIApplicationCommandBasicOption,
	type APIApplicationCommandOption,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { consoleTakes } from './line-parser.js';

type CommandData = Pick<RESTPostAPIChatInputApplicationCommandsJSONBody, 'name' | 'options'>;

/** An option as typed so far: raw text, not converted. */
export interface TypedOption {
	readonly name: string;
	readonly type: ApplicationCommandOptionType;
	readonly value: string;
}

/** What TAB on an autocomplete option asks, shaped like Discord's autocomplete interaction. */
export interface AutocompleteRequest {
	readonly name: string;
	readonly group: string | undefined;
	readonly subcommand: string | undefined;
	/** The option under the cursor and the text typed for it so far. */
	readonly focused: TypedOption;
	/** The options typed before it (e.g. `league:`, which scopes the player names). */
	readonly options: readonly TypedOption[];
}

export interface AutocompleteChoice {
	readonly name: string;
	readonly value: string | number;
}

export interface CompleterOptions {
	readonly commands: readonly CommandData[];
	/** Answers an autocomplete option (the console routes it to the command's autocomplete handler). */
	readonly ask: (request: AutocompleteRequest) => Promise<readonly AutocompleteChoice[]>;
	/** Bare words the console takes as a first word: help, exit, the armed buttons. */
	readonly words: () => readonly string[];
	/** Paths for an attachment option (path-choices.ts); folders end in `/`. None when not given. */
	readonly paths?: (typed: string) => readonly string[];
}

/** readline's completer answer: the candidates, and the text before the cursor they replace. */
export type Completion = [string[], string];

/** A word of the line: where it starts, its `key:` if any, and its value with quotes and escapes resolved. */
interface Word {
	readonly start: number;
	readonly key: string | undefined;
	readonly value: string;
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\' };

/**
 * The words before the cursor, read as line-parser.ts `tokenizeLine` reads them, but forgiving: an open quote is
 * the word being typed. `current` is the word under the cursor (empty after a space).
 */
export function scanWords(line: string): { done: Word[]; current: Word } {
	const words: Word[] = [];
	let i = 0;
	let open = false;
	while (i < line.length) {
		while (i < line.length && /\s/.test(line[i]!)) i++;
		if (i >= line.length) break;
		const start = i;
		const keyMatch = /^([-_\p{L}\p{N}]+):/u.exec(line.slice(i));
		const key = keyMatch ? keyMatch[1]!.toLowerCase() : undefined;
		if (keyMatch) i += keyMatch[0].length;
		let value = '';
		const quote = line[i];
		if (quote === '"' || quote === "'") {
			i++;
			open = true;
			while (i < line.length) {
				const c = line[i]!;
				if (c === '\\' && i + 1 < line.length) {
					value += ESCAPES[line[i + 1]!] ?? `\\${line[i + 1]!}`;
					i += 2;
				} else if (c === quote) {
					open = false;
					i++;
					break;
				} else {
					value += c;
					i++;
				}
			}
		} else {
			open = false;
		}
		while (i < line.length && !/\s/.test(line[i]!)) value += line[i++];
		words.push({ start, key, value });
	}
	const last = words.at(-1);
	if (last && (open || !/\s$/.test(line))) return { done: words.slice(0, -1), current: last };
	return { done: words, current: { start: line.length, key: undefined, value: '' } };
}

/** A value as the parser reads it back: bare when it is one plain word, else double-quoted with escapes. */
export function quoteValue(value: string): string {
	if (/^[^\s"'\\]+$/.test(value)) return value;
	return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

const startsWith = (text: string, typed: string): boolean => text.toLowerCase().startsWith(typed.toLowerCase());

/** Compared without case, quotes, escapes or spaces: `players:"Argammon, Ayrton"` extends `players:argammon,ay`. */
const loose = (text: string): string => text.toLowerCase().replace(/["'\\\s]/g, '');

function commonPrefix(texts: readonly string[]): string {
	let prefix = texts[0] ?? '';
	for (const text of texts) while (!text.startsWith(prefix)) prefix = prefix.slice(0, -1);
	return prefix;
}

/**
 * What readline gets for the word typed: the candidates that extend it when there are any (a prefix match beats an
 * inner one, as in a shell). With several candidates, readline replaces the word by their common start; when that
 * start would lose what was typed, the word itself joins the list, so TAB only lists them.
 */
function narrow(candidates: string[], word: string): string[] {
	const extending = candidates.filter((candidate) => loose(candidate).startsWith(loose(word)));
	const list = extending.length > 0 ? extending : candidates;
	const prefix = commonPrefix(list);
	if (list.length > 1 && !word.startsWith(prefix) && !loose(prefix).startsWith(loose(word))) return [...list, word];
	return list;
}

const isBranch = (option: APIApplicationCommandOption): boolean =>
	option.type === ApplicationCommandOptionType.Subcommand ||
	option.type === ApplicationCommandOptionType.SubcommandGroup;

const optionsOf = (option: APIApplicationCommandOption): readonly APIApplicationCommandOption[] =>
	'options' in option && option.options ? option.options : [];

/** The candidates for the word under the cursor; none when the line before it does not parse as a command. */
export async function completeLine(line: string, options: CompleterOptions): Promise<Completion> {
	const { done, current } = scanWords(line);
	const typed = current.value;
	const word = line.slice(current.start);
	const none: Completion = [[], word];
	const answer = (candidates: readonly string[]): Completion => [narrow([...new Set(candidates)], word), word];

	if (done.length === 0) {
		if (current.key !== undefined) return none;
		const name = typed.replace(/^\//, '');
		const commands = options.commands.filter((c) => startsWith(c.name, name)).map((c) => `/${c.name} `);
		const words = typed.startsWith('/') ? [] : options.words().filter((word) => startsWith(word, typed));
		return answer([...commands, ...words]);
	}

	const [first, ...rest] = done;
	if (first?.key !== undefined) return none;
	const command = options.commands.find((c) => c.name === first?.value.replace(/^\//, '').toLowerCase());
	if (!command) return none;

	// Walk the subcommand group and subcommand as line-parser.ts parseLine does.
	let level: readonly APIApplicationCommandOption[] = command.options ?? [];
	let group: string | undefined;
	let subcommand: string | undefined;
	let index = 0;
	while (level.some(isBranch)) {
		const word = rest[index];
		if (word === undefined) {
			if (current.key !== undefined) return none;
			return answer(level.filter((o) => isBranch(o) && startsWith(o.name, typed)).map((o) => `${o.name} `));
		}
		const branch = level.find((o) => isBranch(o) && word.key === undefined && o.name === word.value.toLowerCase());
		if (!branch) return none;
		if (branch.type === ApplicationCommandOptionType.SubcommandGroup) group = branch.name;
		else subcommand = branch.name;
		level = optionsOf(branch);
		index++;
	}

	const leaves = level as readonly APIApplicationCommandBasicOption[];
	const given = rest.slice(index).flatMap((word) => {
		const option = leaves.find((o) => o.name === word.key);
		return option ? [{ name: option.name, type: option.type, value: word.value }] : [];
	});
	if (current.key === undefined) {
		return answer(
			leaves
				.filter((o) => consoleTakes(o.type) && !given.some((g) => g.name === o.name) && startsWith(o.name, typed))
				.map((o) => `${o.name}:`),
		);
	}
	const option = leaves.find((o) => o.name === current.key);
	if (!option) return none;
	const value = (v: string | number) => `${option.name}:${quoteValue(String(v))} `;

	if ('choices' in option && option.choices && option.choices.length > 0) {
		const choices = option.choices as readonly AutocompleteChoice[];
		return answer(
			choices.filter((c) => startsWith(String(c.value), typed) || startsWith(c.name, typed)).map((c) => value(c.value)),
		);
	}
	if (option.type === ApplicationCommandOptionType.Attachment) {
		// The parser takes `file:path` or a bare path; a folder gets no space, so TAB can go on into it.
		const scheme = typed.startsWith('file:') ? 'file:' : '';
		return answer(
			(options.paths?.(typed.slice(scheme.length)) ?? []).map((path) =>
				path.endsWith('/') ? `${option.name}:${quoteValue(scheme + path)}` : value(scheme + path),
			),
		);
	}
	if (option.type === ApplicationCommandOptionType.Boolean) {
		return answer(['true', 'false'].filter((word) => startsWith(word, typed)).map(value));
	}
	if ('autocomplete' in option && option.autocomplete) {
		const choices = await options.ask({
			name: command.name,
			group,
			subcommand,
			focused: { name: option.name, type: option.type, value: typed },
			options: given.filter((g) => g.name !== option.name),
		});
		return answer(choices.map((c) => value(c.value)));
	}
	return none;
}
