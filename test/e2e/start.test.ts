/**
 * `npm start` (src/index.ts) as a real process: a bad variable exits 2 with its message; a good configuration
 * connects to the fake Discord and answers /about.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';

const root = join(import.meta.dirname, '..', '..');
const entry = join(root, 'src', 'index.ts');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
// An empty working directory, so a developer's .env cannot leak into the test.
const cwd = mkdtempSync(join(tmpdir(), 'pitwall-start-'));

function start(env: Record<string, string>, script = entry): { child: ChildProcess; output: () => string } {
	const base = { ...process.env };
	for (const key of ['DISCORD_TOKEN', 'DISCORD_APP_ID', 'DEV_GUILD_ID', 'DISCORD_API_URL', 'STORE_URL'])
		delete base[key];
	const child = spawn(tsx, [script], { cwd, env: { ...base, NODE_ENV: 'test', ...env } });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return { child, output: () => output };
}

describe('src/index.ts', () => {
	let fake: FakeDiscord | undefined;
	let bot: ChildProcess | undefined;
	afterAll(async () => {
		bot?.kill('SIGTERM');
		if (bot && bot.exitCode === null) await once(bot, 'exit');
		await fake?.close();
		rmSync(cwd, { recursive: true, force: true });
	});

	it('exits 2 with one message per bad variable', async () => {
		const { child, output } = start({ DISCORD_TOKEN: 'Bot nope', DISCORD_APP_ID: 'app', LOG_LEVEL: 'loud' });
		const [code] = (await once(child, 'exit')) as [number];
		expect(code).toBe(2);
		expect(output()).toContain('DISCORD_TOKEN does not look like a bot token');
		expect(output()).toContain('DISCORD_APP_ID must be a Discord id');
		expect(output()).toContain('LOG_LEVEL must be one of');
	});

	it('connects with a valid configuration and answers /about', async () => {
		fake = await startFakeDiscord();
		const started = start({
			DISCORD_TOKEN: fake.token,
			DISCORD_APP_ID: fake.appId,
			DISCORD_API_URL: fake.apiUrl,
			LOG_LEVEL: 'info',
		});
		bot = started.child;
		await expect.poll(() => started.output(), { timeout: 20_000 }).toContain('connected to Discord');
		const line =
			started
				.output()
				.split('\n')
				.find((text) => text.includes('connected to Discord')) ?? '';
		expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'connected to Discord', guilds: 1 });
		const reply = await fake.sendSlashCommand('about').next();
		expect(reply).toMatchObject({ kind: 'callback', type: 4 });
		if (reply.kind === 'callback') expect(String(reply.data?.['content'])).toMatch(/^\*\*pitwall \d+\.\d+\.\d+\*\*/);
	});

	it('deploy-commands as a script registers the registry in DEV_GUILD_ID', async () => {
		const deployFake = await startFakeDiscord();
		try {
			const script = join(root, 'src', 'discord', 'deploy-commands.ts');
			const { child, output } = start(
				{
					DISCORD_TOKEN: deployFake.token,
					DISCORD_APP_ID: deployFake.appId,
					DEV_GUILD_ID: deployFake.guildId,
					DISCORD_API_URL: deployFake.apiUrl,
				},
				script,
			);
			const [code] = (await once(child, 'exit')) as [number];
			expect(code, output()).toBe(0);
			expect(deployFake.commandRegistrations).toHaveLength(1);
			expect(deployFake.commandRegistrations[0]?.path).toBe(
				`/applications/${deployFake.appId}/guilds/${deployFake.guildId}/commands`,
			);
			expect(deployFake.commandRegistrations[0]?.body.map((command) => command['name'])).toContain('about');
		} finally {
			await deployFake.close();
		}
	});
});
