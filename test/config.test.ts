import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, loadDotEnv, parseConfig } from '../src/config.js';

const valid = {
	DISCORD_TOKEN: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB',
	DISCORD_APP_ID: '123456789012345678',
};

function problems(env: Record<string, string | undefined>): readonly string[] {
	try {
		parseConfig(env);
	} catch (error) {
		if (error instanceof ConfigError) return error.problems;
		throw error;
	}
	throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
	it('fills defaults and freezes the result', () => {
		const config = parseConfig(valid);
		expect(config).toEqual({
			...valid,
			DISCORD_API_URL: 'https://discord.com/api',
			STORE_URL: 'sqlite://data/pitwall.sqlite',
			LOG_LEVEL: 'info',
			NODE_ENV: 'development',
			// The HTTP server is off (no HTTP_PORT); its other settings have their defaults.
			HTTP_HOST: '127.0.0.1',
			INBOX_MAX_BYTES: 8 * 1024 * 1024,
			INBOX_RATE_LIMIT: 30,
		});
		expect(Object.isFrozen(config)).toBe(true);
	});

	it('reads every variable, trimming, lower-casing the log level and dropping a trailing slash', () => {
		const config = parseConfig({
			...valid,
			DEV_GUILD_ID: ' 223456789012345678 ',
			DISCORD_API_URL: 'http://127.0.0.1:3000/api/',
			STORE_URL: 'redis://localhost:6379',
			LOG_LEVEL: 'DEBUG',
			NODE_ENV: 'production',
		});
		expect(config).toMatchObject({
			DEV_GUILD_ID: '223456789012345678',
			DISCORD_API_URL: 'http://127.0.0.1:3000/api',
			STORE_URL: 'redis://localhost:6379',
			LOG_LEVEL: 'debug',
			NODE_ENV: 'production',
		});
	});

	it.each(['memory://', 'SQLITE://data/x.sqlite', 'postgresql://u@db/pitwall', 'rediss://cache:6380'])(
		'accepts STORE_URL=%s (the schemes src/storage reads)',
		(url) => expect(parseConfig({ ...valid, STORE_URL: url }).STORE_URL).toBe(url),
	);

	it('treats blank values (as copied from .env.example) as unset', () => {
		const config = parseConfig({ ...valid, DEV_GUILD_ID: '', DISCORD_API_URL: '  ', LOG_LEVEL: '' });
		expect(config.DEV_GUILD_ID).toBeUndefined();
		expect(config.DISCORD_API_URL).toBe('https://discord.com/api');
		expect(config.LOG_LEVEL).toBe('info');
	});

	it('reports every missing required variable at once', () => {
		expect(problems({})).toEqual([
			expect.stringMatching(/^DISCORD_TOKEN is not set/),
			expect.stringMatching(/^DISCORD_APP_ID is not set/),
		]);
		expect(problems({ DISCORD_TOKEN: '', DISCORD_APP_ID: valid.DISCORD_APP_ID })).toEqual([
			expect.stringMatching(/^DISCORD_TOKEN is not set/),
		]);
	});

	const bad: [variable: string, value: string, message: RegExp][] = [
		['DISCORD_TOKEN', 'Bot abc.def.ghi', /^DISCORD_TOKEN does not look like a bot token/],
		['DISCORD_TOKEN', 'justonepart', /^DISCORD_TOKEN does not look like a bot token/],
		['DISCORD_APP_ID', 'my-app', /^DISCORD_APP_ID must be a Discord id/],
		['DEV_GUILD_ID', '42', /^DEV_GUILD_ID must be a Discord id/],
		['DISCORD_API_URL', 'not a url', /^DISCORD_API_URL must be an http\(s\) URL/],
		['DISCORD_API_URL', 'ftp://example.com/api', /^DISCORD_API_URL must be an http\(s\) URL/],
		['DISCORD_API_URL', 'https://discord.com/api/v10', /^DISCORD_API_URL must not end in a version/],
		['STORE_URL', 'mysql://db/pitwall', /^STORE_URL must look like <scheme>:\/\/<location>/],
		['STORE_URL', 'data/pitwall.sqlite', /^STORE_URL must look like <scheme>:\/\/<location>/],
		['STORE_URL', 'sqlite://', /^STORE_URL sqlite:\/\/ needs a file path/],
		['LOG_LEVEL', 'verbose', /^LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent/],
		['NODE_ENV', 'staging', /^NODE_ENV must be development, production or test/],
		['HTTP_PORT', 'http', /^HTTP_PORT must be a TCP port from 1 to 65535 \(0: any free port/],
		['HTTP_PORT', '65536', /^HTTP_PORT must be a TCP port from 1 to 65535/],
		['HTTP_PORT', '80.5', /^HTTP_PORT must be a TCP port from 1 to 65535/],
		['HTTP_PUBLIC_URL', 'bot.example.org', /^HTTP_PUBLIC_URL must be an http\(s\) URL/],
		['INBOX_MAX_BYTES', '8MiB', /^INBOX_MAX_BYTES must be a size in bytes from 1024 to 67108864/],
		['INBOX_MAX_BYTES', '100', /^INBOX_MAX_BYTES must be a size in bytes from 1024 to 67108864/],
		['INBOX_RATE_LIMIT', '0', /^INBOX_RATE_LIMIT must be a number of files per minute from 1 to 10000/],
	];

	it('reads the HTTP server’s settings', () => {
		expect(
			parseConfig({
				...valid,
				HTTP_PORT: '8080',
				HTTP_HOST: '0.0.0.0',
				HTTP_PUBLIC_URL: 'https://pitwall.example.org/',
				INBOX_MAX_BYTES: '1048576',
				INBOX_RATE_LIMIT: '10',
			}),
		).toMatchObject({
			HTTP_PORT: 8080,
			HTTP_HOST: '0.0.0.0',
			HTTP_PUBLIC_URL: 'https://pitwall.example.org',
			INBOX_MAX_BYTES: 1_048_576,
			INBOX_RATE_LIMIT: 10,
		});
		expect(parseConfig({ ...valid, HTTP_PORT: '0' }).HTTP_PORT).toBe(0);
	});
	it.each(bad)('%s=%j gives its own message', (variable, value, message) => {
		const found = problems({ ...valid, [variable]: value });
		expect(found).toHaveLength(1);
		expect(found[0]).toMatch(message);
	});

	it('lists all problems in the error message, one per line', () => {
		const error = (() => {
			try {
				parseConfig({ DISCORD_APP_ID: 'x', LOG_LEVEL: 'loud' });
			} catch (caught) {
				return caught as Error;
			}
			throw new Error('expected a ConfigError');
		})();
		expect(error.message.split('\n')).toHaveLength(4);
		expect(error.message).toMatch(/^invalid configuration:\n {2}- DISCORD_TOKEN is not set/);
	});
});

describe('loadDotEnv', () => {
	const keys = ['PITWALL_TEST_FROM_FILE', 'PITWALL_TEST_BOTH'];
	afterEach(() => {
		for (const key of keys) delete process.env[key];
	});

	it('loads a .env file without overriding variables already set', () => {
		const dir = mkdtempSync(join(tmpdir(), 'pitwall-env-'));
		onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
		writeFileSync(join(dir, '.env'), 'PITWALL_TEST_FROM_FILE=file\nPITWALL_TEST_BOTH=file\n');
		process.env['PITWALL_TEST_BOTH'] = 'environment';
		loadDotEnv(join(dir, '.env'));
		expect(process.env['PITWALL_TEST_FROM_FILE']).toBe('file');
		expect(process.env['PITWALL_TEST_BOTH']).toBe('environment');
	});

	it('does nothing when the file is absent', () => {
		expect(() => loadDotEnv(join(tmpdir(), 'pitwall-no-such-dir', '.env'))).not.toThrow();
	});
});
