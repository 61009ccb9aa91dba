/**
 * `pitwall watch DIR --url URL --token TOKEN`: run beside a sim server, it sends each new result file of its results
 * folder to the league's results inbox (docs/results-inbox.md). A file is sent once it has finished writing (its size
 * unchanged for a second: chokidar's awaitWriteFinish), one at a time in the order they appear, and each content once
 * per run (a file written again with the same bytes is not sent twice; the bot also answers a file it already has with
 * 409). Network errors, 5xx and 429 are retried with a doubling delay (1 s up to 60 s, Retry-After honoured); each
 * answer is printed, one line per file. The token is never printed; PITWALL_INBOX_TOKEN may carry it instead of
 * --token (the command line is visible to the machine's other users).
 */
import { watch, type FSWatcher } from 'chokidar';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { noExtraPositionals, parseCommandArgs, UsageError } from '../args.js';
import type { CliCommand, CliIo } from '../command.js';

export interface WatchOptions {
	readonly dir: string;
	/** The bot's address (`http://host:port`); `/inbox` is added. */
	readonly url: string;
	readonly token: string;
	/** Send the files already in the folder too (default: only files that appear from now on). */
	readonly existing?: boolean;
	/** Attempts per file before giving up on it (default 10: about 6 minutes of retries). */
	readonly attempts?: number;
	/** How long a file's size must stay the same before it is sent (default 1,000 ms). */
	readonly stableMs?: number;
	readonly io: CliIo;
	/** Tests pass their own. */
	readonly fetch?: typeof fetch;
	readonly sleep?: (ms: number) => Promise<void>;
}

export interface Watching {
	/** Resolves once the folder is watched (files written after this are seen). */
	readonly ready: Promise<void>;
	/** Resolves once every file seen so far is sent or given up on. */
	idle(): Promise<void>;
	close(): Promise<void>;
}

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 60_000;
const REQUEST_TIMEOUT_MS = 120_000;

/** Files a sim or an editor writes beside the results that are not results: hidden, temporary, partial. */
const notAResult = (path: string): boolean =>
	/(^|[/\\])\.[^/\\]+$|(\.tmp|\.part|\.partial|\.swp|\.lock|~)$/i.test(path);

const sleeping = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** The inbox's address from the bot's: `http://host:8080` and `http://host:8080/inbox` both give the latter. */
export function inboxUrl(url: string): URL {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw new UsageError(`--url "${url}" is not a URL: give the bot's address, e.g. http://bot.example.org:8080`);
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		throw new UsageError(`--url must be http:// or https://, not ${parsed.protocol}`);
	}
	if (!parsed.pathname.replace(/\/+$/, '').endsWith('/inbox')) {
		parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/inbox`;
	}
	return parsed;
}

interface Answer {
	readonly status: number;
	readonly message: string;
	readonly retryAfterMs?: number | undefined;
}

export function watchFolder(options: WatchOptions): Watching {
	const { io, token } = options;
	const send = options.fetch ?? fetch;
	const sleep = options.sleep ?? sleeping;
	const attempts = options.attempts ?? 10;
	const target = inboxUrl(options.url);
	const dir = resolve(options.dir);
	/** The contents sent (or refused for good) in this run, by SHA-256. */
	const done = new Set<string>();
	let queue: Promise<void> = Promise.resolve();
	let closed = false;

	const post = async (name: string, bytes: Buffer): Promise<Answer> => {
		const url = new URL(target);
		url.searchParams.set('name', name);
		const response = await send(url, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
			body: bytes,
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
		});
		const text = await response.text();
		let message = response.statusText;
		try {
			const body = JSON.parse(text) as { message?: unknown };
			if (typeof body.message === 'string') message = body.message;
		} catch {
			if (text.trim() !== '') message = text.trim().slice(0, 300);
		}
		const retryAfter = Number(response.headers.get('retry-after'));
		return {
			status: response.status,
			message,
			...(Number.isFinite(retryAfter) && retryAfter > 0 && { retryAfterMs: retryAfter * 1000 }),
		};
	};

	const deliver = async (path: string): Promise<void> => {
		const name = basename(path);
		let bytes: Buffer;
		try {
			bytes = await readFile(path);
		} catch (error) {
			io.err(`${name}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})\n`);
			return;
		}
		const hash = createHash('sha256').update(bytes).digest('hex');
		if (done.has(hash) || bytes.length === 0) return;
		let delay = FIRST_DELAY_MS;
		for (let attempt = 1; !closed; attempt++) {
			let answer: Answer | undefined;
			let failure = '';
			try {
				answer = await post(name, bytes);
			} catch (error) {
				failure = `could not reach the bot (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`;
			}
			if (answer !== undefined && (answer.status < 300 || answer.status === 409)) {
				done.add(hash);
				io.out(`${name}: ${answer.status} ${answer.message}\n`);
				return;
			}
			const retry = answer === undefined || answer.status === 429 || answer.status >= 500;
			if (answer !== undefined && !retry) {
				// The bot refused the file itself (401, 413, 422…): sending the same bytes again changes nothing.
				if (answer.status !== 401) done.add(hash);
				io.err(`${name}: ${answer.status} ${answer.message}\n`);
				return;
			}
			const why = answer === undefined ? failure : `${answer.status} ${answer.message}`;
			if (attempt >= attempts) {
				io.err(`${name}: gave up after ${attempts} attempts: ${why}\n`);
				return;
			}
			const wait = Math.max(delay, answer?.retryAfterMs ?? 0);
			io.err(`${name}: ${why}; trying again in ${Math.round(wait / 1000)} s\n`);
			await sleep(wait);
			delay = Math.min(delay * 2, MAX_DELAY_MS);
		}
	};

	const watcher: FSWatcher = watch(dir, {
		depth: 0,
		ignoreInitial: options.existing !== true,
		ignored: (path, stats) => path !== dir && (notAResult(path) || stats?.isDirectory() === true),
		awaitWriteFinish: { stabilityThreshold: options.stableMs ?? 1_000, pollInterval: 100 },
	});
	const seen = (path: string) => {
		queue = queue.then(() => deliver(path)).catch((error: unknown) => io.err(`${basename(path)}: ${String(error)}\n`));
	};
	watcher.on('add', seen);
	watcher.on('change', seen);
	watcher.on('error', (error) => io.err(`watching ${dir}: ${String(error)}\n`));
	const ready = new Promise<void>((done) => watcher.once('ready', () => done()));

	return {
		ready,
		idle: () => queue,
		async close() {
			closed = true;
			await watcher.close();
		},
	};
}

const options = {
	url: { type: 'string' },
	token: { type: 'string' },
	existing: { type: 'boolean' },
	attempts: { type: 'string' },
} as const;

const usage = `pitwall watch DIR --url URL [--token TOKEN] [--existing] [--attempts N]
  Sends each new result file of DIR (a sim server's results folder) to the league's results inbox.
  --url       the bot's address, e.g. http://bot.example.org:8080 (/inbox is added)
  --token     the league's inbox token (/league inbox token:new); or set PITWALL_INBOX_TOKEN
  --existing  also send the files already in DIR (files the bot has are answered 409 and skipped)
  --attempts  attempts per file on network errors, 5xx and 429, with a doubling delay up to 60 s (default 10)`;

/** Waits for SIGINT or SIGTERM. */
const stopSignal = () =>
	new Promise<string>((done) => {
		const stop = (signal: string) => {
			process.off('SIGINT', stop);
			process.off('SIGTERM', stop);
			done(signal);
		};
		process.on('SIGINT', stop);
		process.on('SIGTERM', stop);
	});

export default {
	name: 'watch',
	summary: "send each new result file of a sim server's results folder to the league's results inbox",
	usage,
	async run(argv: readonly string[], io: CliIo): Promise<number> {
		const { values, positionals } = parseCommandArgs(argv, options);
		noExtraPositionals(positionals, 1);
		const dir = positionals[0];
		if (dir === undefined) throw new UsageError('missing the folder to watch (DIR)');
		try {
			if (!statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a folder`);
		} catch (error) {
			if (error instanceof UsageError) throw error;
			throw new UsageError(`cannot watch ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
		}
		if (values.url === undefined) throw new UsageError('missing required option --url');
		const token = values.token ?? process.env['PITWALL_INBOX_TOKEN']?.trim();
		if (token === undefined || token === '') {
			throw new UsageError('missing the inbox token: --token, or the environment variable PITWALL_INBOX_TOKEN');
		}
		if (!/^pwi_[0-9a-f]{12}_[\w-]{43}$/.test(token)) {
			throw new UsageError('the token does not look like an inbox token (pwi_…): copy it again from /league inbox');
		}
		const attempts = values.attempts === undefined ? 10 : Number(values.attempts);
		if (!Number.isInteger(attempts) || attempts < 1 || attempts > 1000) {
			throw new UsageError(`--attempts must be a whole number from 1 to 1000, not "${values.attempts}"`);
		}
		const target = inboxUrl(values.url);
		const watching = watchFolder({ dir, url: values.url, token, existing: values.existing, attempts, io });
		await watching.ready;
		io.err(`watching ${resolve(dir)}: new files go to ${target.href} (Ctrl-C to stop)\n`);
		await stopSignal();
		await watching.close();
		return 0;
	},
} satisfies CliCommand;
