import { ApplicationCommandOptionType as T, type RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ConsoleLineError, continuesQuote, parseLine, tokenizeLine } from '../../src/console/line-parser.js';

const commands = [
	{ name: 'about', description: 'x' },
	{
		name: 'race',
		description: 'x',
		options: [
			{
				type: T.Subcommand,
				name: 'submit',
				description: 'x',
				options: [
					{ type: T.String, name: 'results', description: 'x', required: true },
					{ type: T.Attachment, name: 'file', description: 'x' },
				],
			},
			{
				type: T.SubcommandGroup,
				name: 'admin',
				description: 'x',
				options: [
					{
						type: T.Subcommand,
						name: 'void',
						description: 'x',
						options: [{ type: T.Integer, name: 'race', description: 'x', required: true, min_value: 1 }],
					},
				],
			},
		],
	},
	{
		name: 'rating',
		description: 'x',
		options: [
			{ type: T.String, name: 'player', description: 'x' },
			{ type: T.User, name: 'user', description: 'x' },
			{ type: T.Number, name: 'k', description: 'x' },
			{ type: T.Boolean, name: 'chart', description: 'x' },
			{ type: T.String, name: 'system', description: 'x', choices: [{ name: 'Folyami', value: 'folyami' }] },
		],
	},
] as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody[];

const fails = (line: string, message: RegExp) => expect(() => parseLine(line, commands)).toThrow(message);

describe('console line parser', () => {
	it('reads a command with a subcommand and a quoted value with escapes', () => {
		expect(parseLine('/race submit results:"1. Alice\\n2. Bob"', commands)).toEqual({
			name: 'race',
			group: undefined,
			subcommand: 'submit',
			options: [{ name: 'results', type: T.String, value: '1. Alice\n2. Bob' }],
		});
	});

	it('reads a subcommand group and types an integer', () => {
		const parsed = parseLine('/race admin void race:12', commands);
		expect(parsed).toMatchObject({ group: 'admin', subcommand: 'void', options: [{ name: 'race', value: 12 }] });
	});

	it('types strings, users, numbers, booleans and choices', () => {
		const parsed = parseLine("rating player:'Zak McKracken' user:@Alice k:2.5 chart:yes system:Folyami", commands);
		expect(parsed.options.map((o) => o.value)).toEqual([
			'Zak McKracken',
			{ kind: 'user', name: 'Alice' },
			2.5,
			true,
			'folyami',
		]);
		expect(parseLine('/rating user:123456789012345678', commands).options[0]?.value).toEqual({
			kind: 'user',
			id: '123456789012345678',
		});
	});

	it('reads an attachment as a local path, with or without file:', () => {
		expect(parseLine('/race submit results:x file:file:data/a.csv', commands).options[1]?.value).toEqual({
			kind: 'file',
			path: 'data/a.csv',
		});
		expect(parseLine('/race submit results:x file:data/b.csv', commands).options[1]?.value).toEqual({
			kind: 'file',
			path: 'data/b.csv',
		});
	});

	it('keeps newlines of a continued line inside quotes', () => {
		expect(tokenizeLine('results:"1. A\n2. B" x:y')).toEqual([
			{ key: 'results', value: '1. A\n2. B', quoted: true },
			{ key: 'x', value: 'y' },
		]);
	});

	it('continues an unquoted text value over the words after it, as Discord takes a text option', () => {
		expect(parseLine('/rating player:Lewis   Hamilton chart:true', commands).options).toEqual([
			{ name: 'player', type: T.String, value: 'Lewis Hamilton' },
			{ name: 'chart', type: T.Boolean, value: true },
		]);
		expect(parseLine('/race submit results:1. Ann 2. Bob', commands).options).toEqual([
			{ name: 'results', type: T.String, value: '1. Ann 2. Bob' },
		]);
		// A quoted value ends at its quote, and a number or a choice takes no more words.
		fails('/rating player:"Lewis" Hamilton', /unexpected "Hamilton"/);
		fails('/rating k:2 5', /unexpected "5"/);
		fails('/rating system:Folyami extra', /option system must be one of folyami|unexpected "extra"/);
	});

	it('runs an unquoted text value to the end of the line or to the next option of the command', () => {
		// `1:23.456;` is no option (the docs' example failed with "unknown option 1"), `file:` is one.
		expect(
			parseLine('/race submit results:1. Alice 1:23.456; 2. Bob 1:24.010; 3. Carol DNF', commands).options,
		).toEqual([{ name: 'results', type: T.String, value: '1. Alice 1:23.456; 2. Bob 1:24.010; 3. Carol DNF' }]);
		expect(parseLine('/race submit results:Out: Disconnected  Wen file:a.csv', commands).options).toEqual([
			{ name: 'results', type: T.String, value: 'Out: Disconnected Wen' },
			{ name: 'file', type: T.Attachment, value: { kind: 'file', path: 'a.csv' } },
		]);
		// A word with a colon that is no option of the command stays in the value, and so do quotes inside it.
		expect(parseLine('/race submit results:1. "Max 33" 1:02.3 colour:red', commands).options[0]?.value).toBe(
			'1. "Max 33" 1:02.3 colour:red',
		);
		expect(parseLine('/rating player:Lewis Hamilton CHART:yes', commands).options.map((o) => o.value)).toEqual([
			'Lewis Hamilton',
			true,
		]);
	});

	it('tells when a quoted value is still open at the end of the text, so the console reads the next line on', () => {
		expect(continuesQuote('/race submit results:"1. Alice 1:23.456', commands)).toBe(true);
		expect(continuesQuote('/race submit results:"1. Alice 1:23.456\n2. Bob', commands)).toBe(true);
		expect(continuesQuote("/race submit results:'1. Alice", commands)).toBe(true);
		expect(continuesQuote('/race submit results:"1. Alice\n2. Bob"', commands)).toBe(false);
		expect(parseLine('/race submit results:"1. Alice 1:23.456\n2. Bob 1:24.0"', commands).options[0]?.value).toBe(
			'1. Alice 1:23.456\n2. Bob 1:24.0',
		);
		// An unquoted value, a bad line or no command: nothing to continue.
		expect(continuesQuote('/race submit results:Bob "The Rocket', commands)).toBe(false);
		expect(continuesQuote('/race submit colour:"x', commands)).toBe(false);
		expect(continuesQuote('confirm', commands)).toBe(false);
	});

	it('explains every kind of bad line', () => {
		fails('/nope', /unknown command \/nope \(known: about, race, rating\)/);
		fails('/race', /\/race needs a subcommand: submit, admin/);
		fails('/race fly', /unknown subcommand \/race fly/);
		fails('/race submit', /\/race submit needs results:<text>/);
		fails('/race submit colour:red results:x', /unknown option colour for \/race submit/);
		fails('/race admin void race:1 colour:red', /unknown option colour for \/race admin void/);
		fails('/race submit results:x results:y', /given twice/);
		fails('/race submit results:"1. Alice', /unbalanced quote/);
		fails('/race admin void race:1.5', /option race expects integer, got "1.5"/);
		fails('/race admin void race:0', /at least 1/);
		fails('/rating k:fast', /option k expects number/);
		fails('/rating chart:maybe', /option chart expects true\/false/);
		fails('/rating user:Alice', /option user expects @name or user id/);
		fails('/rating system:elo', /must be one of folyami/);
		fails('/about extra', /\/about takes no options/);
		fails('player:x', /expected a command name/);
		expect(() => parseLine('/nope', commands)).toThrow(ConsoleLineError);
	});
});
