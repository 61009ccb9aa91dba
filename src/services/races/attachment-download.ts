/**
 * Downloads a user's attachment (`/race submit file:`, `/league import file:`) with a time limit and a size limit
 *. The attachment's declared size is checked by the caller before this; here the server's
 * Content-Length is checked before the body, and the bytes are counted as they arrive, so a body that says nothing
 * (chunked) or lies is cut off at the limit instead of being read whole. A server that stalls, before its headers or
 * half-way through the body, is given up after `timeoutMs`. Every failure is a refusal that says what happened.
 */
import { refused, UserFacingError } from '../errors.js';

export const DOWNLOAD_TIMEOUT_MS = 15_000;

export interface DownloadLimits {
	/** Largest body accepted, in bytes. */
	readonly maxBytes: number;
	/** Longest the whole download (headers and body) may take (default DOWNLOAD_TIMEOUT_MS). */
	readonly timeoutMs?: number;
}

/** A size for people: KiB under a MiB, else MiB to one decimal, rounded up (a file just over never reads as the limit). */
export function sizeText(bytes: number): string {
	return bytes >= 1024 * 1024
		? `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MiB`
		: `${Math.ceil(bytes / 1024)} KiB`;
}

const tooLarge = (maxBytes: number) =>
	refused('file-too-large', `The file is larger than ${sizeText(maxBytes)}. Nothing was stored.`);

export async function downloadAttachment(url: string, limits: DownloadLimits): Promise<Uint8Array> {
	const timeoutMs = limits.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
	const signal = AbortSignal.timeout(timeoutMs);
	try {
		return await download(url, limits.maxBytes, signal);
	} catch (error) {
		if (error instanceof UserFacingError) throw error;
		// The timeout aborts fetch() or the body's reader with a TimeoutError; anything else is the network.
		if (signal.aborted) {
			throw refused(
				'file-download-timeout',
				`The file took too long to download (over ${timeoutMs / 1000} s). Try again. Nothing was stored.`,
			);
		}
		if (error instanceof TypeError) {
			throw refused('file-unreachable', 'Could not download the file. Try again. Nothing was stored.');
		}
		throw error;
	}
}

async function download(url: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
	const response = await fetch(url, { signal });
	if (!response.ok) {
		await response.body?.cancel();
		throw refused('file-unreadable', `Could not download the file (HTTP ${response.status}).`);
	}
	const declared = Number(response.headers.get('content-length') ?? NaN);
	if (declared > maxBytes) {
		await response.body?.cancel();
		throw tooLarge(maxBytes);
	}
	if (!response.body) return new Uint8Array();
	const reader = (response.body as ReadableStream<Uint8Array>).getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > maxBytes) {
			// Cancelling the reader closes the connection: the rest is never downloaded.
			await reader.cancel();
			throw tooLarge(maxBytes);
		}
		chunks.push(value);
	}
	const bytes = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, at);
		at += chunk.byteLength;
	}
	return bytes;
}
