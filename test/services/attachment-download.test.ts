/**
 * The attachment download of `/race submit file:` and `/league import file:`: a server that
 * stalls is given up after a timeout, and a body larger than the limit is refused while it streams, whatever its
 * Content-Length says (here it says nothing: chunked), with a message that says which.
 */
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Attachment } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { readCsvAttachment } from '../../commands/race/submit.js';
import { UserFacingError } from '../../src/discord/errors.js';

const KIB = 1024;

interface Served {
	readonly url: (path: string) => string;
	/** Bytes of body written per path, and whether the client closed the connection before the end. */
	readonly sent: Map<string, { bytes: number; closedEarly: boolean }>;
}

const servers: Server[] = [];
const open = new Set<ServerResponse>();

async function serve(handler: (path: string, res: ServerResponse, count: (bytes: number) => void) => void) {
	const sent = new Map<string, { bytes: number; closedEarly: boolean }>();
	const server = createServer((req, res) => {
		const path = req.url ?? '/';
		const record = { bytes: 0, closedEarly: false };
		sent.set(path, record);
		open.add(res);
		res.on('close', () => {
			record.closedEarly = !res.writableFinished;
			open.delete(res);
		});
		handler(path, res, (bytes) => (record.bytes += bytes));
	});
	servers.push(server);
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	return { url: (path: string) => `http://127.0.0.1:${port}${path}`, sent } satisfies Served;
}

/** 64 MiB in 16 KiB chunks, or until the client goes away; chunked, so with no Content-Length. */
function endless(res: ServerResponse, count: (bytes: number) => void) {
	res.writeHead(200, { 'content-type': 'text/csv' });
	const chunk = Buffer.from('Alice,1\n'.repeat(2 * KIB));
	let left = 4 * KIB;
	const write = () => {
		if (res.destroyed) return;
		if (left-- === 0) return void res.end();
		count(chunk.length);
		if (res.write(chunk)) setImmediate(write);
		else res.once('drain', write);
	};
	write();
}

const attachment = (url: string, name = 'race.csv', size = 100) => ({ url, name, size }) as unknown as Attachment;

async function refusal(work: Promise<unknown>): Promise<UserFacingError> {
	const error: unknown = await work.then(
		() => undefined,
		(reason: unknown) => reason,
	);
	expect(error).toBeInstanceOf(UserFacingError);
	return error as UserFacingError;
}

afterEach(async () => {
	for (const res of open) res.destroy();
	open.clear();
	for (const server of servers.splice(0)) {
		server.closeAllConnections();
		server.close();
		await once(server, 'close');
	}
});

// Each test is bounded at 5 s: a download without a timeout would otherwise wait for vitest's 60 s.
describe('readCsvAttachment: timeout and size limit while streaming', { timeout: 5_000 }, () => {
	it('reads a small file', async () => {
		const server = await serve((_path, res) => res.end('player,position\nAlice,1\n'));
		const text = await readCsvAttachment(attachment(server.url('/ok.csv')), {
			maxBytes: 256 * KIB,
			what: 'scoreboard',
			timeoutMs: 2_000,
		});
		expect(text).toBe('player,position\nAlice,1\n');
	});

	it('a server that never answers is given up after the timeout', async () => {
		const server = await serve(() => undefined); // headers never come
		const started = performance.now();
		const error = await refusal(
			readCsvAttachment(attachment(server.url('/silent.csv')), {
				maxBytes: 256 * KIB,
				what: 'scoreboard',
				timeoutMs: 300,
			}),
		);
		expect(error.code).toBe('file-download-timeout');
		expect(error.message).toBe('The file took too long to download (over 0.3 s). Try again. Nothing was stored.');
		expect(performance.now() - started).toBeGreaterThanOrEqual(290);
	});

	it('a body that stalls half-way is given up after the timeout', async () => {
		const server = await serve((_path, res) => {
			res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '1000' });
			res.write('player,position\nAlice,1\n'); // then nothing more
		});
		const error = await refusal(
			readCsvAttachment(attachment(server.url('/stall.csv')), {
				maxBytes: 256 * KIB,
				what: 'scoreboard',
				timeoutMs: 300,
			}),
		);
		expect(error.code).toBe('file-download-timeout');
		await expect.poll(() => server.sent.get('/stall.csv')?.closedEarly).toBe(true);
	});

	it('a body past the limit is refused while it streams, not after: the download stops', async () => {
		const server = await serve((_path, res, count) => endless(res, count));
		const error = await refusal(
			readCsvAttachment(attachment(server.url('/endless.csv')), {
				maxBytes: 256 * KIB,
				what: 'scoreboard',
				timeoutMs: 10_000,
			}),
		);
		expect(error.code).toBe('file-too-large');
		expect(error.message).toBe('The file is larger than 256 KiB. Nothing was stored.');
		await expect.poll(() => server.sent.get('/endless.csv')?.closedEarly).toBe(true);
		// Socket buffers let some more through before the close is seen; far less than the 64 MiB on offer.
		expect(server.sent.get('/endless.csv')?.bytes).toBeLessThan(256 * KIB + 4 * 1024 * KIB);
	});

	it('a Content-Length over the limit is refused before the body is read', async () => {
		const server = await serve((_path, res, count) => {
			res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(2 * 1024 * KIB) });
			const chunk = Buffer.alloc(16 * KIB, 'x');
			count(chunk.length);
			res.write(chunk);
		});
		const error = await refusal(
			readCsvAttachment(attachment(server.url('/declared.csv')), {
				maxBytes: 256 * KIB,
				what: 'scoreboard',
				timeoutMs: 10_000,
			}),
		);
		expect(error.code).toBe('file-too-large');
		expect(server.sent.get('/declared.csv')?.bytes).toBe(16 * KIB);
	});

	it('an HTTP error and an unreachable host are refusals, not crashes', async () => {
		const server = await serve((_path, res) => {
			res.statusCode = 404;
			res.end('gone');
		});
		const limits = { maxBytes: 256 * KIB, what: 'scoreboard', timeoutMs: 2_000 };
		const missing = await refusal(readCsvAttachment(attachment(server.url('/missing.csv')), limits));
		expect(missing.message).toBe('Could not download the file (HTTP 404).');
		// A port nothing listens on: the one just closed.
		const closed = await serve(() => undefined);
		const url = closed.url('/x.csv');
		const last = servers.pop()!;
		last.close();
		await once(last, 'close');
		const unreachable = await refusal(readCsvAttachment(attachment(url), limits));
		expect(unreachable.code).toBe('file-unreachable');
		expect(unreachable.message).toBe('Could not download the file. Try again. Nothing was stored.');
	});
});
