import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { ScoreboardIo } from '../../src/cli/commands/scoreboard.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'pitwall-scoreboard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
	const path = join(dir, name);
	writeFileSync(path, text);
	return path;
};

async function run(stdin: string | undefined, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
	let out = '';
	let err = '';
	const io: ScoreboardIo = { out: (text) => void (out += text), err: (text) => void (err += text), stdin };
	const code = await main(['scoreboard', ...argv], io);
	return { code, out, err };
}

describe('pitwall scoreboard', () => {
	it('prints player,position,time,status in finishing order, times in seconds at full precision', async () => {
		const paste = ['Carol DNS', '1st Alice 1:02:03.123456789', '2nd Bob +0.556', '2nd "Dee, Jr" 1:02:03,7', ''].join(
			'\n',
		);
		const { code, out, err } = await run(paste);
		expect(err).toBe('');
		expect(code).toBe(0);
		expect(out).toBe(
			[
				'player,position,time,status',
				'Alice,1,3723.123456789,',
				'Bob,2,3723.679456789,', // 3723.123456789 + 0.556, summed in decimal
				'"Dee, Jr",2,3723.7,',
				'Carol,4,,DNS',
				'',
			].join('\n'),
		);
	});

	it('prints each warning on stderr as "line N: …", with --known for the "did you mean" ones', async () => {
		const known = file('known.txt', 'Alice\r\n\r\nBob\n');
		const { code, out, err } = await run('Alice 82\n', '--known', known);
		expect(code).toBe(0);
		expect(out).toBe('player,position,time,status\nAlice 82,1,,\n');
		expect(err).toBe(
			'line 1: "Alice 82" is not a known player; did you mean "Alice"? ("82" looks like an extra column or a stray mark, not part of the name)\n',
		);
		const columns = await run('Alice 82\nBob 75\n');
		expect(columns.out).toBe('player,position,time,status\nAlice,1,,\nBob,2,,\n');
		expect(columns.err).toMatch(
			/^line 1: the number after each name \("82" on line 1, "75" on line 2\) is read as a points or laps column/u,
		);
	});

	it('exits 2 with every error as "line N: …" and prints nothing on stdout', async () => {
		const { code, out, err } = await run('1. Alice\n3. Bob\nAlice 1:01.5 Carol 1:02.3\n');
		expect(code).toBe(2);
		expect(out).toBe('');
		expect(err).toBe(
			[
				'line 2: position 3 is impossible here: only 1 racer is listed above, so expected at most 2',
				'line 3: this line seems to hold several racers: put one racer per line, or separate racers with ";" (1. Alice 1:01.5; 2. Bob 1:02.3)',
				'',
			].join('\n'),
		);
	});

	it('counts the errors it does not list', async () => {
		const { code, err } = await run(Array.from({ length: 12 }, (_, i) => `Racer${i} 1:99.0`).join('\n'));
		expect(code).toBe(2);
		expect(err.split('\n').filter((line) => line !== '')).toHaveLength(11);
		expect(err).toMatch(/\n… and 2 more errors\n$/u);
	});

	it('reads --input, and refuses a missing file or an extra argument with exit 2', async () => {
		const paste = file('paste.txt', 'Pos,Driver,Time\n1,Alice,1:00.5\n2,Bob,1:01.0\n');
		expect(await run(undefined, '--input', paste)).toEqual({
			code: 0,
			out: 'player,position,time,status\nAlice,1,60.5,\nBob,2,61,\n',
			err: '',
		});
		const missing = await run(undefined, '--input', join(dir, 'nope.txt'));
		expect(missing.code).toBe(2);
		expect(missing.err).toContain('cannot read');
		const extra = await run('Alice', 'extra');
		expect(extra.code).toBe(2);
		expect(extra.err).toContain('unexpected argument "extra"');
	});

	it('reads the paste from the process stdin when run as a script', () => {
		const tsx = join(root, 'node_modules/.bin/tsx');
		const result = spawnSync(tsx, ['src/cli/main.ts', 'scoreboard'], {
			cwd: root,
			encoding: 'utf8',
			input: '1. Alice 1:01.5 2. Bob 1:02.3\n',
		});
		expect(result.status).toBe(0);
		expect(result.stdout).toBe('player,position,time,status\nAlice,1,61.5,\nBob,2,62.3,\n');
		expect(result.stderr).toMatch(/^line 1: one line holds 2 racers/u);
	});
});
