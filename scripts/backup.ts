/**
 * `npm run backup [-- --to <path>]`: an online backup of the SQLite store at STORE_URL (the environment or .env;
 * default sqlite://data/pitwall.sqlite), safe while the bot runs (src/storage/sqlite-backup.ts). Without --to, the
 * copy goes to backups/<name>-<UTC time>.sqlite beside the database. Exit codes: 0 done, 2 bad arguments or
 * STORE_URL, 3 the store or the copy is damaged or missing. Restore: docs/storage.md, "Backup and restore".
 */
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadDotEnv } from '../src/config.js';
import { backupSqliteStore } from '../src/storage/sqlite-backup.js';
import { STORE_DAMAGED_EXIT_CODE, StoreIntegrityError } from '../src/storage/store-integrity-error.js';
import { DEFAULT_STORE_URL, parseStoreUrl } from '../src/storage/store-url.js';

async function backup(argv: string[]): Promise<number> {
	const fail = (text: string, code: number) => (process.stderr.write(`pitwall backup: ${text}\n`), code);
	let to: string | undefined;
	try {
		to = parseArgs({ args: argv, options: { to: { type: 'string' } } }).values.to;
	} catch (error) {
		return fail(`${(error as Error).message} (usage: npm run backup [-- --to <path>])`, 2);
	}
	loadDotEnv();
	let target;
	try {
		target = parseStoreUrl(process.env['STORE_URL'] ?? DEFAULT_STORE_URL);
	} catch (error) {
		return fail((error as Error).message, 2);
	}
	if (target.kind !== 'sqlite' || target.path === ':memory:') {
		return fail(
			`STORE_URL is ${target.kind}: this backup is for SQLite files (PostgreSQL: pg_dump; Redis: its RDB/AOF)`,
			2,
		);
	}
	const stamp = new Date().toISOString().replace(/[:.]/g, '-');
	const destination =
		to ?? join(dirname(target.path), 'backups', `${basename(target.path, '.sqlite')}-${stamp}.sqlite`);
	const started = performance.now();
	try {
		const done = await backupSqliteStore(target.path, destination);
		process.stdout.write(
			`pitwall backup: store ${done.storeId} (${target.path}) copied to ${done.to}: ${done.events} events, ` +
				`${(done.bytes / 1e6).toFixed(1)} MB, quick_check ok, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
		);
		return 0;
	} catch (error) {
		if (error instanceof StoreIntegrityError) return fail(error.message, STORE_DAMAGED_EXIT_CODE);
		throw error;
	}
}

process.exitCode = await backup(process.argv.slice(2));
