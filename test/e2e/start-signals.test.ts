/**
 * A service manager stops the bot with SIGTERM (SIGINT from a terminal) sent to the process it started, `npm start`
 *. npm forwards the signal to its script's process only, so that process must be the bot: the test
 * runs the real start path and asserts that no process of the tree survives the signal, that the run ends with exit
 * code 0, and that the SQLite store was closed cleanly (its write-ahead log checkpointed and removed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ORGANIZER, sub, text } from './league-bot.js';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';

const root = join(import.meta.dirname, '..', '..');

/** The parent of each live process, read from /proc (field 4 of /proc/<pid>/stat, after the command in parentheses). */
function parents(): Map<number, number> {
	const result = new Map<number, number>();
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			result.set(Number(name), ppid);
		} catch {
			// The process ended while the list was read.
		}
	}
	return result;
}

/** `pid` and every process below it. */
function processTree(pid: number): number[] {
	const table = [...parents()];
	const tree = [pid];
	for (let i = 0; i < tree.length; i++) for (const [child, parent] of table) if (parent === tree[i]) tree.push(child);
	return tree;
}

/** Alive and not a zombie (an orphan's zombie is reaped by init, the top process's by us). */
function alive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return false;
	}
}

interface Started {
	readonly child: ChildProcess;
	readonly output: () => string;
	readonly store: string;
}

let fake: FakeDiscord | undefined;
const spawned: number[] = [];
const dirs: string[] = [];

function startNpm(env: Record<string, string>): Started {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-signals-'));
	dirs.push(dir);
	const store = join(dir, 'pitwall.sqlite');
	const base = { ...process.env };
	for (const key of ['DISCORD_TOKEN', 'DISCORD_APP_ID', 'DEV_GUILD_ID', 'DISCORD_API_URL', 'STORE_URL', 'LOG_LEVEL'])
		delete base[key];
	// `npm start` runs in the package root, as a service manager runs it (WorkingDirectory=the checkout).
	const child = spawn('npm', ['start', '--silent'], {
		cwd: root,
		env: { ...base, NODE_ENV: 'test', STORE_URL: `sqlite://${store}`, LOG_LEVEL: 'info', ...env },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	if (child.pid) spawned.push(child.pid);
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	return { child, output: () => output, store };
}

afterEach(async () => {
	for (const pid of spawned.splice(0)) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// Already gone.
		}
	}
	await fake?.close();
	fake = undefined;
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm start and signals', () => {
	it.each(['SIGTERM', 'SIGINT'] as const)(
		'%s to npm stops the bot: no process of the tree survives, exit 0, the store closed cleanly',
		async (signal) => {
			fake = await startFakeDiscord();
			const bot = startNpm({ DISCORD_TOKEN: fake.token, DISCORD_APP_ID: fake.appId, DISCORD_API_URL: fake.apiUrl });
			await expect.poll(() => bot.output(), { timeout: 30_000 }).toContain('connected to Discord');
			// A write, so that the store has an open write-ahead log until it is closed.
			const created = fake.sendSlashCommand('league', [sub('create', [text('name', 'Signal Cup')])], ORGANIZER);
			expect(JSON.stringify(await created.next(10_000))).toContain('Signal Cup');
			expect(existsSync(`${bot.store}-wal`)).toBe(true);

			const tree = processTree(bot.child.pid!);
			spawned.push(...tree.slice(1));
			expect(tree.length).toBeGreaterThan(1); // npm and at least the bot's node process
			const exited = once(bot.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
			bot.child.kill(signal);

			const [code, bySignal] = await Promise.race([exited, delay(15_000, ['still running', null] as const)]);
			await expect.poll(() => tree.filter(alive), { timeout: 12_000 }).toEqual([]);
			expect({ code, bySignal }, bot.output()).toEqual({ code: 0, bySignal: null });
			expect(bot.output()).toContain('"msg":"stopped"');
			// SQLite checkpoints and deletes the WAL when its last connection closes cleanly; a killed process leaves it.
			expect(existsSync(`${bot.store}-wal`)).toBe(false);
		},
		60_000,
	);

	it('SIGTERM to npm stops the local console (no token): no process survives, the store closed cleanly', async () => {
		const local = startNpm({});
		await expect.poll(() => local.output(), { timeout: 30_000 }).toContain('first run: created league');
		local.child.stdin?.write('/about\n');
		await expect.poll(() => local.output(), { timeout: 10_000 }).toMatch(/^pitwall \d+\.\d+\.\d+$/m);
		expect(existsSync(`${local.store}-wal`)).toBe(true);
		const tree = processTree(local.child.pid!);
		spawned.push(...tree.slice(1));
		const exited = once(local.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
		local.child.kill('SIGTERM');
		const [code, bySignal] = await Promise.race([exited, delay(15_000, ['still running', null] as const)]);
		await expect.poll(() => tree.filter(alive), { timeout: 12_000 }).toEqual([]);
		expect({ code, bySignal }, local.output()).toEqual({ code: 0, bySignal: null });
		expect(existsSync(`${local.store}-wal`)).toBe(false);
	}, 60_000);
});
