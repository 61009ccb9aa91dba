/**
 * The bot's configuration: ONE zod schema over the environment, parsed once at start into a frozen typed object
 * (STYLE.md 18). Every missing or bad variable yields its own message; `loadConfig()` throws a ConfigError listing
 * all of them, so the operator fixes everything in one go. Variables are documented in .env.example.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
const STORE_SCHEMES = ['sqlite', 'postgres', 'postgresql', 'redis', 'rediss', 'memory'] as const;

/** Blank values (e.g. `DEV_GUILD_ID=` copied from .env.example) count as unset; other values are trimmed. */
function blankAsUnset(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const trimmed = value.trim();
	return trimmed === '' ? undefined : trimmed;
}

/** The scheme of a `<scheme>://…` URL, lower-cased (the same reading as src/storage/store-url.ts). */
function storeScheme(url: string): string | undefined {
	return /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
}

function setting<T extends z.ZodType>(schema: T) {
	return z.preprocess(blankAsUnset, schema);
}

const MIB = 1024 * 1024;

/** A whole number from `min` to `max`, given as text in the environment. */
function wholeNumber(name: string, min: number, max: number, what: string) {
	return z.coerce
		.number({ error: `${name} must be ${what}.` })
		.refine((n) => Number.isInteger(n) && n >= min && n <= max, `${name} must be ${what}.`);
}

function snowflake(name: string, missing: string) {
	return z
		.string({ error: `${name} is not set: ${missing}` })
		.regex(/^\d{17,20}$/, `${name} must be a Discord id (17 to 20 digits), e.g. 123456789012345678`);
}

const configSchema = z.object({
	DISCORD_TOKEN: setting(
		z
			.string({ error: 'DISCORD_TOKEN is not set: the bot token from the Discord developer portal (Bot tab).' })
			.regex(
				/^[\w-]+\.[\w-]+\.[\w-]+$/,
				'DISCORD_TOKEN does not look like a bot token (three dot-separated parts, without a "Bot " prefix).',
			),
	),
	DISCORD_APP_ID: setting(
		snowflake('DISCORD_APP_ID', 'the application id from the Discord developer portal (General Information).'),
	),
	DEV_GUILD_ID: setting(snowflake('DEV_GUILD_ID', '').optional()),
	DISCORD_API_URL: setting(
		z
			.url({
				protocol: /^https?$/,
				error: 'DISCORD_API_URL must be an http(s) URL such as https://discord.com/api.',
			})
			.refine(
				(url) => !/\/v\d+\/?$/.test(url),
				'DISCORD_API_URL must not end in a version (/v10 is added by discord.js).',
			)
			.transform((url) => url.replace(/\/+$/, ''))
			.default('https://discord.com/api'),
	),
	STORE_URL: setting(
		z
			.string()
			.refine(
				(url) => STORE_SCHEMES.includes(storeScheme(url) as (typeof STORE_SCHEMES)[number]),
				`STORE_URL must look like <scheme>://<location> with scheme one of ${STORE_SCHEMES.join(', ')}.`,
			)
			.refine(
				(url) => storeScheme(url) !== 'sqlite' || url.length > 'sqlite://'.length,
				'STORE_URL sqlite:// needs a file path, e.g. sqlite://data/pitwall.sqlite.',
			)
			.default('sqlite://data/pitwall.sqlite'),
	),
	LOG_LEVEL: setting(
		z
			.string()
			.transform((level) => level.toLowerCase())
			.pipe(z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}.` }))
			.default('info'),
	),
	NODE_ENV: setting(
		z
			.enum(['development', 'production', 'test'], {
				error: 'NODE_ENV must be development, production or test.',
			})
			.default('development'),
	),
	// The bot's own HTTP server (src/http/): the results inbox now, the league's web pages next. Off unless HTTP_PORT
	// is set (docs/results-inbox.md).
	HTTP_HOST: setting(z.string().default('127.0.0.1')),
	HTTP_PORT: setting(
		wholeNumber('HTTP_PORT', 0, 65_535, 'a TCP port from 1 to 65535 (0: any free port, printed in the log)').optional(),
	),
	/** The address organizers send files to, as the `/league inbox` answer shows it (default http://HTTP_HOST:port). */
	HTTP_PUBLIC_URL: setting(
		z
			.url({ protocol: /^https?$/, error: 'HTTP_PUBLIC_URL must be an http(s) URL such as https://bot.example.org.' })
			.transform((url) => url.replace(/\/+$/, ''))
			.optional(),
	),
	INBOX_MAX_BYTES: setting(
		wholeNumber('INBOX_MAX_BYTES', 1024, 64 * MIB, 'a size in bytes from 1024 to 67108864 (64 MiB)').default(8 * MIB),
	),
	INBOX_RATE_LIMIT: setting(
		wholeNumber('INBOX_RATE_LIMIT', 1, 10_000, 'a number of files per minute from 1 to 10000').default(30),
	),
});

export type Config = Readonly<z.infer<typeof configSchema>>;
export type LogLevel = Config['LOG_LEVEL'];

/** Raised when the environment does not make a valid configuration: one message per bad variable. */
export class ConfigError extends Error {
	constructor(readonly problems: readonly string[]) {
		super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
		this.name = 'ConfigError';
	}
}

/** Parses an environment (process.env or a test's plain object) into a frozen Config, or throws ConfigError. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
	const result = configSchema.safeParse(env);
	if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message));
	return Object.freeze(result.data);
}

/** Loads `.env` into process.env if the file exists; variables already set in the environment win. */
export function loadDotEnv(path = '.env'): void {
	if (existsSync(path)) process.loadEnvFile(path);
}

let loaded: Config | undefined;

/** The process's configuration: `.env` + environment, parsed once (later calls return the same frozen object). */
export function loadConfig(): Config {
	if (!loaded) {
		loadDotEnv();
		loaded = parseConfig(process.env);
	}
	return loaded;
}

/** The settings the local console (no token) reads: the same schema and defaults, without the Discord variables. */
export type LocalConfig = Readonly<Pick<Config, 'STORE_URL' | 'LOG_LEVEL' | 'NODE_ENV' | HttpSetting>>;

/** The HTTP server's settings (src/http/), read by the bot and the console alike. */
export type HttpSetting = 'HTTP_HOST' | 'HTTP_PORT' | 'HTTP_PUBLIC_URL' | 'INBOX_MAX_BYTES' | 'INBOX_RATE_LIMIT';

export function parseLocalConfig(env: Readonly<Record<string, string | undefined>>): LocalConfig {
	const result = configSchema
		.pick({
			STORE_URL: true,
			LOG_LEVEL: true,
			NODE_ENV: true,
			HTTP_HOST: true,
			HTTP_PORT: true,
			HTTP_PUBLIC_URL: true,
			INBOX_MAX_BYTES: true,
			INBOX_RATE_LIMIT: true,
		})
		.safeParse(env);
	if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message));
	return Object.freeze(result.data);
}

/** `SHARDS=auto|N` (src/discord/shard-manager.ts). */
export type ShardsSetting = 'auto' | number;

/** Discord's maximum is far below this; a typo such as 1000000 is refused. */
const MAX_SHARDS = 4096;

/** SHARDS of the environment for the top process; undefined in a shard (or when unset: one process, no manager). */
export function shardsSetting(env: Readonly<Record<string, string | undefined>>): ShardsSetting | undefined {
	if (env['SHARDING_MANAGER'] !== undefined) return undefined;
	const value = env['SHARDS']?.trim();
	if (value === undefined || value === '') return undefined;
	if (value === 'auto') return 'auto';
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1 || n > MAX_SHARDS) {
		throw new ConfigError([`SHARDS must be auto or a whole number of shards from 1 to ${MAX_SHARDS}, not "${value}".`]);
	}
	return n;
}
