/**
 * `pitwall watch` (src/cli/commands/watch.ts) on a temporary folder with a fetch double: each new file is sent once,
 * when it has finished writing; network errors, 5xx and 429 are retried with a doubling delay; the bot's refusals are
 * printed and not retried; the token is never printed. The real command against the real bot: test/e2e/results-inbox.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { inboxUrl, watchFolder, type Watching } from '../../src/cli/commands/watch.js';

const TOKEN = `pwi_0123456789ab_${'s'.repeat(43)}`;
const dirs: string[] = [];
const watchers: Watching[] = [];

afterEach(async () => {
	for (const watching of watchers.splice(0)) await watching.close();
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
	const dir = mkdtempSync(join(tmpdir(), 'pitwall-watch-'));
	dirs.push(dir);
	return dir;
}

interface Sent {
	readonly url: string;
	readonly headers: Record<string, string>;
	readonly body: string;
}

/** A fetch double answering from `answers` in turn (the last one repeats); an Error answer is a network failure. */
function bot(answers: (Error | { status: number; message: string; retryAfter?: string })[]) {
	const sent: Sent[] = [];
	let next = 0;
	const fake = (url: URL, init?: RequestInit): Promise<Response> => {
		sent.push({
			url: url.href,
			headers: init?.headers as Record<string, string>,
			body: Buffer.from(init?.body as Buffer).toString(),
		});
		const answer = answers[Math.min(next++, answers.length - 1)];
		if (answer === undefined) throw new Error('no answer');
		if (answer instanceof Error) return Promise.reject(new TypeError('fetch failed', { cause: answer }));
		const headers: Record<string, string> = answer.retryAfter ? { 'retry-after': answer.retryAfter } : {};
		return Promise.resolve(
			new Response(JSON.stringify({ message: answer.message }), { status: answer.status, headers }),
		);
	};
	return { sent, fetch: fake as unknown as typeof fetch };
}

function start(dir: string, fetcher: typeof fetch, extra: { existing?: boolean; attempts?: number } = {}) {
	const out: string[] = [];
	const err: string[] = [];
	const sleeps: number[] = [];
	const watching = watchFolder({
		dir,
		url: 'http://127.0.0.1:8080',
		token: TOKEN,
		stableMs: 100,
		io: { out: (t) => void out.push(t), err: (t) => void err.push(t) },
		fetch: fetcher,
		sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
		...extra,
	});
	watchers.push(watching);
	return { watching, out, err, sleeps };
}

/** Waits until `check` passes (chokidar reports a file after it has been stable for `stableMs`). */
async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > end) throw new Error('timed out');
		await new Promise((r) => setTimeout(r, 25));
	}
}

describe('pitwall watch', () => {
	it('sends each new file once, finished, with the token in the header and the name in the query', async () => {
		const dir = folder();
		writeFileSync(join(dir, 'old.json'), '{"old":true}');
		const { sent, fetch } = bot([{ status: 202, message: 'Previewed in the results channel of Club.' }]);
		const w = start(dir, fetch);
		await w.watching.ready;
		writeFileSync(join(dir, '260301_race.json'), '{"race":1}');
		writeFileSync(join(dir, '.hidden.json'), 'x');
		writeFileSync(join(dir, 'partial.json.tmp'), 'x');
		await until(() => sent.length === 1);
		await w.watching.idle();
		expect(sent[0]).toEqual({
			url: 'http://127.0.0.1:8080/inbox?name=260301_race.json',
			headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/octet-stream' },
			body: '{"race":1}',
		});
		expect(w.out).toEqual(['260301_race.json: 202 Previewed in the results channel of Club.\n']);
		// The same bytes again (a copy, a rewrite) are not sent twice in one run.
		writeFileSync(join(dir, 'copy.json'), '{"race":1}');
		writeFileSync(join(dir, 'next.json'), '{"race":2}');
		await until(() => sent.length === 2);
		await new Promise((r) => setTimeout(r, 300));
		await w.watching.idle();
		expect(sent.map((s) => s.url)).toEqual([
			'http://127.0.0.1:8080/inbox?name=260301_race.json',
			'http://127.0.0.1:8080/inbox?name=next.json',
		]);
		expect([...w.out, ...w.err].join('')).not.toContain(TOKEN);
	});

	it('--existing sends the files already there; a 409 counts as delivered', async () => {
		const dir = folder();
		writeFileSync(join(dir, 'old.json'), '{"old":true}');
		const { sent, fetch } = bot([{ status: 409, message: 'This file was already received on …' }]);
		const w = start(dir, fetch, { existing: true });
		await until(() => sent.length === 1);
		await w.watching.idle();
		expect(w.out).toEqual(['old.json: 409 This file was already received on …\n']);
	});

	it('retries network errors, 5xx and 429 with a doubling delay (Retry-After honoured), then prints the answer', async () => {
		const dir = folder();
		const { sent, fetch } = bot([
			new Error('connect ECONNREFUSED 127.0.0.1:8080'),
			{ status: 503, message: 'The preview could not be posted…' },
			{ status: 429, message: 'Too many files for Club…', retryAfter: '30' },
			new Error('socket hang up'),
			{ status: 202, message: 'Previewed.' },
		]);
		const w = start(dir, fetch);
		await w.watching.ready;
		writeFileSync(join(dir, 'r.xml'), '<x/>');
		await until(() => w.out.length === 1);
		expect(sent).toHaveLength(5);
		expect(w.sleeps).toEqual([1_000, 2_000, 30_000, 8_000]);
		expect(w.err[0]).toBe(
			'r.xml: could not reach the bot (connect ECONNREFUSED 127.0.0.1:8080); trying again in 1 s\n',
		);
		expect(w.out).toEqual(['r.xml: 202 Previewed.\n']);
	});

	it('gives up after --attempts; the bot’s own refusals (401, 413, 422) are printed, not retried', async () => {
		const dir = folder();
		const down = bot([new Error('ECONNREFUSED')]);
		const w = start(dir, down.fetch, { attempts: 3 });
		await w.watching.ready;
		writeFileSync(join(dir, 'a.json'), '{}');
		await until(() => w.err.some((line) => line.includes('gave up')));
		expect(down.sent).toHaveLength(3);
		expect(w.err.at(-1)).toBe('a.json: gave up after 3 attempts: could not reach the bot (ECONNREFUSED)\n');

		const dir2 = folder();
		const refusing = bot([{ status: 422, message: 'The file is not text: …' }]);
		const w2 = start(dir2, refusing.fetch);
		await w2.watching.ready;
		writeFileSync(join(dir2, 'b.bin'), 'x');
		await until(() => w2.err.length === 1);
		expect(w2.err).toEqual(['b.bin: 422 The file is not text: …\n']);
		expect(refusing.sent).toHaveLength(1);
	});

	it('the bot’s address takes /inbox once; bad command lines exit 2 with the reason, never echoing the token', async () => {
		expect(inboxUrl('http://h:8080').href).toBe('http://h:8080/inbox');
		expect(inboxUrl('https://h/pitwall/').href).toBe('https://h/pitwall/inbox');
		expect(inboxUrl('http://h:8080/inbox').href).toBe('http://h:8080/inbox');
		const run = async (...argv: string[]) => {
			const out: string[] = [];
			const err: string[] = [];
			const code = await main(['watch', ...argv], { out: (t) => void out.push(t), err: (t) => void err.push(t) });
			return { code, err: err.join('') };
		};
		const dir = folder();
		expect(await run(dir, '--token', TOKEN)).toMatchObject({
			code: 2,
			err: expect.stringContaining('missing required option --url') as unknown,
		});
		expect(await run('/nonexistent/x', '--url', 'http://h', '--token', TOKEN)).toMatchObject({
			code: 2,
			err: expect.stringContaining('cannot watch /nonexistent/x: ENOENT') as unknown,
		});
		expect(await run(dir, '--url', 'ftp://h', '--token', TOKEN)).toMatchObject({
			code: 2,
			err: expect.stringContaining('--url must be http:// or https://') as unknown,
		});
		const bad = await run(dir, '--url', 'http://h', '--token', 'secret-value');
		expect(bad).toMatchObject({
			code: 2,
			err: expect.stringContaining('does not look like an inbox token') as unknown,
		});
		expect(bad.err).not.toContain('secret-value');
	});
});
