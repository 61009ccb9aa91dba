/**
 * The results inbox across processes (docs/results-inbox.md "Several processes"):
 * - SHARDS=2: the HTTP server runs in shard 0, and the league's server is on shard 1. A file POSTed to shard 0 is
 *   posted in the league's channel by shard 0 (a channel of a server it does not hold), and its Confirm, which Discord
 *   sends to shard 1, stores the race from the preview kept in the store.
 * - Two bot processes on one PostgreSQL, each with its own HTTP server: the same file sent to both at once is taken
 *   once (one 202, one 409, one preview in the channel); another file sent to the other process is previewed by it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createServices } from '../../src/services/index.js';
import { createLeagueRepository } from '../../src/storage/league-repository.js';
import { openStore } from '../../src/storage/store-url.js';
import '../support/store-servers.js';
import { startFakeDiscord, type FakeDiscord, type Json } from './fake-discord.js';
import { content, ORGANIZER, sub, text } from './league-bot.js';

const root = join(import.meta.dirname, '..', '..');
const entry = join(root, 'src', 'index.ts');
const tsx = import.meta.resolve('tsx');
const CHANNEL = 7;
/** A guild Discord sends to shard 1 of 2: (id >> 22) % 2 = 1. */
const SHARD_ONE_GUILD = '223456789016539982';
const SCOREBOARD = '1. Alice 1:23.456\n2. Bob 1:24.010\n3. Carol 1:25.300\n';

let fake: FakeDiscord | undefined;
const children: ChildProcess[] = [];
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
	for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
	await fake?.close();
	fake = undefined;
	for (const cleanup of cleanups.splice(0)) await cleanup();
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function startBot(env: Record<string, string>) {
	const cwd = mkdtempSync(join(tmpdir(), 'pitwall-inbox-proc-'));
	dirs.push(cwd);
	const base = { ...process.env };
	for (const key of ['SHARDS', 'SHARD_COUNT', 'SHARDING_MANAGER', 'DISCORD_TOKEN', 'STORE_URL', 'HTTP_PORT']) {
		delete base[key];
	}
	const child = spawn(process.execPath, ['--import', tsx, entry], {
		cwd,
		env: {
			...base,
			NODE_ENV: 'test',
			DISCORD_TOKEN: fake!.token,
			DISCORD_APP_ID: fake!.appId,
			DISCORD_API_URL: fake!.apiUrl,
			HTTP_PORT: '0',
			LOG_LEVEL: 'info',
			...env,
		},
	});
	children.push(child);
	let output = '';
	child.stdout.on('data', (d: Buffer) => void (output += d.toString()));
	child.stderr.on('data', (d: Buffer) => void (output += d.toString()));
	return { child, output: () => output, cwd };
}

async function until<T>(value: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const found = value();
		if (found !== undefined && found !== false) return found;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

const urlsIn = (output: string) => [...output.matchAll(/"url":"(http:\/\/127\.0\.0\.1:\d+)"/g)].map((m) => m[1]!);

const post = (url: string, token: string, body: string) =>
	fetch(`${url}/inbox?name=results.txt`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body });

const buttonIds = (body: Json) =>
	((body['components'] ?? []) as Json[]).flatMap((row) =>
		(row['components'] as Json[]).map((c) => String(c['custom_id'])),
	);

describe('the results inbox across processes', () => {
	it('SHARDS=2: shard 0 takes the file and posts in a server of shard 1; shard 1 answers Confirm and stores it', async () => {
		fake = await startFakeDiscord({ guildId: SHARD_ONE_GUILD });
		const results = fake.addChannel('results');
		const bot = startBot({ SHARDS: '2', STORE_URL: 'sqlite://store.sqlite' });
		await until(() => fake!.shards.length === 2 && bot.output().includes('shards running'), 'two shards');
		const urls = await until(() => (urlsIn(bot.output()).length > 0 ? urlsIn(bot.output()) : undefined), 'the server');
		expect(urls).toHaveLength(1); // one server, in shard 0: the shards do not fight over the port
		const run = async (options: Parameters<FakeDiscord['sendSlashCommand']>[1]) => {
			const handle = fake!.sendSlashCommand('league', options, ORGANIZER);
			const first = await handle.next(20_000);
			return first.kind === 'callback' && first.type === 5 ? handle.next(20_000) : first;
		};
		await run([sub('create', [text('name', 'Club'), { name: 'results-channel', type: CHANNEL, value: results }])]);
		const token = /pwi_[0-9a-f]{12}_[\w-]{43}/.exec(content(await run([sub('inbox', [text('token', 'new')])])))?.[0];
		expect(token).toBeDefined();

		const answer = await post(urls[0]!, token!, SCOREBOARD);
		expect(answer.status).toBe(202);
		const preview = await until(() => fake!.postedIn(results)[0], 'the preview');
		const [confirm] = buttonIds(preview.body);
		const click = fake.clickButton(confirm!, ORGANIZER, String(preview.message['id']));
		expect(await click.next(20_000)).toMatchObject({ kind: 'callback', type: 6 });
		expect(content(await click.next(20_000))).toMatch(/^Stored as \*\*R1\*\* in \*\*Club\*\*, confirmed by/);
		// Which process did what: the post by shard 0 (it runs the server), the Confirm by shard 1 (the guild's).
		const lines = bot.output().split('\n');
		const pidOf = (needle: string) => /"pid":(\d+)/.exec(lines.find((l) => l.includes(needle)) ?? '')?.[1];
		expect(pidOf('"msg":"inbox file"')).toBe(pidOf('"msg":"http server listening"'));
		bot.child.kill('SIGTERM');
		await until(() => (bot.child.exitCode !== null ? true : undefined), 'the exit', 30_000);
		expect(bot.child.exitCode).toBe(0);
	}, 150_000);

	it('two bot processes on one PostgreSQL: the same file sent to both at once is taken once', async (context) => {
		const servers = inject('storeServers');
		if (!('url' in servers.postgresql)) {
			context.skip(`PostgreSQL is not available: ${servers.postgresql.unavailable}`);
			return;
		}
		const admin = new pg.Client(servers.postgresql.url);
		await admin.connect();
		const database = `inbox_${process.pid}_${Date.now()}`;
		await admin.query(`CREATE DATABASE ${database}`);
		const storeUrl = new URL(servers.postgresql.url);
		storeUrl.pathname = `/${database}`;
		cleanups.push(async () => {
			await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
			await admin.end();
		});

		fake = await startFakeDiscord();
		const results = fake.addChannel('results');
		// The league and its token, made through the services on the same store (two bots would both answer a command).
		const store = await openStore(storeUrl.href, () => {});
		const repo = createLeagueRepository(store);
		const services = createServices(repo, {
			inboxStore: store.namespace('inbox'),
			log: createLogger({ level: 'silent' }),
		});
		const organizer = { userId: ORGANIZER.userId!, guildId: fake.guildId, manageGuild: true, roles: [] };
		await services.leagues.create(organizer, { name: 'Club', resultsChannel: results });
		const { token } = await services.inbox.newToken(organizer, undefined);
		await repo.close();

		const one = startBot({ STORE_URL: storeUrl.href });
		const two = startBot({ STORE_URL: storeUrl.href });
		const [urlOne, urlTwo] = await Promise.all(
			[one, two].map((bot) => until(() => urlsIn(bot.output())[0], 'a server')),
		);
		const answers = await Promise.all([post(urlOne!, token, SCOREBOARD), post(urlTwo!, token, SCOREBOARD)]);
		expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
		await new Promise((r) => setTimeout(r, 300));
		expect(fake.postedIn(results)).toHaveLength(1);
		// Another file, to the other process: previewed by whichever takes it.
		expect((await post(urlTwo!, token, '1. Dan\n2. Eve\n')).status).toBe(202);
		await until(() => (fake!.postedIn(results).length === 2 ? true : undefined), 'the second preview', 5_000);
		for (const bot of [one, two]) bot.child.kill('SIGTERM');
		await until(
			() => (one.child.exitCode !== null && two.child.exitCode !== null ? true : undefined),
			'the exits',
			30_000,
		);
		expect([one.child.exitCode, two.child.exitCode]).toEqual([0, 0]);
	}, 150_000);
});
