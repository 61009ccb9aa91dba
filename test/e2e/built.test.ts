/**
 * The build (scripts/build.ts), run as `npm start` and the `pitwall` CLI run it, from a folder of its own beside dist/
 * (built here from the current sources, removed after): the CLI finds the sample league from the bundle, the bot's
 * entry runs the CLI once when given arguments, the bot answers /about without having loaded the chart libraries, and
 * the console draws a chart on the worker thread that the bundle starts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDist } from '../../scripts/build.js';
import { startFakeDiscord, type FakeDiscord } from './fake-discord.js';

const root = join(import.meta.dirname, '..', '..');
// Directly in the root, as dist/ is: the bundle finds data/ one folder up (src/project-root.ts).
const outdir = join(root, `dist-test-${process.pid}`);
const cwd = mkdtempSync(join(tmpdir(), 'pitwall-built-'));
const sample = join(root, 'data', 'sample-league.csv');

/** The environment without anything that would make the process a bot or point it at another store. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
	for (const key of ['DISCORD_TOKEN', 'DISCORD_APP_ID', 'DEV_GUILD_ID', 'DISCORD_API_URL', 'STORE_URL', 'HTTP_PORT'])
		delete env[key];
	return { ...env, ...extra };
}

let fake: FakeDiscord | undefined;
let bot: ChildProcess | undefined;

beforeAll(async () => {
	await buildDist({ outdir });
}, 120_000);

afterAll(async () => {
	if (bot && bot.exitCode === null && bot.signalCode === null) {
		bot.kill('SIGKILL');
		await once(bot, 'exit');
	}
	await fake?.close();
	rmSync(outdir, { recursive: true, force: true });
	rmSync(cwd, { recursive: true, force: true });
});

describe('the build', () => {
	it('the built CLI replays the sample league, found from the bundle, and exits 0', () => {
		const run = spawnSync(process.execPath, [join(outdir, 'cli.js'), 'demo', '--top', '3'], {
			cwd,
			env: cleanEnv(),
			encoding: 'utf8',
		});
		expect(run.stderr).toBe('');
		expect(run.status).toBe(0);
		expect(run.stdout).toContain(`Replaying ${sample}: 293 races.`);
	});

	it('the built bot entry with arguments runs the CLI once', () => {
		const run = spawnSync(process.execPath, [join(outdir, 'index.js'), 'demo', '--top', '3'], {
			cwd,
			env: cleanEnv(),
			encoding: 'utf8',
		});
		expect(run.status).toBe(0);
		expect(run.stdout.split('Replaying ').length - 1).toBe(1);
	});

	it('the built bot answers /about, with no chart library loaded until a chart is drawn', async () => {
		fake = await startFakeDiscord();
		bot = spawn(process.execPath, [join(outdir, 'index.js')], {
			cwd,
			env: cleanEnv({
				DISCORD_TOKEN: fake.token,
				DISCORD_APP_ID: fake.appId,
				DISCORD_API_URL: fake.apiUrl,
				STORE_URL: `sqlite://${join(cwd, 'bot.sqlite')}`,
				LOG_LEVEL: 'warn',
			}),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		bot.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		await expect.poll(() => fake!.identified.length, { timeout: 30_000 }).toBeGreaterThan(0);
		const reply = await fake.sendSlashCommand('about').next(20_000);
		expect(reply, output).toMatchObject({ kind: 'callback', type: 4 });
		if (reply.kind === 'callback') expect(String(reply.data?.['content'])).toMatch(/^\*\*pitwall \d+\.\d+\.\d+\*\*/);
		// canvas (cairo, pango) is loaded with the first chart (src/charts/worker-chart-renderer.ts).
		const maps = readFileSync(`/proc/${bot.pid}/maps`, 'utf8');
		expect(maps).not.toContain('canvas.node');
		expect(maps).not.toContain('libcairo');
		expect(maps).toContain('node_sqlite3.node');
	}, 60_000);

	it('the built console draws a chart on the bundle’s worker thread', async () => {
		const session = spawn(process.execPath, [join(outdir, 'index.js')], {
			cwd,
			env: cleanEnv({ STORE_URL: `sqlite://${join(cwd, 'console.sqlite')}` }),
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let output = '';
		session.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		session.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		session.stdin?.end('/rating player:Argammon\n');
		const [code] = (await once(session, 'exit')) as [number | null];
		expect(code, output).toBe(0);
		const file = /file written: (\S+\.png)/.exec(output)?.[1];
		expect(file, output).toBeDefined();
		expect(existsSync(file!)).toBe(true);
		// The PNG signature: the worker drew it.
		expect(readFileSync(file!).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
	}, 60_000);
});
