#!/usr/bin/env -S npx tsx
/**
 * `npm run migrate -- --from <STORE_URL> --to <STORE_URL> [--force]`: copies every league, with all
 * its records, from one store to another and verifies by reading back (src/storage/migrate-store.ts). Stop the bot
 * first. Exit code 0 done, 2 bad arguments or a refused target, 1 a failure (a store that stopped answering
 * mid-copy included), 3 a damaged SQLite store (as `npm start` and `npm run backup`).
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCommandArgs, required, UsageError } from './args.js';
import type { CliIo } from './command.js';
import { StoreError } from '../storage/keyv-store.js';
import { STORE_DAMAGED_EXIT_CODE, StoreIntegrityError } from '../storage/store-integrity-error.js';
import { StoreUnavailableError } from '../storage/store-unavailable-error.js';
import { migrateStore } from '../storage/migrate-store.js';
import type { Store } from '../storage/ports.js';
import { serverName } from '../storage/server-name.js';
import { openStore, parseStoreUrl } from '../storage/store-url.js';

const USAGE = 'usage: npm run migrate -- --from <STORE_URL> --to <STORE_URL> [--force]\n';

/** A store URL for the terminal: the path of a file, host:port/db of a server (never a password). */
const shown = (url: string): string => {
	const target = parseStoreUrl(url);
	return target.kind === 'sqlite' ? `sqlite ${target.path}` : `${target.kind} ${serverName(url)}`;
};

export async function migrate(argv: readonly string[], io: CliIo): Promise<number> {
	let opened: Store[] = [];
	try {
		const { values } = parseCommandArgs(argv, {
			from: { type: 'string' },
			to: { type: 'string' },
			force: { type: 'boolean', default: false },
			help: { type: 'boolean', default: false },
		});
		if (values.help) {
			io.out(USAGE);
			return 0;
		}
		const from = required(values.from, 'from');
		const to = required(values.to, 'to');
		if (parseStoreUrl(from).kind === 'memory' || parseStoreUrl(to).kind === 'memory') {
			throw new UsageError('memory:// lives only inside one process: migrate between sqlite, postgresql and redis');
		}
		if (from === to) throw new UsageError('--from and --to are the same store');
		const onError = (error: unknown) =>
			io.err(`store error: ${error instanceof Error ? error.message : String(error)}\n`);
		const source = await openStore(from, onError);
		opened.push(source);
		const target = await openStore(to, onError);
		opened.push(target);
		const started = performance.now();
		const report = await migrateStore(source, target, {
			force: values.force,
			progress: (name, count) => io.out(`  ${name}: ${count}\n`),
		});
		const seconds = ((performance.now() - started) / 1000).toFixed(1);
		io.out(
			`copied ${report.leagues} ${report.leagues === 1 ? 'league' : 'leagues'} (${report.total} records) from ${shown(from)} to ${shown(to)} in ${seconds} s; ` +
				'every record read back equal\n',
		);
		return 0;
	} catch (error) {
		const refused = error instanceof UsageError || error instanceof StoreError;
		const message = error instanceof Error ? error.message : String(error);
		if (error instanceof StoreUnavailableError) {
			// A server that stopped answering or a read-only file, mid-copy: the source is only ever read, the target
			// may hold part of the copy, which a run with --force completes.
			io.err(
				`migrate: a store failed during the copy: ${message}. The source is unchanged; the target may hold part ` +
					'of the copy: run again with --force once both stores answer\n',
			);
			return 1;
		}
		if (error instanceof StoreIntegrityError) {
			io.err(`migrate: ${message}\n`);
			return STORE_DAMAGED_EXIT_CODE;
		}
		io.err(`migrate: ${message}\n`);
		if (error instanceof UsageError) io.err(USAGE);
		return refused ? 2 : 1;
	} finally {
		await Promise.all(opened.map((store) => store.close()));
		opened = [];
	}
}

const invokedAs = process.argv[1];
if (invokedAs !== undefined && realpathSync(invokedAs) === fileURLToPath(import.meta.url)) {
	const io: CliIo = { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };
	process.exitCode = await migrate(process.argv.slice(2), io);
}
