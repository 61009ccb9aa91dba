/**
 * The registry contract (STYLE.md 2): unique names, and every entry has the shape Discord and the router accept.
 * Limits from https://discord.com/developers/docs/interactions/application-commands#application-command-object
 */
import { ApplicationCommandOptionType, InteractionContextType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buttons, commands } from '../../commands/index.js';

const NAME = /^[-_\p{L}\p{N}]{1,32}$/u;
const lowerName = z
	.string()
	.regex(NAME)
	.refine((name) => name === name.toLowerCase(), 'names must be lower case');
const description = z.string().min(1).max(100);
const choice = z.object({ name: z.string().min(1).max(100), value: z.union([z.string().max(100), z.number()]) });

const leafOption = z.object({
	type: z.enum(ApplicationCommandOptionType).refine((type) => type > ApplicationCommandOptionType.SubcommandGroup),
	name: lowerName,
	description,
	required: z.boolean().optional(),
	choices: z.array(choice).max(25).optional(),
	autocomplete: z.boolean().optional(),
});

/** Required options first: Discord rejects a required option after an optional one. */
function requiredFirst(options: readonly { required?: boolean | undefined }[]): boolean {
	const firstOptional = options.findIndex((option) => !option.required);
	return firstOptional === -1 || options.slice(firstOptional).every((option) => !option.required);
}

const leafOptions = z.array(leafOption).max(25).refine(requiredFirst, 'required options must come first');
const subcommand = z.object({
	type: z.literal(ApplicationCommandOptionType.Subcommand),
	name: lowerName,
	description,
	options: leafOptions.optional(),
});
const group = z.object({
	type: z.literal(ApplicationCommandOptionType.SubcommandGroup),
	name: lowerName,
	description,
	options: z.array(subcommand).min(1).max(25),
});

const commandShape = z.object({
	data: z.object({
		name: lowerName,
		description,
		options: z.union([leafOptions, z.array(z.union([subcommand, group])).max(25)]).optional(),
	}),
	defer: z.enum(['ephemeral', 'public', 'none']),
	organizerOnly: z.boolean().optional(),
	execute: z.function(),
	autocomplete: z.function().optional(),
});

/**
 * Discord counts the name, description and value of a command, its options (subcommands and groups included) and
 * choices together, and refuses a command over 8,000 characters (raised from 4,000 in 2024: discord-api-docs #6668).
 */
const MAX_COMMAND_CHARACTERS = 8000;
type Counted = {
	name?: string;
	description?: string;
	value?: unknown;
	options?: readonly Counted[];
	choices?: readonly Counted[];
};
function characters(node: Counted): number {
	const own =
		(node.name ?? '').length +
		(node.description ?? '').length +
		(typeof node.value === 'string' ? node.value.length : 0);
	const children = [...(node.options ?? []), ...(node.choices ?? [])];
	return own + children.reduce((sum, child) => sum + characters(child), 0);
}

type AnyOption = { autocomplete?: boolean; options?: readonly AnyOption[] };
function usesAutocomplete(options: readonly AnyOption[] = []): boolean {
	return options.some((option) => option.autocomplete === true || usesAutocomplete(option.options));
}

describe('command registry', () => {
	it('is not empty and starts with /about', () => {
		expect(commands.map((command) => command.data.name)).toContain('about');
	});

	it('has unique command names', () => {
		const names = commands.map((command) => command.data.name);
		expect(new Set(names).size).toBe(names.length);
	});

	it.each(commands.map((command) => [command.data.name, command] as const))(
		'/%s has a valid shape',
		(_name, command) => {
			const result = commandShape.safeParse(command);
			expect(result.success ? [] : result.error.issues).toEqual([]);
		},
	);

	it.each(commands.map((command) => [command.data.name, command] as const))(
		'/%s stays within Discord’s combined character limit',
		(_name, command) => {
			expect(characters(command.data as Counted)).toBeLessThanOrEqual(MAX_COMMAND_CHARACTERS);
		},
	);

	it('counts a command’s characters as Discord does: names, descriptions and string values, nested', () => {
		const counted = {
			name: 'ab',
			description: 'cde',
			options: [
				{
					name: 'f',
					description: 'gh',
					choices: [
						{ name: 'i', value: 'jk' },
						{ name: 'l', value: 3 },
					],
				},
			],
		};
		expect(characters(counted)).toBe(2 + 3 + 1 + 2 + 1 + 2 + 1);
	});

	it.each(commands.map((command) => [command.data.name, command] as const))(
		'/%s has an autocomplete handler iff an option asks for autocomplete',
		(_name, command) => {
			expect(typeof command.autocomplete === 'function').toBe(usesAutocomplete(command.data.options as AnyOption[]));
		},
	);

	it('offers every command but /about in servers only: Discord hides them in DMs, where there is no league', () => {
		const where = Object.fromEntries(
			commands.map((command) => [command.data.name, (command.data as { contexts?: unknown }).contexts]),
		);
		const { about, ...leagueCommands } = where;
		expect(about).toBeUndefined();
		expect(Object.keys(leagueCommands).length).toBeGreaterThan(0);
		for (const contexts of Object.values(leagueCommands)) expect(contexts).toEqual([InteractionContextType.Guild]);
	});

	it('has unique button prefixes without ":"', () => {
		const prefixes = buttons.map((button) => button.prefix);
		expect(new Set(prefixes).size).toBe(prefixes.length);
		for (const prefix of prefixes) expect(prefix).toMatch(/^[a-z][-a-z0-9]*$/);
	});

	it('the shape check rejects a bad entry (upper-case name, long description, missing defer)', () => {
		const bad = { data: { name: 'About', description: 'x'.repeat(101) }, execute: () => Promise.resolve() };
		const result = commandShape.safeParse(bad);
		expect(result.success).toBe(false);
		expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(
			expect.arrayContaining(['data.name', 'data.description', 'defer']),
		);
	});
});
