import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RelrankIo } from '../../src/cli/commands/relrank.js';

const fixtures = join(import.meta.dirname, '../fixtures/relrank');
const cases = readdirSync(fixtures, { withFileTypes: true })
	.filter((entry) => entry.isDirectory())
	.map(({ name }) => {
		const dir = join(fixtures, name);
		const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
		return {
			name,
			input: read('input.csv'),
			env: (JSON.parse(read('env.json')) as { env: Record<string, string> }).env,
			expected: read('expected.csv'),
			exit: JSON.parse(read('exit.json')) as { exit_code: number; stderr_first_line: string },
		};
	});

async function run(argv: string[], stdin: string, env: Record<string, string> = {}) {
	let out = '';
	let err = '';
	const io: RelrankIo = { out: (text) => void (out += text), err: (text) => void (err += text), stdin, env };
	const code = await main(['relrank', ...argv], io);
	return { code, out, err };
}

const lineSet = (text: string): string[] =>
	text
		.split('\n')
		.filter((line) => line !== '')
		.sort();

describe('pitwall relrank', () => {
	for (const c of cases) {
		it(`${c.name}: --compat with the case's env vars matches the reference (lines, exit code, first stderr line)`, async () => {
			const { code, out, err } = await run(['--compat'], c.input, c.env);
			expect(code).toBe(c.exit.exit_code);
			expect(lineSet(out)).toEqual(lineSet(c.expected));
			expect(out).toBe(c.expected); // and already sorted by user id
			expect(err.split('\n')[0]).toBe(c.exit.stderr_first_line);
		});
	}

	it('default mode: the same output for well-formed input, the last line read without a final newline', async () => {
		const readme = cases.find((c) => c.name === '01_readme')!;
		const noNewline = cases.find((c) => c.name === '02_readme_no_trailing_newline')!;
		expect((await run([], readme.input)).out).toBe(readme.expected);
		expect((await run([], noNewline.input)).out).toBe(readme.expected);
		const zeroWin = cases.find((c) => c.name === '03_small4_repeats_zero_win')!;
		expect((await run([], zeroWin.input)).out).toBe(zeroWin.expected);
	});

	it('default mode: mxWonOpp = 1 is a clear error with exit 2, not a panic', async () => {
		const c = cases.find((x) => x.name === '11_error_mxwonopp1')!;
		const { code, out, err } = await run([], c.input);
		expect(code).toBe(2);
		expect(out).toBe('');
		expect(err).toMatch(
			/^pitwall relrank: relrank needs a player who won more than one round against the same opponent/,
		);
		expect(err).not.toMatch(/panic/);
	});

	it('default mode: a first line 1,2,3,-1 is data, rejected with its line number instead of silently dropped', async () => {
		const { code, err } = await run([], '1,2,3,-1\n1,2,3,0\n2,1,3,2\n');
		expect(code).toBe(2);
		expect(err).toBe('pitwall relrank: line 1: round counts must not be negative\n');
		const compat = await run(['--compat'], '1,2,3,-1\n1,2,3,0\n2,1,3,2\n');
		expect(compat.code).toBe(0);
	});

	it('flags equal the env vars of --compat; env vars are ignored without --compat', async () => {
		const readme = cases.find((c) => c.name === '01_readme')!;
		const env = {
			RELRANK_PREC: '8',
			RELRANK_RELSTEPS: '5.5',
			RELRANK_RELREL: '12.25',
			RELRANK_SCALE_MAX: '1000',
			RELRANK_ROUND: '3',
		};
		const byEnv = await run(['--compat'], readme.input, env);
		const byFlags = await run(
			['--prec', '8', '--relsteps', '5.5', '--relrel', '12.25', '--scale-max', '1000', '--round', '3'],
			readme.input,
		);
		expect(byEnv.code).toBe(0);
		expect(byFlags.out).toBe(byEnv.out);
		expect(byFlags.out.split('\n')[0]).toBe('1,1000');
		expect((await run([], readme.input, env)).out).toBe(readme.expected);
		// flags win over env vars in --compat
		expect((await run(['--compat', '--prec', '20'], readme.input, { RELRANK_PREC: '8' })).out).toBe(readme.expected);
	});

	it('bad parameters are usage errors (exit 2); --compat reproduces the reference fatal (exit 1)', async () => {
		const input = '1,2,3,0\n2,1,3,2\n';
		expect((await run(['--prec', 'x'], input)).code).toBe(2);
		expect((await run(['--scale-max', '-5'], input)).code).toBe(2);
		const compat = await run(['--compat'], input, { RELRANK_SCALE_MAX: '-5' });
		expect(compat.code).toBe(1);
		expect(compat.err).toBe('RELRANK_SCALE_MAX must be positive\n');
	});

	it('--compat reproduces the reference panic on empty input', async () => {
		const { code, err } = await run(['--compat'], '');
		expect(code).toBe(2);
		expect(err.split('\n')[0]).toBe('panic: runtime error: slice bounds out of range [:-1]');
		expect((await run([], '')).err).toBe('pitwall relrank: no games in the input\n');
		const headerOnly = await run(['--compat'], 'hi,ai,hs,as\n');
		expect([headerOnly.code, headerOnly.out, headerOnly.err]).toEqual([0, '', '']);
	});

	it.skipIf(!existsSync(join(import.meta.dirname, '../../../shared/data/worms-league')))(
		'13_wl_season42_round2: --round 2 prints every player of season 42 with at most 2 decimals',
		async () => {
			const input = readFileSync(join(import.meta.dirname, '../../../shared/data/worms-league/42games.csv'), 'utf8');
			const { code, out } = await run(['--round', '2'], input);
			expect(code).toBe(0);
			const rows = out.trim().split('\n');
			expect(rows).toHaveLength(50);
			for (const row of rows) expect(row).toMatch(/^\d+,\d+(\.\d{1,2})?$/);
			expect((await run(['--compat', '--round', '2'], input)).out).toBe(out);
		},
	);
});
