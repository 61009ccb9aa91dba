/**
 * End to end through the REAL discord.js client against test/e2e/fake-discord.ts: login over the gateway, command
 * registration, and the router's policies (reply, UserFacingError, unexpected error, defer, organizer check,
 * buttons, autocomplete, expired interactions) as Discord would see them on the wire.
 */
import {
	AttachmentBuilder,
	Events,
	MessageFlags,
	PermissionFlagsBits,
	type Client,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { buttons, commands } from '../../commands/index.js';
import { startBot } from '../../src/discord/client.js';
import type { ButtonHandler, Command } from '../../src/discord/command.js';
import { deployCommands } from '../../src/discord/deploy-commands.js';
import { UserFacingError } from '../../src/discord/errors.js';
import { answer } from '../../src/discord/reply.js';
import { createLogger } from '../../src/logger.js';
import { raceSystems } from '../../src/ratings/index.js';
import { startFakeDiscord, type FakeDiscord, type Json, type ReplyEvent } from './fake-discord.js';

const EPHEMERAL = MessageFlags.Ephemeral as number;
const CALLBACK_MESSAGE = 4; // InteractionResponseType.ChannelMessageWithSource
const CALLBACK_DEFERRED = 5; // DeferredChannelMessageWithSource
const CALLBACK_DEFERRED_UPDATE = 6; // DeferredMessageUpdate
const CALLBACK_AUTOCOMPLETE = 8; // ApplicationCommandAutocompleteResult

function testCommand(name: string, extra: Partial<Command> & Pick<Command, 'execute'>): Command {
	const data = {
		name,
		description: `test command ${name}`,
	} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;
	return { data, defer: 'none', ...extra };
}

const testCommands: Command[] = [
	testCommand('refuse', {
		execute: () => Promise.reject(new UserFacingError('no-such-race', 'There is no race "R9" in this league.')),
	}),
	testCommand('crash', { execute: () => Promise.reject(new Error('database on fire')) }),
	testCommand('slow', {
		defer: 'public',
		async execute(interaction) {
			await new Promise((resolve) => setTimeout(resolve, 50));
			await answer(interaction, { content: 'standings ready @everyone' }, { ephemeral: false });
		},
	}),
	testCommand('slow-crash', { defer: 'ephemeral', execute: () => Promise.reject(new Error('chart renderer died')) }),
	testCommand('admin', {
		organizerOnly: true,
		execute: (interaction) => answer(interaction, { content: 'season reset' }, { ephemeral: true }),
	}),
	testCommand('shout', {
		defer: 'public',
		async execute(interaction) {
			const file = interaction.options.getAttachment('file', true);
			const text = await (await fetch(file.url)).text();
			const upper = new AttachmentBuilder(Buffer.from(text.toUpperCase()), { name: 'loud.txt' });
			await answer(interaction, { content: `read ${file.name}`, files: [upper] }, { ephemeral: false });
		},
	}),
	testCommand('pick', {
		execute: () => Promise.reject(new Error('not used')),
		async autocomplete(interaction) {
			const typed = interaction.options.getFocused();
			await interaction.respond(
				['folyami', 'glicko'].filter((id) => id.startsWith(typed)).map((id) => ({ name: id, value: id })),
			);
		},
	}),
];

const testButtons: ButtonHandler[] = [
	{
		prefix: 'bump',
		defer: 'update',
		async execute(interaction, args) {
			if (args[0] === 'fail') throw new UserFacingError('closed', 'Voting is closed.');
			await interaction.editReply({ content: `bumped ${args.join(',')}` });
		},
	},
];

let fake: FakeDiscord;
let client: Client;
const logs: Json[] = [];

beforeAll(async () => {
	fake = await startFakeDiscord();
	const log = createLogger({ level: 'debug', write: (line) => logs.push(JSON.parse(line) as Json) });
	client = await startBot({
		config: { DISCORD_API_URL: fake.apiUrl, DISCORD_TOKEN: fake.token },
		context: { log },
		commands: [...commands, ...testCommands],
		buttons: [...buttons, ...testButtons],
	});
	if (!client.isReady()) await once(client, Events.ClientReady);
});

afterAll(async () => {
	await client?.destroy();
	await fake?.close();
});

function expectCallback(event: ReplyEvent, type: number): Json {
	expect(event.kind).toBe('callback');
	if (event.kind !== 'callback') throw new Error('unreachable');
	expect(event.type).toBe(type);
	return event.data ?? {};
}

function logsFor(interactionId: string): Json[] {
	return logs.filter((record) => record['interactionId'] === interactionId);
}

describe('gateway and registration', () => {
	it('logs in over the fake gateway and sees the guild', () => {
		expect(fake.identified).toEqual([fake.token]);
		expect(client.user?.id).toBe(fake.botUserId);
		expect(client.guilds.cache.has(fake.guildId)).toBe(true);
	});

	it('deploy-commands PUTs every registry definition to the dev guild', async () => {
		const result = await deployCommands(
			{
				DISCORD_TOKEN: fake.token,
				DISCORD_APP_ID: fake.appId,
				DEV_GUILD_ID: fake.guildId,
				DISCORD_API_URL: fake.apiUrl,
			},
			commands.map((command) => command.data),
		);
		const put = fake.commandRegistrations.at(-1);
		expect(put?.path).toBe(`/applications/${fake.appId}/guilds/${fake.guildId}/commands`);
		expect(put?.body).toEqual(commands.map((command) => command.data));
		expect(put?.body.map((command) => command['name'])).toContain('about');
		expect(result).toEqual({ scope: 'guild', names: commands.map((command) => command.data.name) });
	});

	it('deploy-commands without DEV_GUILD_ID registers globally', async () => {
		const result = await deployCommands(
			{ DISCORD_TOKEN: fake.token, DISCORD_APP_ID: fake.appId, DEV_GUILD_ID: undefined, DISCORD_API_URL: fake.apiUrl },
			commands.map((command) => command.data),
		);
		expect(fake.commandRegistrations.at(-1)?.path).toBe(`/applications/${fake.appId}/commands`);
		expect(result.scope).toBe('global');
	});

	it('deploy-commands with a wrong token fails', async () => {
		await expect(
			deployCommands(
				{ DISCORD_TOKEN: 'x.y.z', DISCORD_APP_ID: fake.appId, DEV_GUILD_ID: undefined, DISCORD_API_URL: fake.apiUrl },
				[],
			),
		).rejects.toThrow(/401|Unauthorized/);
	});
});

describe('/about', () => {
	it('answers ephemerally with the version and every race system, mentions disabled', async () => {
		const data = expectCallback(await fake.sendSlashCommand('about').next(), CALLBACK_MESSAGE);
		const content = String(data['content']);
		expect(content).toContain(`pitwall ${pkg.version}`);
		expect(raceSystems.length).toBeGreaterThan(0);
		for (const system of raceSystems) expect(content).toContain(`\`${system.id}\`: ${system.raceModel}`);
		expect(Number(data['flags']) & EPHEMERAL).toBe(EPHEMERAL);
		expect(data['allowed_mentions']).toEqual({ parse: [] });
	});
});

describe('router policy', () => {
	it('a UserFacingError becomes an ephemeral reply with its message, logged at info', async () => {
		const handle = fake.sendSlashCommand('refuse');
		const data = expectCallback(await handle.next(), CALLBACK_MESSAGE);
		expect(data['content']).toBe('There is no race "R9" in this league.');
		expect(Number(data['flags']) & EPHEMERAL).toBe(EPHEMERAL);
		expect(data['allowed_mentions']).toEqual({ parse: [] });
		expect(logsFor(handle.id)).toContainEqual(
			expect.objectContaining({ level: 30, code: 'no-such-race', cmd: 'refuse' }),
		);
	});

	it('an unexpected error becomes "Something went wrong (ref: <id>)", logged with the interaction id', async () => {
		const handle = fake.sendSlashCommand('crash');
		const data = expectCallback(await handle.next(), CALLBACK_MESSAGE);
		expect(data['content']).toBe(`Something went wrong (ref: ${handle.id})`);
		expect(Number(data['flags']) & EPHEMERAL).toBe(EPHEMERAL);
		const error = logsFor(handle.id).find((record) => record['level'] === 50);
		expect(error).toMatchObject({ cmd: 'crash', guildId: fake.guildId, err: { message: 'database on fire' } });
	});

	it('defers before the work, then edits the original reply', async () => {
		const handle = fake.sendSlashCommand('slow');
		const deferred = expectCallback(await handle.next(), CALLBACK_DEFERRED);
		expect(Number(deferred['flags'] ?? 0) & EPHEMERAL).toBe(0);
		const edit = await handle.next();
		expect(edit).toMatchObject({ kind: 'edit', messageId: '@original' });
		if (edit.kind !== 'edit') throw new Error('unreachable');
		expect(edit.data['content']).toBe('standings ready @everyone');
		expect(edit.data['allowed_mentions']).toEqual({ parse: [] });
		expect(handle.events).toHaveLength(2);
	});

	it('an error after an ephemeral defer edits the "thinking" message with the reference', async () => {
		const handle = fake.sendSlashCommand('slow-crash');
		const deferred = expectCallback(await handle.next(), CALLBACK_DEFERRED);
		expect(Number(deferred['flags']) & EPHEMERAL).toBe(EPHEMERAL);
		const edit = await handle.next();
		expect(edit.kind).toBe('edit');
		if (edit.kind !== 'edit') throw new Error('unreachable');
		expect(edit.data['content']).toBe(`Something went wrong (ref: ${handle.id})`);
	});

	it('organizerOnly refuses members without Manage Server and admits those with it', async () => {
		const member = expectCallback(await fake.sendSlashCommand('admin').next(), CALLBACK_MESSAGE);
		expect(member['content']).toMatch(/Only league organizers/);
		expect(Number(member['flags']) & EPHEMERAL).toBe(EPHEMERAL);
		const organizer = fake.sendSlashCommand('admin', [], { permissions: PermissionFlagsBits.ManageGuild });
		expect(expectCallback(await organizer.next(), CALLBACK_MESSAGE)['content']).toBe('season reset');
	});

	it('an unknown command gets an ephemeral explanation', async () => {
		const data = expectCallback(await fake.sendSlashCommand('retired').next(), CALLBACK_MESSAGE);
		expect(data['content']).toBe('This command is not available any more.');
	});

	it('an expired interaction (10062) is ignored: no second attempt, nothing logged as an error', async () => {
		const handle = fake.sendSlashCommand('about', [], { expired: true });
		await expect.poll(() => fake.requests.some((r) => r.path.startsWith(`/interactions/${handle.id}/`))).toBe(true);
		await expect.poll(() => logsFor(handle.id).length).toBeGreaterThan(0);
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(fake.requests.filter((r) => r.path.includes(handle.token))).toHaveLength(1);
		expect(logsFor(handle.id).filter((record) => Number(record['level']) >= 40)).toEqual([]);
	});
});

describe('files', () => {
	it('serves an attachment option and captures a multipart reply with files', async () => {
		const attachment = fake.addAttachment('results.csv', 'race,player\nR1,alice\n', 'text/csv');
		const handle = fake.sendSlashCommand('shout', [{ name: 'file', type: 11, value: String(attachment['id']) }]);
		expectCallback(await handle.next(), CALLBACK_DEFERRED);
		const edit = await handle.next();
		if (edit.kind !== 'edit') throw new Error(`expected an edit, got ${edit.kind}`);
		expect(edit.data['content']).toBe('read results.csv');
		expect(edit.files).toHaveLength(1);
		expect(edit.files[0]).toMatchObject({ filename: 'loud.txt' });
		expect(edit.files[0]?.data.toString()).toBe('RACE,PLAYER\nR1,ALICE\n');
	});
});

describe('buttons and autocomplete', () => {
	it('routes a button by customId prefix, deferring the update then editing the message', async () => {
		const handle = fake.clickButton('bump:7:up');
		expectCallback(await handle.next(), CALLBACK_DEFERRED_UPDATE);
		expect(await handle.next()).toMatchObject({ kind: 'edit', data: { content: 'bumped 7,up' } });
	});

	it('a refused button click answers in an ephemeral follow-up, leaving the message alone', async () => {
		const handle = fake.clickButton('bump:fail');
		expectCallback(await handle.next(), CALLBACK_DEFERRED_UPDATE);
		const followUp = await handle.next();
		expect(followUp).toMatchObject({ kind: 'followup', data: { content: 'Voting is closed.' } });
		if (followUp.kind !== 'followup') throw new Error('unreachable');
		expect(Number(followUp.data['flags']) & EPHEMERAL).toBe(EPHEMERAL);
	});

	it('a button with an unknown prefix is told it is no longer active', async () => {
		const data = expectCallback(await fake.clickButton('gone:1').next(), CALLBACK_MESSAGE);
		expect(data['content']).toBe('This button is no longer active.');
	});

	it('routes autocomplete to the command and returns its choices', async () => {
		const handle = fake.sendAutocomplete('pick', [{ name: 'system', type: 3, value: 'gl', focused: true }]);
		const data = expectCallback(await handle.next(), CALLBACK_AUTOCOMPLETE);
		expect(data['choices']).toEqual([{ name: 'glicko', value: 'glicko' }]);
	});
});
