/**
 * The local console: reads lines (a terminal or a pipe), runs each slash command through the same router and
 * handlers as the bot, one at a time and in order, and answers armed buttons from a typed `confirm` / `cancel`.
 * A trailing `\` continues the line, and so does a quoted option value still open (`results:"1. Alice` then
 * `2. Bob"`). `help` lists the commands; `exit`, `quit` or end of input stop it.
 * On a terminal readline adds the prompt, echo, line editing, a history kept in a file, and TAB
 * completion (completer.ts) whose names and player choices come through the router like Discord's autocomplete.
 */
import { resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { ApplicationCommandOptionType, type APIApplicationCommandOption } from 'discord.js';
import type { Command } from '../discord/command.js';
import { createInteractionRouter, type RouterOptions } from '../discord/router.js';
import { completeLine, type AutocompleteChoice, type Completion } from './completer.js';
import { HISTORY_SIZE, loadHistory, saveHistory } from './console-history.js';
import {
	createConsoleAutocomplete,
	createConsoleButton,
	createConsoleCommand,
	showChannelMessage,
	type ConsoleMessage,
	type ConsoleSession,
} from './console-interaction.js';
import { ConsoleLineError, continuesQuote, describeOption, parseLine } from './line-parser.js';
import { pathChoices } from './path-choices.js';
import { buttonWord, type ConsoleButton } from './render.js';

/** The router's options (the same commands, buttons and context as the bot) plus the console's own. */
export interface ConsoleOptions extends RouterOptions {
	readonly input: NodeJS.ReadableStream;
	readonly write: (text: string) => void;
	/**
	 * A terminal: prompt, echo, line editing, history and TAB completion, written to `output`. Off for a pipe, where
	 * lines are only read (no prompt, no echo).
	 */
	readonly prompt: boolean;
	/** Where readline draws the prompt and echo on a terminal (default process.stdout). */
	readonly output?: NodeJS.WritableStream;
	/** The terminal's history file (default: none, history lasts one run). */
	readonly historyFile?: string;
	/** ANSI styling of the ephemeral marker (a terminal). */
	readonly color?: boolean;
	/** Where charts and other files are written (default data/console-out); paths are printed absolute. */
	readonly outDir?: string;
	readonly now?: () => Date;
	/**
	 * Hands the caller a function that prints a message the bot posts by itself, arming its buttons (the results
	 * inbox's previews when the console runs the HTTP server); it returns the message's id.
	 */
	readonly channel?: (show: (payload: unknown) => string) => void;
}

const PROMPT = 'pitwall> ';
const CONTINUE_PROMPT = '...> ';

function optionLines(options: readonly APIApplicationCommandOption[], path: string): string[] {
	const branches = options.filter(
		(o) =>
			o.type === ApplicationCommandOptionType.Subcommand || o.type === ApplicationCommandOptionType.SubcommandGroup,
	);
	if (branches.length === 0) {
		return [`  ${[path, ...options.map(describeOption)].join(' ')}`];
	}
	return branches.flatMap((branch) =>
		optionLines('options' in branch && branch.options ? branch.options : [], `${path} ${branch.name}`),
	);
}

/** `help`: every command, its description and its option lines. */
export function helpText(commands: readonly Command[]): string {
	const lines = ['Commands (options are name:value, quote values with spaces: results:"1. Alice\\n2. Bob"):'];
	for (const command of commands) {
		lines.push(`/${command.data.name} — ${command.data.description}`);
		lines.push(...optionLines(command.data.options ?? [], `/${command.data.name}`));
	}
	lines.push('help · exit · after a message with buttons, type the button ([confirm], [cancel])');
	return lines.join('\n');
}

/** Runs until `exit`/`quit` or end of input; resolves with the exit code (0). */
export async function runConsole(options: ConsoleOptions): Promise<number> {
	const route = createInteractionRouter(options);
	let counter = 0;
	let armed: { buttons: readonly ConsoleButton[]; message: ConsoleMessage } | undefined;
	const session: ConsoleSession = {
		outDir: resolve(options.outDir ?? 'data/console-out'),
		now: options.now ?? (() => new Date()),
		color: options.color ?? false,
		write: options.write,
		nextId: () => `${BigInt(Date.now()) * 1000n + BigInt(counter++ % 1000)}`,
		armButtons: (buttons, message) => {
			const active = buttons.filter((button) => !button.disabled);
			armed = active.length > 0 ? { buttons: active, message } : armed?.message === message ? undefined : armed;
		},
	};
	const data = options.commands.map((command) => command.data);
	options.channel?.((payload) => showChannelMessage(session, payload).id);

	const press = async (word: string): Promise<boolean> => {
		const target = word.toLowerCase();
		const button =
			armed?.buttons.find((b) => buttonWord(b) === target) ??
			armed?.buttons.find((b) => b.customId.split(':').slice(1, 2).includes(target));
		if (!armed || !button) return false;
		const { message } = armed;
		armed = undefined; // one press per message, as a clicked Discord button is usually answered by an update
		await route(createConsoleButton(button, message, session));
		return true;
	};

	const handle = async (line: string): Promise<'exit' | undefined> => {
		const text = line.trim();
		if (text === '' || text.startsWith('#')) return undefined;
		if (text === 'exit' || text === 'quit') return 'exit';
		if (text === 'help' || text === '/help') {
			options.write(`${helpText(options.commands)}\n`);
			return undefined;
		}
		try {
			if (!text.startsWith('/') && (await press(text))) return undefined;
			if (!text.startsWith('/') && armed) {
				throw new ConsoleLineError(
					`"${text}" is not a button here: type ${armed.buttons.map((b) => buttonWord(b)).join(' or ')}, or a /command`,
				);
			}
			if (/^[^/\s]+$/.test(text) && !data.some((command) => command.name === text.toLowerCase())) {
				throw new ConsoleLineError(`no button is waiting for "${text}"; commands start with / (type help)`);
			}
			const parsed = parseLine(text, data);
			await route(createConsoleCommand(parsed, session));
		} catch (error) {
			if (!(error instanceof ConsoleLineError)) throw error;
			options.write(`error: ${error.message}\n`);
		}
		return undefined;
	};

	let pending = '';
	/** TAB: the command's autocomplete handler answers through the router, as a Discord autocomplete would. */
	const ask = async (request: Parameters<typeof createConsoleAutocomplete>[0]) => {
		let choices: readonly AutocompleteChoice[] = [];
		await route(createConsoleAutocomplete(request, session, (given) => (choices = given)));
		return choices;
	};
	const completer = (line: string, callback: (error: null, result: Completion) => void): void => {
		// A continued line is the inside of a value (a pasted scoreboard): nothing to complete.
		if (pending !== '') return callback(null, [[], line]);
		const words = () => ['help', 'exit', 'quit', ...(armed?.buttons.map((b) => buttonWord(b)) ?? [])];
		completeLine(line, { commands: data, ask, words, paths: (typed) => pathChoices(typed) }).then(
			(result) => callback(null, result),
			() => callback(null, [[], line]),
		);
	};
	// History is a convenience: a file that cannot be read or written is reported once and the console goes on.
	let historyBroken = false;
	const historyFailed = (error: unknown) => {
		if (historyBroken) return;
		historyBroken = true;
		const reason = (error as NodeJS.ErrnoException).code ?? String(error);
		options.write(`warning: history not kept in ${options.historyFile}: ${reason}\n`);
	};
	let history: string[] = [];
	if (options.prompt && options.historyFile !== undefined) {
		try {
			history = loadHistory(options.historyFile);
		} catch (error) {
			historyFailed(error);
		}
	}
	const rl: Interface = createInterface({
		input: options.input,
		...(options.prompt
			? {
					output: options.output ?? process.stdout,
					terminal: true,
					completer,
					history,
					historySize: HISTORY_SIZE,
					removeHistoryDuplicates: true,
				}
			: { terminal: false }),
		crlfDelay: Infinity,
	});
	if (options.prompt) {
		const file = options.historyFile;
		if (file !== undefined) {
			rl.on('history', (lines: string[]) => {
				if (historyBroken) return;
				try {
					saveHistory(file, lines);
				} catch (error) {
					historyFailed(error);
				}
			});
		}
		// Ctrl-C clears a half-typed line (and drops a continued one); on an empty line it leaves.
		rl.on('SIGINT', () => {
			if (rl.line === '' && pending === '') return rl.close();
			rl.write(null, { ctrl: true, name: 'e' });
			rl.write(null, { ctrl: true, name: 'u' });
			if (pending !== '') {
				pending = '';
				rl.setPrompt(PROMPT);
				rl.prompt();
			}
		});
		rl.setPrompt(PROMPT);
		rl.prompt();
	}
	for await (const raw of rl) {
		const backslash = raw.endsWith('\\') && !raw.endsWith('\\\\');
		// A trailing `\` continues the line, and so does a quoted value still open (a scoreboard pasted in quotes).
		if (backslash || continuesQuote((pending + raw).trim(), data)) {
			pending += `${backslash ? raw.slice(0, -1) : raw}\n`;
			if (options.prompt) {
				rl.setPrompt(CONTINUE_PROMPT);
				rl.prompt();
			}
			continue;
		}
		const line = pending + raw;
		pending = '';
		if ((await handle(line)) === 'exit') break;
		if (options.prompt) {
			rl.setPrompt(PROMPT);
			rl.prompt();
		}
	}
	if (pending !== '') await handle(pending);
	rl.close();
	return 0;
}
