/**
 * `npm start` without a token, typed in a terminal: the console runs in a tmux pane (a real
 * pseudo-terminal) over the sample league, in an empty working directory with its own store, so the repository's
 * data/ is never touched. The screen is read with `capture-pane`, polled until what is expected shows or a timeout.
 * Checked as a user sees it: the prompt, the echo, TAB on a command and on a player name, ↑ recalling the previous
 * line, the history kept in data/console-history for the next run, Ctrl-C clearing a line then leaving.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const cwd = mkdtempSync(join(tmpdir(), 'pitwall-console-tty-'));
// Our own tmux server, its socket in a temp dir of its own: the test never sees or touches a user's sessions, and
// removing the dir leaves nothing behind (tmux keeps a dead server's socket file).
const sockets = mkdtempSync(join(tmpdir(), 'pitwall-tmux-'));

const tmux = (...args: string[]): string =>
	execFileSync('tmux', ['-S', join(sockets, 'tmux'), '-f', '/dev/null', ...args], {
		encoding: 'utf8',
		stdio: 'pipe',
	});

const stopTmux = () => {
	try {
		tmux('kill-server'); // closes the pane: the console and its children get SIGHUP
	} catch {
		// no server left: every session had already ended
	}
};
afterEach(stopTmux);
afterAll(() => {
	stopTmux();
	rmSync(cwd, { recursive: true, force: true });
	rmSync(sockets, { recursive: true, force: true });
});

const running = (): boolean => {
	try {
		tmux('has-session', '-t', 'console');
		return true;
	} catch {
		return false;
	}
};

const screen = (): string[] => tmux('capture-pane', '-p', '-t', 'console').split('\n');

const isPrompt = (line: string): boolean => /^pitwall>( |$)/.test(line);
/** The line being typed: the last prompt line on the screen (capture-pane drops trailing spaces). */
const typing = (): string | undefined => screen().findLast(isPrompt);

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
	const deadline = Date.now() + ms;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen().join('\n')}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

const type = (text: string) => tmux('send-keys', '-t', 'console', '-l', text);
const press = (...keys: string[]) => tmux('send-keys', '-t', 'console', ...keys);
const prompts = () => screen().filter(isPrompt).length;

/** Enter, then wait for the next prompt: the command has answered. */
async function enter(): Promise<void> {
	const before = prompts();
	press('Enter');
	await until('the next prompt', () => prompts() > before);
}

function start(): void {
	tmux(
		'new-session',
		'-d',
		'-s',
		'console',
		'-x',
		'150',
		'-y',
		'60',
		'-c',
		cwd,
		'env',
		'-u',
		'DISCORD_TOKEN',
		'-u',
		'LOG_LEVEL',
		'NODE_ENV=test',
		`STORE_URL=sqlite://${join(cwd, 'x.sqlite')}`,
		tsx,
		join(root, 'src', 'index.ts'),
	);
}

describe.skipIf(!hasTmux)('local console in a terminal (tmux)', () => {
	it('prompts, echoes, completes a command and a player, recalls earlier lines, also in the next run', async () => {
		start();
		await until('the first prompt', () => typing() === 'pitwall>', 60_000);
		expect(screen().join('\n')).toContain('TAB to complete');

		type('/ab');
		press('Tab');
		await until('/ab completed', () => typing() === 'pitwall> /about');
		await enter();
		const about = screen();
		const at = about.indexOf('pitwall> /about'); // the typed line stays on screen (echo)
		expect(at).toBeGreaterThanOrEqual(0);
		expect(about[at + 1]).toBe('(only you can see this)'); // /about answers ephemerally
		expect(about[at + 2]).toMatch(/^pitwall \d+\.\d+\.\d+$/); // bold on the terminal, no stars

		type('/rating player:Argam');
		press('Tab');
		await until('the player completed', () => typing() === 'pitwall> /rating player:Argammon');
		await enter();
		const reply = screen();
		const asked = reply.lastIndexOf('pitwall> /rating player:Argammon');
		expect(reply.slice(asked + 1).some((line) => line.includes('Argammon') && line.includes('ZakStunts'))).toBe(true);

		press('Up');
		await until('↑ to recall /rating', () => typing() === 'pitwall> /rating player:Argammon');
		press('Up');
		await until('↑↑ to recall /about', () => typing() === 'pitwall> /about');
		press('C-c'); // clears the recalled line; the console goes on
		await until('the line cleared', () => typing() === 'pitwall>');
		expect(running()).toBe(true);

		type('exit');
		press('Enter');
		await until('the console to exit', () => !running());
		expect(readFileSync(join(cwd, 'data', 'console-history'), 'utf8')).toBe('/about\n/rating player:Argammon\nexit\n');

		// A second run in the same working directory: the history (and the league) are still there.
		start();
		await until('the first prompt', () => typing() === 'pitwall>', 60_000);
		expect(screen().join('\n')).not.toContain('first run'); // same store: the league is there already
		press('Up');
		await until('↑ to recall exit', () => typing() === 'pitwall> exit');
		press('Up');
		await until('↑↑ to recall the last run’s /rating', () => typing() === 'pitwall> /rating player:Argammon');
		press('C-c');
		await until('the line cleared', () => typing() === 'pitwall>');
		press('C-c');
		await until('the console to exit', () => !running());
	}, 120_000);
});
