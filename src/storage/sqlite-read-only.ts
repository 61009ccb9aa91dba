import { accessSync, constants } from 'node:fs';
import { copyFile, mkdtemp, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { StoreError } from './keyv-store.js';
import type { Store } from './ports.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

/**
 * A SQLite database made read-only under a running process (`chattr +i` on the file, its -wal and -shm, or a
 * read-only remount). SQLite maps the -shm file (the WAL index) into memory and writes to it in every transaction,
 * reads included (a read takes a read mark); on a page of an immutable file the kernel answers that write with
 * SIGBUS (ext4's page_mkwrite refuses immutable inodes) and the process dies, 51 ms after the chattr in the report.
 * No SQLite setting avoids the mapping for a database shared by several processes (`locking_mode=EXCLUSIVE` keeps the
 * WAL index in the heap, but locks every other process out: shards, `npm run backup`), and a second, read-only
 * connection in the same process shares the same mapping (SQLite keeps one per inode per process; tried: SIGBUS too).
 *
 * So the store looks before every operation (`access(W_OK)` on the three files: about a microsecond each; root is
 * refused too on an immutable file) and, while any of them cannot be written, never touches its connection again:
 * writes are refused (StoreReadOnlyError), and reads are answered from a copy of the database and its WAL taken when
 * the store became read-only (nothing can change it meanwhile) in the temporary directory, a separate file with its
 * own WAL index. Once the files are writable again, the store's own connection serves everything again.
 *
 * Left open: a chattr landing between the look and SQLite's next write into the mapping (the time one SQLite call
 * takes) still ends with SIGBUS; before, any operation after it did.
 */

export interface ReadOnlyFallback {
	/** The copy serving reads while the files cannot be written; undefined while they can. */
	reader(): Promise<Store | undefined>;
	/** Removes the copies; the database's own descriptor stays open until `release`. */
	close(): Promise<void>;
	/** Closes the descriptor the copies were read through: only after SQLite's connection has closed. */
	release(): Promise<void>;
}

/** The database's files this process cannot write, each with the reason (`EPERM`, `EROFS`, `EACCES`). */
export function unwritableFiles(path: string): string[] {
	const out: string[] = [];
	for (const file of [path, `${path}-wal`, `${path}-shm`]) {
		try {
			accessSync(file, constants.W_OK);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code !== 'ENOENT') out.push(`${basename(file)} (${code})`); // a missing -wal is recreated by SQLite
		}
	}
	return out;
}

/** How long a copy that stopped serving is kept for reads still running on it. */
const RETIRE_MS = 5000;

export function createReadOnlyFallback(
	path: string,
	openCopy: (file: string) => Promise<Store>,
	onError: (error: unknown) => void,
): ReadOnlyFallback {
	let copy: Promise<{ store: Store; dir: string }> | undefined;
	/**
	 * The database is read through one descriptor opened once and closed only after SQLite's connection (`release`):
	 * closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's included
	 * (sqlite.org/howtocorrupt.html §2.2), so a `copyFile` of the database would leave the connection unlocked.
	 */
	let database: Promise<FileHandle> | undefined;
	const readDatabase = async () => {
		database ??= open(path, 'r');
		const handle = await database;
		const { size } = await handle.stat();
		const bytes = Buffer.alloc(size);
		for (let at = 0; at < size;) {
			const { bytesRead } = await handle.read(bytes, at, size - at, at);
			if (bytesRead === 0) break;
			at += bytesRead;
		}
		return bytes;
	};
	/** Copies no longer serving, kept RETIRE_MS for reads still running on them (close removes them at once). */
	const retiring = new Set<Promise<{ store: Store; dir: string }>>();
	const retire = (old: Promise<{ store: Store; dir: string }>) =>
		old.then(
			async ({ store, dir }) => {
				await store.close().catch(() => {});
				await rm(dir, { recursive: true, force: true });
			},
			() => {},
		);
	const makeCopy = async (files: string[]) => {
		const dir = await mkdtemp(join(tmpdir(), 'pitwall-read-only-'));
		try {
			const to = join(dir, basename(path));
			await writeFile(to, await readDatabase());
			await copyFile(`${path}-wal`, `${to}-wal`).catch((error: NodeJS.ErrnoException) => {
				if (error.code !== 'ENOENT') throw error;
			});
			const store = await openCopy(to);
			onError(
				new StoreError(
					`the database ${path} is read-only (${files.join(', ')} cannot be written): writes are refused; ` +
						`reads are answered from a copy in ${dir} until it is writable again`,
				),
			);
			return { store, dir };
		} catch (error) {
			await rm(dir, { recursive: true, force: true });
			throw error;
		}
	};
	return {
		async reader() {
			const files = unwritableFiles(path);
			if (files.length === 0) {
				if (copy !== undefined) {
					const old = copy;
					copy = undefined;
					retiring.add(old);
					setTimeout(() => void (retiring.delete(old) && retire(old)), RETIRE_MS).unref();
				}
				return undefined;
			}
			copy ??= makeCopy(files);
			try {
				return (await copy).store;
			} catch (error) {
				copy = undefined; // the next operation tries again
				throw new StoreUnavailableError(
					`the database ${path} is read-only and no copy for reads could be made: ${(error as Error).message}`,
					'no',
					{ cause: error },
				);
			}
		},
		async close() {
			const all = [...retiring, ...(copy === undefined ? [] : [copy])];
			retiring.clear();
			copy = undefined;
			await Promise.all(all.map(retire));
		},
		async release() {
			const handle = database;
			database = undefined;
			await (await handle?.catch(() => undefined))?.close();
		},
	};
}
