/**
 * The local console (`npm start` without a token) with HTTP_PORT set runs the results inbox too: a token made with
 * /league inbox, a file POSTed to the console's server is previewed in the console, and `confirm` stores it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const cwd = mkdtempSync(join(tmpdir(), 'pitwall-console-inbox-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function until<T>(value: () => T | undefined, what: string): Promise<T> {
	const end = Date.now() + 30_000;
	for (;;) {
		const found = value();
		if (found !== undefined) return found;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

describe('the results inbox in the local console', () => {
	it('previews a file sent to the console’s server; confirm stores it', async () => {
		const env: NodeJS.ProcessEnv = {
			...process.env,
			NODE_ENV: 'test',
			STORE_URL: `sqlite://${join(cwd, 'store.sqlite')}`,
			HTTP_PORT: '0',
		};
		delete env['DISCORD_TOKEN'];
		delete env['LOG_LEVEL'];
		const child = spawn(tsx, [join(root, 'src', 'index.ts')], { cwd, env });
		let out = '';
		let err = '';
		child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
		try {
			const url = await until(() => /results inbox at (http:\/\/127\.0\.0\.1:\d+)\/inbox/.exec(err)?.[1], 'the server');
			child.stdin.write('/league inbox token:new\n');
			const token = await until(() => /pwi_[0-9a-f]{12}_[\w-]{43}/.exec(out)?.[0], 'the token');
			const answer = await fetch(`${url}/inbox?name=race.txt`, {
				method: 'POST',
				headers: { authorization: `Bearer ${token}` },
				body: '1. Argammon 1:10.000\n2. Duplode 1:11.000\n',
			});
			expect(answer.status).toBe(202);
			await until(() => (out.includes('[confirm] [cancel]') ? true : undefined), 'the preview');
			expect(out).toContain('Results inbox of ZakStunts: race.txt');
			child.stdin.write('confirm\n');
			await until(() => (out.includes('Stored as R294 in ZakStunts') ? true : undefined), 'the stored race');
			child.stdin.end('exit\n');
			const [code] = (await once(child, 'exit')) as [number];
			expect(code).toBe(0);
		} finally {
			if (child.exitCode === null) child.kill('SIGKILL');
		}
	}, 60_000);
});
