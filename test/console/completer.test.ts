/**
 * TAB completion against the real registry's definitions: commands, subcommands, option names and
 * choices come from `commands/index.ts` data; autocomplete options are asked through the router, so the console
 * offers exactly what Discord's autocomplete would (checked against the autocomplete service on the sample league).
 */
import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import {
	completeLine,
	quoteValue,
	scanWords,
	type AutocompleteChoice,
	type AutocompleteRequest,
	type CompleterOptions,
} from '../../src/console/completer.js';
import {
	CONSOLE_GUILD_ID,
	CONSOLE_USER_ID,
	createConsoleAutocomplete,
	type ConsoleSession,
} from '../../src/console/console-interaction.js';
import { tokenizeLine } from '../../src/console/line-parser.js';
import { ensureSampleLeague } from '../../src/console/sample-league.js';
import { createInteractionRouter } from '../../src/discord/router.js';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';

const data = commands.map((command) => command.data);

/** A completer over the real definitions; `ask` answers from `names` and records what it was asked. */
function completer(names: readonly string[] = [], words: readonly string[] = ['help', 'exit', 'quit']) {
	const asked: AutocompleteRequest[] = [];
	const options: CompleterOptions = {
		commands: data,
		ask: (request) => {
			asked.push(request);
			return Promise.resolve(names.map((name) => ({ name, value: name })));
		},
		words: () => words,
	};
	return { asked, complete: (line: string) => completeLine(line, options) };
}

describe('scanWords', () => {
	it('splits words as the parser does and keeps the word under the cursor apart', () => {
		const line = '/rating league:"Kart Club" player:Al';
		const { done, current } = scanWords(line);
		expect(done.map((w) => [w.key, w.value])).toEqual([
			[undefined, '/rating'],
			['league', 'Kart Club'],
		]);
		expect(current).toEqual({ start: line.indexOf('player:'), key: 'player', value: 'Al' });
	});

	it('an open quote is the word being typed, spaces included; after a space the word is empty', () => {
		expect(scanWords('/rating player:"Renato B').current).toMatchObject({ key: 'player', value: 'Renato B' });
		expect(scanWords('/rating ').current).toEqual({ start: 8, key: undefined, value: '' });
	});
});

describe('quoteValue', () => {
	it('reads back through the line parser as the same value', () => {
		for (const value of ['Alice', 'Renato Biker', 'say "hi"', 'back\\slash', "it's", 'a\nb']) {
			expect(tokenizeLine(`player:${quoteValue(value)}`)).toMatchObject([{ key: 'player', value }]);
		}
	});
});

describe('completeLine over the registry', () => {
	it('completes command names from the registry, with help/exit as bare words', async () => {
		const { complete } = completer();
		const all = await complete('/');
		expect(all[0]).toEqual(data.map((d) => `/${d.name} `));
		expect(await complete('/ra')).toEqual([['/race ', '/rating '], '/ra']);
		expect((await complete('he'))[0]).toEqual(['help']);
		expect((await complete('conf'))[0]).toEqual([]);
		expect((await completer([], ['help', 'confirm', 'cancel']).complete('conf'))[0]).toEqual(['confirm']);
	});

	it('completes subcommands, then option names not given yet', async () => {
		const { complete } = completer();
		const race = data.find((d) => d.name === 'race');
		const subs = race?.options?.map((o) => `${o.name} `);
		expect((await complete('/race '))[0]).toEqual(subs);
		expect(await complete('/race su')).toEqual([['submit '], 'su']);
		expect((await complete('/race submit '))[0]).toEqual(['results:', 'league:', 'file:', 'date:', 'name:', 'class:']);
		expect((await complete('/race submit results:x '))[0]).not.toContain('results:');
		expect(await complete('/rating pl')).toEqual([['player:'], 'pl']);
		// Role and channel options exist in the definition but cannot be typed in the console: not offered.
		const create = data.find((d) => d.name === 'league')?.options?.find((o) => o.name === 'create');
		const createOptions = create && 'options' in create ? (create.options ?? []) : [];
		expect(createOptions.map((o) => o.type)).toContain(ApplicationCommandOptionType.Role);
		const offered = (await complete('/league create '))[0];
		expect(offered).toEqual(
			createOptions
				.filter((o) => o.type !== ApplicationCommandOptionType.Role && o.type !== ApplicationCommandOptionType.Channel)
				.map((o) => `${o.name}:`),
		);
		expect(offered).toContain('name:');
	});

	it('completes choices from the definition', async () => {
		const { complete, asked } = completer();
		const rating = data.find((d) => d.name === 'rating');
		const system = rating?.options?.find((o) => o.name === 'system');
		const values = system && 'choices' in system ? (system.choices ?? []).map((c) => `system:${c.value} `) : [];
		expect(values.length).toBeGreaterThan(1);
		expect((await complete('/rating system:'))[0]).toEqual(values);
		expect(await complete('/rating player:Ann system:GL')).toEqual([['system:glicko '], 'system:GL']);
		expect(asked).toEqual([]); // choices are local: no autocomplete round trip
	});

	it('asks for autocomplete options with the options typed before, and quotes the answer', async () => {
		const { complete, asked } = completer(['Renato Biker']);
		expect(await complete('/rating league:"Kart Club" player:ren')).toEqual([['player:"Renato Biker" '], 'player:ren']);
		expect(asked).toEqual([
			{
				name: 'rating',
				group: undefined,
				subcommand: undefined,
				focused: { name: 'player', type: ApplicationCommandOptionType.String, value: 'ren' },
				options: [{ name: 'league', type: ApplicationCommandOptionType.String, value: 'Kart Club' }],
			},
		]);
		await complete('/race void race:R1');
		expect(asked[1]).toMatchObject({ name: 'race', subcommand: 'void', focused: { name: 'race', value: 'R1' } });
	});

	it('prefers names that start with the word, and never replaces the word by a shorter start', async () => {
		// Prefix matches win over inner ones (Lorenzo contains "ren").
		expect((await completer(['Renato Biker', 'Lorenzo']).complete('/rating player:ren'))[0]).toEqual([
			'player:"Renato Biker" ',
		]);
		// Only inner matches: their common start `player:` is the start of the word, so TAB only lists them.
		expect((await completer(['Lorenzo', 'Karen']).complete('/rating player:ren'))[0]).toEqual([
			'player:Lorenzo ',
			'player:Karen ',
		]);
		// A comma list: quoted answers that do not extend the word keep the word in the list.
		const odds = await completer(['Argammon, Kay', 'Argammon, Mayhem']).complete('/odds players:Argammon,ay');
		expect(odds).toEqual([
			['players:"Argammon, Kay" ', 'players:"Argammon, Mayhem" ', 'players:Argammon,ay'],
			'players:Argammon,ay',
		]);
	});

	it('completes paths for an attachment option: a file ends the word, a folder does not', async () => {
		const asked: string[] = [];
		const paths = (typed: string) => {
			asked.push(typed);
			return ['results/', 'results 2024/', 'race.csv'].filter((p) => p.startsWith(typed));
		};
		const complete = (line: string) =>
			completeLine(line, { commands: data, ask: () => Promise.resolve([]), words: () => [], paths });
		expect(await complete('/race submit results:x file:results/')).toEqual([['file:results/'], 'file:results/']);
		expect(await complete('/race submit results:x file:ra')).toEqual([['file:race.csv '], 'file:ra']);
		expect(await complete('/race submit results:x file:"results ')).toEqual([
			['file:"results 2024/"'],
			'file:"results ',
		]);
		expect(await complete('/race submit results:x file:file:ra')).toEqual([['file:file:race.csv '], 'file:file:ra']);
		expect(asked).toEqual(['results/', 'ra', 'results ', 'ra']);
	});

	it('offers nothing for free text, unknown commands or options, and a word after a bad subcommand', async () => {
		const { complete, asked } = completer(['x']);
		for (const line of ['/race submit results:"1. Al', '/nope ', '/rating nope:', '/race nope ', 'league:x ']) {
			expect((await complete(line))[0]).toEqual([]);
		}
		expect(asked).toEqual([]);
	});
});

describe('console autocomplete through the router', () => {
	it('offers the same names as the autocomplete service on the sample league', async () => {
		const repo = createLeagueRepository(createMemoryStore());
		await ensureSampleLeague(repo, CONSOLE_GUILD_ID);
		const services = createServices(repo);
		const route = createInteractionRouter({ commands, context: { log: createLogger({ level: 'silent' }), services } });
		let n = 0;
		const session: ConsoleSession = {
			outDir: '.',
			now: () => new Date(),
			write: () => undefined,
			nextId: () => `${++n}`,
			armButtons: () => undefined,
		};
		const ask = async (request: AutocompleteRequest) => {
			let choices: readonly AutocompleteChoice[] = [];
			await route(createConsoleAutocomplete(request, session, (given) => (choices = given)));
			return choices;
		};
		const actor = { userId: CONSOLE_USER_ID, guildId: CONSOLE_GUILD_ID, manageGuild: true, roles: [] };
		const expected = await services.autocomplete.players(actor, undefined, 'ar');
		expect(expected.map((c) => c.value)).toContain('Argammon');
		const [candidates] = await completeLine('/rating player:ar', { commands: data, ask, words: () => [] });
		expect(candidates).toEqual(
			expected.filter((c) => c.value.toLowerCase().startsWith('ar')).map((c) => `player:${quoteValue(c.value)} `),
		);
		const leagues = await completeLine('/leaderboard league:Z', { commands: data, ask, words: () => [] });
		expect(leagues[0]).toEqual(['league:ZakStunts ']);
		await repo.close();
	});
});
