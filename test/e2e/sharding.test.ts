/**
 * SHARDS=N: the process becomes discord.js's ShardingManager and runs one bot process per shard, each
 * identifying as its shard; the fake Discord sends the guild's interactions to its shard only (as Discord does), so
 * each is answered once; SIGTERM to the manager stops every shard. A bad SHARDS is one clear line and exit code 2.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { content } from './league-bot.js';

const entry = join(import.meta.dirname, '../../src/index.ts');
// The working directory is empty (no .env can leak in), so tsx is named by its resolved URL; the shards inherit it.
const tsx = import.meta.resolve('tsx');
let fake: FakeDiscord | undefined;
let child: ChildProcess | undefined;
const dirs: string[] = [];

function start(env: Record<string, string>): { child: ChildProcess; output: () => string } {
	const cwd = mkdtempSync(join(tmpdir(), 'pitwall-shards-'));
	dirs.push(cwd);
	let output = '';
	const base = { ...process.env };
	for (const key of ['SHARDS', 'SHARD_COUNT', 'SHARDING_MANAGER', 'DISCORD_TOKEN', 'STORE_URL']) delete base[key];
	child = spawn(process.execPath, ['--import', tsx, entry], {
		cwd,
		env: { ...base, NODE_ENV: 'test', STORE_URL: `sqlite://${join(cwd, 'store.sqlite')}`, ...env },
	});
	child.stdout?.on('data', (d: Buffer) => void (output += d.toString()));
	child.stderr?.on('data', (d: Buffer) => void (output += d.toString()));
	return { child, output: () => output };
}

const exited = (c: ChildProcess) =>
	c.exitCode !== null ? Promise.resolve(c.exitCode) : new Promise<number | null>((r) => c.once('exit', r));

afterEach(async () => {
	if (child && child.exitCode === null) child.kill('SIGKILL');
	await fake?.close();
	fake = undefined;
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('SHARDS', () => {
	it('SHARDS=2: two shard processes, one answer per interaction, SIGTERM stops them all', async () => {
		fake = await startFakeDiscord();
		const bot = start({
			DISCORD_TOKEN: fake.token,
			DISCORD_APP_ID: fake.appId,
			DISCORD_API_URL: fake.apiUrl,
			SHARDS: '2',
		});
		await expect.poll(() => fake!.shards.length, { timeout: 60_000, interval: 200 }).toBe(2);
		expect([...fake.shards].sort()).toEqual([
			[0, 2],
			[1, 2],
		]);
		await expect.poll(() => bot.output(), { timeout: 20_000 }).toContain('shards running');
		const handle = fake.sendSlashCommand('about', []);
		expect(content(await handle.next())).toMatch(/pitwall \d+\.\d+\.\d+/);
		await new Promise((r) => setTimeout(r, 300));
		expect(handle.events.filter((e) => e.kind === 'callback')).toHaveLength(1);
		const pids = [...bot.output().matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1]));
		expect(new Set(pids).size).toBe(3); // the manager and its two shards (pino logs each one's pid)
		child!.kill('SIGTERM');
		expect(await exited(child!)).toBe(0);
		const alive = [...new Set(pids)].filter((pid) => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		});
		expect(alive).toEqual([]);
	}, 120_000);

	it('a bad SHARDS is one clear line and exit code 2', async () => {
		const bot = start({ DISCORD_TOKEN: 'aaaa.bbbb.cccc', DISCORD_APP_ID: '123456789012345678', SHARDS: 'many' });
		expect(await exited(bot.child)).toBe(2);
		expect(bot.output()).toContain('SHARDS must be auto or a whole number of shards from 1 to 4096, not "many".');
	}, 30_000);
});
