/**
 * The results inbox end to end (docs/results-inbox.md): the REAL bot process (src/index.ts, as `npm start` runs it)
 * with its HTTP server on a free port, its store in SQLite, connected to the fake Discord. An organizer makes a token
 * with /league inbox (shown once, ephemerally); a scoreboard POSTed with it is a preview in the league's results
 * channel within 3 s, with Confirm; a member's Confirm is refused, an organizer's stores one race; the same file again,
 * a wrong token, an oversized file, a binary one and a flood are refused as documented; `pitwall watch` (the real CLI
 * process) on a temporary folder sends a file dropped in it, previewed within 3 s. SIGTERM stops the bot, server
 * included, with exit 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type Actor, type FakeDiscord, type Json, type RawOption } from './fake-discord.js';
import { content, dataOf, EPHEMERAL, flagsOf, MEMBER, ORGANIZER, sub, text } from './league-bot.js';

const root = join(import.meta.dirname, '..', '..');
const tsx = import.meta.resolve('tsx');
const CHANNEL = 7;
const BOOLEAN = 5;
const MAX_BYTES = 64 * 1024;
const RATE = 6;
const SCOREBOARD = '1. Alice 1:23.456\n2. Bob 1:24.010\n3. Carol 1:25.300\n';

const dir = mkdtempSync(join(tmpdir(), 'pitwall-inbox-'));
const watched = mkdtempSync(join(tmpdir(), 'pitwall-watched-'));
const children: ChildProcess[] = [];
let fake: FakeDiscord;
let bot: { child: ChildProcess; output: () => string };
let url = '';
let results = '';
let token = '';

function spawnProcess(args: string[], env: Record<string, string>, cwd = dir) {
	const base = { ...process.env };
	for (const key of ['SHARDS', 'SHARD_COUNT', 'SHARDING_MANAGER', 'DISCORD_TOKEN', 'STORE_URL', 'HTTP_PORT']) {
		delete base[key];
	}
	const child = spawn(process.execPath, ['--import', tsx, ...args], {
		cwd,
		env: { ...base, NODE_ENV: 'test', ...env },
	});
	children.push(child);
	let output = '';
	child.stdout?.on('data', (d: Buffer) => void (output += d.toString()));
	child.stderr?.on('data', (d: Buffer) => void (output += d.toString()));
	return { child, output: () => output };
}

/** Polls `value` until it is defined (expect.poll only runs inside a test). */
async function waitFor<T>(value: () => T | undefined, timeoutMs: number): Promise<T> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		const found = value();
		if (found !== undefined) return found;
		if (Date.now() > end) throw new Error(`timed out; the bot said:\n${bot.output()}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

const exited = (c: ChildProcess) =>
	c.exitCode !== null ? Promise.resolve(c.exitCode) : new Promise<number | null>((r) => c.once('exit', r));

/** A command's final answer (the reply, or the edit of a deferred one). */
async function run(name: string, options: RawOption[], actor: Actor) {
	const handle = fake.sendSlashCommand(name, options, actor);
	const first = await handle.next(15_000);
	const final = first.kind === 'callback' && first.type === 5 ? await handle.next(15_000) : first;
	return { first, final };
}

const post = (body: string | Buffer, auth = token, name = 'results.txt') =>
	fetch(`${url}/inbox?name=${encodeURIComponent(name)}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${auth}` },
		body,
	});

/** Waits for the `n`th message in the channel; resolves with it and the time it took from `since`. */
async function nthPost(channel: string, n: number, since: number) {
	for (;;) {
		const posts = fake.postedIn(channel);
		if (posts.length >= n) return { post: posts[n - 1]!, ms: performance.now() - since };
		if (performance.now() - since > 10_000) throw new Error(`no post ${n} in the channel after 10 s`);
		await new Promise((r) => setTimeout(r, 10));
	}
}

const buttonIds = (body: Json) =>
	((body['components'] ?? []) as Json[]).flatMap((row) =>
		(row['components'] as Json[]).map((c) => String(c['custom_id'])),
	);

beforeAll(async () => {
	fake = await startFakeDiscord();
	results = fake.addChannel('results');
	bot = spawnProcess([join(root, 'src', 'index.ts')], {
		DISCORD_TOKEN: fake.token,
		DISCORD_APP_ID: fake.appId,
		DISCORD_API_URL: fake.apiUrl,
		STORE_URL: `sqlite://${join(dir, 'store.sqlite')}`,
		HTTP_PORT: '0',
		INBOX_MAX_BYTES: String(MAX_BYTES),
		INBOX_RATE_LIMIT: String(RATE),
		LOG_LEVEL: 'info',
	});
	url = await waitFor(() => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(bot.output())?.[1], 60_000);
}, 90_000);

afterAll(async () => {
	for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
	await fake?.close();
	rmSync(dir, { recursive: true, force: true });
	rmSync(watched, { recursive: true, force: true });
});

describe('the results inbox, end to end', () => {
	it('an organizer sets the results channel and makes a token, shown once to them only; a member may not', async () => {
		await run('league', [sub('create', [text('name', 'Club')])], ORGANIZER);
		const config = await run(
			'league',
			[sub('config', [{ name: 'results-channel', type: CHANNEL, value: results }])],
			ORGANIZER,
		);
		expect(content(config.final)).toContain(`Results channel: <#${results}>`);
		const refused = await run('league', [sub('inbox', [text('token', 'new')])], MEMBER);
		expect(content(refused.final)).toMatch(/^Only league organizers/);
		const made = await run('league', [sub('inbox', [text('token', 'new')])], ORGANIZER);
		expect(flagsOf(made.first) & EPHEMERAL).toBe(EPHEMERAL);
		const answer = content(made.final);
		token = /pwi_[0-9a-f]{12}_[\w-]{43}/.exec(answer)?.[0] ?? '';
		expect(token).not.toBe('');
		expect(answer).toContain('Copy it now: it is not shown again.');
		expect(answer).toContain(
			`curl --data-binary @results.json -H "Authorization: Bearer ${token}" "${url}/inbox?name=results.json"`,
		);
		expect(answer).toContain(`pitwall watch <results folder> --url ${url} --token ${token}`);
		// Shown once: the settings never show it again; the log never has it.
		const shown = await run('league', [sub('inbox')], ORGANIZER);
		expect(content(shown.final)).toMatch(/^Results inbox of \*\*Club\*\*\nToken: made by <@400000000000000001> on /);
		expect(content(shown.final)).not.toContain(token);
		expect(bot.output()).not.toContain(token);
	});

	it('a scoreboard POSTed with the token is a preview in the results channel within 3 s, with Confirm and Cancel', async () => {
		const started = performance.now();
		const answer = await post(SCOREBOARD);
		expect(answer.status).toBe(202);
		const body = (await answer.json()) as { preview: string; message: string };
		expect(body.message).toBe(
			'Previewed in the results channel of Club (3 racers): an organizer stores it with Confirm.',
		);
		const { post: preview, ms } = await nthPost(results, 1, started);
		expect(ms).toBeLessThan(3_000);
		process.stderr.write(`results inbox: POST to preview in the channel ${ms.toFixed(0)} ms\n`);
		expect(String(preview.body['content'])).toMatch(
			/^Results inbox of \*\*Club\*\*: \*\*results\.txt\*\* \(1 KiB\), received /,
		);
		const embed = (preview.body['embeds'] as Json[])[0]!;
		expect(embed['title']).toBe('Race preview');
		expect(String(embed['description'])).toContain('1. **Alice** *(new player)* 1:23.456');
		expect(buttonIds(preview.body)).toEqual([`inbox:confirm:${body.preview}`, `inbox:cancel:${body.preview}`]);
		expect(preview.body['allowed_mentions']).toEqual({ parse: [] });
	});

	it('Confirm: a member’s press is refused (nothing stored), an organizer’s stores one race; pressed again, once', async () => {
		const preview = fake.postedIn(results)[0]!;
		const messageId = String(preview.message['id']);
		const [confirm] = buttonIds(preview.body);
		const byMember = fake.clickButton(confirm!, MEMBER, messageId);
		expect(await byMember.next(15_000)).toMatchObject({ kind: 'callback', type: 6 });
		const refusal = await byMember.next(15_000);
		expect(refusal.kind).toBe('followup');
		expect(flagsOf(refusal) & EPHEMERAL).toBe(EPHEMERAL);
		expect(content(refusal)).toMatch(/^Only league organizers/);
		expect(content((await run('race', [sub('list')], MEMBER)).final)).not.toContain('R1');

		const byOrganizer = fake.clickButton(confirm!, ORGANIZER, messageId);
		expect(await byOrganizer.next(15_000)).toMatchObject({ kind: 'callback', type: 6 });
		const stored = await byOrganizer.next(15_000);
		expect(stored.kind).toBe('edit');
		expect(content(stored)).toMatch(
			/^Stored as \*\*R1\*\* in \*\*Club\*\*, confirmed by <@400000000000000001> \(\*\*results\.txt\*\*\)\.$/,
		);
		expect(dataOf(stored)['components']).toEqual([]);
		const again = fake.clickButton(confirm!, ORGANIZER, messageId);
		await again.next(15_000);
		expect(content(await again.next(15_000))).toBe('Already stored as **R1** in **Club**: nothing was stored twice.');
		const list = content((await run('race', [sub('list')], MEMBER)).final);
		expect(list).toContain('**R1**');
		expect(list).not.toContain('**R2**');
	});

	it('the same file again: 409, no second preview, no second race', async () => {
		const answer = await post(SCOREBOARD, token, 'renamed.txt');
		expect(answer.status).toBe(409);
		expect(await answer.json()).toMatchObject({
			status: 'duplicate',
			message: expect.stringMatching(
				/^This file was already received on .* and stored as R1: nothing new was stored\.$/,
			) as unknown,
		});
		await new Promise((r) => setTimeout(r, 200));
		expect(fake.postedIn(results)).toHaveLength(1);
	});

	it('a wrong token 401, an oversized file 413, a binary file 422 with the reason: nothing posted or stored', async () => {
		const wrong = await post('1. X\n2. Y\n', `${token.slice(0, -3)}abc`);
		expect(wrong.status).toBe(401);
		expect(((await wrong.json()) as { message: string }).message).toMatch(/^The token is not valid/);
		const big = await post(Buffer.alloc(MAX_BYTES + 1, '1'));
		expect(big.status).toBe(413);
		expect(await big.json()).toEqual({
			status: 'too-large',
			message: 'The file is 65 KiB: at most 64 KiB (INBOX_MAX_BYTES). Nothing was stored.',
		});
		const binary = await post(
			Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 131) % 256)),
			token,
			'replay.rpy',
		);
		expect(binary.status).toBe(422);
		expect(((await binary.json()) as { message: string }).message).toMatch(
			/^The file is not text: expected a sim result file \(JSON, XML, CSV, text\) or a scoreboard\. Nothing was stored\.$/,
		);
		await new Promise((r) => setTimeout(r, 200));
		expect(fake.postedIn(results)).toHaveLength(1);
		expect(content((await run('race', [sub('list')], MEMBER)).final)).not.toContain('**R2**');
	});

	it('a flood: past INBOX_RATE_LIMIT files a minute, 429 with Retry-After, for that league only', async () => {
		const floods = fake.addChannel('flood');
		await run(
			'league',
			[sub('create', [text('name', 'Flood'), { name: 'results-channel', type: CHANNEL, value: floods }])],
			ORGANIZER,
		);
		const made = await run('league', [sub('inbox', [text('token', 'new'), text('league', 'Flood')])], ORGANIZER);
		const floodToken = /pwi_[0-9a-f]{12}_[\w-]{43}/.exec(content(made.final))?.[0] ?? '';
		const codes: number[] = [];
		for (let i = 0; i <= RATE; i++) codes.push((await post(`1. Ann\n2. Ben ${i + 1}:00.000\n`, floodToken)).status);
		expect(codes).toEqual([...Array<number>(RATE).fill(202), 429]);
		const limited = await post('1. Ann\n2. Ben 9:00.000\n', floodToken);
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(fake.postedIn(floods)).toHaveLength(RATE);
	});

	it('auto-confirm:true stores each file at once and announces it', async () => {
		const autoConfirm = (value: boolean) => [
			sub('inbox', [{ name: 'auto-confirm', type: BOOLEAN, value }, text('league', 'Club')]),
		];
		const set = await run('league', autoConfirm(true), ORGANIZER);
		expect(content(set.final)).toContain('Auto-confirm: on.');
		const answer = await post('1. Carol 1:20.000\n2. Alice 1:21.000\n', token, 'r2.txt');
		expect(answer.status).toBe(201);
		expect(await answer.json()).toMatchObject({ status: 'stored', race: 'R2' });
		const { post: announced } = await nthPost(results, 2, performance.now());
		expect(String(announced.body['content'])).toBe(
			'Stored from the results inbox (auto-confirm): **r2.txt** (1 KiB) is **R2** in **Club**.',
		);
		expect(buttonIds(announced.body)).toEqual([]);
		await run('league', autoConfirm(false), ORGANIZER);
	});

	it('`pitwall watch` beside a sim server: a file dropped in its folder is a preview within 3 s', async () => {
		const watch = spawnProcess(
			[join(root, 'src', 'cli', 'main.ts'), 'watch', watched, '--url', url],
			{ PITWALL_INBOX_TOKEN: token },
			root,
		);
		await expect.poll(() => watch.output(), { timeout: 20_000, interval: 50 }).toContain('watching ');
		const before = fake.postedIn(results).length;
		const started = performance.now();
		writeFileSync(join(watched, '260301_race.csv'), 'position,player,time\n1,Bob,1:22.000\n2,Alice,1:23.000\n');
		const { post: preview, ms } = await nthPost(results, before + 1, started);
		expect(ms).toBeLessThan(3_000);
		process.stderr.write(`results inbox: file dropped to preview in the channel ${ms.toFixed(0)} ms (pitwall watch)\n`);
		expect(String(preview.body['content'])).toContain('**260301\\_race.csv**');
		await expect
			.poll(() => watch.output(), { timeout: 5_000 })
			.toMatch(/260301_race\.csv: 202 Previewed in the results channel of Club/);
		expect(watch.output()).not.toContain(token);
		watch.child.kill('SIGTERM');
		expect(await exited(watch.child)).toBe(0);
	});

	it('SIGTERM stops the bot, the HTTP server first, with exit 0', async () => {
		bot.child.kill('SIGTERM');
		expect(await exited(bot.child)).toBe(0);
		expect(bot.output()).toContain('"msg":"stopped"');
		expect(bot.output()).not.toContain(token);
		await expect(fetch(`${url}/health`)).rejects.toThrow();
	});
});
