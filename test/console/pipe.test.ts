/**
 * `npm start` without a token, driven through a pipe as a real process: the sample league is created on first run
 * (and only then), /about answers, a bad line prints an error and the loop goes on, end of input exits 0.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
// An empty working directory, so a developer's .env cannot leak in.
const cwd = mkdtempSync(join(tmpdir(), 'pitwall-console-pipe-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function console_(input: string, storeFile = 'x.sqlite'): Promise<{ code: number; out: string; err: string }> {
	const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', STORE_URL: `sqlite://${join(cwd, storeFile)}` };
	delete env['DISCORD_TOKEN'];
	delete env['LOG_LEVEL'];
	const child = spawn(tsx, [join(root, 'src', 'index.ts')], { cwd, env });
	let out = '';
	let err = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
	child.stdin.end(input);
	const [code] = (await once(child, 'exit')) as [number];
	return { code, out, err };
}

describe('local console through a pipe', () => {
	it('creates the sample league, answers /about, survives a bad line, exits 0 at EOF', async () => {
		const { code, out, err } = await console_('/about\n/nope player:x\n/about extra:1\n/about\n');
		expect(code).toBe(0);
		expect(err).toContain('no DISCORD_TOKEN set, so running the local console');
		expect(err).toMatch(
			/first run: created league "ZakStunts" with 293 races from data\/sample-league\.csv in \d+\.\d s/,
		);
		expect(out).toContain('error: unknown command /nope');
		expect(out).toContain('error: unknown option extra for /about');
		expect(out.match(/^pitwall \d+\.\d+\.\d+$/gm)).toHaveLength(2);
		expect(out).not.toContain('pitwall>'); // no prompt on a pipe
	}, 60_000);

	it('writes each chart as a PNG under data/console-out and prints its absolute path', async () => {
		const { code, out } = await console_(
			'/rating player:Argammon compare:Duplode\n/leaderboard\n/odds players:"Argammon, Duplode, CTG, Ayrton"\n',
		);
		expect(code).toBe(0);
		const paths = [...out.matchAll(/^file written: (\S+)$/gm)].map((m) => m[1]!);
		expect(paths.map((p) => p.replace(/^.*-/, ''))).toEqual(['rating.png', 'leaderboard.png', 'odds.png']);
		for (const path of paths) {
			expect(path.startsWith(join(cwd, 'data', 'console-out'))).toBe(true);
			const png = readFileSync(path);
			expect(png.subarray(1, 4).toString()).toBe('PNG');
			expect(png.readUInt32BE(16)).toBe(800); // IHDR width
			expect(png.readUInt32BE(20)).toBe(400); // IHDR height
		}
	}, 60_000);

	it('lets a cache write a read left behind finish before the store closes at EOF (no "store error")', async () => {
		// On a new store, /race show of a race far back builds the rated history and writes its copy in the background.
		const { code, out, err } = await console_('/race show race:R60\n', 'cache-write.sqlite');
		expect(code).toBe(0);
		expect(out).toContain('== R60 ==');
		expect(err).not.toContain('store error');
		expect(err).not.toContain('"level":50');
	}, 60_000);

	it('keeps the league in the store: the second run imports nothing, and exit stops early', async () => {
		const { code, out, err } = await console_('exit\n/about\n');
		expect(code).toBe(0);
		expect(err).not.toContain('first run');
		expect(out).toBe('');
	}, 60_000);
});
