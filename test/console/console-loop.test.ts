/**
 * The console loop in-process: lines in order, errors printed and the loop going on, buttons pressed by typing
 * them, files written and their paths printed. Test-only commands stand in for the real ones.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import {
	ActionRowBuilder,
	ApplicationCommandOptionType,
	AttachmentBuilder,
	ButtonBuilder,
	ButtonStyle,
	EmbedBuilder,
	MessageFlags,
	PermissionFlagsBits,
} from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_GUILD_ID, userIdFor } from '../../src/console/console-interaction.js';
import { runConsole } from '../../src/console/console-loop.js';
import { renderMessage } from '../../src/console/render.js';
import { customId, type ButtonHandler, type Command } from '../../src/discord/command.js';
import { answer } from '../../src/discord/reply.js';
import { createLogger } from '../../src/logger.js';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-console-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const submitted: string[] = [];

const echo: Command = {
	data: {
		name: 'echo',
		description: 'Echo options',
		options: [
			{ type: ApplicationCommandOptionType.String, name: 'text', description: 'x', required: true },
			{ type: ApplicationCommandOptionType.User, name: 'user', description: 'x' },
			{ type: ApplicationCommandOptionType.Attachment, name: 'csv', description: 'x' },
		],
	},
	defer: 'public',
	organizerOnly: true,
	async execute(interaction) {
		const user = interaction.options.getUser('user');
		const file = interaction.options.getAttachment('csv');
		const body = file ? await (await fetch(file.url)).text() : '';
		const organizer = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild);
		await answer(
			interaction,
			{
				content: `text=${interaction.options.getString('text', true)} user=${user?.username}:${user?.id} file=${body.trim()}`,
				embeds: [
					new EmbedBuilder()
						.setTitle('Echo')
						.addFields({ name: 'guild', value: `${interaction.guildId} ${organizer}` })
						.setFooter({ text: 'foot' }),
				],
				files: [new AttachmentBuilder(Buffer.from([0x89, 0x50, 0x4e, 0x47]), { name: 'chart.png' })],
			},
			{ ephemeral: false },
		);
	},
};

const submit: Command = {
	data: {
		name: 'submit',
		description: 'Ask for confirmation',
		options: [{ type: ApplicationCommandOptionType.String, name: 'results', description: 'x', required: true }],
	},
	defer: 'ephemeral',
	async execute(interaction) {
		const results = interaction.options.getString('results', true);
		const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
			new ButtonBuilder()
				.setCustomId(customId('t', 'confirm', String(results.length)))
				.setLabel('Confirm')
				.setStyle(ButtonStyle.Success),
			new ButtonBuilder().setCustomId(customId('t', 'cancel')).setLabel('Cancel').setStyle(ButtonStyle.Secondary),
		);
		await answer(
			interaction,
			{ content: `preview: ${results.split('\n').join(' | ')}`, components: [row] },
			{ ephemeral: true },
		);
	},
};

const boom: Command = {
	data: { name: 'boom', description: 'Fails' },
	defer: 'none',
	execute: () => Promise.reject(new Error('kaboom')),
};

const press: ButtonHandler = {
	prefix: 't',
	defer: 'update',
	organizerOnly: true,
	async execute(interaction, args) {
		if (args[0] === 'confirm') submitted.push(args[1] ?? '');
		await interaction.editReply({ content: args[0] === 'confirm' ? `saved ${args[1]}` : 'cancelled', components: [] });
	},
};

async function run(lines: string): Promise<{ out: string; log: string; code: number }> {
	const input = new PassThrough();
	let out = '';
	let log = '';
	const done = runConsole({
		commands: [echo, submit, boom],
		buttons: [press],
		context: { log: createLogger({ level: 'error', write: (line) => (log += `${line}\n`) }) },
		input,
		write: (text) => (out += text),
		prompt: false,
		outDir: join(dir, 'out'),
		now: () => new Date('2026-01-02T03:04:05.678Z'),
	});
	input.end(lines);
	const code = await done;
	return { out, log, code };
}

describe('renderMessage', () => {
	it('prints the absolute path of a file even when the folder is given relative', () => {
		const rendered = renderMessage(
			{ files: [new AttachmentBuilder(Buffer.from('x'), { name: 'rating chart.png' })] },
			{ outDir: relative(process.cwd(), join(dir, 'rel')), now: () => new Date('2026-01-02T03:04:05.678Z') },
		);
		const path = join(dir, 'rel', '2026-01-02T03-04-05-678Z-rating_chart.png');
		expect(rendered.files).toEqual([path]);
		expect(rendered.text).toBe(`file written: ${path}`);
		expect(readFileSync(path, 'utf8')).toBe('x');
	});

	it('marks an ephemeral message, dim on a terminal, and takes the visibility of an edited message', () => {
		const options = { outDir: dir, now: () => new Date() };
		const flagged = { content: 'hi', flags: MessageFlags.Ephemeral };
		expect(renderMessage(flagged, options).text).toBe('(only you can see this)\nhi');
		expect(renderMessage(flagged, { ...options, color: true }).text).toBe('\x1b[2m(only you can see this)\x1b[22m\nhi');
		expect(renderMessage({ content: 'hi' }, options, true).text).toBe('(only you can see this)\nhi');
		expect(renderMessage({ content: 'hi' }, options).text).toBe('hi');
	});
});

describe('console loop', () => {
	it('runs a command with user, attachment, embed and file, as the organizer of the local guild', async () => {
		const csv = join(dir, 'in.csv');
		await import('node:fs/promises').then((fs) => fs.writeFile(csv, 'race,player\n'));
		const { out, code } = await run(`/echo text:"a b" user:@Alice csv:file:${csv}\n`);
		expect(code).toBe(0);
		expect(out).toContain(`text=a b user=Alice:${userIdFor('Alice')} file=race,player`);
		expect(out).toContain('== Echo ==');
		expect(out).toContain(`guild: ${CONSOLE_GUILD_ID} true`);
		expect(out).toContain('-- foot');
		const path = join(dir, 'out', '2026-01-02T03-04-05-678Z-chart.png');
		expect(out).toContain(`file written: ${path}`);
		expect(out).not.toContain('(only you can see this)'); // a public defer: everyone sees the answer
		expect([...readFileSync(path)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
	});

	it('prints errors and goes on with the next line', async () => {
		const { out, log } = await run(
			'/nope\n/echo\n/boom\n/echo text:after csv:missing.csv\n/echo text:ok\n/echo text:"open\n/echo text:never\n',
		);
		expect(out).toContain('error: unknown command /nope');
		expect(out).toContain('error: /echo needs text:<text>');
		expect(out).toContain('error: unbalanced quote');
		expect(out).toMatch(/Something went wrong \(ref: \d+\)/);
		expect(log).toContain('kaboom');
		expect(out).toContain('error: cannot read missing.csv: ENOENT');
		expect(out).toContain('text=ok');
		// A quote still open reads on to the end of the input, where it is unbalanced: the next line was its text.
		expect(out).not.toContain('text=never');
	});

	it('reads a quoted value on over the next lines until its closing quote, as a pasted scoreboard', async () => {
		const { out } = await run(
			[
				'/submit results:"Round 3 results',
				'1. Alice 1:23.456',
				'',
				'2. Bob 1:24.010"',
				'cancel',
				'/echo text:ok',
				'',
			].join('\n'),
		);
		expect(out).toContain('preview: Round 3 results | 1. Alice 1:23.456 |  | 2. Bob 1:24.010');
		expect(out).toContain('cancelled');
		expect(out).toContain('text=ok');
		expect(out).not.toContain('error:');
	});

	it('shows the continuation prompt on a terminal while a quote is open', async () => {
		const input = new PassThrough();
		const output = new PassThrough();
		let screen = '';
		output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
		let out = '';
		const done = runConsole({
			commands: [echo, submit, boom],
			buttons: [press],
			context: { log: createLogger({ level: 'error', write: () => undefined }) },
			input,
			output,
			write: (text) => (out += text),
			prompt: true,
			outDir: join(dir, 'out'),
		});
		input.write('/echo text:"one\r');
		input.write('two"\r');
		input.end('exit\r');
		await done;
		expect(screen).toContain('...> ');
		expect(out).toContain('text=one\ntwo');
	});

	it('answers buttons by typing confirm or cancel, continued lines keep their newline', async () => {
		submitted.length = 0;
		const { out } = await run(
			['/submit results:"1. Alice\\', '2. Bob"', 'maybe', 'confirm', 'confirm', '/submit results:x', 'Cancel', ''].join(
				'\n',
			),
		);
		expect(out).toContain('preview: 1. Alice | 2. Bob');
		// Deferred ephemeral, then edited: still only the user's, and so is the button's edit of that message.
		expect(out).toContain('(only you can see this)\npreview: 1. Alice | 2. Bob');
		expect(out).toContain('(only you can see this)\nsaved 15');
		expect(out).toContain('[confirm] [cancel]');
		expect(out).toContain('error: "maybe" is not a button here: type confirm or cancel');
		expect(out).toContain('saved 15');
		// A pressed button is spent: the second confirm is not a button any more.
		expect(out).toContain('error: no button is waiting for "confirm"');
		expect(out).toContain('cancelled');
		expect(submitted).toEqual(['15']);
	});

	it('stops at exit and lists commands with help', async () => {
		const { out, code } = await run('help\nexit\n/echo text:never\n');
		expect(code).toBe(0);
		expect(out).toContain('/echo text:<text> [user:<@name or user id>] [csv:<file:path>]');
		expect(out).not.toContain('text=never');
	});
});
