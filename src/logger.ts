/**
 * Structured logging with pino, context first: `log.info({ cmd, guildId, userId }, 'msg')` (STYLE.md 20).
 * JSON lines in production; pino-pretty lines in development on a terminal. `write` sends each line to a
 * collector instead of stdout (tests). Every logged error (`{ err }`, or an Error as the first argument) goes through
 * one redaction, src/log-redaction.ts: no token and no request body in the log.
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pino, type DestinationStream } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { LogLevel } from './config.js';
import { serializeError } from './log-redaction.js';

/** The subset of pino's logger the app uses (so handlers and tests can pass any compatible logger). */
export interface LogFn {
	(context: object, message: string): void;
	(message: string): void;
}

export interface Logger {
	readonly trace: LogFn;
	readonly debug: LogFn;
	readonly info: LogFn;
	readonly warn: LogFn;
	readonly error: LogFn;
	readonly fatal: LogFn;
	child(bindings: object): Logger;
}

export interface LoggerOptions {
	readonly level: LogLevel;
	/** Human-readable lines instead of JSON (development only). */
	readonly pretty?: boolean;
	/** Where lines go (default: stdout). Tests pass a collector; each call receives one line without its newline. */
	readonly write?: (line: string) => void;
	/** Strings never to log (the bot token), replaced by `:token` in logged errors. */
	readonly secrets?: readonly string[];
}

function destination(options: LoggerOptions): DestinationStream {
	const collector = options.write;
	if (options.pretty) {
		const sink =
			collector &&
			new Writable({
				write(chunk: Buffer, _encoding, done) {
					for (const line of chunk
						.toString('utf8')
						.replace(/\n$/, '')
						.split(/\n(?=\S)/))
						collector(line);
					done();
				},
			});
		// Loaded only for pretty lines: a development package (devDependencies), and a megabyte the bot need not hold.
		const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
		return pretty({
			sync: true,
			colorize: false,
			translateTime: 'HH:MM:ss.l',
			ignore: 'pid,hostname',
			singleLine: true,
			...(sink && { destination: sink }),
		});
	}
	if (collector) return { write: (chunk: string) => collector(chunk.replace(/\n$/, '')) };
	return pino.destination({ dest: 1, sync: false });
}

export function createLogger(options: LoggerOptions): Logger {
	const secrets = options.secrets ?? [];
	const err = (error: unknown) => serializeError(error, secrets);
	return pino({ level: options.level, serializers: { err, error: err } }, destination(options));
}
